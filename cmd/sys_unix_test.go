//go:build unix

package cmd

import (
	"os/exec"
	"syscall"
	"testing"
)

func mkfifo(t *testing.T, p string) {
	t.Helper()
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
}

// asNobody has cmd run as the unprivileged user nobody.
func asNobody(cmd *exec.Cmd) bool {
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	return true
}
