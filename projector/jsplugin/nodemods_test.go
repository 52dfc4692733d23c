package jsplugin_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
)

// pathURLCases runs node:path (posix), URL and node:url's fileURLToPath on
// inputs that cover their edge cases (empty paths, dot segments, suffixes,
// default ports, backslashes, file: hosts, invalid URLs).
const pathURLCases = `const P = [
 ["join", []], ["join", [""]], ["join", ["a", "b"]], ["join", ["/a/", "/b/"]], ["join", ["a", "..", "..", "b"]], ["join", ["./a", "./b/."]], ["join", ["/", ".."]], ["join", ["a//b", "", "c/"]],
 ["normalize", [""]], ["normalize", ["."]], ["normalize", ["./"]], ["normalize", ["//a//b//"]], ["normalize", ["../../a/./b/../c"]], ["normalize", ["/../a"]], ["normalize", ["a/.."]], ["normalize", ["a/../"]], ["normalize", ["..."]], ["normalize", ["a/.../..b/..c./."]],
 ["dirname", [""]], ["dirname", ["/"]], ["dirname", ["//"]], ["dirname", ["//a"]], ["dirname", ["a"]], ["dirname", ["a/"]], ["dirname", ["/a/b/"]], ["dirname", ["/a/b//c"]], ["dirname", ["a/b"]],
 ["basename", [""]], ["basename", ["/"]], ["basename", ["/a/b.txt"]], ["basename", ["/a/b.txt/"]], ["basename", ["/a/b.txt", ".txt"]], ["basename", ["b.txt", "b.txt"]], ["basename", ["/a/b.txt", "txt"]], ["basename", ["/a/b.txt//", ".txt"]], ["basename", ["aaa", "a"]], ["basename", ["/x/aaa/", "aa"]], ["basename", ["a.b", "x.b"]],
 ["extname", [""]], ["extname", ["a"]], ["extname", [".a"]], ["extname", ["a."]], ["extname", ["a.b.c"]], ["extname", ["/x.y/z"]], ["extname", [".."]], ["extname", ["a/.b"]], ["extname", ["a..b"]], ["extname", ["a.b/"]], ["extname", ["..b"]],
 ["isAbsolute", [""]], ["isAbsolute", ["/x"]], ["isAbsolute", ["x/"]],
 ["relative", ["/a/b/c", "/a/d"]], ["relative", ["/a", "/a/b/c"]], ["relative", ["/a/b", "/a"]], ["relative", ["/", "/a"]], ["relative", ["/a", "/"]], ["relative", ["/a/b", "/a/b"]], ["relative", ["/ab", "/a"]], ["relative", ["/a", "/ab"]], ["relative", ["/a/b/", "/a/c/"]],
 ["resolve", ["/a", "b", "../c"]], ["resolve", ["/a/", "/b/", "c/"]], ["resolve", ["/", ""]],
]
const U = ["https://a.test/x", "https://a.test", "HTTP://Example.COM:80/a/./b/../c?q=1#f", "http://a.test:8080/", "https://user:pw@h.test/p", "not a url", "http://", "file:///home/u/x.ts", "file://localhost/etc/hosts", "file:///a/b/../c", "mailto:x@y.z", "http://1.2.3.4/", "http://a.test/?", "http://a.test/#", "ws://h:80/", "wss://h:443/x", "ftp://h:21/", "https://h:65536/", "https://h:x/", "http:\\\\h\\p", "  https://h.test/  ", "https://h.test/a/..", "https://h.test/a/.", "urn:isbn:1"]
const props = ["href", "protocol", "username", "password", "host", "hostname", "port", "pathname", "search", "hash", "origin"]
function cases() {
  const out = []
  const q = (x) => JSON.stringify(x)
  for (const [f, a] of P) { try { out.push("path." + f + "(" + a.map(q).join(", ") + ") = " + q(path.posix[f](...a))) } catch (e) { out.push("path." + f + " = !" + e.name) } }
  for (const u of U) { let r; try { const x = new URL(u); r = q(props.map((p) => x[p])) } catch (e) { r = "!" + e.name + ":" + e.code } out.push("new URL(" + q(u) + ") = " + r) }
  for (const u of ["file:///home/u/x.ts", "file:///a%20b/c", "file:///a%2fb", "file://host/x", "https://a/"]) { let r; try { r = q(fileURLToPath(u)) } catch (e) { r = "!" + e.name + ":" + e.code } out.push("fileURLToPath(" + q(u) + ") = " + r) }
  return out
}
`

