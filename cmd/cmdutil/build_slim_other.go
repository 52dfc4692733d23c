//go:build slim && !unix

package cmdutil

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
)

// NeedFull runs the full build, beside this binary, with the same
// arguments, environment and standard streams (no exec here), and returns
// its exit code as this run's.
func NeedFull(what string) error {
	full, err := findFull(what)
	if err != nil {
		return err
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
