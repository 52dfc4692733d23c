package report

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/dsh-replay/dsh-replay/internal/termquote"
	"github.com/dsh-replay/dsh-replay/replay"
)

// The commands a report prints are written here, and only here.

// How ShowCommand draws the call.
const (
	ShowRaw  = "--raw"  // the model-facing content, what a finding is about
	ShowFull = "--full" // the whole card
)

// ShowCommand is the `dsh-replay show` command for a log, or for one call
// of it (callID not empty) drawn as view says; args are the flags that make
// show project as the run did (--config FILE, --plugin PATH), quoted here.
func ShowCommand(file, callID, view string, args []string) string {
	cmd := "dsh-replay show " + ShellQuote(file)
	if callID != "" {
		cmd += " --call " + ShellQuote(callID) + " " + view
	}
	for _, a := range args {
		cmd += " " + ShellQuote(a)
	}
	return cmd
}

// findingCommand is the command that shows the call behind a finding, ""
// when nothing of dsh-replay's can show it.
func findingCommand(f *replay.Finding, args []string) string {
	if f.Class == replay.NotASessionLog || f.Class == replay.Unreadable {
		return ""
	}
	return ShowCommand(f.File, f.CallID, ShowRaw, args)
}

// ShellQuote quotes s for a POSIX shell; a word holding what a terminal
// must not get raw (control characters, invalid UTF-8) is written as
// $'...' with escapes (bash, zsh, ksh and POSIX.1-2024 sh read it).
func ShellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r == '/' || r == '.' || r == '_' || r == '-' || r == ':' || r == '+' || r == '=' || r == ',' || r == '@' || r == '%' ||
			r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	}) < 0 {
		return s
	}
	if termquote.QuoteName(s) != s {
		return dollarQuote(s)
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// dollarQuote is s as $'...': printable characters as they are (quote and
// backslash escaped), everything else byte by byte as \xHH.
func dollarQuote(s string) string {
	var b strings.Builder
	b.WriteString("$'")
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '\'' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == utf8.RuneError && n == 1 || !strconv.IsPrint(r):
			for j := i; j < i+n; j++ {
				fmt.Fprintf(&b, "\\x%02x", s[j])
			}
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	b.WriteByte('\'')
	return b.String()
}