// pathURLNode is what Node 22 answers for pathURLCases.
const pathURLNode = `path.join() = "."
path.join("") = "."
path.join("a", "b") = "a/b"
path.join("/a/", "/b/") = "/a/b/"
path.join("a", "..", "..", "b") = "../b"
path.join("./a", "./b/.") = "a/b"
path.join("/", "..") = "/"
path.join("a//b", "", "c/") = "a/b/c/"
path.normalize("") = "."
path.normalize(".") = "."
path.normalize("./") = "./"
path.normalize("//a//b//") = "/a/b/"
path.normalize("../../a/./b/../c") = "../../a/c"
path.normalize("/../a") = "/a"
path.normalize("a/..") = "."
path.normalize("a/../") = "./"
path.normalize("...") = "..."
path.normalize("a/.../..b/..c./.") = "a/.../..b/..c."
path.dirname("") = "."
path.dirname("/") = "/"
path.dirname("//") = "/"
path.dirname("//a") = "//"
path.dirname("a") = "."
path.dirname("a/") = "."
path.dirname("/a/b/") = "/a"
path.dirname("/a/b//c") = "/a/b/"
path.dirname("a/b") = "a"
path.basename("") = ""
path.basename("/") = ""
path.basename("/a/b.txt") = "b.txt"
path.basename("/a/b.txt/") = "b.txt"
path.basename("/a/b.txt", ".txt") = "b"
path.basename("b.txt", "b.txt") = ""
path.basename("/a/b.txt", "txt") = "b."
path.basename("/a/b.txt//", ".txt") = "b"
path.basename("aaa", "a") = "aa"
path.basename("/x/aaa/", "aa") = "a"
path.basename("a.b", "x.b") = "a.b"
path.extname("") = ""
path.extname("a") = ""
path.extname(".a") = ""
path.extname("a.") = "."
path.extname("a.b.c") = ".c"
path.extname("/x.y/z") = ""
path.extname("..") = ""
path.extname("a/.b") = ""
path.extname("a..b") = ".b"
path.extname("a.b/") = ".b"
path.extname("..b") = ".b"
path.isAbsolute("") = false
path.isAbsolute("/x") = true
path.isAbsolute("x/") = false
path.relative("/a/b/c", "/a/d") = "../../d"
path.relative("/a", "/a/b/c") = "b/c"
path.relative("/a/b", "/a") = ".."
path.relative("/", "/a") = "a"
path.relative("/a", "/") = ".."
path.relative("/a/b", "/a/b") = ""
path.relative("/ab", "/a") = "../a"
path.relative("/a", "/ab") = "../ab"
path.relative("/a/b/", "/a/c/") = "../c"
path.resolve("/a", "b", "../c") = "/a/c"
path.resolve("/a/", "/b/", "c/") = "/b/c"
path.resolve("/", "") = "/"
new URL("https://a.test/x") = ["https://a.test/x","https:","","","a.test","a.test","","/x","","","https://a.test"]
new URL("https://a.test") = ["https://a.test/","https:","","","a.test","a.test","","/","","","https://a.test"]
new URL("HTTP://Example.COM:80/a/./b/../c?q=1#f") = ["http://example.com/a/c?q=1#f","http:","","","example.com","example.com","","/a/c","?q=1","#f","http://example.com"]
new URL("http://a.test:8080/") = ["http://a.test:8080/","http:","","","a.test:8080","a.test","8080","/","","","http://a.test:8080"]
new URL("https://user:pw@h.test/p") = ["https://user:pw@h.test/p","https:","user","pw","h.test","h.test","","/p","","","https://h.test"]
new URL("not a url") = !TypeError:ERR_INVALID_URL
new URL("http://") = !TypeError:ERR_INVALID_URL
new URL("file:///home/u/x.ts") = ["file:///home/u/x.ts","file:","","","","","","/home/u/x.ts","","","null"]
new URL("file://localhost/etc/hosts") = ["file:///etc/hosts","file:","","","","","","/etc/hosts","","","null"]
new URL("file:///a/b/../c") = ["file:///a/c","file:","","","","","","/a/c","","","null"]
new URL("mailto:x@y.z") = ["mailto:x@y.z","mailto:","","","","","","x@y.z","","","null"]
new URL("http://1.2.3.4/") = ["http://1.2.3.4/","http:","","","1.2.3.4","1.2.3.4","","/","","","http://1.2.3.4"]
new URL("http://a.test/?") = ["http://a.test/?","http:","","","a.test","a.test","","/","","","http://a.test"]
new URL("http://a.test/#") = ["http://a.test/#","http:","","","a.test","a.test","","/","","","http://a.test"]
new URL("ws://h:80/") = ["ws://h/","ws:","","","h","h","","/","","","ws://h"]
new URL("wss://h:443/x") = ["wss://h/x","wss:","","","h","h","","/x","","","wss://h"]
new URL("ftp://h:21/") = ["ftp://h/","ftp:","","","h","h","","/","","","ftp://h"]
new URL("https://h:65536/") = !TypeError:ERR_INVALID_URL
new URL("https://h:x/") = !TypeError:ERR_INVALID_URL
new URL("http:\\\\h\\p") = ["http://h/p","http:","","","h","h","","/p","","","http://h"]
new URL("  https://h.test/  ") = ["https://h.test/","https:","","","h.test","h.test","","/","","","https://h.test"]
new URL("https://h.test/a/..") = ["https://h.test/","https:","","","h.test","h.test","","/","","","https://h.test"]
new URL("https://h.test/a/.") = ["https://h.test/a/","https:","","","h.test","h.test","","/a/","","","https://h.test"]
new URL("urn:isbn:1") = ["urn:isbn:1","urn:","","","","","","isbn:1","","","null"]
fileURLToPath("file:///home/u/x.ts") = "/home/u/x.ts"
fileURLToPath("file:///a%20b/c") = "/a b/c"
fileURLToPath("file:///a%2fb") = !TypeError:ERR_INVALID_FILE_URL_PATH
fileURLToPath("file://host/x") = !TypeError:ERR_INVALID_FILE_URL_HOST
fileURLToPath("https://a/") = !TypeError:ERR_INVALID_URL_SCHEME`

