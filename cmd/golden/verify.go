package golden

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/dsh-replay/dsh-replay/cards"
	"github.com/dsh-replay/dsh-replay/cmd/cmdutil"
	"github.com/dsh-replay/dsh-replay/logformat"
	"github.com/dsh-replay/dsh-replay/projector"
	"github.com/dsh-replay/dsh-replay/replay"
	"github.com/dsh-replay/dsh-replay/report"
)

// VerifyCardGoldens is `verify --golden DIR`: the card goldens of every
// verified log, kept under DIR mirroring the logs' relative paths (DIR "."
// keeps them next to the logs), are compared with what show draws for the
// log as it is. A card golden that differs or is missing, and a pending
// .new file left behind, is a card-mismatch failure reported through the
// same sinks, one block per golden, each naming the command that
// regenerates it. verify writes nothing.
func VerifyCardGoldens(agg *report.Aggregator, reg *projector.Registry, dir string, proj cmdutil.ProjectorFlags, paths []string) {
	g := &goldenRun{o: &goldenOptions{out: dir, proj: proj}}
	g.cwd, _ = os.Getwd()
	if abs, err := filepath.Abs(dir); err == nil {
		g.o.out = abs
	}
	if filepath.Clean(g.o.out) == filepath.Clean(g.cwd) {
		g.o.out = "" // next to the logs: no mirroring, shorter commands
	}
	for _, path := range paths {
		if path == "-" || logformat.IsSidecar(path) {
			continue
		}
		var findings []replay.Finding
		// The finding names the log (so its command shows the log's cards);
		// the message names the golden file.
		add := func(file, msg string, diff []string) {
			findings = append(findings, replay.Finding{Class: replay.CardMismatch, Sev: replay.Failure,
				File: path, Projector: "cards", Message: file + ": " + msg, Diff: diff})
		}
		regen := g.command("update", []string{path})
		data, err := logformat.ReadRegularFile(path)
		if err != nil {
			continue // the verification itself reports an unreadable log
		}
		text, js, err := cards.Goldens(reg, path, data)
		if err != nil {
			continue
		}
		base := g.place(cards.LogBase(path))
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
				add(want.path+pendingExt, fmt.Sprintf("a pending golden is left behind (review: %s)", g.command("diff", []string{path})), nil)
			}
		}
		if len(findings) == 0 {
			continue
		}
		// One block per log's goldens; it is not a log, so it is not counted as one.
		name := base + ".cards"
		agg.BeginLog(name)
		agg.Totals.Logs--
		agg.EndLog(&replay.LogResult{File: name, Findings: findings})
	}
}
