// Package golden is `dsh-replay golden`: re-recording test logs from their
// values, card goldens, and the review of pending changes (per log or per
// call, on the command line or in the interactive reviewer).
package golden
