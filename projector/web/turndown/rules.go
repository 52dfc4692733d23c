package turndown

import (
	"regexp"
	"strings"
	"sync"

	"github.com/dsh-replay/dsh-replay/jsonv"
)

// replacement is a rule's replacement(content, node).
type replacement func(c *converter, content string, n *node) string

// ruleFor is Rules.forNode: the blank rule first, then the rule array in
// the order turndown.addRule/use built it (web_fetch's row and cell rules,
// the GFM plugin's task list, table section/colgroup/caption/table,
// strikethrough and highlighted code block, then turndown's defaults), the
// keep rules, the remove rules (script, style, noscript), and the default.
func (c *converter) ruleFor(n *node) replacement {
	if n.isBlank {
		return blankReplacement
	}
	lower := strings.ToLower(n.name)
	switch lower {
	case "tr":
		return tableRowRule
	case "th", "td":
		return tableCellRule
	}
	if c.removeNonVisible && isNonVisible(n) {
		return removedReplacement
	}
	if isTaskListItem(n) {
		return taskListItemRule
	}
	switch lower {
	case "thead", "tbody", "tfoot":
		return func(_ *converter, content string, _ *node) string { return content }
	case "colgroup", "col", "caption":
		return func(*converter, string, *node) string { return "" }
	}
	if n.name == "TABLE" {
		return tableRule
	}
	switch lower {
	case "del", "s", "strike":
		return func(_ *converter, content string, _ *node) string { return "~~" + content + "~~" }
	}
	if isHighlightedCodeBlock(n) {
		return highlightedCodeBlockRule
	}
	switch lower {
	case "p":
		return func(_ *converter, content string, _ *node) string { return "\n\n" + content + "\n\n" }
	case "br":
		return func(*converter, string, *node) string { return "  \n" }
	case "h1", "h2", "h3", "h4", "h5", "h6":
		return headingRule
	case "blockquote":
		return blockquoteRule
	case "ul", "ol":
		return listRule
	case "li":
		return listItemRule
	}
	if n.name == "PRE" && n.first != nil && n.first.name == "CODE" {
		return fencedCodeBlockRule
	}
	if lower == "hr" {
		return func(*converter, string, *node) string { return "\n\n* * *\n\n" }
	}
	if n.name == "A" && n.attr("href") != "" {
		return inlineLinkRule
	}
	switch lower {
	case "em", "i":
		return func(_ *converter, content string, _ *node) string {
			if trimJS(content) == "" {
				return ""
			}
			return "_" + content + "_"
		}
	case "strong", "b":
		return func(_ *converter, content string, _ *node) string {
			if trimJS(content) == "" {
				return ""
			}
			return "**" + content + "**"
		}
	}
	if n.name == "CODE" && !(n.parent.name == "PRE" && n.prev == nil && n.next == nil) {
		return codeRule
	}
	switch lower {
	case "img":
		return imageRule
	case "script", "style", "noscript":
		// turndown.remove, which Options.RemoveNonVisible replaces: it
		// also matched foreign (SVG, MathML) elements of those names.
		if !c.removeNonVisible {
			return removedReplacement
		}
	}
	return defaultReplacement
}

func removedReplacement(*converter, string, *node) string { return "" }

// isNonVisible is the filter of web_fetch's removeNonVisibleContent rule.
func isNonVisible(n *node) bool {
	switch n.name { // nodeName: upper case for HTML elements only
	case "SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE", "IFRAME", "OBJECT", "EMBED":
		return true
	}
	if _, ok := n.getAttribute("hidden"); ok {
		return true
	}
	if v, ok := n.getAttribute("aria-hidden"); ok && lowerJS(v) == "true" {
		return true
	}
	if n.name == "INPUT" {
		if v, ok := n.getAttribute("type"); ok && lowerJS(v) == "hidden" {
			return true
		}
	}
	style, ok := n.getAttribute("style")
	if !ok {
		return false
	}
	for _, decl := range strings.Split(style, ";") {
		prop, value, found := strings.Cut(decl, ":")
		if !found {
			continue
		}
		prop = lowerJS(trimJS(prop))
		value = lowerJS(trimJS(value))
		// .replace(/\s*!important\s*$/u, ''): value is trimmed already.
		if v, cut := strings.CutSuffix(value, "!important"); cut {
			value = trimEndJS(v)
		}
		if prop == "display" && value == "none" || prop == "visibility" && (value == "hidden" || value == "collapse") {
			return true
		}
	}
	return false
}

// lowerJS is String.prototype.toLowerCase where it differs from
// strings.ToLower on what the rule compares: U+0130 lowers to "i\u0307".
func lowerJS(s string) string {
	return strings.ToLower(strings.ReplaceAll(s, "\u0130", "i\u0307"))
}

func blankReplacement(_ *converter, _ string, n *node) string {
	if n.isBlock {
		return "\n\n"
	}
	return ""
}

func defaultReplacement(_ *converter, content string, n *node) string {
	if n.isBlock {
		return "\n\n" + content + "\n\n"
	}
	return content
}

