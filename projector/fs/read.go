package fs

import (
	"math"
	"strconv"
	"strings"
	"sync"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
)

// readCaps is the deployment's resolved read configuration (ReadToolCaps).
type readCaps struct {
	limit, maxLineLength, maxBytes, streamMinSize int
}

var readOutputSchema = sync.OnceValue(func() jsonv.Value {
	return projector.SchemaText(`{"type":"object","additionalProperties":false,"properties":{"path":{"type":"string"},"offset":{"type":"integer"},"lines":{"type":"array","items":{"type":"object","additionalProperties":false,"properties":{"number":{"type":"integer"},"text":{"type":"string"}},"required":["number","text"]}},"totalLines":{"type":"integer"}},"required":["path","offset","lines","totalLines"]}`)
})

// readTool is read.ts:69-208.
func readTool(caps readCaps) *projector.Tool { return readToolWith(caps, LangFromPath) }

// readToolWith is read whose presentationMeta takes its lang hint from lang.
func readToolWith(caps readCaps, lang func(path string) (string, bool)) *projector.Tool {
	return &projector.Tool{
		Name:   "read",
		Plugin: Plugin,
		Parameters: projector.ParamSchema(
			projector.Param{Name: "file_path", Type: "string", Required: true, Description: "Path to read, resolved by the filesystem backend."},
			projector.Param{Name: "offset", Type: "number", Description: "1-based first line to return. Defaults to 1."},
			projector.Param{Name: "limit", Type: "number", Description: "Maximum number of lines to return. Defaults to " + strconv.Itoa(caps.limit) + "."},
		),
		Output: &projector.Output{
			Schema: readOutputSchema(),
			Render: func(args, value jsonv.Value) (jsonv.Value, error) {
				limit, err := parseReadArgs(args, caps.limit)
				if err != nil {
					return jsonv.Value{}, err
				}
				lines := value.Get("lines")
				if !lines.IsArray() {
					return jsonv.Value{}, projector.Throwf("value.lines.at is not a function")
				}
				endLine := endLineOf(lines, value.Get("offset"))
				truncated := float64(lines.Len()) < limit && endLine < value.Get("totalLines").Num()
				return projector.TextContent(FormatReadOutput(jsonv.ToString(value.Get("path")), value.Get("offset"), lines, value.Get("totalLines"), truncated)), nil
			},
			PresentationMeta: func(_, value jsonv.Value) (jsonv.Value, error) {
				lines := value.Get("lines")
				if !lines.IsArray() {
					return jsonv.Value{}, projector.Throwf("value.lines.map is not a function")
				}
				// {number, text} copied in that order: a line that already is
				// exactly that object is the same value, so it is reused, and
				// so is the whole array when every line is.
				copiedLines := lines
				if !allNumberText(lines) {
					copied, err := copyLines(lines)
					if err != nil {
						return jsonv.Value{}, err
					}
					copiedLines = jsonv.Arr(copied...)
				}
				ms := make([]jsonv.Member, 0, 5)
				ms = append(ms,
					jsonv.M("path", value.Get("path")),
					jsonv.M("offset", value.Get("offset")),
					jsonv.M("lines", copiedLines),
					jsonv.M("totalLines", value.Get("totalLines")),
				)
				path, err := argString(value, "value", "path", "lastIndexOf")
				if err != nil {
					return jsonv.Value{}, err
				}
				if lang, ok := lang(path); ok {
					ms = append(ms, jsonv.M("lang", jsonv.Str(lang)))
				}
				return jsonv.Obj(ms...), nil
			},
		},
		PresentCall:   presentReadCall,
		PresentResult: presentReadResult,
		CallCards:     []string{"generic"},
		ResultCards:   []string{"read"},
	}
}

// parseReadArgs is read.ts:51-62; it returns the effective limit.
func parseReadArgs(args jsonv.Value, maxLimit int) (float64, error) {
	path, err := argString(args, "args", "file_path", "trim")
	if err != nil {
		return 0, err
	}
	if jsonv.TrimJS(path) == "" {
		return 0, projector.Throwf("file_path must be a non-empty string")
	}
	if o := args.Get("offset"); o.IsDefined() && !positiveInteger(o) {
		return 0, projector.Throwf("offset must be a positive integer")
	}
	limit := float64(maxLimit)
	if l := args.Get("limit"); l.IsDefined() {
		if !positiveInteger(l) {
			return 0, projector.Throwf("limit must be a positive integer")
		}
		limit = l.Num()
	}
	if limit > float64(maxLimit) {
		return 0, projector.Throwf("limit must be less than or equal to %d", maxLimit)
	}
	return limit, nil
}

