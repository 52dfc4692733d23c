// Package report renders the results of `dsh-replay verify`: human text,
// NDJSON, JUnit XML, GitHub workflow commands (with a job summary) and a
// self-contained HTML page (also the page of `show --html`). Every format
// uses the stable divergence class names of the replay package and the same
// provenance (log:line, callId, tool, projector).
package report
