//go:build !unix && !windows

package filelock

import "os"

// No advisory lock on this system: writers are not serialised.
const removeOnUnlock = false

func lockFD(*os.File) error { return nil }

func tryLockFD(*os.File) bool { return false }
