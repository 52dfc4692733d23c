package cmdutil

import (
	"io"

	"github.com/spf13/cobra"
)

// IO is a command's arguments and streams, bound when it runs; options
// structs embed it, so run functions take their options alone.
type IO struct {
	Args   []string
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer
}

// Options is what every command's options struct has: its IO and a check
// of its flags that runs before anything else.
type Options interface {
	io() *IO
	Validate() error
}

func (x *IO) io() *IO { return x }

// RunE is a command's RunE (gh's pattern): it binds the arguments and
// streams, validates the options, and runs run, or runF instead when set
// (a test looks at the options a command line makes without running it).
func RunE[O Options](o O, runF, run func(O) error) func(*cobra.Command, []string) error {
	return func(c *cobra.Command, args []string) error {
		x := o.io()
		x.Args, x.In, x.Out, x.ErrOut = args, c.InOrStdin(), c.OutOrStdout(), c.ErrOrStderr()
		if err := o.Validate(); err != nil {
			return err
		}
		if runF != nil {
			return runF(o)
		}
		return run(o)
	}
}
