package jsplugin_test

import (
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
	"github.com/dsh-replay/dsh-replay/projector/jsplugin"
)

// dateChecks calls every Date method the way libraries do: through
// Date.prototype.X.call, on a Date and on a subclass's instance, with the
// statics, the shapes (name, length) and Object.prototype.toString. Only
// what does not depend on the time zone.
const dateChecks = `function checks() {
  const out = []
  const put = (label, f) => { try { out.push(label + '=' + JSON.stringify(f())) } catch (e) { out.push(label + '!' + e.name) } }
  class Stamp extends Date {
    get year() { return this.getUTCFullYear() }
  }
  const d = new Date(Date.UTC(2021, 2, 4, 5, 6, 7, 8))
  const s = new Stamp(Date.UTC(1999, 11, 31, 23, 59, 59, 999))
  put('Date.length', () => Date.length)
  put('Date.name', () => Date.name)
  put('proto.constructor', () => Date.prototype.constructor === Date)
  put('toString.call(d)', () => Object.prototype.toString.call(d))
  put('toString.call(s)', () => Object.prototype.toString.call(s))
  put('toString.call(proto)', () => Object.prototype.toString.call(Date.prototype))
  put('s instanceof Stamp', () => s instanceof Stamp)
  put('s instanceof Date', () => s instanceof Date)
  put('proto of s', () => Object.getPrototypeOf(s) === Stamp.prototype)
  put('s.constructor', () => s.constructor === Stamp)
  put('s.year', () => s.year)
  put('Reflect.construct', () => { const r = Reflect.construct(Date, [0], Stamp); return [r instanceof Stamp, r.getTime()] })
  put('copy', () => new Date(d).getTime() === d.getTime())
  put('copy subclass', () => new Stamp(s).getTime())
  put('parse', () => new Date('2020-01-02T03:04:05Z').getTime())
  put('Date.UTC', () => Date.UTC(2020, 1, 29))
  put('Date.parse', () => Date.parse('2020-01-02T03:04:05.006Z'))
  put('invalid', () => isNaN(new Date(NaN).getTime()))
  put('JSON', () => JSON.stringify({ d, s }))
  put('toJSON invalid', () => new Date(NaN).toJSON())
  put('toPrimitive number', () => d[Symbol.toPrimitive]('number'))
  put('minus', () => s - d)
  put('plus number', () => +d)
  const pure = {
    getTime: [], valueOf: [], getUTCFullYear: [], getUTCMonth: [], getUTCDate: [], getUTCDay: [], getUTCHours: [],
    getUTCMinutes: [], getUTCSeconds: [], getUTCMilliseconds: [], getMilliseconds: [], toISOString: [], toUTCString: [], toGMTString: [], toJSON: [],
    setTime: [86400000], setUTCFullYear: [2000, 1, 2], setUTCMonth: [3, 4], setUTCDate: [5], setUTCHours: [6, 7, 8, 9],
    setUTCMinutes: [10, 11, 12], setUTCSeconds: [13, 14], setUTCMilliseconds: [15], setMilliseconds: [16],
  }
  for (const name of Object.keys(pure)) {
    for (const [which, x] of [['d', d], ['s', s]]) {
      const c = new (x.constructor)(x.getTime())
      put(name + '.call(' + which + ')', () => [Date.prototype[name].call(c, ...pure[name]), c.getTime()])
    }
  }
  put('incompatible', () => Date.prototype.getTime.call({}))
  const names = Object.getOwnPropertyNames(Date.prototype).sort()
  put('names', () => names)
  put('shapes', () => names.filter(n => typeof Date.prototype[n] === 'function').map(n => n + '/' + Date.prototype[n].name + '/' + Date.prototype[n].length))
  put('enumerable', () => names.filter(n => Object.getOwnPropertyDescriptor(Date.prototype, n).enumerable))
  put('statics', () => Object.getOwnPropertyNames(Date).sort().map(n => n + (typeof Date[n] === 'function' ? '/' + Date[n].length : '')))
  return out
}
`

