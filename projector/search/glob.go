package search

import (
	"strconv"
	"strings"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
)

// SpillRef is the reference a spill store returned for a saved complete result.
type SpillRef struct {
	Locator       string
	RetrievalHint string
}

const (
	globNoFiles     = "No files found"
	globUnsaved     = "The complete result could not be saved; narrow pattern or path to see more."
	globSavedPrefix = "Full sorted result stored at: "
)

// GlobSample is upstream GlobSample: the inline page of an over-cap result
// grouped by top-level entry, and the top-level spread it reaches.
type GlobSample struct {
	Items []string
	Shown int // top-level entries the page reaches
	Total int // top-level entries of the complete result
}

// relativeToSearchRoot removes the displayed search-root prefix before the
// top-level group is chosen (glob.ts relativeToSearchRoot).
func relativeToSearchRoot(p, root string) string {
	if root == "." {
		if strings.HasPrefix(p, "."+sep) {
			return p[2:]
		}
		return p
	}
	trimmed := strings.TrimRight(root, sep)
	if trimmed == "" {
		return strings.TrimLeft(p, sep)
	}
	if p == trimmed {
		return ""
	}
	if strings.HasPrefix(p, trimmed+sep) {
		return p[len(trimmed)+1:]
	}
	return p
}

// topLevelSegment is the leading path segment after leading separators.
func topLevelSegment(p string) string {
	p = strings.TrimLeft(p, sep)
	if i := strings.Index(p, sep); i >= 0 {
		return p[:i]
	}
	return p
}

// sampleIndexes is sampleAcrossTopLevel over indexes into paths.
func sampleIndexes(paths []string, maxItems int, root string) (items []int, shown, total int) {
	index := map[string]int{}
	var groups [][]int
	for i, p := range paths {
		key := topLevelSegment(relativeToSearchRoot(p, root))
		g, ok := index[key]
		if !ok {
			g = len(groups)
			index[key] = g
			groups = append(groups, nil)
		}
		groups[g] = append(groups[g], i)
	}
	// Round-robin: every group takes one slot per round until the page is full
	// or every group is exhausted; take[g] counts the slots group g got.
	take := make([]int, len(groups))
	active := make([]int, len(groups))
	for g := range active {
		active[g] = g
	}
	count := 0
	for round := 0; len(active) > 0 && count < maxItems; round++ {
		next := active[:0]
		for _, g := range active {
			if count >= maxItems {
				break
			}
			take[g]++
			count++
			if round+1 < len(groups[g]) {
				next = append(next, g)
			}
		}
		active = next
	}
	items = make([]int, 0, count)
	for g, n := range take {
		if n > 0 {
			shown++
			items = append(items, groups[g][:n]...)
		}
	}
	return items, shown, len(groups)
}

// SampleAcrossTopLevel is upstream sampleAcrossTopLevel(paths, maxItems, root).
func SampleAcrossTopLevel(paths []string, maxItems int, root string) GlobSample {
	idx, shown, total := sampleIndexes(paths, maxItems, root)
	items := make([]string, len(idx))
	for i, j := range idx {
		items[i] = paths[j]
	}
	return GlobSample{Items: items, Shown: shown, Total: total}
}

// globPage is the inline page (indexes into paths) and the footer basis of
// an over-cap result, computed once for both render and presentationMeta
// (upstream's renderGlobPaths and globCardPage agree by construction).
func globPage(paths []string, root string, caps Caps) (page []int, basis string) {
	if !caps.SampleOverCapGlobResults {
		page = make([]int, caps.GlobMaxResults)
		for i := range page {
			page[i] = i
		}
		return page, "."
	}
	page, shown, total := sampleIndexes(paths, caps.GlobMaxResults, root)
	if total == len(paths) {
		return page, "."
	}
	basis = ", sampled across " + strconv.Itoa(shown) + " of the " + strconv.Itoa(total) +
		" top-level entries this pattern matched instead of taken in modification-time order."
	if shown < total {
		basis += " Narrow path to inspect a specific subtree."
	}
	return page, basis
}

