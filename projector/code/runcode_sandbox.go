package code

import (
	"strings"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
	"github.com/dsh-replay/dsh-replay/projector/internal/toolkit"
)

// SandboxRelease is the first release whose run_code (packages/core/tools/
// src/ptc.ts, PTC mode) reports the file sandbox: the package version of the
// first tree that has it (0.1.6-alpha.1, a format-3 writer).
const SandboxRelease = "0.1.6-alpha.1"

// runCodeSandboxParams is the parameter schema ptc.ts declares: the two
// required strings and the per-run controls (timeoutMs, and the sandbox
// escalation pair whose enum is dsh-sandbox's ESCALATION_TARGETS).
const runCodeSandboxParams = `{"type":"object","properties":{` +
	`"code":{"type":"string","description":"The program: the body of an async TypeScript function."},` +
	`"description":{"type":"string","description":"Clear, concise description of what this program does in active voice, 5-10 words (shown in the UI). Examples: \"Count TODO markers across packages\"; \"Read failing test and its fixture\"; \"Rename config key in every cordis.yml\"."},` +
	`"timeoutMs":{"type":"number","description":"Positive elapsed-time budget in milliseconds, capped by the deployment maximum."},` +
	`"sandbox_permissions":{"type":"string","enum":["workspace-write","danger-full-access"],"description":"Wider sandbox mode for this complete program execution; requires justification and approval."},` +
	`"justification":{"type":"string","description":"Reason this complete program needs wider access, shown to the user for approval."}` +
	`},"required":["code","description"]}`

// escalationGuidance is the sentence a denial adds when the runtime confines
// files (a value carries sandbox only from such a runtime).
const escalationGuidance = " A sandbox escalation approves this complete program for one execution only. Nested tools retain their own policies and approvals. Request wider access only after evidence of a denial. Earlier effects may already have completed: inspect them before explicitly retrying. Programs are never replayed automatically."

// runCodeSandboxTool is run_code as PTC mode ships it from SandboxRelease:
// the value may carry sandbox {mode, denied, enforcement?}, and render adds
// a line for partial enforcement and one for a denial.
func runCodeSandboxTool() *projector.Tool {
	t := runCodeTool()
	t.Parameters = jsonv.Deferred(jsonv.Object, func() jsonv.Value { return jsonv.MustParse(runCodeSandboxParams) })
	t.Output = &projector.Output{
		Schema: toolkit.MustCompile(`{"type":"object","additionalProperties":false,"properties":{"logs":{"type":"array","required":true,"items":{"type":"string"}},"result":{"type":"json"},` +
			`"sandbox":{"type":"object","additionalProperties":false,"properties":{"mode":{"type":"string","required":true,"enum":["read-only","workspace-write","danger-full-access"]},"denied":{"type":"boolean","required":true},"enforcement":{"type":"string","enum":["full","partial"]}}}}}`),
		Render: renderRunCodeSandbox,
	}
	return t
}

func renderRunCodeSandbox(_, value jsonv.Value) (jsonv.Value, error) {
	parts, err := runCodeParts(value)
	if err != nil {
		return jsonv.Value{}, err
	}
	sb := value.Get("sandbox")
	if e := sb.Get("enforcement"); e.IsString() && e.Str() == "partial" {
		parts = append(parts, "File sandbox enforcement is partial on this host.")
	}
	if sb.Get("denied").Truthy() {
		parts = append(parts, "The "+str(sb.Get("mode"))+" file sandbox denied an operation."+escalationGuidance)
	}
	if len(parts) == 0 {
		return text("(run_code completed with no output)")
	}
	return text(strings.Join(parts, "\n"))
}
