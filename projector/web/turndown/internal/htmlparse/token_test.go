package htmlparse

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/dsh-replay/dsh-replay/jsonv"
)

// tokens lists what a tokenizer yields for s: each token's type, raw bytes,
// and its parsed form (tag name, attributes, unescaped text), as strings.
func tokens(s string, copied bool) []string {
	var out []string
	if copied {
		z := NewTokenizer(strings.NewReader(s))
		for {
			tt := z.Next()
			raw := string(z.Raw())
			if tt == ErrorToken {
				return append(out, fmt.Sprintf("error %v", z.Err() == io.EOF))
			}
			tok := z.Token()
			out = append(out, fmt.Sprintf("%v %q %q %q", tok.Type, raw, tok.Data, fmt.Sprint(tok.Attr)))
		}
	}
	z := html.NewTokenizer(strings.NewReader(s))
	for {
		tt := z.Next()
		raw := string(z.Raw())
		if tt == html.ErrorToken {
			return append(out, fmt.Sprintf("error %v", z.Err() == io.EOF))
		}
		tok := z.Token()
		out = append(out, fmt.Sprintf("%v %q %q %q", tok.Type, raw, tok.Data, fmt.Sprint(tok.Attr)))
	}
}

func checkTokens(t *testing.T, s string) {
	t.Helper()
	got, want := tokens(s, true), tokens(s, false)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("%q: the copied tokenizer differs from x/net/html's\ngot:\n%s\nwant:\n%s", s, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// The copied tokenizer, with its entity tables built on first use, yields
// what x/net/html's yields: character references of every kind (named with
// and without the semicolon, two-rune, numeric, the Windows-1252 remaps),
// and the converter corpus's documents.
func TestTokenizerMatchesXNet(t *testing.T) {
	for _, s := range []string{
		"",
		"a &amp; b &AMP c &AElig; &aelig d &nLt; &NotEqualTilde; e",
		"&notit; &notin; &not &noti &#65; &#x41; &#X1F600; &#128; &#x9f; &#0; &#xD800; &#1114112;",
		`<a href="?a=1&amp;b=2&copy=3&lt">x&lt;y&gt</a><p title='&quot;q&quot;'>`,
		"<script>&amp; </script><style>&lt;</style><textarea>&amp;</textarea><title>&gt;</title>",
		"<!-- c --><!DOCTYPE html><![CDATA[x]]><svg><![CDATA[y]]></svg>",
		"&;&&#;&#x;&#xg;&bogus;&ampx &amp",
	} {
		checkTokens(t, s)
	}
	data, err := os.ReadFile("testdata/trees.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 64<<20)
	n := 0
	for sc.Scan() {
		v, err := jsonv.Parse(sc.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		checkTokens(t, v.Get("html").Str())
		n++
	}
	if n == 0 {
		t.Fatal("no documents in testdata/trees.jsonl")
	}
}

func FuzzTokenizerMatchesXNet(f *testing.F) {
	for _, s := range []string{"a &amp; b", "&notit;&nLt;", "<a b='&lt'>&#x80;</a>", "<script>&amp;</script>"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkTokens(t, s)
	})
}