// dateChecksNode is what Node 22 prints for dateChecks (the same under
// TZ=UTC and TZ=Asia/Kolkata); errors by name only, as engines word them
// differently.
const dateChecksNode = `Date.length=7
Date.name="Date"
proto.constructor=true
toString.call(d)="[object Date]"
toString.call(s)="[object Date]"
toString.call(proto)="[object Object]"
s instanceof Stamp=true
s instanceof Date=true
proto of s=true
s.constructor=true
s.year=1999
Reflect.construct=[true,0]
copy=true
copy subclass=946684799999
parse=1577934245000
Date.UTC=1582934400000
Date.parse=1577934245006
invalid=true
JSON="{\"d\":\"2021-03-04T05:06:07.008Z\",\"s\":\"1999-12-31T23:59:59.999Z\"}"
toJSON invalid=null
toPrimitive number=1614834367008
minus=-668149567009
plus number=1614834367008
getTime.call(d)=[1614834367008,1614834367008]
getTime.call(s)=[946684799999,946684799999]
valueOf.call(d)=[1614834367008,1614834367008]
valueOf.call(s)=[946684799999,946684799999]
getUTCFullYear.call(d)=[2021,1614834367008]
getUTCFullYear.call(s)=[1999,946684799999]
getUTCMonth.call(d)=[2,1614834367008]
getUTCMonth.call(s)=[11,946684799999]
getUTCDate.call(d)=[4,1614834367008]
getUTCDate.call(s)=[31,946684799999]
getUTCDay.call(d)=[4,1614834367008]
getUTCDay.call(s)=[5,946684799999]
getUTCHours.call(d)=[5,1614834367008]
getUTCHours.call(s)=[23,946684799999]
getUTCMinutes.call(d)=[6,1614834367008]
getUTCMinutes.call(s)=[59,946684799999]
getUTCSeconds.call(d)=[7,1614834367008]
getUTCSeconds.call(s)=[59,946684799999]
getUTCMilliseconds.call(d)=[8,1614834367008]
getUTCMilliseconds.call(s)=[999,946684799999]
getMilliseconds.call(d)=[8,1614834367008]
getMilliseconds.call(s)=[999,946684799999]
toISOString.call(d)=["2021-03-04T05:06:07.008Z",1614834367008]
toISOString.call(s)=["1999-12-31T23:59:59.999Z",946684799999]
toUTCString.call(d)=["Thu, 04 Mar 2021 05:06:07 GMT",1614834367008]
toUTCString.call(s)=["Fri, 31 Dec 1999 23:59:59 GMT",946684799999]
toGMTString.call(d)=["Thu, 04 Mar 2021 05:06:07 GMT",1614834367008]
toGMTString.call(s)=["Fri, 31 Dec 1999 23:59:59 GMT",946684799999]
toJSON.call(d)=["2021-03-04T05:06:07.008Z",1614834367008]
toJSON.call(s)=["1999-12-31T23:59:59.999Z",946684799999]
setTime.call(d)=[86400000,86400000]
setTime.call(s)=[86400000,86400000]
setUTCFullYear.call(d)=[949467967008,949467967008]
setUTCFullYear.call(s)=[949535999999,949535999999]
setUTCMonth.call(d)=[1617512767008,1617512767008]
setUTCMonth.call(s)=[923270399999,923270399999]
setUTCDate.call(d)=[1614920767008,1614920767008]
setUTCDate.call(s)=[944438399999,944438399999]
setUTCHours.call(d)=[1614838028009,1614838028009]
setUTCHours.call(s)=[946620428009,946620428009]
setUTCMinutes.call(d)=[1614834611012,1614834611012]
setUTCMinutes.call(s)=[946681811012,946681811012]
setUTCSeconds.call(d)=[1614834373014,1614834373014]
setUTCSeconds.call(s)=[946684753014,946684753014]
setUTCMilliseconds.call(d)=[1614834367015,1614834367015]
setUTCMilliseconds.call(s)=[946684799015,946684799015]
setMilliseconds.call(d)=[1614834367016,1614834367016]
setMilliseconds.call(s)=[946684799016,946684799016]
incompatible!TypeError
names=["constructor","getDate","getDay","getFullYear","getHours","getMilliseconds","getMinutes","getMonth","getSeconds","getTime","getTimezoneOffset","getUTCDate","getUTCDay","getUTCFullYear","getUTCHours","getUTCMilliseconds","getUTCMinutes","getUTCMonth","getUTCSeconds","getYear","setDate","setFullYear","setHours","setMilliseconds","setMinutes","setMonth","setSeconds","setTime","setUTCDate","setUTCFullYear","setUTCHours","setUTCMilliseconds","setUTCMinutes","setUTCMonth","setUTCSeconds","setYear","toDateString","toGMTString","toISOString","toJSON","toLocaleDateString","toLocaleString","toLocaleTimeString","toString","toTimeString","toUTCString","valueOf"]
shapes=["constructor/Date/7","getDate/getDate/0","getDay/getDay/0","getFullYear/getFullYear/0","getHours/getHours/0","getMilliseconds/getMilliseconds/0","getMinutes/getMinutes/0","getMonth/getMonth/0","getSeconds/getSeconds/0","getTime/getTime/0","getTimezoneOffset/getTimezoneOffset/0","getUTCDate/getUTCDate/0","getUTCDay/getUTCDay/0","getUTCFullYear/getUTCFullYear/0","getUTCHours/getUTCHours/0","getUTCMilliseconds/getUTCMilliseconds/0","getUTCMinutes/getUTCMinutes/0","getUTCMonth/getUTCMonth/0","getUTCSeconds/getUTCSeconds/0","getYear/getYear/0","setDate/setDate/1","setFullYear/setFullYear/3","setHours/setHours/4","setMilliseconds/setMilliseconds/1","setMinutes/setMinutes/3","setMonth/setMonth/2","setSeconds/setSeconds/2","setTime/setTime/1","setUTCDate/setUTCDate/1","setUTCFullYear/setUTCFullYear/3","setUTCHours/setUTCHours/4","setUTCMilliseconds/setUTCMilliseconds/1","setUTCMinutes/setUTCMinutes/3","setUTCMonth/setUTCMonth/2","setUTCSeconds/setUTCSeconds/2","setYear/setYear/1","toDateString/toDateString/0","toGMTString/toUTCString/0","toISOString/toISOString/0","toJSON/toJSON/1","toLocaleDateString/toLocaleDateString/0","toLocaleString/toLocaleString/0","toLocaleTimeString/toLocaleTimeString/0","toString/toString/0","toTimeString/toTimeString/0","toUTCString/toUTCString/0","valueOf/valueOf/0"]
enumerable=[]
statics=["UTC/7","length","name","now/0","parse/1","prototype"]`

