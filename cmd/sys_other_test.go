//go:build !unix

package cmd

import (
	"os/exec"
	"testing"
)

func mkfifo(t *testing.T, p string) {
	t.Helper()
	t.Skip("no FIFOs on this system")
}

func asNobody(cmd *exec.Cmd) bool { return false }
