// Command dsh-replay replays DSH and LasmeX session logs through Go ports of
// the upstream tool projectors: verify, show, golden.
package main

import (
	"os"

	"github.com/dsh-replay/dsh-replay/cmd"
)

func main() { os.Exit(cmd.Execute()) }
