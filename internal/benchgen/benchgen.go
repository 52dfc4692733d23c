package benchgen

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/klauspost/compress/zstd"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
)

// Options choose what to generate.
type Options struct {
	// Bytes is the approximate size of the plaintext log (it stops after the
	// first turn that reaches it).
	Bytes int64
	// Seed makes the output deterministic (0 means 1).
	Seed uint64
	// Zstd writes chained zstd frames (header frame, then batches of about
	// FrameBytes plaintext each) instead of plain JSONL.
	Zstd bool
	// FrameBytes is the plaintext per zstd batch frame (0: 1 MiB).
	FrameBytes int
	// Templates is the number of distinct call templates (0: 300).
	Templates int
	// Registry provides the ports; nil means plain text results without meta.
	Registry *projector.Registry
	// Format is the session log format version written: 0 (the default:
	// assistant/chunk events and packed rows), or 2, 3 or 4 (the stream
	// inside assistant/message; from 3 a system/message and from 4
	// tool-role results). The same session in each.
	Format int
}

// Stats describe what was written.
type Stats struct {
	Bytes   int64 // plaintext bytes
	Lines   int64
	Events  int64
	Calls   int64
	Turns   int64
	Written int64 // bytes written to w (compressed size for zstd)
}

// template is one pre-rendered tool call: the blobs of its lines after the
// leading turn/step members of data, with the call id placeholder inside.
type template struct {
	name       string
	reasoning  []string // packed reasoning deltas
	argsDeltas []string // packed tool-call argument deltas
	blockEnd   []byte   // reasoning block-end chunk data tail
	callEnd    []byte   // tool-call block-end chunk data tail
	message    []byte   // assistant/message data tail
	call       []byte   // tool/call data tail
	result     []byte   // tool/result data tail
	ids        [7][]int // placeholder offsets in callEnd, message, call, result, argsRow, streamed, result4
	streamed   []byte   // format 2+: assistant/message data tail with its stream
	result4    []byte   // format 4: tool/result data tail (a tool-role message)
	argsRow    []byte   // tool-call-chunks data tail (after turn/step)
	reasonRow  []byte   // reasoning-chunks data tail
	dt         []byte   // shared dt array text for the rows
}

const placeholder = "call_0000000000"

// Generate writes one synthetic log to w.
func Generate(w io.Writer, o Options) (Stats, error) {
	if o.Seed == 0 {
		o.Seed = 1
	}
	if o.Templates <= 0 {
		o.Templates = 300
	}
	if o.FrameBytes <= 0 {
		o.FrameBytes = 1 << 20
	}
	rng := rand.New(rand.NewPCG(o.Seed, o.Seed^0x9E3779B97F4A7C15))
	tpls := make([]*template, o.Templates)
	for i := range tpls {
		tpls[i] = makeTemplate(rng, o.Registry, formatRelease[o.Format], i)
	}
	g := &gen{o: o, rng: rng, tpls: tpls}
	cw := &countWriter{w: w}
	if o.Zstd {
		enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithEncoderCRC(true), zstd.WithEncoderConcurrency(1))
		if err != nil {
			return Stats{}, err
		}
		defer enc.Close()
		g.flush = func(b []byte) error {
			_, err := cw.Write(enc.EncodeAll(b, nil))
			return err
		}
	} else {
		bw := bufio.NewWriterSize(cw, 1<<20)
		g.flush = func(b []byte) error {
			_, err := bw.Write(b)
			return err
		}
		g.done = bw.Flush
	}
	err := g.run()
	if err == nil && g.done != nil {
		err = g.done()
	}
	g.st.Written = cw.n
	return g.st, err
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

type gen struct {
	o     Options
	rng   *rand.Rand
	tpls  []*template
	flush func([]byte) error
	done  func() error
	buf   []byte
	seq   int64
	time  int64
	turn  int
	step  int
	call  int64
	st    Stats
}

