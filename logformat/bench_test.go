package logformat

import (
	"os"
	"testing"
)

// BenchmarkReadFile reads the log named by DSH_REPLAY_BENCH_LOG (skips when unset).
func BenchmarkReadFile(b *testing.B) {
	path := os.Getenv("DSH_REPLAY_BENCH_LOG")
	if path == "" {
		b.Skip("DSH_REPLAY_BENCH_LOG not set")
	}
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(st.Size())
	for i := 0; i < b.N; i++ {
		if _, err := ReadCalls(path, Options{}, func(*Call) error { return nil }); err != nil {
			b.Fatal(err)
		}
	}
}