func positiveInteger(v jsonv.Value) bool {
	return v.IsNumber() && !math.IsInf(v.Num(), 0) && v.IsInteger() && v.Num() >= 1
}

// presentReadCall is read.ts:196-207: the window reflects raw args only.
func presentReadCall(args jsonv.Value) jsonv.Value {
	offset, limit := args.Get("offset"), args.Get("limit")
	start := orElse(offset, jsonv.Int(1))
	window := ""
	if limit.IsDefined() && jsGreaterThanZero(limit) {
		window = " (" + jsonv.ToString(start) + " - " + jsonv.FormatNumber(start.Num()+limit.Num()-1) + ")"
	} else if offset.IsDefined() {
		window = " (from line " + jsonv.ToString(offset) + ")"
	}
	fp := args.Get("file_path")
	return jsonv.Obj(
		jsonv.M("card", jsonv.Str("generic")),
		jsonv.M("title", jsonv.Str("Read "+jsonv.ToString(fp)+window)),
		jsonv.M("kind", jsonv.Str("read")),
		jsonv.M("locations", jsonv.Arr(jsonv.Obj(jsonv.M("path", fp), jsonv.M("line", start)))),
	)
}

// jsGreaterThanZero is `v > 0` for the values soft validation lets through
// (numbers); anything else compares false here.
func jsGreaterThanZero(v jsonv.Value) bool { return v.IsNumber() && v.Num() > 0 }

// presentReadResult is read.ts:172-191.
func presentReadResult(_ jsonv.Value, r projector.Result) jsonv.Value {
	if r.IsError {
		return jsonv.Value{}
	}
	meta, ok := ReadMetaFromMeta(r.Meta)
	if !ok {
		return jsonv.Value{}
	}
	if !r.Content.IsArray() || r.Content.Len() != 1 {
		return jsonv.Value{}
	}
	only := r.Content.At(0)
	if only.Get("type").Str() != "text" || !only.Get("type").IsString() {
		return jsonv.Value{}
	}
	text := only.Get("text")
	if text.IsUndefined() {
		return jsonv.Value{}
	}
	body, ok := readEnvelopeBody(jsonv.ToString(text)) // RegExp.exec coerces with String()
	if !ok {
		return jsonv.Value{}
	}
	ms := []jsonv.Member{
		jsonv.M("card", jsonv.Str("read")),
		jsonv.M("path", meta.Get("path")),
		jsonv.M("offset", meta.Get("offset")),
		jsonv.M("lines", meta.Get("lines")),
		jsonv.M("totalLines", meta.Get("totalLines")),
	}
	if lang := meta.Get("lang"); lang.IsDefined() {
		ms = append(ms, jsonv.M("lang", lang))
	}
	ms = append(ms, jsonv.M("content", projector.TextContent(body)))
	return jsonv.Obj(ms...)
}

// readEnvelopeBody matches
// /^<path>[^\n]*<\/path>\n<type>file<\/type>\n<content>\n([\s\S]*)\n<\/content>$/u
// and returns group 1.
func readEnvelopeBody(text string) (string, bool) {
	nl := strings.IndexByte(text, '\n')
	if nl < 0 {
		return "", false
	}
	first := text[:nl]
	if len(first) < len("<path></path>") || !strings.HasPrefix(first, "<path>") || !strings.HasSuffix(first, "</path>") {
		return "", false
	}
	rest := text[nl+1:]
	const head, tail = "<type>file</type>\n<content>\n", "\n</content>"
	if len(rest) < len(head)+len(tail) || !strings.HasPrefix(rest, head) || !strings.HasSuffix(rest, tail) {
		return "", false
	}
	return rest[len(head) : len(rest)-len(tail)], true
}