func headingRule(_ *converter, content string, n *node) string {
	level := int(n.name[1] - '0')
	return "\n\n" + strings.Repeat("#", level) + " " + content + "\n\n"
}

func blockquoteRule(_ *converter, content string, _ *node) string {
	return "\n\n" + prefixLines(trimNewlines(content), "> ") + "\n\n"
}

// prefixLines is s.replace(/^/gm, p): p at the start and after every line
// terminator (\n, \r, U+2028, U+2029).
func prefixLines(s, p string) string {
	var b strings.Builder
	b.WriteString(p)
	for i := 0; i < len(s); i++ {
		b.WriteByte(s[i])
		switch {
		case s[i] == '\n' || s[i] == '\r':
			b.WriteString(p)
		case s[i] == 0xE2 && i+2 < len(s) && s[i+1] == 0x80 && (s[i+2] == 0xA8 || s[i+2] == 0xA9):
			b.WriteString(s[i+1 : i+3])
			i += 2
			b.WriteString(p)
		}
	}
	return b.String()
}

func listRule(_ *converter, content string, n *node) string {
	if p := n.parent; p.name == "LI" && p.lastElementChild() == n {
		return "\n" + content
	}
	return "\n\n" + content + "\n\n"
}

func listItemRule(_ *converter, content string, n *node) string {
	prefix := "-   "
	if p := n.parent; p.name == "OL" {
		index := n.elementIndex()
		if start, _ := p.getAttribute("start"); start != "" {
			prefix = jsonv.FormatNumber(jsNumber(start)+float64(index)) + ".  "
		} else {
			prefix = jsonv.FormatNumber(float64(index+1)) + ".  "
		}
	}
	isParagraph := strings.HasSuffix(content, "\n")
	content = trimNewlines(content)
	if isParagraph {
		content += "\n"
	}
	content = strings.ReplaceAll(content, "\n", "\n"+strings.Repeat(" ", jsonv.Len16(prefix)))
	suffix := ""
	if n.next != nil {
		suffix = "\n"
	}
	return prefix + content + suffix
}

var languageRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`language-([^\t\n\v\f\r \x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}\x{feff}]+)`)
})

func fencedCodeBlockRule(_ *converter, _ string, n *node) string {
	code := n.first
	language := ""
	if m := languageRe().FindStringSubmatch(code.attr("class")); m != nil {
		language = m[1]
	}
	text := code.textContent()
	fenceSize := 3
	for _, run := range lineStartBacktickRuns(text) {
		if run >= fenceSize {
			fenceSize = run + 1
		}
	}
	fence := strings.Repeat("`", fenceSize)
	return "\n\n" + fence + language + "\n" + strings.TrimSuffix(text, "\n") + "\n" + fence + "\n\n"
}

// lineStartBacktickRuns are the matches of /^`{3,}/gm: runs of three or
// more backticks at the start of the text or after a line terminator.
func lineStartBacktickRuns(s string) []int {
	var runs []int
	atStart := true
	for i := 0; i < len(s); {
		if atStart && s[i] == '`' {
			j := i
			for j < len(s) && s[j] == '`' {
				j++
			}
			if j-i >= 3 {
				runs = append(runs, j-i)
			}
			atStart = false
			i = j
			continue
		}
		atStart = false
		switch {
		case s[i] == '\n' || s[i] == '\r':
			atStart = true
			i++
		case s[i] == 0xE2 && i+2 < len(s) && s[i+1] == 0x80 && (s[i+2] == 0xA8 || s[i+2] == 0xA9):
			atStart = true
			i += 3
		default:
			i++
		}
	}
	return runs
}

var highlightRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`highlight-(?:text|source)-([a-z0-9]+)`) })

func isHighlightedCodeBlock(n *node) bool {
	return n.name == "DIV" && highlightRe().MatchString(n.attr("class")) && n.first != nil && n.first.name == "PRE"
}

func highlightedCodeBlockRule(_ *converter, _ string, n *node) string {
	language := ""
	if m := highlightRe().FindStringSubmatch(n.attr("class")); m != nil {
		language = m[1]
	}
	return "\n\n```" + language + "\n" + n.first.textContent() + "\n```\n\n"
}

func inlineLinkRule(_ *converter, content string, n *node) string {
	href := escapeLinkDestination(n.attr("href"))
	title := escapeLinkTitle(cleanAttribute(n.attr("title")))
	titlePart := ""
	if title != "" {
		titlePart = ` "` + title + `"`
	}
	return "[" + content + "](" + href + titlePart + ")"
}

func imageRule(_ *converter, _ string, n *node) string {
	alt := escapeMarkdown(cleanAttribute(n.attr("alt")))
	src := escapeLinkDestination(n.attr("src"))
	title := cleanAttribute(n.attr("title"))
	titlePart := ""
	if title != "" {
		titlePart = ` "` + escapeLinkTitle(title) + `"`
	}
	if src == "" {
		return ""
	}
	return "![" + alt + "](" + src + titlePart + ")"
}

