package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/dsh-replay/dsh-replay/internal/benchgen"
	"github.com/dsh-replay/dsh-replay/projector"
)

// registry builds the tool ports (ports.go); nil when built with -tags noports.
var registry func() (*projector.Registry, error)

func main() {
	mb := flag.Int64("mb", 1024, "approximate plaintext size in MiB")
	out := flag.String("o", "", "output file (default stdout)")
	z := flag.Bool("zstd", false, "write chained zstd frames")
	frameKB := flag.Int("frame-kb", 1024, "plaintext per zstd batch frame in KiB")
	seed := flag.Uint64("seed", 1, "random seed")
	tpl := flag.Int("templates", 300, "distinct call templates")
	ports := flag.Bool("ports", true, "render result content and meta with the Go ports")
	format := flag.Int("format", 0, "session log format version: 0, 2, 3 or 4")
	flag.Parse()

	o := benchgen.Options{Bytes: *mb << 20, Seed: *seed, Zstd: *z, FrameBytes: *frameKB << 10, Templates: *tpl, Format: *format}
	if *ports && registry == nil {
		fmt.Fprintln(os.Stderr, "benchgen: built without the ports (-tags noports): plain text results, no meta")
	}
	if *ports && registry != nil {
		reg, err := registry()
		if err != nil {
			fmt.Fprintln(os.Stderr, "benchgen: registry:", err)
		} else {
			o.Registry = reg
		}
	}
	var w io.Writer = os.Stdout
	if *out != "" && *out != "-" {
		f, err := os.Create(*out)
		if err != nil {
			fmt.Fprintln(os.Stderr, "benchgen:", err)
			os.Exit(1)
		}
		defer f.Close()
		w = f
	}
	st, err := benchgen.Generate(w, o)
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchgen:", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "benchgen: %d bytes plaintext, %d written, %d lines, %d events, %d calls, %d turns\n",
		st.Bytes, st.Written, st.Lines, st.Events, st.Calls, st.Turns)
}