func (g *gen) run() error {
	g.time = 1786000000000
	switch g.o.Format {
	case 0:
		g.buf = append(g.buf, `{"type":"session","version":0,"id":"bench-0000-4000-8000-000000000000","createdAt":1786000000000,"cwd":"/home/dev/project","delegationDepth":0}`+"\n"...)
	case 2, 3, 4:
		g.buf = fmt.Appendf(g.buf, `{"type":"session","version":%d,"id":"bench-0000-4000-8000-000000000000","createdAt":1786000000000,"cwd":"/home/dev/project","isSeeded":false,"delegationDepth":0}`+"\n", g.o.Format)
	default:
		return fmt.Errorf("benchgen: format %d is not written (0, 2, 3 or 4)", g.o.Format)
	}
	g.st.Lines++
	if g.o.Zstd {
		// Frame 1 holds exactly the header line.
		if err := g.emit(); err != nil {
			return err
		}
	}
	for g.st.Bytes+int64(len(g.buf)) < g.o.Bytes {
		g.writeTurn()
		if len(g.buf) >= g.o.FrameBytes {
			if err := g.emit(); err != nil {
				return err
			}
		}
	}
	return g.emit()
}

func (g *gen) emit() error {
	if len(g.buf) == 0 {
		return nil
	}
	g.st.Bytes += int64(len(g.buf))
	err := g.flush(g.buf)
	g.buf = g.buf[:0]
	return err
}

// event starts one event line: {"type":T,"seq":N,"time":N,"data":
func (g *gen) event(typ string) {
	g.buf = append(g.buf, `{"type":"`...)
	g.buf = append(g.buf, typ...)
	g.buf = append(g.buf, `","seq":`...)
	g.buf = strconv.AppendInt(g.buf, g.seq, 10)
	g.buf = append(g.buf, `,"time":`...)
	g.buf = strconv.AppendInt(g.buf, g.time, 10)
	g.buf = append(g.buf, `,"data":`...)
	g.seq++
	g.time += int64(g.rng.IntN(40))
	g.st.Events++
}

func (g *gen) turnStep() {
	g.buf = append(g.buf, `{"turn":`...)
	g.buf = strconv.AppendInt(g.buf, int64(g.turn), 10)
	g.buf = append(g.buf, `,"step":`...)
	g.buf = strconv.AppendInt(g.buf, int64(g.step), 10)
}

func (g *gen) end() {
	g.buf = append(g.buf, "}\n"...)
	g.st.Lines++
}

// blob appends a data tail and writes the call id over its placeholders.
func (g *gen) blob(b []byte, offs []int, id []byte) {
	base := len(g.buf)
	g.buf = append(g.buf, b...)
	for _, o := range offs {
		copy(g.buf[base+o:], id)
	}
}

func (g *gen) chunk(tail string) {
	g.event("assistant/chunk")
	g.turnStep()
	g.buf = append(g.buf, tail...)
	g.end()
}

func (g *gen) writeTurn() {
	g.turn++
	g.step = 0
	g.event("turn/start")
	g.buf = append(g.buf, `{"turn":`...)
	g.buf = strconv.AppendInt(g.buf, int64(g.turn), 10)
	g.buf = append(g.buf, '}')
	g.end()
	if g.o.Format >= 3 && g.turn == 1 {
		// The system prompt as a surface message (format 3 on).
		g.event("system/message")
		g.buf = append(g.buf, `{"turn":1,"step":1,"message":{"id":"system-1","role":"system","source":{"kind":"system-prompt"},"content":[{"type":"text","text":"You are a coding agent.\n\nUse the read tool to inspect text files."}]}},"surfaceOp":"append"`...)
		g.end()
	}
	g.event("user/message")
	g.buf = append(g.buf, `{"id":"user-`...)
	g.buf = strconv.AppendInt(g.buf, int64(g.turn), 10)
	g.buf = append(g.buf, `","role":"user","content":[{"type":"text","text":"Continue with the next part of the refactor and check the build."}],"source":{"kind":"user"}}`...)
	g.buf = append(g.buf, `,"surfaceOp":"append"`...)
	g.end()
	calls := 1 + g.rng.IntN(4)
	for i := 0; i < calls; i++ {
		g.writeCall(g.tpls[g.rng.IntN(len(g.tpls))])
	}
	// A closing text answer: plain (unpacked) chunk events and a message.
	g.step++
	g.event("step/start")
	g.turnStep()
	g.buf = append(g.buf, '}')
	g.end()
	if g.o.Format >= 2 {
		g.event("assistant/message")
		g.turnStep()
		g.buf = append(g.buf, `,"message":{"id":"asst-final","role":"assistant","content":[{"type":"text","text":"Done."}],"source":{"kind":"model","provider":"deepseek-official","model":"deepseek-v4-flash"}},"stream":[{"type":"chunk","time":1786000000000,"chunk":{"type":"block-start","index":0,"blockType":"text"}},{"type":"text-chunks","time0":1786000000001,"index":0,"dt":[1],"texts":["Done","."]},{"type":"chunk","time":1786000000003,"chunk":{"type":"block-end","index":0,"block":{"type":"text","text":"Done."}}},{"type":"chunk","time":1786000000004,"chunk":{"type":"finish","reason":{"kind":"stop"}}}]},"surfaceOp":"append"`...)
		g.end()
	} else {
		first := g.seq
		g.chunk(`,"chunk":{"type":"block-start","index":0,"blockType":"text"}}`)
		g.chunk(`,"chunk":{"type":"text-delta","index":0,"text":"Done"}}`)
		g.chunk(`,"chunk":{"type":"text-delta","index":0,"text":"."}}`)
		g.chunk(`,"chunk":{"type":"block-end","index":0,"block":{"type":"text","text":"Done."}}}`)
		g.chunk(`,"chunk":{"type":"finish","reason":{"kind":"stop"}}}`)
		last := g.seq - 1
		g.event("assistant/message")
		g.turnStep()
		g.buf = append(g.buf, `,"message":{"id":"asst-final","role":"assistant","content":[{"type":"text","text":"Done."}],"source":{"kind":"model","provider":"deepseek-official","model":"deepseek-v4-flash"}}}`...)
		g.seqRange(first, last)
		g.end()
	}
	g.event("step/end")
	g.turnStep()
	g.buf = append(g.buf, '}')
	g.end()
	g.event("turn/end")
	g.buf = append(g.buf, `{"turn":`...)
	g.buf = strconv.AppendInt(g.buf, int64(g.turn), 10)
	g.buf = append(g.buf, `,"reason":{"kind":"completed"}}`...)
	g.end()
	g.st.Turns++
}

