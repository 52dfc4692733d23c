package turndown

import (
	"regexp"
	"strings"
	"sync"

	"github.com/dsh-replay/dsh-replay/jsonv"
)

// renderTableCell is web_fetch's cell renderer: trimmed content, newlines
// as <br>, pipes escaped, padded to three UTF-16 units.
func renderTableCell(content string, index int) string {
	prefix := " "
	if index == 0 {
		prefix = "| "
	}
	escaped := trimJS(content)
	escaped = strings.ReplaceAll(escaped, "\n\r", "<br>")
	escaped = strings.ReplaceAll(escaped, "\n", "<br>")
	escaped = pipeRuns().ReplaceAllString(escaped, `\|`)
	if n := jsonv.Len16(escaped); n < 3 {
		escaped += strings.Repeat(" ", 3-n)
	}
	return prefix + escaped + " |"
}

var pipeRuns = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\|+`) })

// tableCellRule ignores colspan; the index counts all child nodes.
func tableCellRule(_ *converter, content string, n *node) string {
	return renderTableCell(content, n.childIndex())
}

func tableRowRule(_ *converter, content string, n *node) string {
	border := ""
	if cells, heading := isTableHeadingRow(n); heading {
		var b strings.Builder
		for i, cell := range cells {
			b.WriteString(renderTableCell(tableBorder(cell), i))
		}
		border = b.String()
	}
	if border != "" {
		return "\n" + content + "\n" + border
	}
	return "\n" + content
}

// rowCells is HTMLTableRowElement.cells (domino: querySelectorAll('td,th')
// over all descendants); a non-HTML tr has none and Array.from throws.
func rowCells(row *node) []*node {
	if !(row.isHTML() && row.local == "tr") {
		throwf("undefined is not iterable (cannot read property Symbol(Symbol.iterator))")
	}
	return row.querySelectorAllCells()
}

// tableRows is the `rows` IDL attribute of a table or table section
// (domino: getElementsByTagName('tr')); ok is false where it is undefined.
func tableRows(n *node) ([]*node, bool) {
	if !hasRows(n) {
		return nil, false
	}
	return n.elementsByLocalName("tr"), true
}

// hasRows: the element has a `rows` IDL attribute (table and sections).
func hasRows(n *node) bool {
	if !n.isHTML() {
		return false
	}
	switch n.local {
	case "table", "thead", "tbody", "tfoot":
		return true
	}
	return false
}

// parentElement is null for a non-element parent.
func parentElement(n *node) *node {
	if n.parent != nil && n.parent.typ == elementNode {
		return n.parent
	}
	return nil
}

// isTableHeadingRow is web_fetch's heading-row test.
func isTableHeadingRow(row *node) ([]*node, bool) {
	cells := rowCells(row)
	section := parentElement(row)
	if section == nil {
		throwf("Cannot read properties of null (reading 'parentElement')")
	}
	table := parentElement(section)
	if section.name != "THEAD" {
		if table == nil {
			throwf("Cannot read properties of null (reading 'rows')")
		}
		if !hasRows(table) {
			throwf("Cannot read properties of undefined (reading '0')")
		}
		if table.firstByLocalName("tr") != row { // rows[0] === row
			return cells, false
		}
	}
	for _, c := range cells {
		if c.name != "TH" {
			return cells, false
		}
	}
	return cells, true
}

// alignmentOf is (el.getAttribute('align') || el.style.textAlign || ”)
// .toLowerCase(); MathML elements have no style in domino.
func alignmentOf(el *node) string {
	if el.typ != elementNode {
		throwf("node.getAttribute is not a function")
	}
	a := el.attr("align")
	if a == "" {
		if el.ns == nsMath {
			throwf("Cannot read properties of undefined (reading 'textAlign')")
		}
		a = styleProperty(el.attr("style"), "text-align")
	}
	return strings.ToLower(a)
}

func tableBorder(cell *node) string {
	switch alignmentOf(cell) {
	case "left":
		return ":---"
	case "right":
		return "---:"
	case "center":
		return ":---:"
	}
	return "---"
}

// tableRule is the GFM plugin's table rule.
func tableRule(c *converter, content string, n *node) string {
	if tableShouldBeHTML(n) {
		html := outerHTML(n)
		div := n.parent
		for div != nil && div.name != "DIV" {
			div = div.parent
		}
		if div == nil || !div.hasClass("joplin-table-wrapper") {
			return "\n\n<div class=\"joplin-table-wrapper\">" + html + "</div>\n\n"
		}
		return html
	}
	if c.tableShouldBeSkipped(n) {
		return content
	}
	content = newlineRuns().ReplaceAllString(content, "\n")
	lines := strings.Split(trimJS(content), "\n")
	second := lines[0]
	if len(lines) >= 2 {
		second = lines[1]
	}
	divider := dividerRe().MatchString(second)
	rows, _ := tableRows(n)
	columns := tableColCount(rows)
	emptyHeader := ""
	if columns > 0 && !divider {
		var b strings.Builder
		b.WriteString("|" + strings.Repeat("     |", columns) + "\n|")
		children := make([][]*node, len(rows)) // row.childNodes
		for i, r := range rows {
			for c := r.first; c != nil; c = c.next {
				children[i] = append(children[i], c)
			}
		}
		for i := 0; i < columns; i++ {
			b.WriteString(" " + columnBorder(children, i) + " |")
		}
		emptyHeader = b.String()
	}
	caption := ""
	if cap := firstCaption(n); cap != nil {
		if t := cap.textContent(); t != "" {
			caption = t + "\n\n"
		}
	}
	return "\n\n" + caption + trimStartJS(emptyHeader+content) + "\n\n"
}

var (
	newlineRuns = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\n+`) })
	dividerRe   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\| :?---`) })
)

// firstCaption is querySelector('caption').
func firstCaption(n *node) *node {
	var out *node
	n.walk(func(e *node) bool {
		if e.typ == elementNode && strings.ToLower(e.name) == "caption" {
			out = e
			return false
		}
		return true
	})
	return out
}

func tableColCount(rows []*node) int {
	max := 0
	for _, r := range rows {
		if k := r.childCount(); k > max {
			max = k
		}
	}
	return max
}

// columnBorder is getBorder(getColumnAlignment(table, i)): the most voted
// alignment among the rows' i-th child nodes (ties keep the earlier).
func columnBorder(rows [][]*node, col int) string {
	votes := map[string]int{"left": 0, "right": 0, "center": 0, "": 0}
	align := ""
	for _, r := range rows {
		if col < len(r) {
			a := alignmentOf(r[col])
			if _, counted := votes[a]; !counted {
				continue // votes[a] is NaN in JavaScript and never wins
			}
			votes[a]++
			if votes[a] > votes[align] {
				align = a
			}
		}
	}
	switch align {
	case "left":
		return ":---"
	case "right":
		return "---:"
	case "center":
		return ":---:"
	}
	return "---"
}

// tableShouldBeHTML: a table holding a list, heading, rule or blockquote
// is kept as HTML. The plugin's 'code' test is String.prototype.includes
// on "code", so it only fires for a (foreign) element whose nodeName is a
// substring of "code".
func tableShouldBeHTML(table *node) bool {
	found := false
	table.walk(func(e *node) bool {
		switch e.name {
		case "UL", "OL", "H1", "H2", "H3", "H4", "H5", "H6", "HR", "BLOCKQUOTE":
			found = true
		default:
			found = e.name != "" && strings.Contains("code", e.name)
		}
		return !found
	})
	return found
}

func (c *converter) tableShouldBeSkipped(table *node) bool {
	if v, ok := c.skipCache[table]; ok {
		return v
	}
	v := tableShouldBeSkipped(table)
	c.skipCache[table] = v
	return v
}

func tableShouldBeSkipped(table *node) bool {
	rows, _ := tableRows(table)
	if len(rows) == 1 && rows[0].childCount() <= 1 {
		return true
	}
	contains := false
	table.walk(func(e *node) bool {
		contains = e.name == "TABLE"
		return !contains
	})
	return contains
}

// styleProperty is domino's style.getPropertyValue(name) over a style
// attribute (Angular's style parser: the last declaration wins,
// "!important" dropped).
func styleProperty(style, name string) string {
	if style == "" {
		return ""
	}
	pairs := parseStyle(style)
	if len(pairs) < 2 {
		return ""
	}
	val := ""
	found := false
	for i := 0; i+1 < len(pairs); i += 2 {
		if pairs[i] == name {
			v := pairs[i+1]
			if strings.HasSuffix(v, "!important") {
				v = trimJS(strings.TrimSuffix(v, "!important"))
			}
			val, found = v, true
		}
	}
	if !found {
		return ""
	}
	return val
}

// parseStyle is the style parser domino bundles: [name, value, ...].
func parseStyle(value string) []string {
	u := jsonv.Units(value)
	var styles []string
	parenDepth := 0
	quote := 0
	valueStart, propStart := 0, 0
	prop := ""
	hasProp := false
	sub := func(i, j int) string { return jsonv.FromUnits(u[i:j]) }
	for i := 0; i < len(u); {
		tok := int(u[i])
		i++
		switch tok {
		case '(':
			parenDepth++
		case ')':
			parenDepth--
		case '\'', '"':
			if quote == 0 {
				quote = tok
			} else if quote == tok && u[i-1] != '\\' {
				quote = 0
			}
		case ':':
			if !hasProp && parenDepth == 0 && quote == 0 {
				prop = hyphenate(trimJS(sub(propStart, i-1)))
				hasProp = prop != ""
				valueStart = i
			}
		case ';':
			if hasProp && valueStart > 0 && parenDepth == 0 && quote == 0 {
				styles = append(styles, prop, trimJS(sub(valueStart, i-1)))
				propStart = i
				valueStart = 0
				prop, hasProp = "", false
			}
		}
	}
	if hasProp && valueStart > 0 {
		styles = append(styles, prop, trimJS(sub(valueStart, len(u))))
	}
	return styles
}

// hyphenate inserts "-" between a lower-case and an upper-case ASCII
// letter, then lower-cases (JavaScript toLowerCase).
func hyphenate(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		b.WriteByte(s[i])
		if s[i] >= 'a' && s[i] <= 'z' && i+1 < len(s) && s[i+1] >= 'A' && s[i+1] <= 'Z' {
			b.WriteByte('-')
			b.WriteByte(s[i+1])
			i++
		}
	}
	return strings.ToLower(b.String())
}
