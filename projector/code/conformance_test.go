package code

import (
	"testing"

	"github.com/dsh-replay/dsh-replay/projector/projectortest"
)

// The upstream worked examples for this family (other-examples.jsonl).
func TestConformance(t *testing.T) {
	projectortest.Run(t, "other-examples.jsonl", Register, "lsp", "str_replace_editor")
}
