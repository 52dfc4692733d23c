package cards

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/logformat"
	"github.com/dsh-replay/dsh-replay/projector"
)

// Card goldens: per log, the `show` output at a pinned width without colour
// (<base>.cards.txt) and the `show --json` views (<base>.cards.ndjson, not
// .jsonl, so that directory scans never take it for a session log). Each
// starts with a header naming the golden format, the dsh-replay version and
// the source log. The version is informational: comparisons ignore it, so a
// new release does not churn every golden.

const (
	GoldenFormat = 1
	GoldenWidth  = 100

	// The kinds of card golden, as `golden pending` names them.
	TextGolden = "cards"
	JSONGolden = "cards-json"

	TextGoldenExt = ".cards.txt"
	JSONGoldenExt = ".cards.ndjson"
)

// LogBase strips the log suffix: dir/session.jsonl.zstd -> dir/session.
func LogBase(path string) string {
	for _, ext := range []string{".jsonl.zstd", ".jsonl"} {
		if strings.HasSuffix(path, ext) {
			return strings.TrimSuffix(path, ext)
		}
	}
	return path
}

// Bodies renders a log (its bytes are data, name its provenance) as show
// does without colour at width: the card text and the NDJSON views, in one
// pass over the log.
func Bodies(reg *projector.Registry, name string, data []byte, width int) (text, ndjson []byte, err error) {
	var tb, jb bytes.Buffer
	tw, jw := bufio.NewWriter(&tb), bufio.NewWriter(&jb)
	opts := Options{Width: width, Styles: Plain()}
	tp := &Printer{Reg: reg, W: tw, Opts: opts}
	jp := &Printer{Reg: reg, W: jw, Opts: opts, Mode: ModeJSON}
	ro := logformat.Options{NoViewPrepass: true}
	if reg != nil {
		ro.Release = reg.Config.Release // --config pins it
	}
	_, err = logformat.ReadCallsFrom(name, bytes.NewReader(data), ro, func(c *logformat.Call) error {
		if err := tp.Call(c); err != nil {
			return err
		}
		return jp.Call(c)
	})
	if err != nil {
		return nil, nil, err
	}
	tp.Finish()
	jp.Finish()
	if err := tw.Flush(); err != nil {
		return nil, nil, err
	}
	if err := jw.Flush(); err != nil {
		return nil, nil, err
	}
	return tb.Bytes(), jb.Bytes(), nil
}

// WriteBody renders the body of the card golden of kind (TextGolden or
// JSONGolden) of a log read from r (name: its base name) to w, as Goldens
// does, card by card: the body is never held (a golden of a large log is
// larger than the log).
func WriteBody(reg *projector.Registry, name string, r io.Reader, kind string, w io.Writer) error {
	bw := bufio.NewWriter(lfWriter{w})
	p := &Printer{Reg: reg, W: bw, Opts: Options{Width: GoldenWidth, Styles: Plain()}}
	if kind == JSONGolden {
		p.Mode = ModeJSON
	}
	ro := logformat.Options{NoViewPrepass: true}
	if reg != nil {
		ro.Release = reg.Config.Release // --config pins it
	}
	if _, err := logformat.ReadCallsFrom(name, r, ro, p.Call); err != nil {
		return err
	}
	p.Finish()
	return bw.Flush()
}

// lfWriter is lfOnly as a writer.
type lfWriter struct{ w io.Writer }

func (l lfWriter) Write(b []byte) (int, error) {
	n := len(b)
	for {
		i := bytes.IndexByte(b, '\r')
		if i < 0 {
			break
		}
		if _, err := l.w.Write(b[:i]); err != nil {
			return 0, err
		}
		if _, err := io.WriteString(l.w, "␍"); err != nil {
			return 0, err
		}
		b = b[i+1:]
	}
	if _, err := l.w.Write(b); err != nil {
		return 0, err
	}
	return n, nil
}

// Golden is one card golden's wanted content.
type Golden struct {
	Kind string // TextGolden or JSONGolden
	Log  string // the log's base name, as the header names it
	Body []byte
}

// Goldens renders both card goldens of a log whose bytes are data. They
// name the log by its base name, so a golden does not depend on the
// directory the command ran from.
func Goldens(reg *projector.Registry, logPath string, data []byte) (text, json *Golden, err error) {
	name := filepath.Base(logPath)
	tb, jb, err := Bodies(reg, name, data, GoldenWidth)
	if err != nil {
		return nil, nil, err
	}
	return &Golden{Kind: TextGolden, Log: name, Body: lfOnly(tb)}, &Golden{Kind: JSONGolden, Log: name, Body: lfOnly(jb)}, nil
}

// lfOnly keeps goldens LF-only: a stray CR is drawn as ␍.
func lfOnly(b []byte) []byte {
	if bytes.IndexByte(b, '\r') < 0 {
		return b
	}
	return bytes.ReplaceAll(b, []byte{'\r'}, []byte("␍"))
}

// Header is the golden's first line naming version.
func (g *Golden) Header(version string) string {
	if g.Kind == JSONGolden {
		return jsonv.Stringify(jsonv.Obj(
			jsonv.M("golden", jsonv.Str("dsh-replay cards")),
			jsonv.M("format", jsonv.Int(GoldenFormat)),
			jsonv.M("version", jsonv.Str(version)),
			jsonv.M("log", jsonv.Str(g.Log)),
			jsonv.M("width", jsonv.Int(GoldenWidth)),
		)) + "\n"
	}
	return fmt.Sprintf("# dsh-replay cards golden · format %d · version %s · width %d, no colour · log %s\n",
		GoldenFormat, version, GoldenWidth, jsonv.Quote(g.Log))
}

// Bytes is the golden as written by version.
func (g *Golden) Bytes(version string) []byte {
	return append([]byte(g.Header(version)), g.Body...)
}

// Matches reports whether have is this golden up to the version named in
// its header.
func (g *Golden) Matches(have []byte) bool {
	h := ParseHeader(g.Kind, have)
	if !h.OK || h.Format != GoldenFormat {
		return false
	}
	return bytes.Equal(have, g.Bytes(h.Version))
}

// GoldenHeader is what a card golden's first line says.
type GoldenHeader struct {
	OK      bool // the line is a card golden header
	Format  int
	Version string
	Log     string
}

// ParseHeader reads the header of a card golden of kind.
func ParseHeader(kind string, data []byte) GoldenHeader {
	line, _, _ := bytes.Cut(data, []byte{'\n'})
	var h GoldenHeader
	switch kind {
	case JSONGolden:
		v, err := jsonv.Parse(line)
		if err != nil || v.Get("golden").Str() != "dsh-replay cards" || !v.Get("format").IsNumber() {
			return h
		}
		return GoldenHeader{OK: true, Format: int(v.Get("format").Num()), Version: v.Get("version").Str(), Log: v.Get("log").Str()}
	case TextGolden:
		s, ok := strings.CutPrefix(string(line), "# dsh-replay cards golden · format ")
		if !ok {
			return h
		}
		num, rest, _ := strings.Cut(s, " ")
		f, err := strconv.Atoi(num)
		if err != nil {
			return h
		}
		h = GoldenHeader{OK: true, Format: f}
		if v, ok := strings.CutPrefix(rest, "· version "); ok {
			h.Version, _, _ = strings.Cut(v, " ")
		}
		if i := strings.LastIndex(rest, "· log "); i >= 0 {
			if l, err := jsonv.ParseString(rest[i+len("· log "):]); err == nil {
				h.Log = l.Str()
			}
		}
		return h
	}
	return h
}
