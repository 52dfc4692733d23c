package report

import (
	"bytes"
	"io"
	"strconv"
	"testing"
)

// TestSpoolRoundTrip: what is written comes back byte for byte from memory
// and, past spoolMemory, from the temporary file, through both readers.
func TestSpoolRoundTrip(t *testing.T) {
	for _, size := range []int{0, 1, spoolFront + 1, spoolBlock*3 + 7, spoolMemory + spoolBlock + 13} {
		var want bytes.Buffer
		for i := 0; want.Len() < size; i++ {
			want.WriteString(strconv.Itoa(i) + ",")
		}
		data := want.Bytes()[:size]
		write := func() *spool {
			s := newSpool()
			for p := data; len(p) > 0; {
				n := min(len(p), 1000)
				s.Write(p[:n])
				p = p[n:]
			}
			return s
		}
		s := write()
		r, done, err := s.open()
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(r)
		if inFile := s.sink.file != nil; inFile != (size > spoolMemory) {
			t.Errorf("%d bytes: in a file %v", size, inFile)
		}
		done()
		if !bytes.Equal(got, data) {
			t.Errorf("%d bytes through open: got %d bytes back, not the same", size, len(got))
		}
		var out bytes.Buffer
		if err := write().copyTo(&out); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(out.Bytes(), data) {
			t.Errorf("%d bytes through copyTo: got %d bytes back, not the same", size, out.Len())
		}
	}
}
