package cmdutil

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/term"
	"github.com/muesli/termenv"
)

// Terminal is what a command needs to know about a stream it writes to.
type Terminal struct {
	IsTTY         bool
	Width, Height int // 0 when unknown
}

// TerminalStream is a stream that says what terminal it is, so a test can
// give a command a terminal of a known size without a pseudo-terminal
// (TestTerminal).
type TerminalStream interface {
	Terminal() Terminal
}

// TestTerminal is a writer (or, with R set, a reader) that a command takes
// for a terminal described by T.
type TestTerminal struct {
	io.Writer
	R io.Reader
	T Terminal
}

func (t *TestTerminal) Terminal() Terminal { return t.T }

func (t *TestTerminal) Read(p []byte) (int, error) {
	if t.R == nil {
		return 0, io.EOF
	}
	return t.R.Read(p)
}

// TerminalOf describes w: what a TerminalStream says, else not a terminal
// unless it is a file on one.
func TerminalOf(w io.Writer) Terminal {
	if ts, ok := w.(TerminalStream); ok {
		return ts.Terminal()
	}
	f, ok := w.(interface{ Fd() uintptr })
	if !ok || !term.IsTerminal(f.Fd()) {
		return Terminal{}
	}
	t := Terminal{IsTTY: true}
	if wd, ht, err := term.GetSize(f.Fd()); err == nil {
		t.Width, t.Height = wd, ht
	}
	return t
}

// IsTerminal reports whether w is a terminal.
func IsTerminal(w io.Writer) bool { return TerminalOf(w).IsTTY }

// IsInteractive reports whether both ends of a session are a terminal.
func IsInteractive(in io.Reader, out io.Writer) bool {
	ti, ok1 := in.(TerminalStream)
	to, ok2 := out.(TerminalStream)
	if ok1 || ok2 {
		return ok1 && ok2 && ti.Terminal().IsTTY && to.Terminal().IsTTY
	}
	fi, ok1 := in.(interface{ Fd() uintptr })
	fo, ok2 := out.(interface{ Fd() uintptr })
	return ok1 && ok2 && term.IsTerminal(fi.Fd()) && term.IsTerminal(fo.Fd())
}

// OutputWidth picks a width: flag when set, else the terminal's, else
// $COLUMNS (so a pipe or a CI log can be sized), else def; never below
// least nor above most (a $COLUMNS past most, or past an int, is most).
func OutputWidth(flag int, t Terminal, least, most, def int) int {
	clamp := func(n int) int { return min(max(n, least), most) }
	if flag > 0 {
		return clamp(flag)
	}
	if t.IsTTY && t.Width > 0 {
		return clamp(t.Width)
	}
	s := strings.TrimSpace(os.Getenv("COLUMNS"))
	if n, err := strconv.Atoi(s); err == nil && n > 0 {
		return clamp(n)
	} else if errors.Is(err, strconv.ErrRange) && !strings.HasPrefix(s, "-") {
		return most
	}
	return def
}

// UseColor decides --color: always and never decide; auto colours a
// terminal unless NO_COLOR is set to anything non-empty (no-color.org) or
// TERM is dumb.
func UseColor(mode string, tty bool) bool {
	switch mode {
	case "always":
		return true
	case "never":
		return false
	}
	return tty && os.Getenv("NO_COLOR") == "" && os.Getenv("TERM") != "dumb"
}

// ColorProfile is the colour profile --color asks for: the 16 ANSI colours
// (which follow the terminal's own palette) when UseColor says yes, else
// none.
func ColorProfile(mode string, tty bool) termenv.Profile {
	if UseColor(mode, tty) {
		return termenv.ANSI
	}
	return termenv.Ascii
}

// Page pipes data through $PAGER (default "less -R").
func Page(data []byte, stdout, stderr io.Writer) error {
	pager := os.Getenv("PAGER")
	if strings.TrimSpace(pager) == "" {
		pager = "less -R"
	}
	cmd := exec.Command("sh", "-c", pager)
	cmd.Stdin = bytes.NewReader(data)
	cmd.Stdout = stdout
	cmd.Stderr = stderr
	if os.Getenv("LESS") == "" {
		cmd.Env = append(os.Environ(), "LESS=R")
	}
	return cmd.Run()
}
