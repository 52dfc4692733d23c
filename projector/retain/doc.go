// Package retain holds upstream's output-retention boundary rules
// (packages/util/output-retention): how a byte cut is moved so that it never
// splits a UTF-8 sequence. The shell, search and spill ports share them.
package retain
