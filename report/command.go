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
	ShowRaw  = "--raw"  // the model-facing content
	ShowFull = "--full" // the whole card
	ShowDiff = "--diff" // both sides of a divergence: recorded, replayed, the value
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

// findingCommand is the command that shows the call behind a finding
// (both sides, for a call), "" when nothing of dsh-replay's can show it.
func findingCommand(f *replay.Finding, args []string) string {
	if f.Class == replay.NotASessionLog || f.Class == replay.Unreadable {
		return ""
	}
	return ShowCommand(f.File, f.CallID, ShowDiff, args)
}

// acceptCommands are the commands that accept what the projectors replayed
// for a finding re-recording fixes (content and meta that moved): golden
// update of the call, then golden review of the log. None for the other
// findings, which a port, a value or the log itself must fix.
func acceptCommands(f *replay.Finding, args []string) []string {
	if f.CallID == "" {
		return nil
	}
	switch f.Class {
	case replay.ContentMismatch, replay.MetaMismatch, replay.MetaMissing, replay.MetaUnexpected:
	default:
		return nil
	}
	update := "dsh-replay golden update " + ShellQuote(f.File) + " --call " + ShellQuote(f.CallID)
	for _, a := range args {
		update += " " + ShellQuote(a)
	}
	return []string{update, "dsh-replay golden review " + ShellQuote(f.File)}
}

// NextSteps are a finding's commands, each with what it is for: see both
// sides, accept the replayed output, review it.
func NextSteps(f *replay.Finding, args []string) []string {
	var out []string
	if cmd := findingCommand(f, args); cmd != "" {
		if f.CallID != "" {
			out = append(out, "see both sides: "+cmd)
		} else {
			out = append(out, "see the log: "+cmd)
		}
	}
	if acc := acceptCommands(f, args); acc != nil {
		out = append(out, "accept the replayed output: "+acc[0], "then review: "+acc[1])
	}
	return out
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
