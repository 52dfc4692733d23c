package search

import "strings"

// Tool-owned spill (the tools/post-execute listeners of grep.ts and glob.ts
// in DSH's and LasmeX's packages/fs/tool-fs-search/src): for a capped
// top-level search the hook saves the complete result and replaces the
// content with the render text computed with the spill reference. The two
// texts differ only in the footer's recovery sentence, so the recorded
// content is a pure transform of render(args, value).

// footers returns the unsaved footer tail and the saved-footer prefix that
// replaces it, per tool.
func footers(tool string) (unsaved, saved string, ok bool) {
	switch tool {
	case "grep":
		return "(" + grepUnsaved + ")", "(" + grepSavedPrefix, true
	case "glob":
		return " " + globUnsaved + ")", " " + globSavedPrefix, true
	}
	return "", "", false
}

// SpilledContent is the content the spill hook records for a capped result:
// rendered (the text of render(args, value)) with its "could not be saved"
// recovery sentence replaced by "Full … result stored at: <locator>. <hint>".
// ok is false when tool is not grep/glob or rendered has no capped footer
// (an uncapped result is never spilled by the tool).
func SpilledContent(tool, rendered, locator, hint string) (string, bool) {
	unsaved, saved, ok := footers(tool)
	if !ok || !strings.HasSuffix(rendered, unsaved) {
		return "", false
	}
	return rendered[:len(rendered)-len(unsaved)] + saved + locator + ". " + hint + ")", true
}

// MatchSpilledContent reports whether recorded is the spill replacement of
// rendered for some spill reference, and returns that reference's text
// "<locator>. <hint>" (the split is ambiguous when a locator holds ". ").
func MatchSpilledContent(tool, rendered, recorded string) (ref string, ok bool) {
	unsaved, saved, ok := footers(tool)
	if !ok || !strings.HasSuffix(rendered, unsaved) {
		return "", false
	}
	head := rendered[:len(rendered)-len(unsaved)] + saved
	if !strings.HasPrefix(recorded, head) || !strings.HasSuffix(recorded, ")") || len(recorded) < len(head)+1 {
		return "", false
	}
	ref = recorded[len(head) : len(recorded)-1]
	if !strings.Contains(ref, ". ") {
		return "", false
	}
	return ref, true
}
