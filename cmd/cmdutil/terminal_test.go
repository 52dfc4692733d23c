package cmdutil

import (
	"bytes"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/creack/pty"
	"github.com/muesli/termenv"
)

func TestTerminalOf(t *testing.T) {
	if got := TerminalOf(&bytes.Buffer{}); got != (Terminal{}) {
		t.Errorf("a buffer: %+v", got)
	}
	f, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if got := TerminalOf(f); got != (Terminal{}) || IsTerminal(f) || IsInteractive(f, f) {
		t.Errorf("a regular file: %+v", got)
	}
	if IsInteractive(strings.NewReader(""), &bytes.Buffer{}) {
		t.Error("a reader and a buffer are not interactive")
	}

	ptm, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	defer ptm.Close()
	defer tty.Close()
	if err := pty.Setsize(ptm, &pty.Winsize{Rows: 30, Cols: 90}); err != nil {
		t.Fatal(err)
	}
	if got := TerminalOf(tty); got != (Terminal{IsTTY: true, Width: 90, Height: 30}) {
		t.Errorf("a 90x30 terminal: %+v", got)
	}
	if !IsTerminal(tty) || !IsInteractive(tty, tty) {
		t.Error("a terminal on both ends is interactive")
	}
	if IsInteractive(strings.NewReader(""), tty) {
		t.Error("input from a reader is not interactive")
	}
}

// TestTestTerminal: a test terminal is what it says it is, for output and
// for a session, without a pseudo-terminal.
func TestTestTerminal(t *testing.T) {
	t.Parallel()
	term := Terminal{IsTTY: true, Width: 72, Height: 20}
	out := &TestTerminal{Writer: &bytes.Buffer{}, T: term}
	in := &TestTerminal{R: strings.NewReader("q"), T: term}
	for _, c := range []struct {
		name        string
		in          io.Reader
		out         io.Writer
		want        Terminal
		interactive bool
	}{
		{"terminal both ends", in, out, term, true},
		{"input from a reader", strings.NewReader(""), out, term, false},
		{"output to a buffer", in, &bytes.Buffer{}, Terminal{}, false},
		{"not a terminal", in, &TestTerminal{Writer: &bytes.Buffer{}}, Terminal{}, false},
	} {
		if got := TerminalOf(c.out); got != c.want {
			t.Errorf("%s: TerminalOf = %+v, want %+v", c.name, got, c.want)
		}
		if got := IsInteractive(c.in, c.out); got != c.interactive {
			t.Errorf("%s: IsInteractive = %v", c.name, got)
		}
	}
	b := make([]byte, 4)
	if n, _ := in.Read(b); string(b[:n]) != "q" {
		t.Errorf("read %q through the test terminal", b[:n])
	}
}

func TestOutputWidth(t *testing.T) {
	tty := Terminal{IsTTY: true, Width: 120}
	for _, c := range []struct {
		columns string
		flag    int
		t       Terminal
		want    int
	}{
		{"60", 80, tty, 80},          // the flag first
		{"60", 0, tty, 120},          // then a terminal's width
		{"60", 0, Terminal{}, 60},    // then $COLUMNS
		{"junk", 0, Terminal{}, 100}, // else the default
		{"", 0, Terminal{}, 100},
		{"-3", 0, Terminal{}, 100},
		{"10", 0, Terminal{}, 40},                     // never below least
		{"", 0, Terminal{IsTTY: true, Width: 20}, 40}, // a narrow terminal too
		{"70", 0, Terminal{IsTTY: true}, 70},          // a terminal of unknown size
		{"300000000", 0, Terminal{}, 500},             // never above most
		{"99999999999999999999999", 0, Terminal{}, 500},
		{"-99999999999999999999999", 0, Terminal{}, 100},
		{"", math.MaxInt, Terminal{}, 500},
		{"", 0, Terminal{IsTTY: true, Width: 1 << 20}, 500},
	} {
		t.Setenv("COLUMNS", c.columns)
		if got := OutputWidth(c.flag, c.t, 40, 500, 100); got != c.want {
			t.Errorf("COLUMNS=%q flag %d %+v: %d, want %d", c.columns, c.flag, c.t, got, c.want)
		}
	}
}

func TestUseColor(t *testing.T) {
	for _, c := range []struct {
		noColor, term, mode string
		tty, want           bool
	}{
		{"", "xterm", "auto", true, true},
		{"", "xterm", "auto", false, false},
		{"x", "xterm", "auto", true, false},
		{"", "dumb", "auto", true, false},
		{"x", "dumb", "always", false, true},
		{"", "xterm", "never", true, false},
	} {
		t.Setenv("NO_COLOR", c.noColor)
		t.Setenv("TERM", c.term)
		if got := UseColor(c.mode, c.tty); got != c.want {
			t.Errorf("NO_COLOR=%q TERM=%s --color %s tty %v: %v", c.noColor, c.term, c.mode, c.tty, got)
		}
		want := termenv.Ascii
		if c.want {
			want = termenv.ANSI
		}
		if got := ColorProfile(c.mode, c.tty); got != want {
			t.Errorf("NO_COLOR=%q TERM=%s --color %s tty %v: profile %v", c.noColor, c.term, c.mode, c.tty, got)
		}
	}
}

func TestPage(t *testing.T) {
	var out, errb bytes.Buffer
	t.Setenv("PAGER", "cat")
	if err := Page([]byte("one\ntwo\n"), &out, &errb); err != nil || out.String() != "one\ntwo\n" {
		t.Errorf("PAGER=cat: %q, %v (%s)", out.String(), err, errb.String())
	}
	// less gets -R through LESS unless the user set LESS.
	t.Setenv("PAGER", `printf %s "$LESS"`)
	t.Setenv("LESS", "")
	out.Reset()
	if err := Page(nil, &out, &errb); err != nil || out.String() != "R" {
		t.Errorf("LESS unset: %q, %v", out.String(), err)
	}
	t.Setenv("LESS", "FX")
	out.Reset()
	if err := Page(nil, &out, &errb); err != nil || out.String() != "FX" {
		t.Errorf("LESS=FX: %q, %v", out.String(), err)
	}
	t.Setenv("PAGER", "exit 3")
	if err := Page([]byte("x"), &out, &errb); err == nil {
		t.Error("a failing pager is an error (the caller prints the text itself)")
	}
}
