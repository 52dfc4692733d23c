package shell

import (
	"sync"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
)

// Compiled schemas, exactly as upstream's DSL compiles them (key order
// type, description, …, additionalProperties, properties, required).

// param is one compiled scalar parameter property.
func param(name, typ, description string) jsonv.Member {
	return jsonv.M(name, jsonv.Obj(jsonv.M("type", jsonv.Str(typ)), jsonv.M("description", jsonv.Str(description))))
}

// parameters is parameterSchemaSpecToJsonSchema: an open object root.
func parameters(required []string, props ...jsonv.Member) jsonv.Value {
	ms := []jsonv.Member{jsonv.M("type", jsonv.Str("object")), jsonv.M("properties", jsonv.Obj(props...))}
	if len(required) > 0 {
		ms = append(ms, jsonv.M("required", jsonv.Strs(required...)))
	}
	return jsonv.Obj(ms...)
}

// deferred is a parameter schema built the first time it is looked at: a
// registry declares a dozen shell tools and a run uses one or two.
func deferred(build func() jsonv.Value) jsonv.Value { return jsonv.Deferred(jsonv.Object, build) }

// escalationTargets is lasmex-sandbox's ESCALATION_TARGETS.
var escalationTargets = []string{"workspace-write", "danger-full-access"}

// shellParameters are the bash/pwsh parameters: run_in_background only when
// enableRunInBackground, the escalation pair only when the executor confines.
func shellParameters(commandDesc, descriptionDesc string, background, escalation bool) jsonv.Value {
	return deferred(func() jsonv.Value {
		props := []jsonv.Member{
			param("command", "string", commandDesc),
			param("description", "string", descriptionDesc),
			param("timeoutMs", "number", "Timeout in milliseconds. The executor applies its configured default and cap, and kills the command on expiry."),
			param("workdir", "string", "Working directory for this command. Defaults to the session workspace; a relative path is resolved against it."),
		}
		if background {
			props = append(props, param("run_in_background", "boolean", "Run in the background and return a job id immediately (collect with job_output, stop with job_kill). No timeout applies."))
		}
		if escalation {
			props = append(props,
				jsonv.M("sandbox_permissions", jsonv.Obj(
					jsonv.M("type", jsonv.Str("string")),
					jsonv.M("description", jsonv.Str("The wider sandbox mode this command needs. Only valid as a one-shot retry of a command the sandbox just denied; requires justification and user approval.")),
					jsonv.M("enum", jsonv.Strs(escalationTargets...)),
				)),
				param("justification", "string", "Required with sandbox_permissions: one sentence for the user explaining why this exact command needs the wider access."),
			)
		}
		return parameters([]string{"command", "description"}, props...)
	})
}

const (
	bashCommandDesc        = "The bash command to execute."
	bashDescriptionDesc    = `Clear, concise description of what this command does in active voice, 5-10 words (shown in the UI). Examples: "ls" → "List files in current directory"; "git status" → "Show working tree status"; "npm install" → "Install package dependencies".`
	pwshCommandDesc        = "The PowerShell command to execute."
	pwshDescriptionDesc    = `Clear, concise description of what this command does in active voice, 5-10 words (shown in the UI). Examples: "ls" → "List files in current directory"; "git status" → "Show working tree status"; "Get-Process" → "List running processes".`
	persistentCommandDesc  = "The bash command to run. Relative path is preferred in the command."
	pwshPersistentCmdDesc  = "The PowerShell command to run. Relative path is preferred in the command."
	jobIDDesc              = "Job id returned by the tool that started the background work."
	terminalSessionIDDesc  = "Terminal session id."
	backgroundOutputSchema = `{"type":"object","additionalProperties":false,"properties":{"kind":{"type":"string","const":"background"},"jobId":{"type":"string"}},"required":["kind","jobId"]}`
	collectedOutputSchema  = `{"type":"object","additionalProperties":false,"properties":{"text":{"type":"string"},"truncated":{"type":"boolean"},"spillPath":{"type":"string"}},"required":["text","truncated"]}`
	publicTaskSchema       = `{"type":"object","additionalProperties":false,"properties":{"id":{"type":"string"},"kind":{"type":"string"},"label":{"type":"string"},"status":{"type":"string","enum":["running","stopping","completed","killed","failed"]},"detail":{"type":"string"},"startedAt":{"type":"integer"},"finishedAt":{"type":"integer"}},"required":["id","kind","label","status","startedAt"]}`
	sessionStatusSchema    = `{"oneOf":[{"type":"object","additionalProperties":false,"properties":{"kind":{"type":"string","const":"running"}},"required":["kind"]},{"type":"object","additionalProperties":false,"properties":{"kind":{"type":"string","const":"exited"},"exitCode":{"oneOf":[{"type":"integer"},{"type":"null"}]},"signal":{"oneOf":[{"type":"string"},{"type":"null"}]}},"required":["kind","exitCode","signal"]}]}`
	sessionSnapshotProps   = `"sessionId":{"type":"string"},"name":{"type":"string"},"type":{"type":"string"},"pid":{"type":"integer"},"status":` + sessionStatusSchema
)

