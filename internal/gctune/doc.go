// Package gctune owns the collector settings the CLI runs under, so that
// benchmarks of what the CLI does can run under the same ones, and the
// advice to back a large run's heap with huge pages (HugeHeap).
package gctune
