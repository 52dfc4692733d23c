package shell

import (
	"math"
	"strconv"
	"strings"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
)

// shellOptions are the deployment facts that change a bash/pwsh projection.
type shellOptions struct {
	background bool // enableRunInBackground: advertises run_in_background
	escalation bool // services.shell.sandboxMode set: the executor confines
	promotion  bool // PromotionRelease on: promoted values and the stopped marker
}

// newShellTool builds bash (tool-bash) or pwsh (tool-pwsh); the two share
// the value contract, renderer and presenters byte for byte.
func newShellTool(name, plugin string, params jsonv.Value, o shellOptions) *projector.Tool {
	schema := shellOutputSchema()
	if o.promotion {
		schema = promotedOutputSchema()
	}
	t := &projector.Tool{
		Name:       name,
		Plugin:     plugin,
		Parameters: params,
		Output: &projector.Output{
			Schema: schema,
			Render: func(_, value jsonv.Value) (jsonv.Value, error) {
				kind := value.Get("kind")
				if kind.IsString() && kind.Str() == "background" {
					return text("started background job " + jsonv.ToString(value.Get("jobId")))
				}
				if o.promotion && kind.IsString() && kind.Str() == "promoted" {
					s, err := renderPromoted(value)
					if err != nil {
						return jsonv.Value{}, err
					}
					return text(s)
				}
				return text(renderShellResult(value, o))
			},
		},
		CallCards:   []string{"terminal", "generic"},
		ResultCards: []string{"terminal", "generic"},
	}
	t.PresentCall = gated(params, presentShellCall)
	t.PresentResult = func(args jsonv.Value, r projector.Result) jsonv.Value {
		if !conforms(params, args) {
			return jsonv.Value{}
		}
		return presentShellResult(args, r)
	}
	return t
}

// streamText appends the truncation notice (with the spill path) to a
// stream's text.
func streamText(s jsonv.Value) string {
	if !s.Get("truncated").Truthy() {
		return jsonv.ToString(s.Get("text"))
	}
	spill := "(unavailable)"
	if p := s.Get("spillPath"); p.IsDefined() && !p.IsNull() {
		spill = jsonv.ToString(p)
	}
	return jsonv.ToString(s.Get("text")) + "\n[output truncated; full output: " + spill + "]"
}

// sandboxDenialMarker and escalationHint are lasmex-sandbox's marker texts.
func sandboxDenialMarker(mode jsonv.Value) string {
	return "[sandbox: file access denied under " + jsonv.ToString(mode) + " mode]"
}

const escalationHint = "[sandbox: escalation available — retry this exact command once with sandbox_permissions (the narrowest wider mode that suffices) + justification; the approval prompt asks the user]"

// renderShellResult is renderResult / renderPwshResult: stdout, a marked
// stderr section, then the sandbox, timeout and exit markers (exit last,
// because parseExitStatus anchors there).
func renderShellResult(v jsonv.Value, o shellOptions) string {
	body := streamText(v.Get("stdout"))
	if errText := streamText(v.Get("stderr")); errText != "" {
		if body != "" && !strings.HasSuffix(body, "\n") {
			body += "\n"
		}
		body += "[stderr]\n" + errText
	}
	if body == "" {
		body = "(no output)"
	}
	var markers []string
	if sb := v.Get("sandbox"); sb.Get("denied").Truthy() {
		markers = append(markers, sandboxDenialMarker(sb.Get("mode")))
		if o.escalation {
			markers = append(markers, escalationHint)
		}
	}
	if v.Get("timedOut").Truthy() {
		markers = append(markers, "[timed out after "+jsonv.ToString(v.Get("timeoutMs"))+"ms]")
	}
	// From PromotionRelease: a kill from outside the call names its reason.
	if st := v.Get("stopped"); o.promotion && st.IsDefined() {
		markers = append(markers, "[stopped: "+jsonv.ToString(st)+"]")
	}
	if sig := v.Get("signal"); !sig.IsNull() {
		markers = append(markers, "[killed by signal: "+jsonv.ToString(sig)+"]")
	} else if code := v.Get("exitCode"); !(code.IsNumber() && code.Num() == 0) {
		markers = append(markers, "[exit code: "+jsonv.ToString(code)+"]")
	}
	if len(markers) == 0 {
		return body
	}
	if !strings.HasSuffix(body, "\n") {
		body += "\n"
	}
	return body + strings.Join(markers, "\n")
}

// presentShellCall: foreground calls are terminal cards, background starts
// generic cards carrying the description as content.
func presentShellCall(args jsonv.Value) jsonv.Value {
	command := args.Get("command")
	if args.Get("run_in_background").True() {
		return jsonv.Obj(
			jsonv.M("card", jsonv.Str("generic")),
			jsonv.M("title", command),
			jsonv.M("kind", jsonv.Str("execute")),
			jsonv.M("rawInput", command),
			jsonv.M("content", jsonv.Arr(jsonv.Obj(jsonv.M("type", jsonv.Str("text")), jsonv.M("text", args.Get("description"))))),
		)
	}
	ms := []jsonv.Member{
		jsonv.M("card", jsonv.Str("terminal")),
		jsonv.M("title", command),
		jsonv.M("description", args.Get("description")),
	}
	if wd := args.Get("workdir"); wd.IsDefined() {
		ms = append(ms, jsonv.M("cwd", wd))
	}
	return jsonv.Obj(ms...)
}

