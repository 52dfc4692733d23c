// Package show is `dsh-replay show`: every recorded call drawn as its card
// (or as its raw content, a compact line, NDJSON views or one HTML page). The
// drawing is cards.Printer, which the card goldens use too; the terminal,
// colour and pager decisions are cmdutil's.
package show
