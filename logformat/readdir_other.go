//go:build !linux

package logformat

import "os"

// readDir is os.ReadDir as dirEntry values (see readdir_linux.go).
func readDir(dir string) ([]dirEntry, error) {
	ents, err := os.ReadDir(dir)
	out := make([]dirEntry, len(ents))
	for i, d := range ents {
		out[i] = dirEntry{name: d.Name(), typ: d.Type()}
	}
	return out, err
}

// Directories are listed by path here.
var listAtOS func(string, int) ([]dirEntry, int, error)

type dirWalk struct{}

func newDirWalk() *dirWalk { return nil }

func (*dirWalk) close(int) {}

func (*dirWalk) done() {}

func (*dirWalk) openAt(_ int, _ []string, fds []int) {
	for k := range fds {
		fds[k] = -1
	}
}