// localDateMethods read or write local time, or format for a locale.
var localDateMethods = map[string]string{
	"getDate": "number", "getDay": "number", "getFullYear": "number", "getHours": "number", "getMinutes": "number",
	"getMonth": "number", "getSeconds": "number", "getTimezoneOffset": "number", "getYear": "number",
	"setDate": "number", "setFullYear": "number", "setHours": "number", "setMinutes": "number", "setMonth": "number",
	"setSeconds": "number", "setYear": "number", "toString": "string", "toDateString": "string",
	"toTimeString": "string", "toLocaleString": "string", "toLocaleDateString": "string", "toLocaleTimeString": "string",
}

// TestDateThroughTheWrapper: the sandbox's Date is a genuine Date to every
// caller, while the plugin loads and while a projector runs (a library's
// module code calls new Date().getTimezoneOffset() at import); only what
// reads the clock or the local time zone is trapped, and only in a call.
func TestDateThroughTheWrapper(t *testing.T) {
	t.Parallel()
	local := jsonv.Encode(jsonv.Obj(func() []jsonv.Member {
		var ms []jsonv.Member
		for n, typ := range localDateMethods {
			ms = append(ms, jsonv.M(n, jsonv.Str(typ)))
		}
		return ms
	}()...))
	src := dateChecks + `
class Stamp extends Date {}
const LOCAL = ` + local + `
const AT_LOAD = checks()
const LOCAL_AT_LOAD = Object.keys(LOCAL).filter((n) => typeof Date.prototype[n] !== "function" || typeof Date.prototype[n].call(new Stamp(0), 1) !== LOCAL[n])
const CLOCK_AT_LOAD = [typeof new Date().getTimezoneOffset(), (() => { try { Date.prototype.getTimezoneOffset.call(Object.create(Date.prototype)) } catch (e) { return e.name } })(), typeof Date(), typeof Date.now(), new Date() instanceof Date, typeof Math.random()].join()
export function apply(ctx) {
  ctx.tools.register({ name: 'dates', parameters: { type: 'object' }, output: { schema: {}, render: (args) => {
    if (args.local) return [{ type: 'text', text: String(Date.prototype[args.local].call(new Stamp(0), 1)) }]
    if (args.clock) return [{ type: 'text', text: JSON.stringify(eval(args.clock)) }]
    return [{ type: 'text', text: JSON.stringify({ load: AT_LOAD, call: checks(), local: LOCAL_AT_LOAD, clock: CLOCK_AT_LOAD }) }]
  } } })
}
`
	p, err := loadSource(t, src, projector.Config{})
	if err != nil {
		t.Fatal(err)
	}
	tool := p.Tools(projector.Config{})[0]
	content, err := tool.RunRender(js(`{}`), jsonv.NullValue())
	if err != nil {
		t.Fatal(err)
	}
	got := jsonv.MustParse(content.At(0).Get("text").Str())
	want := strings.Split(dateChecksNode, "\n")
	for _, when := range []string{"load", "call"} {
		lines := got.Get(when).Elems()
		for i, w := range want {
			g := "(missing)"
			if i < len(lines) {
				g = lines[i].Str()
			}
			if g != w {
				t.Errorf("%s: %s\n  want %s", when, g, w)
			}
		}
		if len(lines) > len(want) {
			t.Errorf("%s: %d checks, want %d", when, len(lines), len(want))
		}
	}
	if l := got.Get("local").Elems(); len(l) > 0 {
		t.Errorf("while loading, local-time methods returned the wrong type: %v", jsonv.Encode(got.Get("local")))
	}
	if c := got.Get("clock").Str(); c != "number,TypeError,string,number,true,number" {
		t.Errorf("while loading, the clock reads %s", c)
	}
	// In a call, each local-time method is impure, named as called.
	for n := range localDateMethods {
		_, err := tool.RunRender(js(`{"local":"`+n+`"}`), jsonv.NullValue())
		var f *projector.Failure
		if !errors.As(err, &f) || f.Class != "impure" || !reachedFor(f.Message, "Date.prototype."+n) {
			t.Errorf("%s in a call: %v", n, err)
		}
	}
	for expr, global := range map[string]string{"new Date()": "Date", "Date()": "Date", "Date.now()": "Date.now",
		"new Stamp()": "Date", "new Date(2020, 1)": "new Date(year, month, ...)"} {
		_, err := tool.RunRender(js(`{"clock":"`+expr+`"}`), jsonv.NullValue())
		var f *projector.Failure
		if !errors.As(err, &f) || f.Class != "impure" || !reachedFor(f.Message, global) {
			t.Errorf("%s in a call: %v, want impure %q", expr, err, global)
		}
	}
}

