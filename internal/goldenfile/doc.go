// Package goldenfile is the tests' one -update flag and the comparison of an
// output with its golden file (rewritten instead under -update).
package goldenfile
