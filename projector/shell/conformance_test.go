package shell_test

import (
	"testing"

	"github.com/dsh-replay/dsh-replay/projector/projectortest"
	"github.com/dsh-replay/dsh-replay/projector/shell"
)

// TestConformance reproduces every upstream worked example of this family.
func TestConformance(t *testing.T) {
	projectortest.Run(t, "other-examples.jsonl", shell.Register,
		"bash", "pwsh", "job_output", "job_list", "job_kill",
		"terminal_open", "terminal_send", "terminal_read", "terminal_signal", "terminal_close", "terminal_list")
}
