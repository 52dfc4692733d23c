package htmlparse

import (
	"bufio"
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/dsh-replay/dsh-replay/jsonv"
)

// testdata/trees.jsonl: the tree domino 2.2.0 builds for
// `<x-turndown id="turndown-root">` + html + `</x-turndown>`, dumped one
// node per line ("| " + two spaces per level; elements as <ns name>,
// attributes, text and comments as JSON strings, template contents under
// "content"). The inputs are the converter corpus and short tag soup.
func TestTreesMatchDomino(t *testing.T) {
	data, err := os.ReadFile("testdata/trees.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 64<<20)
	total, pass := 0, 0
	for sc.Scan() {
		v, err := jsonv.Parse(sc.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		rec := struct{ Name, HTML, Tree string }{v.Get("name").Str(), v.Get("html").Str(), v.Get("tree").Str()}
		total++
		doc, err := Parse(strings.NewReader(`<x-turndown id="turndown-root">` + rec.HTML + `</x-turndown>`))
		if err != nil {
			t.Errorf("%s: %v", rec.Name, err)
			continue
		}
		var out []string
		dump(doc, 0, &out)
		if got := strings.Join(out, "\n"); got != rec.Tree {
			t.Errorf("%s: tree differs\nhtml: %q\nwant:\n%s\ngot:\n%s", rec.Name, rec.HTML, rec.Tree, got)
			continue
		}
		pass++
	}
	t.Logf("trees: %d/%d match domino", pass, total)
}

func quote(s string) string { return jsonv.Quote(s) }

func dump(n *Node, depth int, out *[]string) {
	pad := "| " + strings.Repeat("  ", depth)
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		switch c.Type {
		case ElementNode:
			ns := ""
			if c.Namespace != "" {
				ns = c.Namespace + " "
			}
			*out = append(*out, pad+"<"+ns+c.Data+">")
			for _, a := range c.Attr {
				p := ""
				if a.Namespace != "" {
					p = a.Namespace + " "
				}
				*out = append(*out, pad+"  "+p+a.Key+"="+quote(a.Val))
			}
			if c.Data == "template" && c.Namespace == "" {
				*out = append(*out, pad+"  content")
				dump(c, depth+2, out)
			} else {
				dump(c, depth+1, out)
			}
		case TextNode:
			*out = append(*out, pad+quote(c.Data))
		case CommentNode:
			*out = append(*out, pad+"<!-- "+quote(c.Data)+" -->")
		case DoctypeNode:
			*out = append(*out, pad+"<!DOCTYPE "+c.Data+">")
		}
	}
}
