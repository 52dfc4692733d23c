//go:build slim && !unix

package cmdutil

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
)

// Slim reports whether this is the slim build.
const Slim = true

// NeedFull runs the full build, beside this binary, with the same
// arguments, environment and standard streams (no exec here), and returns
// its exit code as this run's.
func NeedFull(what string) error {
	if os.Getenv(handedOverEnv) != "" {
		return Cannot(fmt.Errorf("%s needs the full build, but this binary was started as %s and is the slim one; rebuild both with make build", what, FullName))
	}
	self, err := os.Executable()
	if err != nil {
		return Cannot(fmt.Errorf("%s needs the full build (%s): finding this binary: %w", what, FullName, err))
	}
	full := filepath.Join(filepath.Dir(self), FullName+filepath.Ext(self))
	if _, err := os.Stat(full); errors.Is(err, fs.ErrNotExist) {
		return Cannot(fmt.Errorf("%s needs the full build, %s: not found (make build and make install put it beside %s)", what, full, filepath.Base(self)))
	} else if err != nil {
		return Cannot(fmt.Errorf("%s needs the full build: %w", what, err))
	}
	cmd := exec.Command(full, os.Args[1:]...)
	cmd.Env = append(os.Environ(), handedOverEnv+"=1")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err = cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return &ExitError{Code: ExitOK}
	case errors.As(err, &ee):
		return &ExitError{Code: ee.ExitCode()}
	}
	return Cannot(fmt.Errorf("%s needs the full build: starting %s: %w", what, full, err))
}
