package search

import (
	"path"
	"strings"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector/retain"
)

// sep is node:path.sep on the POSIX hosts the logs come from.
const sep = "/"

const bom = "\uFEFF"

// lineTruncatedSuffix marks a cut matched-line preview.
const lineTruncatedSuffix = " (line truncated)"

// PreviewLine is upstream previewLine(line, maxBytes): a TextRetainer head cut
// of the UTF-8 bytes at a character boundary, plus " (line truncated)" when
// bytes were dropped. The round trip through TextEncoder/TextDecoder turns lone
// surrogates into U+FFFD and strips one leading BOM (the decoder's default),
// whether or not the line was cut; the BOM's bytes still count toward the cap.
func PreviewLine(line string, maxBytes int) string {
	if maxBytes < 0 {
		maxBytes = 0
	}
	s := jsonv.ToWellFormed(line)
	if len(s) <= maxBytes {
		return strings.TrimPrefix(s, bom)
	}
	kept := retain.TrimPartialTail(s[:maxBytes])
	return strings.TrimPrefix(kept, bom) + lineTruncatedSuffix
}

// ToWorkdirRelative is upstream toWorkdirRelative(path, workdir) with POSIX
// node:path semantics: a relative path is unchanged; an absolute path becomes
// path.relative(workdir, path), "." when equal, and stays unchanged when it
// lies outside the workdir.
func ToWorkdirRelative(p, workdir string) string {
	if !strings.HasPrefix(p, sep) {
		return p
	}
	rel := nodeRelative(workdir, p)
	if rel == "" {
		return "."
	}
	if rel == ".." || strings.HasPrefix(rel, ".."+sep) {
		return p
	}
	return rel
}

// nodeRelative is path.posix.relative(from, to). A relative from is resolved
// against "/" (the workdir is always absolute upstream: a resolved cwd).
func nodeRelative(from, to string) string {
	if from == to {
		return ""
	}
	from = path.Clean(sep + from)
	to = path.Clean(sep + to)
	if from == to {
		return ""
	}
	fs := splitAbs(from)
	ts := splitAbs(to)
	n := 0
	for n < len(fs) && n < len(ts) && fs[n] == ts[n] {
		n++
	}
	parts := make([]string, 0, len(fs)-n+len(ts)-n)
	for range fs[n:] {
		parts = append(parts, "..")
	}
	parts = append(parts, ts[n:]...)
	return strings.Join(parts, sep)
}

func splitAbs(p string) []string {
	p = strings.TrimPrefix(p, sep)
	if p == "" {
		return nil
	}
	return strings.Split(p, sep)
}
