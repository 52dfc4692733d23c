package golden

import (
	"fmt"
	"path/filepath"

	"github.com/dsh-replay/dsh-replay/cards"
	"github.com/dsh-replay/dsh-replay/cmd/cmdutil"
	"github.com/dsh-replay/dsh-replay/logformat"
	"github.com/dsh-replay/dsh-replay/projector"
	"github.com/dsh-replay/dsh-replay/replay"
)

// CardSink is `verify --golden DIR`: the card goldens of every verified
// log, kept under DIR mirroring the logs' relative paths (DIR "." keeps
// them next to the logs), are compared with what show draws for the log as
// it is. A card golden that differs or is missing, and a pending .new file
// left behind, is a card-mismatch failure, reported through the same sinks
// in a block per log after the logs (Flush), each naming the command that
// regenerates it. verify writes nothing.
//
// It wraps the sink of the verification and draws each log's cards when the
// log's result arrives, from the bytes the verification read (run with
// replay.RunOptions.KeepData); only a log too large to be read whole is
// read again.
type CardSink struct {
	next   replay.Sink
	reg    *projector.Registry
	l      layout
	blocks []*replay.LogResult
}

// NewCardSink compares card goldens under dir as next receives the logs.
func NewCardSink(next replay.Sink, reg *projector.Registry, dir string, proj cmdutil.ProjectorFlags) (*CardSink, error) {
	l, err := newLayout(dir, proj)
	if err != nil {
		return nil, err
	}
	if filepath.Clean(l.out) == filepath.Clean(l.cwd) {
		l.out = "" // next to the logs: no mirroring, shorter commands
	}
	return &CardSink{next: next, reg: reg, l: l}, nil
}

func (s *CardSink) BeginLog(file string)      { s.next.BeginLog(file) }
func (s *CardSink) Call(r *replay.CallResult) { s.next.Call(r) }

func (s *CardSink) EndLog(lr *replay.LogResult) {
	if b := s.compare(lr.File, lr.Data); b != nil {
		s.blocks = append(s.blocks, b)
	}
	lr.Data = nil // sinks may keep the result: not the log's bytes
	s.next.EndLog(lr)
}

// Flush reports the card mismatches, a block per log, after the logs.
func (s *CardSink) Flush() {
	for _, b := range s.blocks {
		s.next.BeginLog(b.File)
		s.next.EndLog(b)
	}
	s.blocks = nil
}

// compare checks the card goldens of one log (data: its bytes, nil when
// the verification did not keep them): nil when they match or the log
// cannot be drawn (the verification reports an unreadable log).
func (s *CardSink) compare(path string, data []byte) *replay.LogResult {
	if path == "-" || logformat.IsSidecar(path) {
		return nil
	}
	if data == nil {
		var err error
		if data, err = logformat.ReadRegularFile(path); err != nil {
			return nil
		}
	}
	text, js, err := cards.Goldens(s.reg, path, data)
	if err != nil {
		return nil
	}
	var findings []replay.Finding
	// The finding names the log (so its command shows the log's cards);
	// the message names the golden file.
	add := func(file, msg string, diff []string) {
		findings = append(findings, replay.Finding{Class: replay.CardMismatch, Sev: replay.Failure,
			File: path, Projector: "cards", Message: file + ": " + msg, Diff: diff})
	}
	regen := s.l.command("update", []string{path})
	base := s.l.place(cards.LogBase(path))
	for _, want := range []struct {
		path string
		g    *cards.Golden
	}{{base + cardsTextExt, text}, {base + cardsJSONExt, js}} {
		have, err := logformat.ReadRegularFile(want.path)
		switch {
		case err != nil:
			add(want.path, "no card golden for this log (regenerate: "+regen+")", nil)
		case !want.g.Matches(have):
			h := cards.ParseHeader(want.g.Kind, have)
			body := want.g.Header(h.Version) + string(want.g.Body)
			add(want.path, "the cards differ from the golden (regenerate: "+regen+")",
				replay.TextDiff(string(have), body, replay.DiffLimit))
		}
		if fileExists(want.path + pendingExt) {
			add(want.path+pendingExt, fmt.Sprintf("a pending golden is left behind (review: %s)", s.l.command("diff", []string{path})), nil)
		}
	}
	if len(findings) == 0 {
		return nil
	}
	// A block of its own, named for the goldens; not counted as a log.
	name := base + ".cards"
	return &replay.LogResult{File: name, Findings: findings, CardGoldens: true}
}
