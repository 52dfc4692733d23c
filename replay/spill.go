package replay

import (
	"strconv"
	"strings"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector/retain"
)

// The spill transform of the model-facing arm of spill-policy (in DSH and
// LasmeX, packages/spill/spill-policy) and the output-retention TextRetainer,
// used to recognise a recorded spill preview.

const (
	spillStoredAt = " Full formatted result stored at: "
	// spillHint is spill-local's retrievalHint (identical in DSH and LasmeX).
	spillHint = "Use read with offset/limit, or grep this path to search within it."
)

// headTail is TextRetainer({kind:'headTail', headBytes, tailBytes}) fed the
// whole text at once: the kept text and the exact omitted byte count.
func headTail(text string, headBytes, tailBytes int) (kept string, omitted int) {
	total := len(text)
	prefixLen := min(total, headBytes)
	suffixLen := min(total-prefixLen, tailBytes)
	prefix := text[:prefixLen]
	suffix := text[total-suffixLen:]
	if total-prefixLen-suffixLen == 0 {
		// Adjacent slices: decoded as one buffer, nothing omitted.
		return text, 0
	}
	prefix = retain.TrimPartialTail(prefix)
	suffix = retain.TrimContinuationHead(suffix)
	return prefix + suffix, total - len(prefix) - len(suffix)
}

func spillNotice(omitted int, locator string) string {
	return "(Omitted " + strconv.Itoa(omitted) + " bytes." + spillStoredAt + locator + ". " + spillHint + ")"
}

// SpillReplacement is the spill policy's replacement text for text under
// cap maxInlineBytes and a locator, ok false when the policy keeps the
// original (text within the cap, or no within-cap replacement).
func SpillReplacement(text string, maxInlineBytes int, locator string) (string, bool) {
	// TextEncoder writes a lone surrogate as U+FFFD. (The text may be tens
	// of MB: it is sliced, never copied.)
	data := jsonv.ToWellFormed(text)
	total := len(data)
	if total <= maxInlineBytes {
		return "", false
	}
	reserve := len(spillNotice(total, locator)) + 2
	return spillWithBudget(data, max(0, maxInlineBytes-reserve), locator, maxInlineBytes)
}

func spillWithBudget(data string, budget int, locator string, cap int) (string, bool) {
	kept, omitted := headTail(data, (budget+1)/2, budget/2)
	notice := spillNotice(omitted, locator)
	out := notice
	if kept != "" {
		out = kept + "\n\n" + notice
	}
	if len(out) > cap {
		return "", false
	}
	return out, true
}

// spillParse is one reading of a recorded text as preview + notice.
type spillParse struct{ preview, locator string }

// parseSpill reads a recorded spill replacement as preview and locator.
// The locator is arbitrary text, so every "(Omitted " that could start the
// notice is a candidate, last first; none when the text is not a spill.
func parseSpill(recorded string) []spillParse {
	suffix := ". " + spillHint + ")"
	if !strings.HasSuffix(recorded, suffix) {
		return nil
	}
	body := recorded[:len(recorded)-len(suffix)]
	var out []spillParse
	for end := len(body); ; {
		start := strings.LastIndex(body[:end], "(Omitted ")
		if start < 0 {
			return out
		}
		end = start
		notice := body[start:]
		at := strings.Index(notice, spillStoredAt)
		if at < 0 {
			continue
		}
		count, ok := strings.CutSuffix(strings.TrimPrefix(notice[:at], "(Omitted "), " bytes.")
		if _, err := strconv.Atoi(count); !ok || err != nil {
			continue
		}
		preview := recorded[:start]
		if preview != "" {
			if !strings.HasSuffix(preview, "\n\n") {
				continue
			}
			preview = preview[:len(preview)-2]
		}
		out = append(out, spillParse{preview, notice[at+len(spillStoredAt):]})
	}
}

// checkSpill decides whether recorded content is the spill replacement of
// the rendered content. cap < 0 means the deployment cap is unknown: every
// budget that could have produced the recorded preview is tried (the
// boundary trims remove at most three bytes on each side).
func checkSpill(recorded, rendered jsonv.Value, cap int) (isSpill, matches bool) {
	if !recorded.IsArray() || recorded.Len() != 1 {
		return false, false
	}
	rec, ok := textOf(recorded)
	if !ok {
		return false, false
	}
	cands := parseSpill(rec)
	if len(cands) == 0 {
		return false, false
	}
	full, ok := textOf(rendered)
	if !ok {
		return true, false // non-text content is never spilled
	}
	data := jsonv.ToWellFormed(full)
	for _, p := range cands {
		if cap >= 0 {
			if got, ok := SpillReplacement(full, cap, p.locator); ok && got == rec {
				return true, true
			}
			continue
		}
		reserve := len(spillNotice(len(data), p.locator)) + 2
		for budget := len(p.preview); budget <= len(p.preview)+8; budget++ {
			c := budget + reserve
			if len(data) <= c {
				break
			}
			if got, ok := spillWithBudget(data, budget, p.locator, c); ok && got == rec {
				return true, true
			}
		}
	}
	return true, false
}

// spillExpected is the replacement the spill transform would have written
// for the first reading of the recorded text (the known cap, else the
// budget the preview length suggests); ok false when there is none.
func spillExpected(recorded, rendered jsonv.Value, cap int) (string, bool) {
	rec, _ := textOf(recorded)
	full, ok := textOf(rendered)
	cands := parseSpill(rec)
	if !ok || len(cands) == 0 {
		return "", false
	}
	p := cands[0]
	if cap >= 0 {
		return SpillReplacement(full, cap, p.locator)
	}
	data := jsonv.ToWellFormed(full)
	reserve := len(spillNotice(len(data), p.locator)) + 2
	return spillWithBudget(data, len(p.preview), p.locator, len(p.preview)+reserve)
}
