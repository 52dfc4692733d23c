//go:build slim

package golden

import "github.com/dsh-replay/dsh-replay/cmd/cmdutil"

// runReviewer: the interactive reviewer is in the full build.
func runReviewer(*goldenRun, *reviewOptions, []*callReview) error {
	return cmdutil.NeedFull("golden review on a terminal")
}
