// Package termquote makes names and text safe to print on a terminal: a
// file name or call id that is not all printable is Go-quoted (QuoteName),
// so it cannot break a line, drive the terminal or hide in invalid UTF-8,
// and a line of log text has its controls, tabs and bidi overrides made
// visible (Sanitize). Every sink that prints user-controlled text (log file
// names, call ids, tool names, operating system errors) goes through it.
package termquote
