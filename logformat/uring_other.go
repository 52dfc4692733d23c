//go:build !(linux && (amd64 || arm64))

package logformat

// readWalkedFile is readSmallFile where there is no io_uring path (see
// uring_linux.go).
func readWalkedFile(path string, max int64, buf []byte) ([]byte, bool) {
	return readSmallFile(path, max, buf)
}
