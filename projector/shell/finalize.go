package shell

import (
	"strings"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
)

// HasFinalizer reports whether upstream declares finalizeContent for a tool
// of this family (every terminal_* tool, job_output and job_kill).
func HasFinalizer(tool string) bool {
	switch tool {
	case "terminal_open", "terminal_send", "terminal_read", "terminal_signal", "terminal_close", "terminal_list",
		"job_output", "job_kill":
		return true
	}
	return false
}

// FinalizeContent is the content upstream's finalizeContent leaves for one
// call: r.Content is the content before it (render's output on the success
// path, "Error: …" on failure), value the canonical value (undefined on
// failure). It returns r.Content unchanged when the tool has no finalizer or
// the finalizer keeps the content.
//
// The verify engine compares a recorded content with
// FinalizeContent(render(args, value)): for tool-terminal it is a pure
// function of the content (boundTerminalText over one text block, which also
// rebuilds the block as {type, text}). For tool-jobs the cap is the job's
// outputLimitBytes, per-execution state that only background terminal sends
// set at HEAD; it is derived here from the job id ("pty-send-<n>", ids being
// "<kind>-<n>") and tool-terminal's maxResultBytes, so it is exact as long
// as that job was visible to the caller.
func FinalizeContent(cfg projector.Config, tool string, args, value jsonv.Value, r projector.Result) jsonv.Value {
	switch tool {
	case "terminal_open", "terminal_send", "terminal_read", "terminal_signal", "terminal_close", "terminal_list":
		o, err := terminalConfig(cfg)
		if err != nil {
			return r.Content
		}
		raw, ok := singleText(r.Content)
		if !ok {
			return r.Content
		}
		return projector.TextContent(boundTerminalText(raw, o.maxResultBytes))
	case "job_output", "job_kill":
		id := args.Get("job_id")
		if !id.IsString() || !strings.HasPrefix(id.Str(), "pty-send-") {
			return r.Content
		}
		o, err := terminalConfig(cfg)
		if err != nil {
			return r.Content
		}
		return finalizeJobContent(tool, value, r, o.maxResultBytes)
	}
	return r.Content
}

// finalizeJobContent is tool-jobs' finalizeTaskContent for a known cap.
func finalizeJobContent(tool string, value jsonv.Value, r projector.Result, maxBytes int) jsonv.Value {
	raw, ok := singleText(r.Content)
	if tool == "job_output" && !r.IsError && value.IsObject() {
		// Keep the output/status split only while the content is still the
		// canonical rendering.
		content, suffix := jobOutputParts(value)
		if ok && raw == content+suffix {
			return projector.TextContent(jobsFitWithSuffix(content, suffix, maxBytes, truncatedMarker))
		}
	}
	if !ok {
		return r.Content
	}
	return projector.TextContent(jobsFitWithSuffix(raw, "", maxBytes, "\n[result truncated]"))
}
