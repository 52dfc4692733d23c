package logformat_test

import (
	"bytes"
	"os"
	"runtime/debug"
	"sync"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/dsh-replay/dsh-replay/internal/benchgen"
	"github.com/dsh-replay/dsh-replay/internal/gctune"
	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/logformat"
)

var (
	synthOnce  sync.Once
	synthPlain []byte
	synthZstd  []byte
)

// synthetic is a 32 MiB generated log (plain and zstd), built once.
func synthetic(b *testing.B) ([]byte, []byte) {
	synthOnce.Do(func() {
		var p, z bytes.Buffer
		o := benchgen.Options{Bytes: 32 << 20, Seed: 7}
		if _, err := benchgen.Generate(&p, o); err != nil {
			b.Fatal(err)
		}
		o.Zstd = true
		if _, err := benchgen.Generate(&z, o); err != nil {
			b.Fatal(err)
		}
		synthPlain, synthZstd = p.Bytes(), z.Bytes()
	})
	return synthPlain, synthZstd
}

func benchRead(b *testing.B, data []byte, plainSize int, jobs int) {
	b.SetBytes(int64(plainSize))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		n := 0
		_, err := logformat.ReadCallsFrom("bench", bytes.NewReader(data), logformat.Options{Jobs: jobs, Reserve: gctune.Reserve}, func(*logformat.Call) error { n++; return nil })
		if err != nil || n == 0 {
			b.Fatal(err, n)
		}
	}
}

// MB/s of plaintext log read into calls.
func BenchmarkReadPlain(b *testing.B) { p, _ := synthetic(b); benchRead(b, p, len(p), 0) }
func BenchmarkReadPlainOneWorker(b *testing.B) {
	p, _ := synthetic(b)
	benchRead(b, p, len(p), 1)
}
func BenchmarkReadZstd(b *testing.B) { p, z := synthetic(b); benchRead(b, z, len(p), 0) }

var (
	synth4Once sync.Once
	synth4     []byte
)

// BenchmarkReadPlainFormat4 is BenchmarkReadPlain over the same kind of
// session written in format 4 (the stream inside assistant/message,
// tool-role results): the same throughput class is the aim.
func BenchmarkReadPlainFormat4(b *testing.B) {
	synth4Once.Do(func() {
		var p bytes.Buffer
		if _, err := benchgen.Generate(&p, benchgen.Options{Bytes: 32 << 20, Seed: 7, Format: 4}); err != nil {
			b.Fatal(err)
		}
		synth4 = p.Bytes()
	})
	benchRead(b, synth4, len(synth4), 0)
}

var (
	longOnce sync.Once
	longZstd map[int][]byte
)

// longWindow is the synthetic log as a header frame and one body frame
// whose window is 2^log bytes (zstd --long=log on a pipe), built once.
func longWindow(b *testing.B, log int) []byte {
	longOnce.Do(func() {
		p, _ := synthetic(b)
		header, body, _ := bytes.Cut(p, []byte("\n"))
		longZstd = map[int][]byte{}
		for _, l := range []int{21, 27} {
			var out bytes.Buffer
			for i, part := range [][]byte{append(header, '\n'), body} {
				opts := []zstd.EOption{zstd.WithEncoderCRC(true), zstd.WithEncoderConcurrency(1)}
				if i == 1 {
					opts = append(opts, zstd.WithWindowSize(1<<l))
				}
				enc, err := zstd.NewWriter(&out, opts...)
				if err != nil {
					b.Fatal(err)
				}
				enc.Write(part)
				if err := enc.Close(); err != nil {
					b.Fatal(err)
				}
			}
			longZstd[l] = out.Bytes()
		}
	})
	return longZstd[log]
}

// Under the CLI's soft memory limit (gctune): a 128 MiB window must
// read about as fast as a 2 MiB one, not collect back to back.
func benchLongWindow(b *testing.B, log int) {
	p, _ := synthetic(b)
	z := longWindow(b, log)
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(gctune.MemoryLimit))
	b.ResetTimer()
	benchRead(b, z, len(p), 0)
}

func BenchmarkReadZstdWindow2MiB(b *testing.B)   { benchLongWindow(b, 21) }
func BenchmarkReadZstdWindow128MiB(b *testing.B) { benchLongWindow(b, 27) }

// BenchmarkReadCallsForced also decodes every result's content, meta and
// value (what verify needs).
func BenchmarkReadCallsForced(b *testing.B) {
	p, _ := synthetic(b)
	b.SetBytes(int64(len(p)))
	for i := 0; i < b.N; i++ {
		_, err := logformat.ReadCallsFrom("bench", bytes.NewReader(p), logformat.Options{}, func(c *logformat.Call) error {
			_ = c.Content.Len() + c.Meta.Len() + c.Value.Len()
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
}

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
		if _, err := logformat.ReadCalls(path, logformat.Options{}, func(*logformat.Call) error { return nil }); err != nil {
			b.Fatal(err)
		}
	}
}

// jsonv over the tool/result lines of the synthetic log.
func resultLines(b *testing.B) [][]byte {
	p, _ := synthetic(b)
	var out [][]byte
	for _, l := range bytes.Split(p, []byte("\n")) {
		if bytes.Contains(l, []byte(`"type":"tool/result"`)) {
			out = append(out, l)
		}
		if len(out) == 400 {
			break
		}
	}
	return out
}

func BenchmarkJSONParse(b *testing.B) {
	lines := resultLines(b)
	n := 0
	for _, l := range lines {
		n += len(l)
	}
	b.SetBytes(int64(n))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		for _, l := range lines {
			if _, err := jsonv.Parse(l); err != nil {
				b.Fatal(err)
			}
		}
	}
}

func BenchmarkJSONValidStrict(b *testing.B) {
	lines := resultLines(b)
	n := 0
	for _, l := range lines {
		n += len(l)
	}
	b.SetBytes(int64(n))
	for i := 0; i < b.N; i++ {
		for _, l := range lines {
			if err := jsonv.ValidStrict(l); err != nil {
				b.Fatal(err)
			}
		}
	}
}

func BenchmarkJSONStringify(b *testing.B) {
	lines := resultLines(b)
	vals := make([]jsonv.Value, len(lines))
	n := 0
	for i, l := range lines {
		vals[i] = jsonv.MustParse(string(l))
		n += len(l)
	}
	b.SetBytes(int64(n))
	for i := 0; i < b.N; i++ {
		for _, v := range vals {
			_ = jsonv.Stringify(v)
		}
	}
}
