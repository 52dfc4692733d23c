//go:build !linux

package logformat

import "os"

// readDir is os.ReadDir as dirEntry values (see readdir_linux.go).
func readDir(dir string) ([]dirEntry, error) {
	release := fds().acquire()
	defer release()
	ents, err := retryOpen(func() ([]os.DirEntry, error) { return os.ReadDir(dir) })
	out := make([]dirEntry, len(ents))
	for i, d := range ents {
		out[i] = dirEntry{name: d.Name(), typ: d.Type()}
	}
	return out, err
}
