// Package example builds and checks the example session log the README uses
// (testdata/example/session.jsonl): a short, realistic session whose results
// are rendered by the ports themselves, so `verify` passes on it and `show`
// has every common card to draw.
package example
