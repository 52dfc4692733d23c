//go:build slim && unix

package cmdutil

import (
	"fmt"
	"os"
	"syscall"
)

// NeedFull replaces this process with the full build, beside this binary,
// run with the same arguments, environment and open files. It returns only
// when that cannot be done, with an error saying what needed it.
func NeedFull(what string) error {
	full, err := findFull(what)
	if err != nil {
		return err
	}
	env := append(os.Environ(), handedOverEnv+"=1")
	err = syscall.Exec(full, os.Args, env)
	return Cannot(fmt.Errorf("%s needs the full build: starting %s: %w", what, full, err))
}