// reachedFor reports whether an impure finding's message names global.
func reachedFor(msg, global string) bool {
	return regexp.MustCompile(`reached for ` + regexp.QuoteMeta(global) + `( at |, )`).MatchString(msg)
}

// TestImportMeta: a module's import.meta.url is its file: URL, and the JSON
// it reads with createRequire(import.meta.url) (as the harness's llm package
// reads its version at import) is bundled; source lines still map.
func TestImportMeta(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	src := `import { createRequire } from 'node:module'
const { version } = createRequire(import.meta.url)('./package.json')
const here = import.meta.url
export function apply(ctx) {
  ctx.tools.register({ name: 'meta', parameters: { type: 'object' }, output: { schema: {}, render: (args) => {
    if (args.boom) throw new Error('boom')
    return [{ type: 'text', text: version + ' ' + here }]
  } } })
}
`
	if err := os.WriteFile(filepath.Join(dir, "index.js"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "package.json"), []byte(`{"name":"meta","version":"1.2.3","main":"index.js"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := jsplugin.Load(dir, projector.Config{})
	if err != nil {
		t.Fatal(err)
	}
	tool := p.Tools(projector.Config{})[0]
	content, err := tool.RunRender(js(`{}`), jsonv.NullValue())
	want := "1.2.3 " + (&url.URL{Scheme: "file", Path: filepath.ToSlash(filepath.Join(dir, "index.js"))}).String()
	if err != nil || content.At(0).Get("text").Str() != want {
		t.Errorf("render = %s %v, want %q", jsonv.Encode(content), err, want)
	}
	_, err = tool.RunRender(js(`{"boom":true}`), jsonv.NullValue())
	var f *projector.Failure
	if !errors.As(err, &f) || !strings.HasSuffix(f.At, "index.js:6:26") {
		t.Errorf("the throw is at %q (%v), want index.js:6:26", f.At, err)
	}
}

// TestClockReadForADeadline: a projector that reads the clock but whose
// answer does not move with it (a library's deadline that never fires, as
// jsdiff computes one on every diff) verifies; one whose answer moves is
// impure, named where it read the clock.
func TestClockReadForADeadline(t *testing.T) {
	t.Parallel()
	p, err := loadSource(t, `export function apply(ctx) {
  ctx.tools.register({ name: 'clocked', parameters: { type: 'object' }, output: { schema: {}, render: (args) => {
    const deadline = Date.now() + Infinity
    let n = 0
    while (Date.now() <= deadline && n < 3) n++
    if (args.leak) return [{ type: 'text', text: n + ' ' + new Date().getUTCFullYear() }]
    return [{ type: 'text', text: n + ' ' + (new Date() - new Date()) }]
  } } })
}`, projector.Config{})
	if err != nil {
		t.Fatal(err)
	}
	tool := p.Tools(projector.Config{})[0]
	content, err := tool.RunRender(js(`{}`), jsonv.NullValue())
	if err != nil || content.At(0).Get("text").Str() != "3 0" {
		t.Errorf("deadline only: %s %v", jsonv.Encode(content), err)
	}
	_, err = tool.RunRender(js(`{"leak":true}`), jsonv.NullValue())
	var f *projector.Failure
	if !errors.As(err, &f) || f.Class != "impure" || !strings.Contains(f.Message, "reached for Date.now at ") || !strings.Contains(f.Message, "index.js:3:") {
		t.Errorf("answer moves with the clock: %v", err)
	}
}
