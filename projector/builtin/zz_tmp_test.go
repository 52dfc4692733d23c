package builtin

import (
	"testing"

	"github.com/dsh-replay/dsh-replay/projector"
)

func BenchmarkTmpRegistry(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := Registry(projector.Config{}); err != nil {
			b.Fatal(err)
		}
	}
}