// TestNodePathAndURL: node:path, URL and fileURLToPath answer as Node 22
// does, while loading and in a call; a URL whose parse the sandbox does not
// reproduce (one to percent-encode, a host to normalize) is reported.
func TestNodePathAndURL(t *testing.T) {
	p, err := loadSource(t, `import path from 'node:path'
import { sep, join } from 'path'
import { fileURLToPath } from 'node:url'
`+pathURLCases+`
const AT_LOAD = cases()
export function apply(ctx) {
  ctx.tools.register({ name: 'paths', parameters: { type: 'object' }, output: { schema: {}, render: (args) => {
    if (args.url) return [{ type: 'text', text: new URL(args.url).href }]
    return [{ type: 'text', text: JSON.stringify({ load: AT_LOAD, call: cases(), named: sep + join('a', 'b') }) }]
  } } })
}`, projector.Config{})
	if err != nil {
		t.Fatal(err)
	}
	tool := p.Tools(projector.Config{})[0]
	content, err := tool.RunRender(js(`{}`), jsonv.NullValue())
	if err != nil {
		t.Fatal(err)
	}
	got := jsonv.MustParse(content.At(0).Get("text").Str())
	want := strings.Split(pathURLNode, "\n")
	for _, when := range []string{"load", "call"} {
		lines := got.Get(when).Elems()
		if len(lines) != len(want) {
			t.Errorf("%s: %d answers, want %d", when, len(lines), len(want))
		}
		for i := 0; i < len(lines) && i < len(want); i++ {
			if lines[i].Str() != want[i] {
				t.Errorf("%s: %s\n  want %s", when, lines[i].Str(), want[i])
			}
		}
	}
	if n := got.Get("named").Str(); n != "/a/b" {
		t.Errorf("named imports: %q", n)
	}
	for u, feature := range map[string]string{
		"https://a.test/a b":      "URL with a path to percent-encode",
		"https://h.test/%2e/":     "URL with a percent-encoded dot segment",
		"http://[::1]/":           "URL with an IPv6 host",
		"http://0x7f.1/":          "URL with a numeric host to normalize",
		"https://b\u00fccher.de/": "URL with an internationalized or percent-encoded host",
	} {
		_, err := tool.RunRender(js(`{"url":"`+u+`"}`), jsonv.NullValue())
		var f *projector.Failure
		if !errors.As(err, &f) || f.Class != "sandbox-unsupported" || !strings.Contains(f.Message, feature) {
			t.Errorf("%s: %v, want sandbox-unsupported naming %q", u, err, feature)
		}
	}
}
