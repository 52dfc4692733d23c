//go:build slim && unix

package cmdutil

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// Slim reports whether this is the slim build.
const Slim = true

// NeedFull replaces this process with the full build, beside this binary,
// run with the same arguments, environment and open files. It returns only
// when that cannot be done, with an error saying what needed it.
func NeedFull(what string) error {
	if os.Getenv(handedOverEnv) != "" {
		return Cannot(fmt.Errorf("%s needs the full build, but this binary was started as %s and is the slim one; rebuild both with make build", what, FullName))
	}
	self, err := os.Executable()
	if err != nil {
		return Cannot(fmt.Errorf("%s needs the full build (%s): finding this binary: %w", what, FullName, err))
	}
	full := filepath.Join(filepath.Dir(self), FullName)
	if _, err := os.Stat(full); errors.Is(err, fs.ErrNotExist) {
		return Cannot(fmt.Errorf("%s needs the full build, %s: not found (make build and make install put it beside %s)", what, full, filepath.Base(self)))
	} else if err != nil {
		return Cannot(fmt.Errorf("%s needs the full build: %w", what, err))
	}
	env := append(os.Environ(), handedOverEnv+"=1")
	err = syscall.Exec(full, os.Args, env)
	return Cannot(fmt.Errorf("%s needs the full build: starting %s: %w", what, full, err))
}