func (g *gen) seqRange(first, last int64) {
	g.buf = append(g.buf, `,"sourceEventSeqs":[`...)
	for s := first; s <= last; s++ {
		if s > first {
			g.buf = append(g.buf, ',')
		}
		g.buf = strconv.AppendInt(g.buf, s, 10)
	}
	g.buf = append(g.buf, `],"surfaceOp":"append"`...)
}

func (g *gen) writeCall(t *template) {
	g.call++
	g.st.Calls++
	var id [len(placeholder)]byte
	copy(id[:], placeholder)
	n := g.call
	for i := len(id) - 1; i >= 5 && n > 0; i-- {
		id[i] = byte('0' + n%10)
		n /= 10
	}
	g.step++
	g.event("step/start")
	g.turnStep()
	g.buf = append(g.buf, '}')
	g.end()
	if g.o.Format >= 2 {
		// The stream is inside the message (format 2 on).
		g.event("assistant/message")
		g.turnStep()
		g.blob(t.streamed, t.ids[5], id[:])
		g.buf = append(g.buf, `,"surfaceOp":"append"`...)
		g.end()
		g.callAndResult(t, id[:])
		return
	}
	first := g.seq
	g.chunk(`,"chunk":{"type":"block-start","index":0,"blockType":"reasoning"}}`)
	g.row("reasoning-chunks", t.reasonRow, nil, id[:], len(t.reasoning))
	g.event("assistant/chunk")
	g.turnStep()
	g.buf = append(g.buf, t.blockEnd...)
	g.end()
	g.chunk(`,"chunk":{"type":"block-start","index":1,"blockType":"tool-call"}}`)
	g.row("tool-call-chunks", t.argsRow, t.ids[4], id[:], len(t.argsDeltas))
	g.event("assistant/chunk")
	g.turnStep()
	g.blob(t.callEnd, t.ids[0], id[:])
	g.end()
	g.chunk(`,"chunk":{"type":"usage","usage":{"inputTokens":15137,"outputTokens":128,"cacheReadTokens":1280}}}`)
	g.chunk(`,"chunk":{"type":"finish","reason":{"kind":"tool-calls"}}}`)
	last := g.seq - 1
	g.event("assistant/message")
	g.turnStep()
	g.blob(t.message, t.ids[1], id[:])
	g.seqRange(first, last)
	g.end()
	g.callAndResult(t, id[:])
}

