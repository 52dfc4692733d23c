// Package termquote makes names and messages safe to print on a terminal:
// a file name or call id that is not all printable is Go-quoted, so it
// cannot break a line, drive the terminal or hide in invalid UTF-8. Every
// sink that prints user-controlled text (log file names, call ids, tool
// names, operating system errors) goes through it.
package termquote
