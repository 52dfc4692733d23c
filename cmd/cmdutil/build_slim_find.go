//go:build slim

package cmdutil

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Slim reports whether this is the slim build.
const Slim = true

// findFull is the full build's path beside this binary, or the error a
// run that needs it (what) fails with.
func findFull(what string) (string, error) {
	if os.Getenv(handedOverEnv) != "" {
		return "", Cannot(fmt.Errorf("%s needs the full build, but this binary was started as %s and is the slim one; rebuild both with make build", what, FullName))
	}
	self, err := os.Executable()
	if err != nil {
		return "", Cannot(fmt.Errorf("%s needs the full build (%s): finding this binary: %w", what, FullName, err))
	}
	full := filepath.Join(filepath.Dir(self), FullName+filepath.Ext(self))
	if _, err := os.Stat(full); errors.Is(err, fs.ErrNotExist) {
		return "", Cannot(fmt.Errorf("%s needs the full build, %s: not found (make build and make install put it beside %s)", what, full, filepath.Base(self)))
	} else if err != nil {
		return "", Cannot(fmt.Errorf("%s needs the full build: %w", what, err))
	}
	return full, nil
}
