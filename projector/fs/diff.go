package fs

import (
	"strings"

	"github.com/dsh-replay/dsh-replay/jsonv"
)

// DiffContext is DIFF_CONTEXT (diff.ts:11).
const DiffContext = 3

// ComputeHunkDiffs is upstream computeHunkDiffs (diff.ts:33-57): one
// FileDiff {path, oldText, newText} per hunk of jsdiff 9.0.0
// structuredPatch(”, ”, before, after, undefined, undefined, {context: 3}).
func ComputeHunkDiffs(path, before, after string) jsonv.Value {
	return hunkDiffs(jsonv.Str(path), before, after)
}

// hunkDiffs stamps path as given (the tools pass the raw args.file_path).
func hunkDiffs(path jsonv.Value, before, after string) jsonv.Value {
	hunks := StructuredPatch(before, after, DiffContext)
	out := make([]jsonv.Value, 0, len(hunks))
	for _, h := range hunks {
		var oldLines, newLines []string
		for _, line := range h.Lines {
			if strings.HasPrefix(line, `\`) {
				continue // "\ No newline at end of file" annotates the patch, not the content
			}
			text := line[1:]
			switch line[0] {
			case '-':
				oldLines = append(oldLines, text)
			case '+':
				newLines = append(newLines, text)
			default:
				oldLines = append(oldLines, text)
				newLines = append(newLines, text)
			}
		}
		oldText := jsonv.NullValue()
		if len(oldLines) > 0 {
			oldText = jsonv.Str(strings.Join(oldLines, "\n"))
		}
		out = append(out, jsonv.Obj(jsonv.M("path", path), jsonv.M("oldText", oldText), jsonv.M("newText", jsonv.Str(strings.Join(newLines, "\n")))))
	}
	return jsonv.Arr(out...)
}

// DiffsFromMeta is upstream diffsFromMeta (diff.ts:60-79): the original
// non-empty diffs array when every entry is {path: string, oldText:
// string|null, newText: string}, else false.
func DiffsFromMeta(meta jsonv.Value) (jsonv.Value, bool) {
	if !meta.IsObject() {
		return jsonv.Value{}, false
	}
	diffs := meta.Get("diffs")
	if !diffs.IsArray() || diffs.Len() == 0 {
		return jsonv.Value{}, false
	}
	for _, d := range diffs.Elems() {
		old := d.Get("oldText")
		if !d.IsObject() || !d.Get("path").IsString() || !(old.IsNull() || old.IsString()) || !d.Get("newText").IsString() {
			return jsonv.Value{}, false
		}
	}
	return diffs, true
}

// Hunk is one structuredPatch hunk; Lines carry their ' ', '-', '+' tag or
// are the `\ No newline at end of file` marker.
type Hunk struct {
	OldStart, OldLines, NewStart, NewLines int
	Lines                                  []string
}

// change is one jsdiff change object.
type change struct {
	added, removed bool
	lines          []string // tokens, each with its \n (the text's last may lack it)
}

// StructuredPatch is jsdiff 9.0.0 structuredPatch(...).hunks for two texts
// (src/patch/create.ts:242-342) with the given context.
func StructuredPatch(before, after string, context int) []Hunk {
	diff := diffLines(before, after)
	diff = append(diff, change{lines: []string{}}) // sentinel: makes cleanup easier
	var hunks []Hunk
	oldRangeStart, newRangeStart := 0, 0
	var curRange []string
	oldLine, newLine := 1, 1
	contextLines := func(lines []string) []string {
		out := make([]string, len(lines))
		for i, l := range lines {
			out[i] = " " + l
		}
		return out
	}
	for i := range diff {
		cur := &diff[i]
		// A change's lines are its tokens: upstream joins them into the change's
		// value and splits that again (create.ts:633-644), which gives them back
		// unchanged (TestSplitLinesIsTokens), so the port skips both.
		lines := cur.lines
		if cur.added || cur.removed {
			if oldRangeStart == 0 {
				oldRangeStart, newRangeStart = oldLine, newLine
				if i > 0 {
					prev := diff[i-1].lines
					curRange = nil
					if context > 0 {
						curRange = contextLines(prev[max(0, len(prev)-context):])
					}
					oldRangeStart -= len(curRange)
					newRangeStart -= len(curRange)
				}
			}
			tag := "-"
			if cur.added {
				tag = "+"
			}
			for _, l := range lines {
				curRange = append(curRange, tag+l)
			}
			if cur.added {
				newLine += len(lines)
			} else {
				oldLine += len(lines)
			}
			continue
		}
		if oldRangeStart != 0 {
			if len(lines) <= context*2 && i < len(diff)-2 {
				curRange = append(curRange, contextLines(lines)...)
			} else {
				size := min(len(lines), context)
				curRange = append(curRange, contextLines(lines[:size])...)
				hunks = append(hunks, Hunk{
					OldStart: oldRangeStart, OldLines: oldLine - oldRangeStart + size,
					NewStart: newRangeStart, NewLines: newLine - newRangeStart + size,
					Lines: curRange,
				})
				oldRangeStart, newRangeStart, curRange = 0, 0, nil
			}
		}
		oldLine += len(lines)
		newLine += len(lines)
	}
	// Drop each line's trailing \n; a line without one gets the marker.
	for h := range hunks {
		in := hunks[h].Lines
		out := make([]string, 0, len(in)+1)
		for _, l := range in {
			if strings.HasSuffix(l, "\n") {
				out = append(out, l[:len(l)-1])
			} else {
				out = append(out, l, `\ No newline at end of file`)
			}
		}
		hunks[h].Lines = out
	}
	return hunks
}

// tokenizeLines is jsdiff's line tokenizer (src/diff/line.ts:107-133):
// split after every \n (a \r\n stays inside its token), drop a final empty
// remainder.
func tokenizeLines(s string) []string {
	out := make([]string, 0, strings.Count(s, "\n")+1)
	for s != "" {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			out = append(out, s)
			break
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
	return out
}

// component is a node of a jsdiff path's change list (newest first).
type component struct {
	count          int
	added, removed bool
	prev           *component
}

type diffPath struct {
	oldPos int
	last   *component
}

// diffLines is jsdiff's Diff.diff for lines (src/diff/base.ts:77-364):
// Myers with jsdiff's diagonal pruning and tie-breaking (removal wins a tie).
func diffLines(before, after string) []change {
	oldToks, newToks := tokenizeLines(before), tokenizeLines(after)
	// Tokens compare as strings: most pairs differ in length, and interning
	// them (a map over every line) cost more than the walk itself.
	oldLen, newLen := len(oldToks), len(newToks)

	extractCommon := func(p *diffPath, diagonal int) int {
		oldPos := p.oldPos
		newPos := oldPos - diagonal
		common := 0
		for newPos+1 < newLen && oldPos+1 < oldLen && oldToks[oldPos+1] == newToks[newPos+1] {
			newPos++
			oldPos++
			common++
		}
		if common > 0 {
			p.last = &component{count: common, prev: p.last}
		}
		p.oldPos = oldPos
		return newPos
	}
	addToPath := func(p *diffPath, added, removed bool, inc int) *diffPath {
		last := p.last
		if last != nil && last.added == added && last.removed == removed {
			return &diffPath{oldPos: p.oldPos + inc, last: &component{count: last.count + 1, added: added, removed: removed, prev: last.prev}}
		}
		return &diffPath{oldPos: p.oldPos + inc, last: &component{count: 1, added: added, removed: removed, prev: last}}
	}
	build := func(last *component) []change {
		var comps []*component
		for c := last; c != nil; c = c.prev {
			comps = append(comps, c)
		}
		out := make([]change, len(comps))
		newPos, oldPos := 0, 0
		for i := range comps {
			c := comps[len(comps)-1-i]
			ch := change{added: c.added, removed: c.removed}
			if !c.removed {
				ch.lines = newToks[newPos : newPos+c.count : newPos+c.count]
				newPos += c.count
				if !c.added {
					oldPos += c.count
				}
			} else {
				ch.lines = oldToks[oldPos : oldPos+c.count : oldPos+c.count]
				oldPos += c.count
			}
			out[i] = ch
		}
		return out
	}

	// bestPath is indexed by diagonal, which may be negative.
	span := oldLen + newLen + 2
	bestPath := make([]*diffPath, 2*span+1)
	at := func(k int) **diffPath { return &bestPath[k+span] }

	*at(0) = &diffPath{oldPos: -1}
	newPos := extractCommon(*at(0), 0)
	if (*at(0)).oldPos+1 >= oldLen && newPos+1 >= newLen {
		return build((*at(0)).last)
	}
	const inf = int(^uint(0) >> 1)
	minDiagonal, maxDiagonal := -inf, inf
	maxEditLength := newLen + oldLen
	for editLength := 1; editLength <= maxEditLength; editLength++ {
		for diagonal := max(minDiagonal, -editLength); diagonal <= min(maxDiagonal, editLength); diagonal += 2 {
			removePath, addPath := *at(diagonal - 1), *at(diagonal + 1)
			if removePath != nil {
				*at(diagonal - 1) = nil
			}
			canAdd := false
			if addPath != nil {
				addNewPos := addPath.oldPos - diagonal
				canAdd = 0 <= addNewPos && addNewPos < newLen
			}
			canRemove := removePath != nil && removePath.oldPos+1 < oldLen
			if !canAdd && !canRemove {
				*at(diagonal) = nil
				continue
			}
			var base *diffPath
			if !canRemove || (canAdd && removePath.oldPos < addPath.oldPos) {
				base = addToPath(addPath, true, false, 0)
			} else {
				base = addToPath(removePath, false, true, 1)
			}
			newPos = extractCommon(base, diagonal)
			if base.oldPos+1 >= oldLen && newPos+1 >= newLen {
				return build(base.last)
			}
			*at(diagonal) = base
			if base.oldPos+1 >= oldLen {
				maxDiagonal = min(maxDiagonal, diagonal-1)
			}
			if newPos+1 >= newLen {
				minDiagonal = max(minDiagonal, diagonal+1)
			}
		}
	}
	return nil // unreachable: the edit length never exceeds oldLen+newLen
}
