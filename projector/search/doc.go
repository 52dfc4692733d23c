// Package search ports the tool-fs-search plugin: grep, glob.
//
// Both tools keep every acquired item in their canonical value; render shows
// the first page (glob may sample it across top-level entries) with a footer
// saying the complete result could not be saved, and presentationMeta carries
// the same page for the search card, capped by its JSON.stringify byte size.
// The tool's own post-execute spill hook is not pure: SpilledContent gives the
// content it records for a capped result.
package search