// shellOutputSchema is the bash/pwsh canonical value union.
var shellOutputSchema = sync.OnceValue(func() jsonv.Value {
	return projector.SchemaText(`{"oneOf":[` + backgroundOutputSchema + `,{"type":"object","additionalProperties":false,"properties":{` +
		`"kind":{"type":"string","const":"foreground"},"exitCode":{"oneOf":[{"type":"integer"},{"type":"null"}]},"signal":{"oneOf":[{"type":"string"},{"type":"null"}]},` +
		`"timedOut":{"type":"boolean"},"aborted":{"type":"boolean"},"timeoutMs":{"type":"number"},"stdout":` + collectedOutputSchema + `,"stderr":` + collectedOutputSchema + `,` +
		`"sandbox":{"type":"object","additionalProperties":false,"properties":{"mode":{"type":"string"},"denied":{"type":"boolean"},"enforcement":{"type":"string"},"runnerFailed":{"type":"boolean"}},"required":["mode","denied"]}},` +
		`"required":["kind","exitCode","signal","timedOut","aborted","timeoutMs","stdout","stderr"]}]}`)
})

var (
	persistentOutputSchema = sync.OnceValue(func() jsonv.Value { return projector.SchemaText(`{"type":"string"}`) })
	jobOutputSchema        = sync.OnceValue(func() jsonv.Value {
		return projector.SchemaText(`{"type":"object","additionalProperties":false,"properties":{"text":{"type":"string"},"job":` + publicTaskSchema + `},"required":["text","job"]}`)
	})
	jobListSchema = sync.OnceValue(func() jsonv.Value { return projector.SchemaText(`{"type":"array","items":` + publicTaskSchema + `}`) })
	jobKillSchema = sync.OnceValue(func() jsonv.Value {
		return projector.SchemaText(`{"type":"object","additionalProperties":false,"properties":{"outcome":{"type":"string","enum":["cancellation-requested","already-finished"]},"job":` + publicTaskSchema + `},"required":["outcome","job"]}`)
	})
	terminalOpenSchema = sync.OnceValue(func() jsonv.Value {
		return projector.SchemaText(`{"type":"object","additionalProperties":false,"properties":{` + sessionSnapshotProps + `,"motd":{"type":"string"}},"required":["sessionId","type","status","motd"]}`)
	})
	terminalSendSchema = sync.OnceValue(func() jsonv.Value {
		return projector.SchemaText(`{"oneOf":[` + backgroundOutputSchema + `,{"type":"object","additionalProperties":false,"properties":{"kind":{"type":"string","const":"foreground"},"viewport":{"type":"string"},"waitReason":{"type":"string","enum":["stdin_read","inferred_idle","timeout","session_exit"]},"sessionStatus":` + sessionStatusSchema + `,"truncated":{"type":"boolean"}},"required":["kind","viewport","waitReason","sessionStatus","truncated"]}]}`)
	})
	terminalReadSchema = sync.OnceValue(func() jsonv.Value {
		return projector.SchemaText(`{"type":"object","additionalProperties":false,"properties":{"text":{"type":"string"},"totalLines":{"type":"integer"},"lineBegin":{"type":"integer"},"lineEnd":{"type":"integer"},"truncated":{"type":"boolean"}},"required":["text","totalLines","lineBegin","lineEnd","truncated"]}`)
	})
	terminalSignalSchema = sync.OnceValue(func() jsonv.Value {
		return projector.SchemaText(`{"type":"object","additionalProperties":false,"properties":{"delivered":{"type":"boolean","const":true},"targetPgid":{"type":"integer"}},"required":["delivered","targetPgid"]}`)
	})
	terminalCloseSchema = sync.OnceValue(func() jsonv.Value {
		return projector.SchemaText(`{"type":"object","additionalProperties":false,"properties":{"sessionId":{"type":"string"},"outcome":{"type":"string","enum":["closed","already-closing"]}},"required":["sessionId","outcome"]}`)
	})
	terminalListSchema = sync.OnceValue(func() jsonv.Value {
		return projector.SchemaText(`{"type":"array","items":{"type":"object","additionalProperties":false,"properties":{` + sessionSnapshotProps + `},"required":["sessionId","type","status"]}}`)
	})
)

