package jsplugin_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
)

// exprPlugin loads a plugin whose render returns [{type:'text', text: String(EXPR)}]
// for the expression in args.e.
func exprPlugin(t *testing.T) *projector.Tool {
	t.Helper()
	p, err := loadSource(t, `export function apply(ctx) {
  ctx.tools.register({ name: 'expr', parameters: { type: 'object' }, output: { schema: {},
    render: (args) => [{ type: 'text', text: String((0, eval)(args.e)) }] } })
}`, projector.Config{})
	if err != nil {
		t.Fatal(err)
	}
	return p.Tools(projector.Config{})[0]
}

// TestNodeBuiltins: what Node 22 gives a projector and goja lacks behaves
// as in Node (the expected values are Node 22's).
func TestNodeBuiltins(t *testing.T) {
	tool := exprPlugin(t)
	for _, c := range []struct{ expr, want string }{
		{`Array.from(new TextEncoder().encode('aé😀\ud800')).join()`, "97,195,169,240,159,152,128,239,191,189"},
		{`new TextEncoder().encoding`, "utf-8"},
		{`[Buffer.byteLength('aé😀\ud800'), Buffer.byteLength('\ud800\udc00x\udc00'), Buffer.byteLength('', 'utf-8'), Buffer.isBuffer('x')].join()`, "10,8,0,false"},
		{`(() => { const r = Promise.withResolvers(); return [typeof r.resolve, typeof r.reject, r.promise instanceof Promise, Object.keys(r)].join() })()`, "function,function,true,promise,resolve,reject"},
		{`JSON.stringify(new TextEncoder().encodeInto('aé😀', new Uint8Array(4)))`, `{"read":2,"written":3}`},
		{`new TextDecoder().decode(new Uint8Array([0x61, 0xE2, 0x82, 0x62, 0xF0, 0x9F, 0x98, 0x80, 0xC0, 0xFF, 0xED, 0xA0, 0x80]))`, "a\ufffdb😀\ufffd\ufffd\ufffd\ufffd\ufffd"},
		{`new TextDecoder().decode(new Uint8Array([0xEF, 0xBB, 0xBF, 0x41]))`, "A"},
		{`new TextDecoder('utf-8', {ignoreBOM: true}).decode(new Uint8Array([0xEF, 0xBB, 0xBF, 0x41])).length`, "2"},
		{`new TextDecoder().decode(new Uint8Array([0xF0, 0x9F, 0x98]))`, "\ufffd"},
		{`(() => { try { new TextDecoder('utf8', {fatal: true}).decode(new Uint8Array([0xFF])) } catch (e) { return e.name } })()`, "TypeError"},
		{`new TextDecoder().decode(new TextEncoder().encode('round ✓ trip').buffer)`, "round ✓ trip"},
		{`btoa('hello\xff')`, "aGVsbG//"},
		{`btoa('')+'|'+btoa('a')+'|'+btoa('ab')`, "|YQ==|YWI="},
		{`atob(' aGVs bG8= ')`, "hello"},
		{`atob('YQ')`, "a"},
		{`(() => { try { atob('a') } catch (e) { return e.name + ': ' + e.message } })()`, "InvalidCharacterError: The string to be decoded is not correctly encoded."},
		{`(() => { try { btoa('✓') } catch (e) { return e.name + ': ' + e.message } })()`, "InvalidCharacterError: Invalid character"},
		{`'a\ud800b'.isWellFormed() + ',' + 'a😀'.isWellFormed()`, "false,true"},
		{`JSON.stringify('a\ud800b\udc00😀'.toWellFormed())`, `"a�b�😀"`},
		{`JSON.stringify(Object.groupBy([1, 2, 3, 4], (x) => x % 2 ? 'odd' : 'even'))`, `{"odd":[1,3],"even":[2,4]}`},
		{`Object.getPrototypeOf(Object.groupBy([], (x) => x))`, "null"},
		{`JSON.stringify([...Map.groupBy([1, 2, 3], (x) => x > 1)])`, `[[false,[1]],[true,[2,3]]]`},
		{`[...new Set([1, 2, 3]).union(new Set([4, 1]))].join()`, "1,2,3,4"},
		{`[...new Set([2, 3]).intersection(new Set([3, 2, 1]))].join()`, "2,3"}, // walks the smaller set: this
		{`[...new Set([1, 2, 3]).intersection(new Set([3, 2]))].join()`, "3,2"}, // ... or the other
		{`[...new Set([1, 2, 3]).difference(new Set([2]))].join()`, "1,3"},
		{`[...new Set([1, 2]).symmetricDifference(new Set([2, 3]))].join()`, "1,3"},
		{`new Set([1]).isSubsetOf(new Set([1, 2])) + ',' + new Set([1, 2]).isSupersetOf(new Set([2])) + ',' + new Set([1]).isDisjointFrom(new Set([2]))`, "true,true,true"},
		{`(() => { const o = {a: [1, {b: new Date(0)}], m: new Map([[1, new Set([2])]])}; o.self = o; const c = structuredClone(o); return c !== o && c.self === c && c.a[1].b.getTime() === 0 && c.m.get(1).has(2) })()`, "true"},
		{`(() => { try { structuredClone(() => 1) } catch (e) { return e.name + ': ' + e.message } })()`, "DataCloneError: () => 1 could not be cloned."},
		{`/(?<=a)b/.test('ab') + ',' + /a.c/s.test('a\nc') + ',' + new RegExp('x', 'g').flags + ',' + (/x/ instanceof RegExp)`, "true,true,g,true"},
		{`(() => { class E extends Error { constructor(m) { super(m); this.name = 'E'; Error.captureStackTrace(this, E) } }; const e = new E('boom'); return e.stack + '|' + (e instanceof E) + '|' + Error.stackTraceLimit })()`, "E: boom|true|10"},
		{`[Math.pow(2, 10), Math.pow(2, -3), Math.pow(-4, 3), Math.pow(7, 3), Math.pow(1.5, 2), Math.pow(2, 0.5), Math.pow(10, 0), Math.log2(8), Math.log(1), Math.sin(0), Math.exp(-Infinity), Math.cos(NaN), Math.atan2(0, -1)].join()`, "1024,0.125,-64,343,2.25,1.4142135623730951,1,3,0,0,0,NaN,3.141592653589793"},
		// Strings, sorting, JSON.parse and dates goja did otherwise (values from Node 20).
		{`"\ud83d\ude00".split("").length + "," + "a\ud83d\ude00b".split("", 2).length + "," + "a,b".split(",").length`, "2,2,2"},
		{`JSON.stringify(["\uffff", "\ud83d\ude00", undefined, "b", "a"].sort())`, `["a","b","😀","￿",null]`},
		{`[3,20,100].sort().join() + "|" + ["b","a"].toSorted().join() + "|" + [3,1,2].sort((a, b) => b - a).join()`, "100,20,3|a,b|3,2,1"},
		{`JSON.parse("[1e400]")[0] + "," + JSON.parse('"\\ud800"').charCodeAt(0) + "," + JSON.parse('{"a":[1,2]}', (k, v) => typeof v === "number" ? v * 10 : v).a.join("+") + "," + JSON.stringify(JSON.parse('{"a":1,"b":2}', (k, v) => k === "a" ? undefined : v))`, `Infinity,55296,10+20,{"b":2}`},
		{`(() => { try { JSON.parse("{") } catch (e) { return e.name + (e instanceof SyntaxError) } })()`, "SyntaxErrortrue"},
		// A raw lone surrogate inside a JSON string is kept, as V8 keeps it.
		{`JSON.parse('"\ud800"').charCodeAt(0) + "," + JSON.parse('"a\ud83d\ude00\udc00"').length`, "55296,4"},
		{`new Date(Date.UTC(-1, 0)).toISOString() + " " + new Date(253402300800000).toISOString() + " " + JSON.stringify([new Date(253402300800000)]) + " " + new Date(0).toISOString()`, `-000001-01-01T00:00:00.000Z +010000-01-01T00:00:00.000Z ["+010000-01-01T00:00:00.000Z"] 1970-01-01T00:00:00.000Z`},
		// log, exp, log10 and log2 are fdlibm's, as V8's (values from Node 20;
		// goja's own log(35686.5) ended in ...001).
		{`[Math.log2(3), Math.exp(-0.1), Math.log(1000) / Math.log(10), Math.log10(1234.5), Math.exp(1), Math.log(35686.5), Math.cos(0.7), Math.sin(1e5), Math.atan(0.7), Math.atan2(3, -4), Math.atan2(-1, -1e30), Math.atan(1e300)].map((x) => x.toString()).join(" ")`,
			"1.584962500721156 0.9048374180359595 2.9999999999999996 3.091491094267951 2.718281828459045 10.482527744990009 0.7648421872844885 0.03574879797201651 0.6107259643892086 2.498091544796509 -3.141592653589793 1.5707963267948966"},
		// Numbers written by String(), join and JSON.stringify have V8's digits
		// where goja misprints them; wrappers work when called inside a
		// constructor, where goja leaks new.target (values from Node 20).
		{`(() => { class A { constructor() { this.s = typeof String(1.5) + String(1.5); this.r = RegExp("x") instanceof RegExp } }; const a = new A(); return [String(883.5856854275359), [883.5856854275359, 1, null].join(), JSON.stringify({a: 883.5856854275359, b: [new Number(189.32716233279479)], c: "\u0000dsh"}), JSON.stringify({x: 1.5, y: 2.0000000000000004}, (k, v) => typeof v === "number" ? v * 3 : v, 1), String(), String(Symbol("x")), new String("a") instanceof String, String.fromCharCode(65), a.s, a.r].join(" | ") })()`,
			`883.5856854275359 | 883.5856854275359,1, | {"a":883.5856854275359,"b":[189.32716233279479],"c":"\u0000dsh"} | {` + "\n" + ` "x": 4.5,` + "\n" + ` "y": 6.000000000000002` + "\n" + `} |  | Symbol(x) | true | A | string1.5 | true`},
		// The wrapped constructors are what their instances name.
		{`[("a").constructor === String, /x/.constructor === RegExp, new Date(0).constructor === Date, new RegExp("y") instanceof RegExp, new Date(5) instanceof Date, Object.prototype.toString.call(new Date(0)), typeof String.prototype.trim].join()`,
			"true,true,true,true,true,[object Date],function"},
		// Number methods goja wrote wrongly (values from Node 20).
		{`[(-9.979050159454346).toPrecision(1), (-9.979050159454346).toExponential(0), (-0.9276041984558105).toString(25), (883.5856854275359).toString(), (2.5).toPrecision(1), (0.125).toExponential(1), (-0).toPrecision(3), (255.5).toString(16), (1e21).toPrecision(3), (0.000001234).toPrecision(2), (123.456).toExponential()].join(' ')`,
			"-1e+1 -1e+1 -0.n4ik9ij26g6c 883.5856854275359 3 1.3e-1 0.00 ff.8 1.00e+21 0.0000012 1.23456e+2"},
		{`[(() => { try { (1).toPrecision(0) } catch (e) { return e.name + ': ' + e.message } })(), (() => { try { (1).toString(1) } catch (e) { return e.message } })(), Number.prototype.toFixed.call(new Number(1.5), 1)].join(' | ')`,
			"RangeError: toPrecision() argument must be between 1 and 100 | toString() radix must be between 2 and 36 | 1.5"},
		{`'x1y22'.replace(new RegExp('\\d+', 'g'), (m) => '<' + m + '>')`, "x<1>y<22>"},
	} {
		content, err := tool.RunRender(jsonv.Obj(jsonv.M("e", jsonv.Str(c.expr))), jsonv.NullValue())
		if err != nil {
			t.Errorf("%s: %v", c.expr, err)
			continue
		}
		if got := content.At(0).Get("text").Str(); got != c.want {
			t.Errorf("%s = %q, want %q", c.expr, got, c.want)
		}
	}
}

