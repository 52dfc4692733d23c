// Package code ports run_code, the cordis_* tools, str_replace_editor, lsp
// and MCP tools.
package code
