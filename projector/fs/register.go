package fs

import "github.com/dsh-replay/dsh-replay/projector"

// Plugin is the upstream plugin name (without the dsh-/lasmex- prefix).
const Plugin = "tool-fs"

// escalationTargets is ESCALATION_TARGETS of the sandbox package.
var escalationTargets = []string{"workspace-write", "danger-full-access"}

// Register adds this family's tools to r. Options are tool-fs's Config
// (readLimit, readMaxLineLength, readMaxBytes, readStreamMinSize; each an
// integer ≥ 1). write/edit declare the escalation parameters only under a
// confining filesystem: configuration services.fs.sandboxMode set. read_image
// upstream registers only while an attachments service is mounted; a log
// that has read_image calls had one, so it is always registered here.
func Register(r *projector.Registry) error {
	cfg := r.Config
	var caps readCaps
	var err error
	for _, o := range []struct {
		key string
		def int
		dst *int
	}{
		{"readLimit", ReadLimit, &caps.limit},
		{"readMaxLineLength", ReadMaxLineLength, &caps.maxLineLength},
		{"readMaxBytes", ReadMaxBytes, &caps.maxBytes},
		{"readStreamMinSize", ReadStreamMinSize, &caps.streamMinSize},
	} {
		if *o.dst, err = cfg.PluginPositiveInt(Plugin, o.key, o.def); err != nil {
			return err
		}
	}
	var escalation []projector.Param
	if cfg.Service("fs").Get("sandboxMode").IsDefined() {
		escalation = []projector.Param{
			{Name: "sandbox_permissions", Type: "string", Enum: escalationTargets,
				Description: "The wider sandbox mode this file operation needs. Only valid as a one-shot retry of an operation the sandbox just denied; requires justification and user approval."},
			{Name: "justification", Type: "string",
				Description: "Required with sandbox_permissions: one sentence for the user explaining why this exact file operation needs the wider access."},
		}
	}
	for _, t := range []*projector.Tool{readTool(caps), readImageTool(cfg.Host), writeTool(escalation), editTool(escalation)} {
		if err := r.Add(t); err != nil {
			return err
		}
	}
	if cfg.Host == "" {
		// The hosts differ on read_image (DSH records downscaled images).
		if err := r.AddHostTool("dsh", readImageTool("dsh")); err != nil {
			return err
		}
	}
	if err := r.AddReleaseTool(CodeLanguageRelease, readToolWith(caps, ReadLangHint)); err != nil {
		return err
	}
	if err := r.AddReleaseTool(CodeLanguageRC2Release, readToolWith(caps, ReadLangHintRC2)); err != nil {
		return err
	}
	if err := r.AddReleaseTool(WriteOperationRelease, writeOperationTool(escalation)); err != nil {
		return err
	}
	return registerReleases(r)
}
