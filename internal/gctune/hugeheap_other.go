//go:build !linux

package gctune

// HugeHeap does nothing off Linux.
func HugeHeap() {}
