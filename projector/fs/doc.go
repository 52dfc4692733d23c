// Package fs ports the tool-fs plugin (packages/fs/tool-fs): read,
// read_image, write, edit — parameter and output schemas, render,
// presentationMeta, presentCall, presentResult — plus the pure helpers they
// share (the read window, the jsdiff-compatible hunk diff, the defensive
// meta narrowing, the language hint table).
package fs