// TestSandboxUnsupported: what Node has and the sandbox does not provide,
// or what goja would get wrong, is reported as sandbox-unsupported, never
// as a result.
func TestSandboxUnsupported(t *testing.T) {
	tool := exprPlugin(t)
	for _, c := range []struct{ expr, feature string }{
		{`new URL('http://[::1]/').host`, "URL with an IPv6 host"},
		{`new URL('http://x/').searchParams`, "URL.searchParams"},
		{`Buffer.from('a').length`, "Buffer.from"},
		{`Buffer.byteLength('a', 'latin1')`, "Buffer.byteLength in latin1"},
		{`new RegExp('\\p{L}+', 'u').exec('é')[0]`, `Unicode property escapes (\p{...}) in regular expressions`},
		{`new RegExp('\\P{L}', 'u').test('1')`, `Unicode property escapes (\P{...}) in regular expressions`},
		{`'a-b'.replace(new RegExp('(?<x>a)'), '$<x>!')`, "named capture groups ((?<name>...)) in regular expressions"},
		{`new RegExp('(a)\\k<x>').test('aa')`, `named backreferences (\k<name>) in regular expressions`},
		{`new RegExp('[a]', 'v').test('a')`, "the v flag of regular expressions"},
		{`new TextDecoder('latin1').decode(new Uint8Array([0xe9]))`, `TextDecoder for "latin1"`},
		{`Math.pow(9, -8)`, "Math.pow"},
		{`Math.sin(1e10)`, "Math.sin of 10000000000"},
		{`Math.pow(1.1, 100)`, "Math.pow"},
	} {
		_, err := tool.RunRender(jsonv.Obj(jsonv.M("e", jsonv.Str(c.expr))), jsonv.NullValue())
		var f *projector.Failure
		if !errors.As(err, &f) || f.Class != "sandbox-unsupported" || !strings.Contains(f.Message, "used "+c.feature+" at ") {
			t.Errorf("%s: %v, want sandbox-unsupported naming %s", c.expr, err, c.feature)
		}
	}
	// \p without the u flag is a plain "p" in JavaScript, and fine.
	content, err := tool.RunRender(jsonv.Obj(jsonv.M("e", jsonv.Str(`new RegExp('\\p{1}').test('p')`))), jsonv.NullValue())
	if err != nil || content.At(0).Get("text").Str() != "true" {
		t.Errorf("\\p without u: %v %v", content, err)
	}
	// Literals in the plugin's source reach the check too: esbuild turns
	// ES2018 syntax into new RegExp(...).
	p, err := loadSource(t, `export function apply(ctx) {
  ctx.tools.register({ name: 'lit', parameters: { type: 'object' }, output: { schema: {},
    render: (args) => [{ type: 'text', text: args.named ? 'a-b'.replace(/(?<x>a)/, '$<x>!') : args.prop ? String(/\p{L}/u.test('é')) : args.pow ? String(args.pow ** -8) : String(/(?<=a)b/s.test('ab')) }] } })
}`, projector.Config{})
	if err != nil {
		t.Fatal(err)
	}
	lit := p.Tools(projector.Config{})[0]
	for args, want := range map[string]string{`{"named":true}`: "named capture groups", `{"prop":true}`: "Unicode property escapes", `{"pow":9}`: "Math.pow"} {
		_, err := lit.RunRender(js(args), jsonv.NullValue())
		var f *projector.Failure
		if !errors.As(err, &f) || f.Class != "sandbox-unsupported" || !strings.Contains(f.Message, want) {
			t.Errorf("literal %s: %v", args, err)
		}
	}
	if content, err := lit.RunRender(js(`{}`), jsonv.NullValue()); err != nil || content.At(0).Get("text").Str() != "true" {
		t.Errorf("lookbehind and dotAll literals: %v %v", content, err)
	}
}

