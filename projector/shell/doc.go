// Package shell ports the shell, job and terminal tools: bash (tool-bash, or
// the persistent-PTY variant tool-bash-persistent), pwsh (tool-pwsh, or DSH's
// tool-pwsh-persistent),
// job_output, job_list and job_kill (tool-jobs), and terminal_open,
// terminal_send, terminal_read, terminal_signal, terminal_close and
// terminal_list (tool-terminal).
//
// Configuration (option names and defaults are upstream's):
//
//   - plugins["tool-bash"].enableRunInBackground (default true) and the same
//     option of tool-pwsh and tool-terminal: advertise run_in_background in
//     the parameter schema (and so in presenter soft validation).
//   - services.shell.sandboxMode: when set, the shell executor confines, so
//     bash and pwsh advertise sandbox_permissions/justification and render
//     the escalation hint after a sandbox denial marker.
//   - plugins["tool-terminal"].maxResultBytes (default 262144, at least 64):
//     the UTF-8 byte cap of every terminal result, and of job_output/job_kill
//     results for background terminal sends.
//   - plugins["tool-bash-persistent"]: both bash plugins register a tool
//     named "bash", so a deployment loads one of them. An object entry for
//     tool-bash-persistent (even {}) selects the persistent variant;
//     otherwise bash is tool-bash. DSH's tool-pwsh-persistent is selected
//     for pwsh the same way.
//
// finalizeContent (tool-terminal, tool-jobs) runs after render, so recorded
// content can legitimately be the bounded form of the rendered text; see
// FinalizeContent.
package shell
