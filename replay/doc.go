// Package replay is the verification engine: for every recorded call it
// re-runs the tool's projectors (render, presentationMeta) on the recorded
// canonical value and its presenters (presentCall, presentResult) on the
// recorded arguments and result, compares with what the log recorded, and
// classifies every divergence under a stable class name. Run drives it over
// logs with a bounded worker pool and delivers results in log order.
//
// The engine returns findings and, on request, views (what a card needs);
// it draws nothing: sinks build and draw the cards (package cards) and
// write the reports (package report).
package replay
