package shell

import (
	"strings"
	"sync"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
)

// PromotionRelease is the first release found whose bash and pwsh move a
// foreground command still running at its timeout to a background job
// instead of killing it (packages/shell/tool-{bash,pwsh}/src/{index,render}.ts
// of a 0.1.7-alpha.2 tree; the 0.1.6-alpha.1 tree has the pinned projectors). The value gains a
// "promoted" branch and the foreground branch an optional "stopped" reason.
const PromotionRelease = "0.1.7-alpha.2"

// promotedOutputSchema is the bash/pwsh value union of PromotionRelease: the
// pinned branches with "promoted" second and "stopped" after "aborted".
var promotedOutputSchema = sync.OnceValue(func() jsonv.Value {
	return projector.SchemaText(`{"oneOf":[` + backgroundOutputSchema +
		`,{"type":"object","additionalProperties":false,"properties":{"kind":{"type":"string","const":"promoted"},"jobId":{"type":"string"},"timeoutMs":{"type":"number"},"output":{"type":"string"}},"required":["kind","jobId","timeoutMs","output"]}` +
		`,{"type":"object","additionalProperties":false,"properties":{` +
		`"kind":{"type":"string","const":"foreground"},"exitCode":{"oneOf":[{"type":"integer"},{"type":"null"}]},"signal":{"oneOf":[{"type":"string"},{"type":"null"}]},` +
		`"timedOut":{"type":"boolean"},"aborted":{"type":"boolean"},"stopped":{"type":"string"},"timeoutMs":{"type":"number"},"stdout":` + collectedOutputSchema + `,"stderr":` + collectedOutputSchema + `,` +
		`"sandbox":{"type":"object","additionalProperties":false,"properties":{"mode":{"type":"string"},"denied":{"type":"boolean"},"enforcement":{"type":"string"},"runnerFailed":{"type":"boolean"}},"required":["mode","denied"]}},` +
		`"required":["kind","exitCode","signal","timedOut","aborted","timeoutMs","stdout","stderr"]}]}`)
})

// promotedNotice is renderPromoted's hand-off guidance.
const promotedNotice = "The command keeps running in the background. You will be notified when it finishes; read newer output with job_output, stop it with job_kill."

// renderPromoted is render.ts's renderPromoted: the output so far (ending
// in a newline), the still-running marker, the guidance.
func renderPromoted(v jsonv.Value) (string, error) {
	out := v.Get("output")
	body := ""
	switch {
	case out.IsUndefined() || out.IsNull():
		return "", projector.Throwf("Cannot read properties of %s (reading 'length')", jsonv.ToString(out))
	case out.IsString():
		if s := out.Str(); s != "" {
			body = s
			if !strings.HasSuffix(s, "\n") {
				body += "\n"
			}
		}
	case out.IsArray() && out.Len() > 0:
		return "", projector.Throwf("promoted.output.endsWith is not a function")
	}
	return body + "[still running after " + jsonv.ToString(v.Get("timeoutMs")) + "ms; moved to background job " + jsonv.ToString(v.Get("jobId")) + "]\n" + promotedNotice, nil
}

// registerReleases adds bash and pwsh as PromotionRelease shipped them,
// for the deployment cfg describes (a persistent-PTY shell has no such
// release).
func registerReleases(r *projector.Registry) error {
	escalation, err := sandboxConfined(r.Config)
	if err != nil {
		return err
	}
	for _, s := range []struct{ name, plugin, persistent, commandDesc, descriptionDesc string }{
		{"bash", "tool-bash", "tool-bash-persistent", bashCommandDesc, bashDescriptionDesc},
		{"pwsh", "tool-pwsh", "tool-pwsh-persistent", pwshCommandDesc, pwshDescriptionDesc},
	} {
		if r.Config.Plugin(s.persistent).IsDefined() {
			continue
		}
		bg, err := boolOption(r.Config, s.plugin, "enableRunInBackground", true)
		if err != nil {
			return err
		}
		o := shellOptions{background: bg, escalation: escalation, promotion: true}
		t := newShellTool(s.name, s.plugin, shellParameters(s.commandDesc, s.descriptionDesc, bg, escalation), o)
		if err := r.AddReleaseTool(PromotionRelease, withFinalizer(r.Config, t)); err != nil {
			return err
		}
	}
	return nil
}
