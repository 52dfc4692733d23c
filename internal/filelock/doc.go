// Package filelock serialises the writers of one file across processes
// with an advisory lock file beside it (flock on unix, LockFileEx on
// Windows). Only dsh-replay's own writers take it: it orders them, it does
// not keep anyone else out.
package filelock
