// Package upstreamtest finds the prepared upstream trees (DSH and LasmeX at
// their pinned commits) that the cross-check and recorder tests run
// against. The trees are prepared by hand outside the repository
// (docs/upstream.md) and named by DSH_REPLAY_UPSTREAM and
// DSH_REPLAY_UPSTREAM_LASMEX. A test is skipped, saying what it needs, when
// its variable is unset, and fails when the variable names something that
// is not a prepared tree of that host: this package checks for files and
// never installs or builds anything.
package upstreamtest
