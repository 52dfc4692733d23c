package search

import (
	"slices"
	"strconv"

	"github.com/dsh-replay/dsh-replay/jsonv"
)

// Match is one canonical grep match; LineNumber keeps the recorded number.
type Match struct {
	Path       string
	LineNumber jsonv.Value
	Line       string
}

// GroupMatchesByFile is upstream groupMatchesByFile: one
// {path, matches:[{lineNumber, line}]} entry per file in first-seen order.
func GroupMatchesByFile(matches []Match) []jsonv.Value {
	// First pass: the group of each match. Consecutive matches usually share
	// their file, so the map is consulted only when the path changes.
	index := make(map[string]int, 8)
	paths := make([]string, 0, 8)
	counts := make([]int, 0, 8)
	group := make([]int32, len(matches))
	last := -1
	for k, m := range matches {
		i := last
		if last < 0 || paths[last] != m.Path {
			var ok bool
			if i, ok = index[m.Path]; !ok {
				i = len(paths)
				index[m.Path] = i
				paths = append(paths, m.Path)
				counts = append(counts, 0)
			}
			last = i
		}
		group[k] = int32(i)
		counts[i]++
	}
	// Second pass: every entry and group carved from three allocations.
	starts := make([]int, len(paths)+1)
	for i, c := range counts {
		starts[i+1] = starts[i] + c
	}
	entries := make([]jsonv.Value, len(matches))
	members := make([]jsonv.Member, 2*len(matches)+2*len(paths))
	fill := slices.Clone(starts[:len(paths)]) // next free slot of each group
	for k, m := range matches {
		ms := members[2*k : 2*k+2 : 2*k+2]
		ms[0], ms[1] = jsonv.M("lineNumber", m.LineNumber), jsonv.M("line", jsonv.Str(m.Line))
		i := group[k]
		entries[fill[i]] = jsonv.Obj(ms...)
		fill[i]++
	}
	out := make([]jsonv.Value, len(paths))
	files := members[2*len(matches):]
	for i, p := range paths {
		ms := files[2*i : 2*i+2 : 2*i+2]
		g := entries[starts[i]:starts[i+1]:starts[i+1]]
		ms[0], ms[1] = jsonv.M("path", jsonv.Str(p)), jsonv.M("matches", jsonv.Arr(g...))
		out[i] = jsonv.Obj(ms...)
	}
	return out
}

// searchMeta builds {shape, files|paths, truncated, total} in upstream's key order.
func searchMeta(shape string, items []jsonv.Value, truncated bool, total int) jsonv.Value {
	key := "paths"
	if shape == "matches" {
		key = "files"
	}
	return jsonv.Obj(
		jsonv.M("shape", jsonv.Str(shape)),
		jsonv.M(key, jsonv.Arr(items...)),
		jsonv.M("truncated", jsonv.BoolValue(truncated)),
		jsonv.M("total", jsonv.Int(total)),
	)
}

// CapMetaBytes is upstream capMetaBytes: when JSON.stringify(meta) is over
// maxBytes UTF-8 bytes, drop trailing items (never the last one) until the
// meta with truncated:true fits, and mark it truncated. Sizes are computed
// once per item instead of re-serialising the meta for every drop; the
// arithmetic is that of the serialised text.
func CapMetaBytes(shape string, items []jsonv.Value, truncated bool, total int, maxBytes int) jsonv.Value {
	sizes := make([]int, len(items))
	sum := 0
	for i, it := range items {
		sizes[i] = jsonv.StringifyLen(it)
		sum += sizes[i]
	}
	// {"shape":"…","files":[],"truncated":…,"total":N}
	overhead := len(`{"shape":"","files":[],"truncated":,"total":}`) + len(shape) + len(strconv.Itoa(total))
	if shape != "matches" {
		overhead = len(`{"shape":"","paths":[],"truncated":,"total":}`) + len(shape) + len(strconv.Itoa(total))
	}
	// size is the serialised length of the meta holding the first k items
	// whose sizes add up to itemBytes.
	size := func(k, itemBytes int, trunc bool) int {
		n := overhead + itemBytes + len("false")
		if trunc {
			n = overhead + itemBytes + len("true")
		}
		if k > 1 {
			n += k - 1 // commas
		}
		return n
	}
	if size(len(items), sum, truncated) <= maxBytes {
		return searchMeta(shape, items, truncated, total)
	}
	k := len(items)
	for k > 1 && size(k, sum, true) > maxBytes {
		k--
		sum -= sizes[k]
	}
	return searchMeta(shape, items[:k], true, total)
}

// SearchViewFromMeta is upstream searchViewFromMeta: the search card view
// narrowed defensively from opaque (live or replayed) meta, or undefined.
func SearchViewFromMeta(meta jsonv.Value) jsonv.Value {
	if !meta.IsObject() {
		return jsonv.Value{}
	}
	truncated, total := meta.Get("truncated"), meta.Get("total")
	if !truncated.IsBool() || !total.IsNumber() {
		return jsonv.Value{}
	}
	shape := meta.Get("shape")
	if !shape.IsString() {
		return jsonv.Value{}
	}
	switch shape.Str() {
	case "matches":
		files := meta.Get("files")
		if !files.IsArray() {
			return jsonv.Value{}
		}
		for _, f := range files.Elems() {
			if !isSearchFileMatches(f) {
				return jsonv.Value{}
			}
		}
		return jsonv.Obj(jsonv.M("card", jsonv.Str("search")), jsonv.M("shape", jsonv.Str("matches")),
			jsonv.M("files", files), jsonv.M("truncated", truncated), jsonv.M("total", total))
	case "paths":
		paths := meta.Get("paths")
		if !paths.IsArray() {
			return jsonv.Value{}
		}
		for _, p := range paths.Elems() {
			if !p.IsString() {
				return jsonv.Value{}
			}
		}
		return jsonv.Obj(jsonv.M("card", jsonv.Str("search")), jsonv.M("shape", jsonv.Str("paths")),
			jsonv.M("paths", paths), jsonv.M("truncated", truncated), jsonv.M("total", total))
	}
	return jsonv.Value{}
}

func isSearchFileMatches(v jsonv.Value) bool {
	if !v.IsObject() || !v.Get("path").IsString() {
		return false
	}
	ms := v.Get("matches")
	if !ms.IsArray() {
		return false
	}
	for _, m := range ms.Elems() {
		if !m.IsObject() || !m.Get("lineNumber").IsNumber() || !m.Get("line").IsString() {
			return false
		}
	}
	return true
}
