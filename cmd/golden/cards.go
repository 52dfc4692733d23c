package golden

import (
	"bytes"
	"fmt"
	"github.com/dsh-replay/dsh-replay/cmd/cmdutil"
	"github.com/dsh-replay/dsh-replay/cmd/show"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/dsh-replay/dsh-replay/logformat/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
)

// Card goldens: per log, the `show` output at a pinned width without colour
// (<base>.cards.txt) and the `show --json` views (<base>.cards.ndjson, not
// .jsonl, so that directory scans never take it for a session log). Each
// starts with a header naming the golden format, the dsh-replay version and
// the source log. The version is informational: comparisons ignore it, so a
// new release does not churn every golden.

const (
	goldenFormat     = 1
	goldenCardsWidth = 100
	cardsTextExt     = ".cards.txt"
	cardsJSONExt     = ".cards.ndjson"
	pendingExt       = ".new"
)

// logBase strips the log suffix: dir/session.jsonl.zstd -> dir/session.
func logBase(path string) string {
	for _, ext := range []string{".jsonl.zstd", ".jsonl"} {
		if strings.HasSuffix(path, ext) {
			return strings.TrimSuffix(path, ext)
		}
	}
	return path
}

// cardsBody renders the card goldens' bodies (no header) of a log whose
// bytes are data; provenance names the log by its base name, so a golden
// does not depend on the directory the command ran from.
func cardsBody(reg *projector.Registry, name string, data []byte) (text, ndjson []byte, err error) {
	tb, jb, err := show.Bodies(reg, name, data, goldenCardsWidth)
	if err != nil {
		return nil, nil, err
	}
	return lfOnly(tb), lfOnly(jb), nil
}

// lfOnly keeps goldens LF-only: a stray CR is drawn as ␍.
func lfOnly(b []byte) []byte {
	if bytes.IndexByte(b, '\r') < 0 {
		return b
	}
	return bytes.ReplaceAll(b, []byte{'\r'}, []byte("␍"))
}

// textHeader is the first line of a .cards.txt golden.
func textHeader(version, log string) string {
	return fmt.Sprintf("# dsh-replay cards golden · format %d · version %s · width %d, no colour · log %s\n",
		goldenFormat, version, goldenCardsWidth, jsonv.Quote(log))
}

// jsonHeader is the first line of a .cards.ndjson golden.
func jsonHeader(version, log string) string {
	return jsonv.Stringify(jsonv.Obj(
		jsonv.M("golden", jsonv.Str("dsh-replay cards")),
		jsonv.M("format", jsonv.Int(goldenFormat)),
		jsonv.M("version", jsonv.Str(version)),
		jsonv.M("log", jsonv.Str(log)),
		jsonv.M("width", jsonv.Int(goldenCardsWidth)),
	)) + "\n"
}

// goldenHeader is what a golden's first line says.
type goldenHeader struct {
	ok      bool // the line is a card golden header
	format  int
	version string
	log     string
}

func parseHeader(kind string, data []byte) goldenHeader {
	line, _, _ := bytes.Cut(data, []byte{'\n'})
	var h goldenHeader
	switch kind {
	case kindCardsJSON:
		v, err := jsonv.Parse(line)
		if err != nil || v.Get("golden").Str() != "dsh-replay cards" || !v.Get("format").IsNumber() {
			return h
		}
		return goldenHeader{ok: true, format: int(v.Get("format").Num()), version: v.Get("version").Str(), log: v.Get("log").Str()}
	case kindCardsText:
		s, ok := strings.CutPrefix(string(line), "# dsh-replay cards golden · format ")
		if !ok {
			return h
		}
		num, rest, _ := strings.Cut(s, " ")
		f, err := strconv.Atoi(num)
		if err != nil {
			return h
		}
		h = goldenHeader{ok: true, format: f}
		if v, ok := strings.CutPrefix(rest, "· version "); ok {
			h.version, _, _ = strings.Cut(v, " ")
		}
		if i := strings.LastIndex(rest, "· log "); i >= 0 {
			if l, err := jsonv.ParseString(rest[i+len("· log "):]); err == nil {
				h.log = l.Str()
			}
		}
		return h
	}
	return h
}

// cardsGolden is one card golden's wanted content.
type cardsGolden struct {
	kind string
	log  string // the log's base name, as the header names it
	body []byte
}

func (g *cardsGolden) header(version string) string {
	if g.kind == kindCardsJSON {
		return jsonHeader(version, g.log)
	}
	return textHeader(version, g.log)
}

// bytes is the golden as update writes it.
func (g *cardsGolden) bytes() []byte {
	return append([]byte(g.header(cmdutil.VersionString())), g.body...)
}

// matches reports whether have is this golden up to the version named in its
// header.
func (g *cardsGolden) matches(have []byte) bool {
	h := parseHeader(g.kind, have)
	if !h.ok || h.format != goldenFormat {
		return false
	}
	return bytes.Equal(have, append([]byte(g.header(h.version)), g.body...))
}

// cardsFor builds both card goldens of a log.
func cardsFor(reg *projector.Registry, logPath string, data []byte) (text, json *cardsGolden, err error) {
	name := filepath.Base(logPath)
	tb, jb, err := cardsBody(reg, name, data)
	if err != nil {
		return nil, nil, err
	}
	return &cardsGolden{kind: kindCardsText, log: name, body: tb}, &cardsGolden{kind: kindCardsJSON, log: name, body: jb}, nil
}

// cardBlock is one top-level card of a .cards.txt body, with the call named
// in its footer line ("╰ tool · callId · file:line").
type cardBlock struct {
	tool, callID string
	text         string
}

// splitCards splits a .cards.txt golden into its cards (blank-line
// separated; the header and the final count line are dropped).
func splitCards(data []byte) []cardBlock {
	s := string(data)
	if i := strings.IndexByte(s, '\n'); i >= 0 && strings.HasPrefix(s, "# dsh-replay cards golden") {
		s = s[i+1:]
	}
	var out []cardBlock
	for _, part := range strings.Split(s, "\n\n") {
		lines := strings.Split(strings.TrimRight(part, "\n"), "\n")
		foot := lines[len(lines)-1]
		rest, ok := strings.CutPrefix(foot, "╰ ")
		if !ok {
			continue
		}
		fields := strings.Split(rest, " · ")
		b := cardBlock{text: part}
		if len(fields) >= 3 {
			b.tool, b.callID = fields[0], fields[1]
		}
		out = append(out, b)
	}
	return out
}
