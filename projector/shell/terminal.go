package shell

import (
	"strings"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
)

// Terminal configuration bounds (tool-terminal DEFAULT_MAX_RESULT_BYTES,
// MIN_MAX_RESULT_BYTES).
const (
	DefaultMaxResultBytes = 256 * 1024
	MinMaxResultBytes     = 64
	maxSafeInteger        = 1<<53 - 1
)

// terminalOptions are tool-terminal's plugin options.
type terminalOptions struct {
	background     bool // enableRunInBackground
	maxResultBytes int
}

// sessionStatusText is "running" or "exited code=<c> signal=<s>".
func sessionStatusText(status jsonv.Value) string {
	if k := status.Get("kind"); k.IsString() && k.Str() == "running" {
		return "running"
	}
	return "exited code=" + orNull(status.Get("exitCode")) + " signal=" + orNull(status.Get("signal"))
}

// renderSpawn renders a created session and its bounded MOTD.
func renderSpawn(v jsonv.Value, maxBytes int) string {
	label := jsonv.ToString(v.Get("sessionId"))
	if name := v.Get("name"); name.IsDefined() {
		label += " (" + jsonv.ToString(name) + ")"
	}
	prefix := "started terminal session " + label + " [type: " + jsonv.ToString(v.Get("type")) + "]\n"
	motd := "(no startup output)"
	if m := v.Get("motd"); m.Truthy() {
		motd = jsonv.ToString(m)
	}
	complete := prefix + motd
	if byteLength(complete) <= maxBytes {
		return complete
	}
	return fitWithPrefix(prefix, motd, maxBytes)
}

// renderSend renders a settled interactive send.
func renderSend(v jsonv.Value, maxBytes int) string {
	output := "(no new output)"
	if vp := v.Get("viewport"); vp.Truthy() {
		output = jsonv.ToString(vp)
	}
	return boundBodyWithSuffix(output,
		"\n[wait: "+jsonv.ToString(v.Get("waitReason"))+"]\n[session: "+sessionStatusText(v.Get("sessionStatus"))+"]",
		v.Get("truncated").Truthy(), maxBytes)
}

// renderRead renders one bounded scrollback page.
func renderRead(v jsonv.Value, maxBytes int) string {
	output := "(no retained output)"
	if t := v.Get("text"); t.Truthy() {
		output = jsonv.ToString(t)
	}
	return boundBodyWithSuffix(output,
		"\n[lines: "+jsonv.ToString(v.Get("lineBegin"))+"-"+jsonv.ToString(v.Get("lineEnd"))+" of "+jsonv.ToString(v.Get("totalLines"))+"]",
		v.Get("truncated").Truthy(), maxBytes)
}

// renderList renders the owner's sessions, one line each.
func renderList(sessions jsonv.Value, maxBytes int) string {
	if sessions.Len() == 0 {
		return "(no terminal sessions)"
	}
	lines := make([]string, 0, sessions.Len())
	for _, s := range sessions.Elems() {
		line := jsonv.ToString(s.Get("sessionId"))
		if name := s.Get("name"); name.IsDefined() {
			line += " (" + jsonv.ToString(name) + ")"
		}
		line += " [" + jsonv.ToString(s.Get("type")) + "] " + sessionStatusText(s.Get("status"))
		if pid := s.Get("pid"); pid.IsDefined() {
			line += " pid=" + jsonv.ToString(pid)
		}
		lines = append(lines, line)
	}
	return boundBodyWithSuffix(strings.Join(lines, "\n"), "", false, maxBytes)
}

