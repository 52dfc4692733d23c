package show

import (
	"bytes"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/dsh-replay/dsh-replay/cmd/cmdutil"
)

// TestShowOnTerminal: on a terminal (a test terminal, no pseudo-terminal)
// show takes the terminal's width and colours by default, drawing what
// --width and --color always draw; in a pipe it does not colour.
func TestShowOnTerminal(t *testing.T) {
	t.Setenv("NO_COLOR", "")
	t.Setenv("TERM", "xterm-256color")
	t.Setenv("COLUMNS", "")
	log := "../../testdata/show/fs.jsonl"
	run := func(stdout io.Writer, args ...string) {
		t.Helper()
		var errb bytes.Buffer
		if code := cmdutil.RunCommands(append([]string{"show"}, args...), strings.NewReader(""), stdout, &errb, NewCmd(&cmdutil.Factory{}, nil)); code != cmdutil.ExitOK {
			t.Fatalf("show %q: exit %d\n%s", args, code, errb.String())
		}
	}
	for _, width := range []int{60, 120} {
		var onTTY, plain bytes.Buffer
		run(&cmdutil.TestTerminal{Writer: &onTTY, T: cmdutil.Terminal{IsTTY: true, Width: width}}, log)
		run(&plain, "--width", strconv.Itoa(width), "--color", "always", log)
		if onTTY.String() != plain.String() {
			t.Errorf("width %d: a terminal of that width draws otherwise than --width %d --color always", width, width)
		}
		if !strings.Contains(onTTY.String(), "\x1b[") {
			t.Errorf("width %d: no colour on a terminal", width)
		}
	}
	var piped bytes.Buffer
	run(&piped, log)
	if strings.Contains(piped.String(), "\x1b[") || piped.Len() == 0 {
		t.Errorf("in a pipe: %d bytes, coloured: %v", piped.Len(), strings.Contains(piped.String(), "\x1b["))
	}
}