// GlobText is the model-facing text of glob's render (ref nil) or of the
// post-execute spill replacement (ref set).
func GlobText(paths []string, root string, caps Caps, ref *SpillRef) string {
	if len(paths) == 0 {
		return globNoFiles
	}
	if len(paths) <= caps.GlobMaxResults {
		return strings.Join(paths, "\n")
	}
	page, basis := globPage(paths, root, caps)
	var b strings.Builder
	size := 256
	for _, j := range page {
		size += len(paths[j]) + 1
	}
	b.Grow(size)
	for i, j := range page {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(paths[j])
	}
	b.WriteString("\n\n(Showing ")
	b.WriteString(strconv.Itoa(len(page)))
	b.WriteString(" of ")
	b.WriteString(strconv.Itoa(len(paths)))
	b.WriteString(" paths")
	b.WriteString(basis)
	b.WriteByte(' ')
	if ref != nil {
		b.WriteString(globSavedPrefix + ref.Locator + ". " + ref.RetrievalHint)
	} else {
		b.WriteString(globUnsaved)
	}
	b.WriteByte(')')
	return b.String()
}

// GlobMeta is glob's presentationMeta: the same page the text shows, as
// {shape:"paths", paths, truncated, total}, byte-capped.
func GlobMeta(paths []string, root string, caps Caps) jsonv.Value {
	var items []jsonv.Value
	truncated := len(paths) > caps.GlobMaxResults
	if !truncated {
		items = make([]jsonv.Value, len(paths))
		for i, p := range paths {
			items[i] = jsonv.Str(p)
		}
	} else {
		page, _ := globPage(paths, root, caps)
		items = make([]jsonv.Value, len(page))
		for i, j := range page {
			items[i] = jsonv.Str(paths[j])
		}
	}
	return CapMetaBytes("paths", items, truncated, len(paths), caps.SearchMetaMaxBytes)
}

// globValue reads the canonical {root, paths} value.
func globValue(value jsonv.Value) (root string, paths []string, err error) {
	if !value.IsObject() {
		return "", nil, projector.Throwf("Cannot read properties of %s (reading 'paths')", jsonv.ToString(value))
	}
	ps := value.Get("paths")
	if !ps.IsArray() {
		return "", nil, projector.Throwf("glob value.paths must be an array of strings")
	}
	paths = make([]string, ps.Len())
	for i, p := range ps.Elems() {
		if !p.IsString() {
			return "", nil, projector.Throwf("glob value.paths must be an array of strings")
		}
		paths[i] = p.Str()
	}
	r := value.Get("root")
	if !r.IsString() {
		return "", nil, projector.Throwf("glob value.root must be a string")
	}
	return r.Str(), paths, nil
}

// presentGlobCall: {card:"generic", title:"Glob P[ in PATH]", kind:"search", rawInput: pattern}.
func presentGlobCall(args jsonv.Value) jsonv.Value {
	if !args.IsObject() {
		return jsonv.Value{}
	}
	title := "Glob " + jsonv.ToString(args.Get("pattern"))
	if p := args.Get("path"); p.IsDefined() {
		title += " in " + jsonv.ToString(p)
	}
	return genericSearchCall(title, args.Get("pattern"))
}

// presentGlobResult narrows the meta to the paths-shaped search card.
func presentGlobResult(_ jsonv.Value, r projector.Result) jsonv.Value {
	if r.IsError {
		return jsonv.Value{}
	}
	view := SearchViewFromMeta(r.Meta)
	if view.Get("shape").Str() != "paths" {
		return jsonv.Value{}
	}
	return view
}

func genericSearchCall(title string, rawInput jsonv.Value) jsonv.Value {
	ms := []jsonv.Member{
		jsonv.M("card", jsonv.Str("generic")),
		jsonv.M("title", jsonv.Str(title)),
		jsonv.M("kind", jsonv.Str("search")),
	}
	if rawInput.IsDefined() {
		ms = append(ms, jsonv.M("rawInput", rawInput))
	}
	return jsonv.Obj(ms...)
}
