package fs

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/dsh-replay/dsh-replay/jsonv"
)

// Shipped read caps (read.ts:16, read-render.ts:11-14, read.ts:22).
const (
	ReadLimit         = 2000
	ReadMaxLineLength = 2000
	ReadMaxBytes      = 50 * 1024
	ReadStreamMinSize = 10 * 1024 * 1024
)

// Window is a resolved read window (ReadWindow, read-render.ts:17-26).
type Window struct {
	Offset, Limit, MaxLineLength, MaxBytes int
}

// Line is one returned file line (FileTextLine).
type Line struct {
	Number int
	Text   string // WTF-8: a UTF-16 cut may leave a lone high surrogate
}

// WindowResult is buildWindow's result.
type WindowResult struct {
	Lines            []Line
	TotalLines       int
	TruncatedByBytes bool
}

// FsError is a tool-fs domain error (FsError {message, code}).
type FsError struct {
	Code    string
	Message string
}

func (e *FsError) Error() string { return e.Message }

// BuildWindow is upstream buildWindow (read-render.ts:116-144) over decoded
// text chunks; chunk boundaries carry no meaning. Line length is capped in
// UTF-16 units, the byte cap counts UTF-8 bytes plus joining newlines. An
// offset past the end returns the scan result and an FS_NOT_FOUND error.
func BuildWindow(chunks []string, w Window, displayPath string) (WindowResult, error) {
	text := strings.Join(chunks, "")
	var acc WindowResult
	used := 0
	consume := func(raw string) {
		// The line buffer holds at most maxLineLength+1 units; the CR strip
		// runs on that capped buffer (the lone-CR quirk).
		b, _ := prefix16(raw, w.MaxLineLength+1)
		b = strings.TrimSuffix(b, "\r")
		acc.TotalLines++
		if acc.TruncatedByBytes || acc.TotalLines < w.Offset || len(acc.Lines) >= w.Limit {
			return
		}
		t := truncateLine(b, w.MaxLineLength)
		cost := len(t) // WTF-8 length = Buffer.byteLength (a lone surrogate is 3)
		if len(acc.Lines) > 0 {
			cost++
		}
		if used+cost > w.MaxBytes {
			acc.TruncatedByBytes = true
			return
		}
		used += cost
		acc.Lines = append(acc.Lines, Line{Number: acc.TotalLines, Text: t})
	}
	for {
		i := strings.IndexByte(text, '\n')
		if i < 0 {
			break
		}
		consume(text[:i])
		text = text[i+1:]
	}
	if text != "" {
		consume(text)
	}
	if !acc.TruncatedByBytes && w.Offset > acc.TotalLines && !(acc.TotalLines == 0 && w.Offset == 1) {
		return acc, &FsError{Code: "FS_NOT_FOUND", Message: fmt.Sprintf("offset %d is out of range for %q (%d lines)", w.Offset, displayPath, acc.TotalLines)}
	}
	return acc, nil
}

func truncateLine(line string, max int) string {
	p, cut := prefix16(line, max)
	if !cut {
		return line
	}
	return p + "... (line truncated to " + strconv.Itoa(max) + " chars)"
}

// LinesValue is the window's lines as the canonical value's `lines`.
func (r WindowResult) LinesValue() jsonv.Value {
	out := make([]jsonv.Value, len(r.Lines))
	for i, l := range r.Lines {
		out[i] = jsonv.Obj(jsonv.M("number", jsonv.Int(l.Number)), jsonv.M("text", jsonv.Str(l.Text)))
	}
	return jsonv.Arr(out...)
}

// FormatReadOutput is upstream formatReadOutput (read-render.ts:152-170):
// the model-facing envelope of a window. offset, endLine arithmetic and
// every substitution follow JavaScript (numbers as doubles, String()).
func FormatReadOutput(displayPath string, offset jsonv.Value, lines jsonv.Value, totalLines jsonv.Value, truncatedByBytes bool) string {
	endLine := endLineOf(lines, offset)
	var footer string
	switch {
	case truncatedByBytes:
		footer = "(Output capped. Showing lines " + jsonv.ToString(offset) + "-" + jsonv.FormatNumber(endLine) +
			". Use offset=" + jsonv.FormatNumber(endLine+1) + " to continue.)"
	case endLine < totalLines.Num():
		footer = "(Showing lines " + jsonv.ToString(offset) + "-" + jsonv.FormatNumber(endLine) + " of " + jsonv.ToString(totalLines) +
			". Use offset=" + jsonv.FormatNumber(endLine+1) + " to continue.)"
	default:
		footer = "(End of file - total " + jsonv.ToString(totalLines) + " lines)"
	}
	// Size the text once: a window's lines are most of it.
	size := 64 + len(displayPath) + len(footer)
	for _, l := range lines.Elems() {
		_, text := lineParts(l)
		size += 16 + len(text.Str())
	}
	var b strings.Builder
	b.Grow(size)
	b.WriteString("<path>")
	b.WriteString(displayPath)
	b.WriteString("</path>\n<type>file</type>\n<content>\n")
	if lines.Len() > 0 {
		var num [32]byte
		for i, l := range lines.Elems() {
			if i > 0 {
				b.WriteByte('\n')
			}
			n, text := lineParts(l)
			if n.IsNumber() {
				b.Write(jsonv.AppendNumber(num[:0], n.Num()))
			} else {
				b.WriteString(jsonv.ToString(n))
			}
			b.WriteString(": ")
			if text.IsString() {
				b.WriteString(text.Str())
			} else {
				b.WriteString(jsonv.ToString(text))
			}
		}
		b.WriteString("\n\n")
	}
	b.WriteString(footer)
	b.WriteString("\n</content>")
	return b.String()
}

// endLineOf is `lines.at(-1)?.number ?? Math.max(0, offset - 1)`.
func endLineOf(lines, offset jsonv.Value) float64 {
	if n := lines.At(lines.Len() - 1).Get("number"); !nullish(n) {
		return n.Num()
	}
	o := offset.Num() - 1
	if o != o { // Math.max(0, NaN) is NaN
		return o
	}
	if o < 0 {
		return 0
	}
	return o
}

// lineParts is a window line's number and text (l.number, l.text), read
// straight from the members when the line is the usual {number, text}.
func lineParts(l jsonv.Value) (number, text jsonv.Value) {
	if ms := l.Members(); len(ms) == 2 && ms[0].Key == "number" && ms[1].Key == "text" {
		return ms[0].Value, ms[1].Value
	}
	return l.Get("number"), l.Get("text")
}