// ReadMetaFromMeta is upstream readMetaFromMeta (read-render.ts:239-272):
// the narrowed window {path, offset, lines, totalLines, lang?} or false.
// lines is the original array, so extra keys inside line objects survive.
func ReadMetaFromMeta(meta jsonv.Value) (jsonv.Value, bool) {
	if !meta.IsObject() {
		return jsonv.Value{}, false
	}
	path, offset, lines, totalLines, lang := meta.Get("path"), meta.Get("offset"), meta.Get("lines"), meta.Get("totalLines"), meta.Get("lang")
	if !path.IsString() || !totalLines.IsNumber() || !offset.IsNumber() {
		return jsonv.Value{}, false
	}
	if !offset.IsInteger() || offset.Num() < 1 {
		return jsonv.Value{}, false
	}
	if !totalLines.IsInteger() || totalLines.Num() < 0 {
		return jsonv.Value{}, false
	}
	if !lines.IsArray() {
		return jsonv.Value{}, false
	}
	for _, l := range lines.Elems() {
		n := l.Get("number")
		if !l.IsObject() || !n.IsNumber() || !n.IsInteger() || n.Num() < 1 || !l.Get("text").IsString() {
			return jsonv.Value{}, false
		}
	}
	if lang.IsDefined() && !lang.IsString() {
		return jsonv.Value{}, false
	}
	previous := offset.Num() - 1
	for _, l := range lines.Elems() {
		n := l.Get("number").Num()
		if n <= previous || n > totalLines.Num() {
			return jsonv.Value{}, false
		}
		previous = n
	}
	ms := []jsonv.Member{jsonv.M("path", path), jsonv.M("offset", offset), jsonv.M("lines", lines), jsonv.M("totalLines", totalLines)}
	if lang.IsDefined() {
		ms = append(ms, jsonv.M("lang", lang))
	}
	return jsonv.Obj(ms...), true
}

// langByExtension is LANG_BY_EXTENSION (read-render.ts:178-190).
// Built on first use, not at start-up.
var langByExtension = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"ts": "ts", "tsx": "tsx", "mts": "ts", "cts": "ts",
		"js": "js", "jsx": "jsx", "mjs": "js", "cjs": "js",
		"json": "json", "jsonc": "json",
		"py": "py", "rb": "rb", "go": "go", "rs": "rs", "java": "java",
		"c": "c", "h": "c", "cc": "cpp", "cpp": "cpp", "hpp": "cpp", "cxx": "cpp",
		"cs": "cs", "kt": "kotlin", "swift": "swift", "php": "php",
		"sh": "sh", "bash": "sh", "zsh": "sh",
		"yaml": "yaml", "yml": "yaml", "toml": "toml", "ini": "ini",
		"md": "md", "markdown": "md", "mdx": "mdx",
		"html": "html", "htm": "html", "css": "css", "scss": "scss", "less": "less",
		"sql": "sql", "xml": "xml", "lua": "lua",
	}
})

// LangFromPath is upstream langFromPath: both separators, dotfiles have no
// extension, JS toLowerCase on the extension (only ASCII letters and U+212A
// KELVIN SIGN can lower-case into a table key), own keys only.
func LangFromPath(path string) (string, bool) {
	base := path[max(strings.LastIndexByte(path, '/'), strings.LastIndexByte(path, '\\'))+1:]
	dot := strings.LastIndexByte(base, '.')
	if dot <= 0 {
		return "", false
	}
	ext, ok := lowerExtension(base[dot+1:])
	if !ok {
		return "", false
	}
	lang, ok := langByExtension()[ext]
	return lang, ok
}

// lowerExtension is ext.toLowerCase() where the result can be a key of an
// ASCII extension table (only ASCII letters and U+212A KELVIN SIGN lower-case
// into one); ok is false otherwise.
func lowerExtension(ext string) (string, bool) {
	var b strings.Builder
	for _, r := range ext {
		switch {
		case r >= 'A' && r <= 'Z':
			b.WriteRune(r + ('a' - 'A'))
		case r == '\u212A':
			b.WriteByte('k')
		case r < 0x80:
			b.WriteRune(r)
		default:
			return "", false // lower-cases to something outside the ASCII table
		}
	}
	return b.String(), true
}

// allNumberText reports that every line is exactly {number, text}, in that
// order (what read's presentationMeta copies each line to).
func allNumberText(lines jsonv.Value) bool {
	for _, l := range lines.Elems() {
		if ms := l.Members(); len(ms) != 2 || ms[0].Key != "number" || ms[1].Key != "text" {
			return false
		}
	}
	return true
}

// copyLines is lines.map(({number, text}) => ({number, text})).
func copyLines(lines jsonv.Value) ([]jsonv.Value, error) {
	copied := make([]jsonv.Value, lines.Len())
	for i, l := range lines.Elems() {
		if nullish(l) {
			return nil, projector.Throwf("Cannot destructure property 'number' of 'object %s' as it is %s.", jsonv.ToString(l), jsonv.ToString(l))
		}
		if ms := l.Members(); len(ms) == 2 && ms[0].Key == "number" && ms[1].Key == "text" {
			copied[i] = l
			continue
		}
		copied[i] = jsonv.Obj(jsonv.M("number", l.Get("number")), jsonv.M("text", l.Get("text")))
	}
	return copied, nil
}