// callAndResult writes a call's tool/call, tool/result and step/end.
func (g *gen) callAndResult(t *template, id []byte) {
	callSeq := g.seq
	g.event("tool/call")
	g.turnStep()
	g.blob(t.call, t.ids[2], id)
	g.end()
	g.event("tool/result")
	g.turnStep()
	if g.o.Format >= 4 {
		g.blob(t.result4, t.ids[6], id)
	} else {
		g.blob(t.result, t.ids[3], id)
	}
	g.buf = append(g.buf, `,"sourceEventSeqs":[`...)
	g.buf = strconv.AppendInt(g.buf, callSeq, 10)
	g.buf = append(g.buf, `],"surfaceOp":"append"`...)
	g.end()
	g.event("step/end")
	g.turnStep()
	g.buf = append(g.buf, '}')
	g.end()
}

// row writes a packed chunk row of n members: {"type":T,"seq0":S,"time0":T,"data":{turn,step,<tail>}}
func (g *gen) row(typ string, tail []byte, offs []int, id []byte, n int) {
	g.buf = append(g.buf, `{"type":"`...)
	g.buf = append(g.buf, typ...)
	g.buf = append(g.buf, `","seq0":`...)
	g.buf = strconv.AppendInt(g.buf, g.seq, 10)
	g.buf = append(g.buf, `,"time0":`...)
	g.buf = strconv.AppendInt(g.buf, g.time, 10)
	g.buf = append(g.buf, `,"data":`...)
	g.turnStep()
	g.blob(tail, offs, id)
	g.end()
	g.seq += int64(n)
	g.time += int64(n)
	g.st.Events += int64(n)
}

// --- templates ---

var words = strings.Fields(`the a of to and in is for that with on this be are it as by from at or an
function return const value error file line path config test build module import export type interface
handler request response server client cache index parse render result content meta string number array
object update check should would could need first then next because however also only when where which`)

func sentence(rng *rand.Rand, n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(words[rng.IntN(len(words))])
	}
	return b.String()
}

func codeLine(rng *rand.Rand) string {
	switch rng.IntN(6) {
	case 0:
		return ""
	case 1:
		return "\t// " + sentence(rng, 4+rng.IntN(8))
	case 2:
		return fmt.Sprintf("\tif err := %s(%s); err != nil {", words[rng.IntN(len(words))], words[rng.IntN(len(words))])
	case 3:
		return "\t\treturn nil, fmt.Errorf(\"" + sentence(rng, 3) + ": %w\", err)"
	case 4:
		return "}"
	}
	return fmt.Sprintf("\t%s := %s.%s(%d, \"%s\")", words[rng.IntN(len(words))], words[rng.IntN(len(words))], words[rng.IntN(len(words))], rng.IntN(1000), sentence(rng, 2))
}

func code(rng *rand.Rand, lines int) []string {
	out := make([]string, lines)
	for i := range out {
		out[i] = codeLine(rng)
	}
	return out
}

func obj(ms ...jsonv.Member) jsonv.Value     { return jsonv.Obj(ms...) }
func m(k string, v jsonv.Value) jsonv.Member { return jsonv.M(k, v) }
func s(v string) jsonv.Value                 { return jsonv.Str(v) }
func n(v int) jsonv.Value                    { return jsonv.Int(v) }