// TestNumbersGojaMisprints: goja writes about 1 in 8,000 doubles with 17
// significant digits wrongly (883.5856854275359 as 883.585685427536, which
// reads back as another double). A number in a returned value keeps its
// exact double; one of the input that a projector writes into text is
// reported, since Node would have written other digits.
func TestNumbersGojaMisprints(t *testing.T) {
	p, err := loadSource(t, `export function apply(ctx) {
  ctx.tools.register({ name: 'num', parameters: { type: 'object' }, output: { schema: {},
    render: (args, v) => [{ type: 'text', text: args.text ? 'ratio ' + v.r : 'ok' }],
    presentationMeta: (args, v) => ({ r: v.r, half: v.r / 2, list: [v.r] }) } })
}`, projector.Config{})
	if err != nil {
		t.Fatal(err)
	}
	tool := p.Tools(projector.Config{})[0]
	value := jsonv.MustParse(`{"r":883.5856854275359}`)
	meta, _, err := tool.RunPresentationMeta(js(`{}`), value)
	if want := `{"r":883.5856854275359,"half":441.7928427137679,"list":[883.5856854275359]}`; err != nil || jsonv.Encode(meta) != want {
		t.Errorf("meta = %s %v, want %s", jsonv.Encode(meta), err, want)
	}
	_, err = tool.RunRender(js(`{"text":true}`), value)
	var f *projector.Failure
	if !errors.As(err, &f) || f.Class != "sandbox-unsupported" || !strings.Contains(f.Message, "used the number 883.5856854275359 in text, which goja writes as 883.585685427536") {
		t.Errorf("render: %v", err)
	}
	// A number goja writes rightly goes into text as usual.
	content, err := tool.RunRender(js(`{"text":true}`), jsonv.MustParse(`{"r":883.25}`))
	if err != nil || content.At(0).Get("text").Str() != "ratio 883.25" {
		t.Errorf("render 883.25: %v %v", content, err)
	}
}