// terminalTools builds tool-terminal's six tools.
func terminalTools(o terminalOptions) []*projector.Tool {
	maxBytes := o.maxResultBytes
	openParams := terminalOpenParameters()
	sendParams := terminalSendParameters(o.background)
	readParams := terminalReadParameters()
	signalParams := terminalSignalParameters()
	closeParams := terminalCloseParameters()
	listParams := noParameters()
	const plugin = "tool-terminal"
	return []*projector.Tool{
		{
			Name: "terminal_open", Plugin: plugin, Parameters: openParams,
			Output: &projector.Output{
				Schema: terminalOpenSchema(),
				Render: func(_, v jsonv.Value) (jsonv.Value, error) { return text(renderSpawn(v, maxBytes)) },
			},
			PresentCall: gated(openParams, func(args jsonv.Value) jsonv.Value {
				what := args.Get("name")
				if what.IsNull() || what.IsUndefined() {
					what = args.Get("type")
				}
				return generic("Open terminal "+jsonv.ToString(what), "execute", jsonv.Value{})
			}),
			CallCards: []string{"generic"},
		},
		{
			Name: "terminal_send", Plugin: plugin, Parameters: sendParams,
			Output: &projector.Output{
				Schema: terminalSendSchema(),
				Render: func(_, v jsonv.Value) (jsonv.Value, error) {
					if k := v.Get("kind"); k.IsString() && k.Str() == "background" {
						return text("started background job " + jsonv.ToString(v.Get("jobId")))
					}
					return text(renderSend(v, maxBytes))
				},
				PresentationMeta: func(_, v jsonv.Value) (jsonv.Value, error) {
					if k := v.Get("kind"); k.IsString() && k.Str() == "foreground" {
						return jsonv.Obj(
							jsonv.M("viewport", v.Get("viewport")),
							jsonv.M("waitReason", v.Get("waitReason")),
							jsonv.M("sessionStatus", v.Get("sessionStatus")),
							jsonv.M("truncated", v.Get("truncated")),
						), nil
					}
					return jsonv.NullValue(), nil
				},
			},
			PresentCall: gated(sendParams, func(args jsonv.Value) jsonv.Value {
				sid := jsonv.ToString(args.Get("sessionId"))
				if args.Get("run_in_background").True() {
					return generic("Send to terminal "+sid+" in background", "execute", args.Get("text"))
				}
				title := "(send input)"
				if t := args.Get("text"); t.Truthy() {
					title = jsonv.ToString(t)
				}
				return jsonv.Obj(
					jsonv.M("card", jsonv.Str("terminal")),
					jsonv.M("title", jsonv.Str(title)),
					jsonv.M("description", jsonv.Str("Terminal "+sid)),
				)
			}),
			PresentResult: func(args jsonv.Value, r projector.Result) jsonv.Value {
				if !conforms(sendParams, args) || args.Get("run_in_background").True() || r.IsError {
					return jsonv.Value{}
				}
				raw, ok := rawText(r.Content)
				if !ok || raw.IsUndefined() {
					return jsonv.Value{}
				}
				return jsonv.Obj(jsonv.M("card", jsonv.Str("terminal")), jsonv.M("output", raw))
			},
			CallCards:   []string{"terminal", "generic"},
			ResultCards: []string{"terminal"},
		},
		{
			Name: "terminal_read", Plugin: plugin, Parameters: readParams,
			Output: &projector.Output{
				Schema: terminalReadSchema(),
				Render: func(_, v jsonv.Value) (jsonv.Value, error) { return text(renderRead(v, maxBytes)) },
			},
			PresentCall: gated(readParams, func(args jsonv.Value) jsonv.Value {
				return generic("Read terminal "+jsonv.ToString(args.Get("sessionId")), "read", args)
			}),
			CallCards: []string{"generic"},
		},
		{
			Name: "terminal_signal", Plugin: plugin, Parameters: signalParams,
			Output: &projector.Output{
				Schema: terminalSignalSchema(),
				Render: func(args, v jsonv.Value) (jsonv.Value, error) {
					return text("delivered " + jsonv.ToString(args.Get("signal")) + " to foreground process group " + jsonv.ToString(v.Get("targetPgid")))
				},
			},
			PresentCall: gated(signalParams, func(args jsonv.Value) jsonv.Value {
				return generic("Signal terminal "+jsonv.ToString(args.Get("sessionId")), "execute", args)
			}),
			CallCards: []string{"generic"},
		},
		{
			Name: "terminal_close", Plugin: plugin, Parameters: closeParams,
			Output: &projector.Output{
				Schema: terminalCloseSchema(),
				Render: func(_, v jsonv.Value) (jsonv.Value, error) {
					id := jsonv.ToString(v.Get("sessionId"))
					if o := v.Get("outcome"); o.IsString() && o.Str() == "closed" {
						return text("closed terminal session " + id)
					}
					return text("terminal session " + id + " was already closing")
				},
			},
			PresentCall: gated(closeParams, func(args jsonv.Value) jsonv.Value {
				return generic("Close terminal "+jsonv.ToString(args.Get("sessionId")), "delete", jsonv.Value{})
			}),
			CallCards: []string{"generic"},
		},
		{
			Name: "terminal_list", Plugin: plugin, Parameters: listParams,
			Output: &projector.Output{
				Schema: terminalListSchema(),
				Render: func(_, v jsonv.Value) (jsonv.Value, error) { return text(renderList(v, maxBytes)) },
			},
			PresentCall: gated(listParams, func(jsonv.Value) jsonv.Value {
				return generic("List terminal sessions", "read", jsonv.Value{})
			}),
			CallCards: []string{"generic"},
		},
	}
}
