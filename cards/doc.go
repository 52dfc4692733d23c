// Package cards holds the presentation vocabulary of the tool contract (the
// call and result views that presenters return, in DSH's and LasmeX's
// packages/core/tools/src/presentation.ts) as Go types, decoded defensively
// from jsonv values and encoded back with the exact JSON upstream produces,
// and their terminal rendering: pure functions of (entry, width, styles)
// drawn with lipgloss. Printer draws a log's calls as `dsh-replay show` does
// (running their presenters), and the card goldens are made and read here.
package cards
