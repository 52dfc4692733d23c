package golden

import (
	"strings"

	"github.com/dsh-replay/dsh-replay/cards"
)

// Card goldens are made and compared by package cards; a pending change to
// a golden waits in a .new file beside it.
const (
	cardsTextExt = cards.TextGoldenExt
	cardsJSONExt = cards.JSONGoldenExt
	pendingExt   = ".new"
)

// cardBlock is one top-level card of a .cards.txt body, with the call named
// in its footer line ("╰ tool · callId · file:line").
type cardBlock struct {
	tool, callID string
	text         string
}

// splitCards splits a .cards.txt golden into its cards (blank-line
// separated; the header and the final count line are dropped).
func splitCards(data []byte) []cardBlock {
	s := string(data)
	if i := strings.IndexByte(s, '\n'); i >= 0 && strings.HasPrefix(s, "# dsh-replay cards golden") {
		s = s[i+1:]
	}
	var out []cardBlock
	for _, part := range strings.Split(s, "\n\n") {
		lines := strings.Split(strings.TrimRight(part, "\n"), "\n")
		foot := lines[len(lines)-1]
		rest, ok := strings.CutPrefix(foot, "╰ ")
		if !ok {
			continue
		}
		fields := strings.Split(rest, " · ")
		b := cardBlock{text: part}
		if len(fields) >= 3 {
			b.tool, b.callID = fields[0], fields[1]
		}
		out = append(out, b)
	}
	return out
}