func codeRule(_ *converter, content string, _ *node) string {
	if content == "" {
		return ""
	}
	content = strings.ReplaceAll(content, "\r\n", " ")
	content = strings.NewReplacer("\n", " ", "\r", " ").Replace(content)
	extra := ""
	if codeNeedsSpace(content) {
		extra = " "
	}
	delimiter := "`"
	runs := map[int]bool{}
	for i := 0; i < len(content); {
		if content[i] != '`' {
			i++
			continue
		}
		j := i
		for j < len(content) && content[j] == '`' {
			j++
		}
		runs[j-i] = true
		i = j
	}
	for runs[len(delimiter)] {
		delimiter += "`"
	}
	return delimiter + extra + content + extra + delimiter
}

// codeNeedsSpace is /^`|^ .*?[^ ].* $|`$/.test(content) once \r and \n
// are gone: "." still refuses U+2028 and U+2029.
func codeNeedsSpace(s string) bool {
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		return true
	}
	if len(s) < 3 || s[0] != ' ' || s[len(s)-1] != ' ' {
		return false
	}
	inner := s[1 : len(s)-1]
	terms := strings.Count(inner, "\u2028") + strings.Count(inner, "\u2029")
	switch terms {
	case 0:
		return strings.Trim(inner, " ") != ""
	case 1:
		return true // the terminator itself is the [^ ]
	}
	return false
}

// cleanAttribute collapses each newline run and the whitespace after it.
func cleanAttribute(s string) string {
	if !strings.Contains(s, "\n") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] != '\n' {
			b.WriteByte(s[i])
			i++
			continue
		}
		b.WriteByte('\n')
		rest := trimStartJS(s[i:])
		i = len(s) - len(rest)
	}
	return b.String()
}

func escapeLinkDestination(d string) string {
	var b strings.Builder
	for i := 0; i < len(d); i++ {
		switch d[i] {
		case '<', '>', '(', ')':
			b.WriteByte('\\')
		}
		b.WriteByte(d[i])
	}
	e := b.String()
	if strings.Contains(e, " ") {
		return "<" + e + ">"
	}
	return e
}

func escapeLinkTitle(t string) string { return strings.ReplaceAll(t, `"`, `\"`) }

// isTaskListItem is the GFM taskListItems filter.
func isTaskListItem(n *node) bool {
	if !(domType(n) == "checkbox" || n.attr("role") == "checkbox") {
		return false
	}
	parent := n.parent
	gp := parent.parent
	gpLI := gp != nil && gp.name == "LI"
	return parent.name == "LI" || (parent.name == "LABEL" && gpLI) || (parent.name == "SPAN" && gpLI)
}

func taskListItemRule(_ *converter, _ string, n *node) string {
	checked := false
	if n.name == "INPUT" {
		_, checked = n.getAttribute("checked")
	} else {
		checked = n.attr("aria-checked") == "true"
	}
	if checked {
		return "[x] "
	}
	return "[ ] "
}

// domType is the element's `type` IDL attribute in domino: plain string
// reflection on some elements, enumerated (Unicode-lowercased) on others,
// undefined elsewhere.
func domType(n *node) string {
	if !n.isHTML() {
		return ""
	}
	v, ok := n.getAttribute("type")
	switch n.local {
	case "a", "area", "embed", "li", "link", "ol", "object", "param", "script", "style", "ul", "source":
		return v
	case "input":
		if ok && strings.ToLower(v) == "checkbox" {
			return "checkbox"
		}
	case "menuitem":
		if ok && strings.ToLower(v) == "checkbox" {
			return "checkbox"
		}
	}
	return ""
}

// escapeMarkdown is turndown's escape(): its regular expressions applied in
// order, each to the previous result.
func escapeMarkdown(s string) string {
	s = strings.ReplaceAll(s, `\`, `\\`)
	s = strings.ReplaceAll(s, `*`, `\*`)
	if strings.HasPrefix(s, "-") {
		s = `\` + s
	}
	if strings.HasPrefix(s, "+ ") {
		s = `\` + s
	}
	if strings.HasPrefix(s, "=") {
		s = `\` + s
	}
	if k := leadingRun(s, '#'); k >= 1 && k <= 6 && len(s) > k && s[k] == ' ' {
		s = `\` + s
	}
	s = strings.ReplaceAll(s, "`", "\\`")
	if strings.HasPrefix(s, "~~~") {
		s = `\` + s
	}
	s = strings.ReplaceAll(s, `[`, `\[`)
	s = strings.ReplaceAll(s, `]`, `\]`)
	if strings.HasPrefix(s, ">") {
		s = `\` + s
	}
	s = strings.ReplaceAll(s, `_`, `\_`)
	if k := leadingDigits(s); k > 0 && len(s) >= k+2 && s[k] == '.' && s[k+1] == ' ' {
		s = s[:k] + `\` + s[k:]
	}
	return s
}

func leadingRun(s string, c byte) int {
	k := 0
	for k < len(s) && s[k] == c {
		k++
	}
	return k
}

func leadingDigits(s string) int {
	k := 0
	for k < len(s) && s[k] >= '0' && s[k] <= '9' {
		k++
	}
	return k
}
