//go:build !unix

package logformat

import "os"

func scanReplacementsMapped(f *os.File, maxLine int) (map[string]int, bool) { return nil, false }
