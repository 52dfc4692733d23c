package logformat

import (
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/dsh-replay/dsh-replay/internal/termquote"
)

// Generations. When DSH opens a session written in an older format it
// migrates it in memory and writes the next generation beside the old
// file, which it never rewrites: one directory can hold session.jsonl,
// session.v2.jsonl and session.v3.jsonl, the same session three times.
// Subagent children are session.N.jsonl / session.N.vM.jsonl. A walk keeps
// the newest generation of each and reports the others once (Superseded);
// a file named on the command line is always read.

// Superseded is the notice kind of an older generation a walk skipped.
const Superseded = "superseded-generation"

// generationOf parses a log's base name as upstream names generations:
// ^session(?:\.v([1-9][0-9]*))?\.jsonl$ (no .v0, no leading zeros, lower
// case), a child's number between, and an optional .zstd. ok is false for
// any other name.
func generationOf(name string) (child string, gen int, ok bool) {
	rest, found := strings.CutPrefix(name, "session")
	if !found {
		return "", 0, false
	}
	rest = strings.TrimSuffix(rest, ".zstd")
	rest, found = strings.CutSuffix(rest, ".jsonl")
	if !found {
		return "", 0, false
	}
	// rest is "", ".N", ".vM" or ".N.vM".
	if rest != "" && rest[0] != '.' {
		return "", 0, false
	}
	parts := strings.Split(rest, ".")[1:]
	if len(parts) > 0 && !strings.HasPrefix(parts[0], "v") {
		if !canonicalNumber(parts[0]) {
			return "", 0, false
		}
		child, parts = parts[0], parts[1:]
	}
	switch len(parts) {
	case 0:
		return child, 0, true
	case 1:
		m, found := strings.CutPrefix(parts[0], "v")
		if !found || !canonicalNumber(m) {
			return "", 0, false
		}
		n, err := strconv.Atoi(m)
		if err != nil {
			return "", 0, false
		}
		return child, n, true
	}
	return "", 0, false
}

// canonicalNumber: [1-9][0-9]* (a child's number and a generation alike).
func canonicalNumber(s string) bool {
	if s == "" || s[0] < '1' || s[0] > '9' || len(s) > 9 {
		return false
	}
	for i := 1; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// newestGenerations splits the logs of one directory into those a walk
// reads and the older generations it skips (old path -> the newest
// generation's path). Files not named like a generation are all kept; a
// plain file and its .zstd of the same generation are both kept.
func newestGenerations(logs []string) (keep []string, superseded map[string]string) {
	type entry struct {
		path string
		gen  int
	}
	var byChild map[string][]entry
	for _, p := range logs {
		if child, gen, ok := generationOf(filepath.Base(p)); ok {
			if byChild == nil {
				byChild = map[string][]entry{}
			}
			byChild[child] = append(byChild[child], entry{p, gen})
		}
	}
	for _, es := range byChild {
		if len(es) < 2 {
			continue
		}
		sort.Slice(es, func(i, j int) bool {
			if es[i].gen != es[j].gen {
				return es[i].gen > es[j].gen
			}
			return es[i].path < es[j].path // session.vN.jsonl before its .zstd
		})
		for _, e := range es[1:] {
			if e.gen < es[0].gen {
				if superseded == nil {
					superseded = map[string]string{}
				}
				superseded[e.path] = es[0].path
			}
		}
	}
	if superseded == nil {
		return logs, nil
	}
	keep = make([]string, 0, len(logs)-len(superseded))
	for _, p := range logs {
		if _, old := superseded[p]; !old {
			keep = append(keep, p)
		}
	}
	return keep, superseded
}

// SupersededNotices are the notices of the older generations a walk
// skipped, in path order.
func SupersededNotices(superseded map[string]string) []Notice {
	olds := make([]string, 0, len(superseded))
	for p := range superseded {
		olds = append(olds, p)
	}
	sort.Strings(olds)
	ns := make([]Notice, len(olds))
	for i, p := range olds {
		ns[i] = Notice{File: p, Kind: Superseded,
			Msg: "an older generation of the session in " + termquote.QuoteName(filepath.Base(superseded[p])) + ", which is read instead (name this file to read it)"}
	}
	return ns
}
