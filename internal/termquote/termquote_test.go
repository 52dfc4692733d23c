package termquote

import "testing"

func TestQuoteName(t *testing.T) {
	for in, want := range map[string]string{
		"logs/session.jsonl":     "logs/session.jsonl",
		"my logs/é ü.jsonl":      "my logs/é ü.jsonl",
		"q/x\n\x1b[31mRED.jsonl": `"q/x\n\x1b[31mRED.jsonl"`,
		"y\x1b]0;T\a.jsonl":      `"y\x1b]0;T\a.jsonl"`,
		"bad\xff.jsonl":          `"bad\xff.jsonl"`,
		"s\xed\xa0\x80.jsonl":    `"s\xed\xa0\x80.jsonl"`,
		"\u202egnp.jsonl":        `"\u202egnp.jsonl"`,
		"c1\u009b.jsonl":         `"c1\u009b.jsonl"`,
	} {
		if got := QuoteName(in); got != want {
			t.Errorf("QuoteName(%q) = %s, want %s", in, got, want)
		}
	}
	for in, want := range map[string]string{
		"open a.jsonl: permission denied":  "open a.jsonl: permission denied",
		"open x\n\x1b[31m: no such file":   `open x\n\x1b[31m: no such file`,
		"bad \xff byte, \"quotes\" kept é": `bad \xff byte, "quotes" kept é`,
	} {
		if got := EscapeControls(in); got != want {
			t.Errorf("EscapeControls(%q) = %s, want %s", in, got, want)
		}
	}
}