// presentShellResult: completed foreground output becomes a terminal card
// with the exit pill parsed back out of the text; background
// acknowledgements and errors become a fenced generic card.
func presentShellResult(args jsonv.Value, r projector.Result) jsonv.Value {
	if r.Content.IsArray() && r.Content.Len() == 1 && r.Content.At(0).IsNull() {
		panic(projector.Throwf("Cannot read properties of null (reading 'type')"))
	}
	raw, ok := rawText(r.Content)
	if !ok {
		return jsonv.Value{}
	}
	if args.Get("run_in_background").True() || r.IsError {
		switch {
		case raw.IsUndefined() || raw.IsNull():
			panic(projector.Throwf("Cannot read properties of %s (reading 'replace')", jsonv.ToString(raw)))
		case !raw.IsString():
			panic(projector.Throwf("raw.replace is not a function"))
		}
		fenced := "```console\n" + strings.TrimRight(raw.Str(), "\n") + "\n```"
		return jsonv.Obj(
			jsonv.M("card", jsonv.Str("generic")),
			jsonv.M("content", projector.TextContent(fenced)),
		)
	}
	if !raw.IsString() {
		// parseExitStatus matches String(raw) but slices raw itself: only
		// an array's String can end in a marker line, and its slice keeps
		// elements. An undefined output drops out of the view.
		output, exit := raw, jsonv.M("exitCode", jsonv.Int(0))
		if raw.IsArray() {
			s := jsonv.ToString(raw)
			var body string
			if body, exit = ParseExitStatus(s); body != s {
				output = jsonv.Arr(raw.Elems()[:min(jsonv.Len16(body), raw.Len())]...)
			}
		}
		ms := []jsonv.Member{jsonv.M("card", jsonv.Str("terminal"))}
		if output.IsDefined() {
			ms = append(ms, jsonv.M("output", output))
		}
		return jsonv.Obj(append(ms, exit)...)
	}
	body, exit := ParseExitStatus(raw.Str())
	return jsonv.Obj(jsonv.M("card", jsonv.Str("terminal")), jsonv.M("output", jsonv.Str(body)), exit)
}

// ParseExitStatus is lasmex-shell's parseExitStatus: it splits a rendered
// shell result into its body and the exit status, as the member
// {signal: S} or {exitCode: N}. The marker must be the final line, after a
// newline; the signal marker is checked first; exit codes are ASCII digits
// only; no marker means exit 0.
func ParseExitStatus(text string) (body string, exit jsonv.Member) {
	nl := strings.LastIndexByte(text, '\n')
	if nl >= 0 {
		last := text[nl+1:]
		if s, ok := strings.CutPrefix(last, "[killed by signal: "); ok {
			// /\n\[killed by signal: ([^\]\n]+)\]$/
			if sig, ok := strings.CutSuffix(s, "]"); ok && sig != "" && !strings.Contains(sig, "]") {
				return text[:nl], jsonv.M("signal", jsonv.Str(sig))
			}
		}
		if s, ok := strings.CutPrefix(last, "[exit code: "); ok {
			// /\n\[exit code: (\d+)\]$/
			if digits, ok := strings.CutSuffix(s, "]"); ok && digits != "" && strings.Trim(digits, "0123456789") == "" {
				return text[:nl], jsonv.M("exitCode", jsonv.Num(jsNumberOfDigits(digits)))
			}
		}
	}
	return text, jsonv.M("exitCode", jsonv.Int(0))
}

// jsNumberOfDigits is Number(s) for a string of ASCII digits.
func jsNumberOfDigits(s string) float64 {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && !math.IsInf(f, 0) {
		return math.NaN()
	}
	return f
}

// newPersistentShell is the persistent-PTY shell tool: tool-bash-persistent's
// bash, or DSH's tool-pwsh-persistent pwsh. All formatting happens in
// execute, so render is the value itself and only presentCall exists.
func newPersistentShell(name, plugin, commandDesc string) *projector.Tool {
	params := deferred(func() jsonv.Value { return parameters([]string{"command"}, param("command", "string", commandDesc)) })
	return &projector.Tool{
		Name:       name,
		Plugin:     plugin,
		Parameters: params,
		Output: &projector.Output{
			Schema: persistentOutputSchema(),
			Render: func(_, value jsonv.Value) (jsonv.Value, error) {
				return jsonv.Arr(jsonv.Obj(jsonv.M("type", jsonv.Str("text")), jsonv.M("text", value))), nil
			},
		},
		PresentCall: gated(params, func(args jsonv.Value) jsonv.Value {
			return jsonv.Obj(jsonv.M("card", jsonv.Str("terminal")), jsonv.M("title", args.Get("command")))
		}),
		CallCards: []string{"terminal"},
	}
}
