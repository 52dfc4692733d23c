//go:build !linux

package jsplugin

import "time"

// threadCPU has no per-thread CPU clock here: the deadline is wall time.
func threadCPU() (read func() time.Duration, release func()) { return nil, func() {} }
