// Package testtree holds the file-tree helpers the command tests share:
// copying test data into a temporary directory, reading a tree back, and
// comparing log lines outside their re-recorded fields.
package testtree
