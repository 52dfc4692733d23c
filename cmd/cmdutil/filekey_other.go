//go:build !unix

package cmdutil

import "os"

// fileKey identifies a file by its real path where the system gives no
// portable inode through os.FileInfo.
func fileKey(name string, fi os.FileInfo) any { return realPath(name) }
