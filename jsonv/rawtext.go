package jsonv

// RawText returns the JSON text of a lazy value that has not been decoded
// yet (ok false otherwise). Comparing it with the Stringify of a replayed
// value decides equality without decoding the recorded side when the log was
// written by JSON.stringify, which is the common case. The caller must be
// the only goroutine using v.
func RawText(v Value) (string, bool) {
	if v.kind != lazyKind {
		return "", false
	}
	c := v.cell()
	if c.done.Load() || c.build != nil {
		return "", false
	}
	return c.raw, true
}