// callValue makes the arguments and canonical value of one call.
func callValue(rng *rand.Rand, name string, i int) (args, value jsonv.Value) {
	path := fmt.Sprintf("/home/dev/project/pkg/%s/%s_%d.go", words[rng.IntN(len(words))], words[rng.IntN(len(words))], i)
	switch name {
	case "read":
		total := 50 + rng.IntN(400)
		count := min(total, 20+rng.IntN(200))
		lines := make([]jsonv.Value, count)
		for j, t := range code(rng, count) {
			lines[j] = obj(m("number", n(j+1)), m("text", s(t)))
		}
		return obj(m("file_path", s(path))), obj(m("path", s(path)), m("offset", n(1)), m("lines", jsonv.Arr(lines...)), m("totalLines", n(total)))
	case "edit":
		body := code(rng, 30+rng.IntN(120))
		at := rng.IntN(len(body))
		old := body[at]
		if old == "" || old == "}" {
			old = "\t// marker " + strconv.Itoa(i)
			body[at] = old
		}
		before := strings.Join(body, "\n") + "\n"
		repl := old + " // " + sentence(rng, 3)
		after := strings.Replace(before, old, repl, 1)
		return obj(m("file_path", s(path)), m("old_string", s(old)), m("new_string", s(repl))),
			obj(m("path", s(path)), m("before", s(before)), m("after", s(after)))
	case "grep":
		k := 5 + rng.IntN(60)
		ms := make([]jsonv.Value, k)
		for j := range ms {
			ms[j] = obj(m("path", s(fmt.Sprintf("pkg/%s/%s.go", words[rng.IntN(len(words))], words[rng.IntN(len(words))]))), m("lineNumber", n(1+rng.IntN(900))), m("line", s(codeLine(rng))))
		}
		return obj(m("pattern", s(words[rng.IntN(len(words))]+`\(`)), m("include", s("*.go"))), obj(m("matches", jsonv.Arr(ms...)))
	case "bash":
		out := strings.Join(code(rng, 5+rng.IntN(80)), "\n") + "\n"
		exit := 0
		if rng.IntN(8) == 0 {
			exit = 1
		}
		cmd := "go test ./pkg/" + words[rng.IntN(len(words))] + "/..."
		return obj(m("command", s(cmd)), m("description", s("Run the package tests"))),
			obj(m("kind", s("foreground")), m("exitCode", n(exit)), m("signal", jsonv.NullValue()), m("timedOut", jsonv.BoolValue(false)), m("aborted", jsonv.BoolValue(false)), m("timeoutMs", n(120000)),
				m("stdout", obj(m("text", s(out)), m("truncated", jsonv.BoolValue(false)))), m("stderr", obj(m("text", s("")), m("truncated", jsonv.BoolValue(false)))))
	default: // web_fetch
		url := fmt.Sprintf("https://docs.example.com/%s/%s-%d", words[rng.IntN(len(words))], words[rng.IntN(len(words))], i)
		var b strings.Builder
		for p := 0; p < 10+rng.IntN(60); p++ {
			b.WriteString(sentence(rng, 10+rng.IntN(30)))
			b.WriteString(".\n\n")
		}
		return obj(m("url", s(url))), obj(m("url", s(url)), m("statusCode", n(200)), m("body", obj(m("kind", s("text")), m("content", s(b.String())))), m("truncated", jsonv.BoolValue(false)))
	}
}

var toolNames = []string{"read", "read", "edit", "grep", "bash", "bash", "web_fetch"}

// formatRelease is the DSH release a format implies (logformat's
// FormatRelease, which this package cannot import: logformat's tests
// import it): content is rendered by that release's definitions.
var formatRelease = map[int]string{2: "0.1.3", 3: "0.1.5", 4: "0.1.7"}

