//go:build !linux

package gctune

import "sync/atomic"

// HugeHeap does nothing off Linux.
func HugeHeap() { asked.Store(true) }

// HugeHeapAsked reports whether HugeHeap has been called in this process.
func HugeHeapAsked() bool { return asked.Load() }

var asked atomic.Bool