func jobOutputParameters() jsonv.Value {
	return deferred(func() jsonv.Value {
		return parameters([]string{"job_id"},
			param("job_id", "string", jobIDDesc),
			param("wait", "boolean", "Block until the job reaches a terminal status or the timeout expires. A timed-out wait returns [status: running] and leaves the job alive."),
			param("timeout_ms", "number", "Max wait in milliseconds (only meaningful with wait: true). Defaults to the configured wait timeout; capped by the configured maximum."),
		)
	})
}

func jobKillParameters() jsonv.Value {
	return deferred(func() jsonv.Value {
		return parameters([]string{"job_id"},
			param("job_id", "string", jobIDDesc),
			param("reason", "string", "Optional short reason, recorded in the log and forwarded to the job."),
		)
	})
}

func terminalOpenParameters() jsonv.Value {
	return deferred(func() jsonv.Value {
		return parameters([]string{"type"},
			param("type", "string", `Registered terminal backend type, usually "shell".`),
			param("name", "string", `Optional owner-local display name such as "main" or "gdb".`),
			param("cwd", "string", "Initial working directory. Defaults to the deployment workspace root."),
		)
	})
}

func terminalSendParameters(background bool) jsonv.Value {
	return deferred(func() jsonv.Value {
		props := []jsonv.Member{
			param("sessionId", "string", "Terminal session id returned by terminal_open or terminal_list."),
			param("text", "string", "UTF-8 text to write to the terminal."),
			param("submit", "boolean", "Submit Enter after text (default true). Set false for control characters or incomplete REPL input."),
		}
		if background {
			props = append(props, param("run_in_background", "boolean", "Return a job id immediately; collect with job_output or stop with job_kill."))
		}
		return parameters([]string{"sessionId", "text"}, props...)
	})
}

func terminalReadParameters() jsonv.Value {
	return deferred(func() jsonv.Value {
		return parameters([]string{"sessionId"},
			param("sessionId", "string", terminalSessionIDDesc),
			param("offset", "number", "Newest-relative line offset (default 0)."),
			param("count", "number", "Requested line count (default 500; backend caps apply)."),
		)
	})
}

func terminalSignalParameters() jsonv.Value {
	return deferred(func() jsonv.Value {
		return parameters([]string{"sessionId", "signal"},
			param("sessionId", "string", terminalSessionIDDesc),
			jsonv.M("signal", jsonv.Obj(
				jsonv.M("type", jsonv.Str("string")),
				jsonv.M("description", jsonv.Str("Signal to deliver. Shell-targeted SIGKILL is rejected; use terminal_close.")),
				jsonv.M("enum", jsonv.Strs("SIGINT", "SIGTERM", "SIGKILL", "SIGTSTP", "SIGHUP")),
			)),
		)
	})
}

func terminalCloseParameters() jsonv.Value {
	return deferred(func() jsonv.Value {
		return parameters([]string{"sessionId"}, param("sessionId", "string", terminalSessionIDDesc))
	})
}

// noParameters is the compiled empty parameter map.
func noParameters() jsonv.Value { return deferred(func() jsonv.Value { return parameters(nil) }) }
