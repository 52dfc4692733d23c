package cmd

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/dsh-replay/dsh-replay/cmd/cmdutil"
)

// Zstd logs not framed or windowed as upstream writes them, through the
// CLI (the test binary re-executed as dsh-replay).

func cliExec(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "DSH_REPLAY_AS_CLI=1")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

// zstdFrames is each part as its own frame (frame i with a window of
// 2^logs[i] bytes when logs[i] > 0, its descriptor raised as zstd
// --long=N on a pipe writes it).
func zstdFrames(t *testing.T, parts []string, logs []int) []byte {
	t.Helper()
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderCRC(true), zstd.WithSingleSegment(false))
	if err != nil {
		t.Fatal(err)
	}
	defer enc.Close()
	var out []byte
	for i, p := range parts {
		f := enc.EncodeAll([]byte(p), nil)
		if logs[i] > 0 {
			f[5] = byte(logs[i]-10) << 3
		}
		out = append(out, f...)
	}
	return out
}

func TestVerifyZstdNotUpstream(t *testing.T) {
	t.Parallel()
	plain, err := os.ReadFile(exampleLog)
	if err != nil {
		t.Fatal(err)
	}
	header, body, _ := strings.Cut(string(plain), "\n")
	header += "\n"
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	_, _, wantCode := cliExec(t, "verify", exampleLog)
	if wantCode != cmdutil.ExitOK {
		t.Fatalf("the example log: exit %d", wantCode)
	}
	oneFrame := write("one.jsonl.zstd", zstdFrames(t, []string{header + body}, []int{0}))
	long27 := write("long27.jsonl.zstd", zstdFrames(t, []string{header, body}, []int{0, 27}))
	long31 := write("long31.jsonl.zstd", zstdFrames(t, []string{header, body}, []int{0, 31}))

	// One frame: read, with a notice; --strict makes the notice fail.
	out, errs, code := cliExec(t, "verify", oneFrame)
	if code != cmdutil.ExitOK || !strings.Contains(out, "warning zstd-framing [log]: not upstream's framing: the whole log is one zstd frame") {
		t.Errorf("one frame: exit %d\n%s%s", code, out, errs)
	}
	if _, _, code := cliExec(t, "verify", "--strict", oneFrame); code != cmdutil.ExitDivergence {
		t.Errorf("one frame --strict: exit %d, want 1", code)
	}
	_, errs, code = cliExec(t, "show", "--no-pager", oneFrame)
	if code != cmdutil.ExitOK || !strings.Contains(errs, "dsh-replay: warning: "+oneFrame+":1: zstd-framing: not upstream's framing") {
		t.Errorf("show one frame: exit %d\n%s", code, errs)
	}
	// A 128 MiB window reads as upstream's framing does.
	if out, errs, code := cliExec(t, "verify", long27); code != cmdutil.ExitOK || strings.Contains(out, "warning") {
		t.Errorf("--long=27: exit %d\n%s%s", code, out, errs)
	}
	// A 2 GiB window is refused by name, not called corrupt.
	out, errs, code = cliExec(t, "verify", long31)
	if code != cmdutil.ExitCannot || !strings.Contains(out, "fatal zstd-window [log]: the zstd frame at compressed byte ") ||
		!strings.Contains(out, "needs a window of 2048 MiB, larger than 512 MiB") || strings.Contains(out, "corrupt") {
		t.Errorf("--long=31: exit %d\n%s%s", code, out, errs)
	}
}

// TestVerifyZstdTool: logs compressed by the zstd tool itself, by hand as
// one frame and with --long=27 (skips without the tool).
func TestVerifyZstdTool(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("zstd"); err != nil {
		t.Skip("zstd not installed")
	}
	dir := t.TempDir()
	for _, args := range [][]string{{"-q"}, {"-q", "--long=27"}, {"-q", "-19", "--long=31"}} {
		p := filepath.Join(dir, strings.Join(args, "")+".jsonl.zstd")
		if out, err := exec.Command("zstd", append(args, "-o", p, exampleLog)...).CombinedOutput(); err != nil {
			t.Fatalf("zstd %v: %v %s", args, err, out)
		}
		out, errs, code := cliExec(t, "verify", p)
		if code != cmdutil.ExitOK || !strings.Contains(out, "the whole log is one zstd frame") {
			t.Errorf("zstd %v: exit %d\n%s%s", args, code, out, errs)
		}
	}
}