func makeTemplate(rng *rand.Rand, reg *projector.Registry, release string, i int) *template {
	name := toolNames[rng.IntN(len(toolNames))]
	args, value := callValue(rng, name, i)
	var content, meta jsonv.Value
	if reg != nil {
		if t := reg.LookupAt(name, "", release); t != nil && t.Output != nil {
			if c, err := t.RunRender(args, value); err == nil {
				content = c
				if mv, ok, err := t.RunPresentationMeta(args, value); err == nil && ok {
					meta = mv
				}
			}
		}
	}
	if !content.IsDefined() {
		content = jsonv.Arr(jsonv.Obj(m("type", s("text")), m("text", s(jsonv.Stringify(value)))))
		meta = jsonv.Value{}
	}
	argText := jsonv.Stringify(args)
	t := &template{name: name}

	// Reasoning deltas and argument deltas, packed.
	reason := sentence(rng, 20+rng.IntN(80))
	for len(reason) > 0 {
		k := min(len(reason), 2+rng.IntN(6))
		t.reasoning = append(t.reasoning, reason[:k])
		reason = reason[k:]
	}
	for a := argText; len(a) > 0; {
		k := min(len(a), 3+rng.IntN(12))
		t.argsDeltas = append(t.argsDeltas, a[:k])
		a = a[k:]
	}
	dt := func(k int) []byte {
		b := []byte{'['}
		for j := 1; j < k; j++ {
			if j > 1 {
				b = append(b, ',')
			}
			b = strconv.AppendInt(b, int64(rng.IntN(3)), 10)
		}
		return append(b, ']')
	}
	strs := func(ss []string) []byte {
		b := []byte{'['}
		for j, x := range ss {
			if j > 0 {
				b = append(b, ',')
			}
			b = jsonv.AppendQuote(b, x)
		}
		return append(b, ']')
	}
	reasonText := strings.Join(t.reasoning, "")
	t.reasonRow = append(append(append([]byte(`,"index":0,"dt":`), dt(len(t.reasoning))...), `,"texts":`...), strs(t.reasoning)...)
	t.reasonRow = append(t.reasonRow, '}')
	t.argsRow = append(append(append([]byte(`,"index":1,"id":"`+placeholder+`","name":"`+name+`","dt":`), dt(len(t.argsDeltas))...), `,"args":`...), strs(t.argsDeltas)...)
	t.argsRow = append(t.argsRow, '}')
	t.blockEnd = []byte(`,"chunk":{"type":"block-end","index":0,"block":{"type":"reasoning","text":` + jsonv.Quote(reasonText) + `}}}`)
	callBlock := `{"type":"tool-call","id":"` + placeholder + `","name":"` + name + `","arguments":` + jsonv.Quote(argText) + `}`
	t.callEnd = []byte(`,"chunk":{"type":"block-end","index":1,"block":` + callBlock + `}}`)
	t.message = []byte(`,"message":{"id":"asst-` + strconv.Itoa(i) + `","role":"assistant","content":[{"type":"reasoning","text":` + jsonv.Quote(reasonText) + `},` + callBlock + `],"source":{"kind":"model","provider":"deepseek-official","model":"deepseek-v4-flash"}},"usage":{"inputTokens":15137,"outputTokens":128}}`)
	t.call = []byte(`,"callId":"` + placeholder + `","name":"` + name + `","arguments":` + jsonv.Quote(argText) + `}`)
	res := `,"message":{"id":"result-` + strconv.Itoa(i) + `","role":"user","source":{"kind":"tool","callId":"` + placeholder + `"},"content":[{"type":"tool-result","toolCallId":"` + placeholder + `","content":` + jsonv.Encode(content) + `,"isError":false}]}`
	if meta.IsDefined() {
		res += `,"meta":` + jsonv.Encode(meta)
	}
	res += `,"value":` + jsonv.Encode(value) + `}`
	t.result = []byte(res)
	res4 := `,"message":{"role":"tool","source":{"kind":"tool","callId":"` + placeholder + `"},"toolCallId":"` + placeholder + `","content":` + jsonv.Encode(content) + `,"isError":false,"id":"result-` + strconv.Itoa(i) + `"}`
	if meta.IsDefined() {
		res4 += `,"meta":` + jsonv.Encode(meta)
	}
	t.result4 = []byte(res4 + `,"value":` + jsonv.Encode(value) + `}`)
	// Format 2 on: the same chunks as stream records inside the message.
	const t0 = "1786000000000"
	stream := `,"stream":[{"type":"chunk","time":` + t0 + `,"chunk":{"type":"block-start","index":0,"blockType":"reasoning"}},` +
		`{"type":"reasoning-chunks","time0":` + t0 + string(t.reasonRow[:len(t.reasonRow)-1]) + `},` +
		`{"type":"chunk","time":` + t0 + `,"chunk":{"type":"block-end","index":0,"block":{"type":"reasoning","text":` + jsonv.Quote(reasonText) + `}}},` +
		`{"type":"chunk","time":` + t0 + `,"chunk":{"type":"block-start","index":1,"blockType":"tool-call"}},` +
		`{"type":"tool-call-chunks","time0":` + t0 + string(t.argsRow[:len(t.argsRow)-1]) + `},` +
		`{"type":"chunk","time":` + t0 + `,"chunk":{"type":"block-end","index":1,"block":` + callBlock + `}},` +
		`{"type":"chunk","time":` + t0 + `,"chunk":{"type":"usage","usage":{"inputTokens":15137,"outputTokens":128,"cacheReadTokens":1280}}},` +
		`{"type":"chunk","time":` + t0 + `,"chunk":{"type":"finish","reason":{"kind":"tool-calls"}}}]`
	t.streamed = append(append([]byte(nil), t.message[:len(t.message)-1]...), stream+"}"...)
	for k, b := range [][]byte{t.callEnd, t.message, t.call, t.result, t.argsRow, t.streamed, t.result4} {
		for p := 0; ; {
			j := strings.Index(string(b[p:]), placeholder)
			if j < 0 {
				break
			}
			t.ids[k] = append(t.ids[k], p+j)
			p += j + len(placeholder)
		}
	}
	return t
}
