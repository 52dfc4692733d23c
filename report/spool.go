package report

import (
	"bufio"
	"bytes"
	"io"
	"os"
)

// spoolMemory is what a spool keeps in memory before it moves to a file.
const spoolMemory = 4 << 20

// spool holds what a report writes before it can write what precedes it
// (JUnit's totals, the HTML verdict, a log section's counts): in memory up
// to spoolMemory, then in an unlinked temporary file, so memory stays
// bounded whatever the run's size and nothing is left behind (in memory
// all along when no temporary file can be made).
type spool struct {
	*bufio.Writer
	sink spoolSink
}

type spoolSink struct {
	buf  bytes.Buffer
	file *os.File
	fw   *bufio.Writer // writes to file, in blocks
}

// Buffer sizes: a spool in memory needs only to batch small writes (a
// report of a few logs should not touch 128 KB of new pages at start-up);
// one in a file reads and writes it in large blocks.
const (
	spoolFront = 4 << 10
	spoolBlock = 64 << 10
)

func (k *spoolSink) Write(p []byte) (int, error) {
	if k.file == nil && k.buf.Len()+len(p) > spoolMemory {
		if f, err := os.CreateTemp("", "dsh-replay-report-*"); err == nil {
			os.Remove(f.Name())
			if _, err := f.Write(k.buf.Bytes()); err != nil {
				f.Close()
				return 0, err
			}
			k.file, k.fw = f, bufio.NewWriterSize(f, spoolBlock)
			k.buf = bytes.Buffer{}
		}
	}
	if k.file != nil {
		return k.fw.Write(p)
	}
	return k.buf.Write(p)
}

func newSpool() *spool {
	s := &spool{}
	s.Writer = bufio.NewWriterSize(&s.sink, spoolFront)
	return s
}

// flush moves everything written into the memory buffer or the file.
func (s *spool) flush() error {
	if err := s.Flush(); err != nil {
		return err
	}
	if s.sink.fw != nil {
		return s.sink.fw.Flush()
	}
	return nil
}

// copyTo writes everything spooled to w and releases the spool.
func (s *spool) copyTo(w io.Writer) error {
	if err := s.flush(); err != nil {
		return err
	}
	if s.sink.file == nil {
		_, err := w.Write(s.sink.buf.Bytes())
		s.sink.buf = bytes.Buffer{}
		return err
	}
	defer s.sink.file.Close()
	if _, err := s.sink.file.Seek(0, io.SeekStart); err != nil {
		return err
	}
	_, err := io.Copy(w, s.sink.file)
	return err
}

// open returns a reader of everything spooled; done releases the spool.
func (s *spool) open() (r *bufio.Reader, done func(), err error) {
	if err := s.flush(); err != nil {
		return nil, nil, err
	}
	if s.sink.file == nil {
		b := s.sink.buf.Bytes()
		return bufio.NewReaderSize(bytes.NewReader(b), min(len(b), spoolBlock)), s.reset, nil
	}
	if _, err := s.sink.file.Seek(0, io.SeekStart); err != nil {
		return nil, nil, err
	}
	return bufio.NewReaderSize(s.sink.file, spoolBlock), s.reset, nil
}

// reset empties the spool for reuse.
func (s *spool) reset() {
	s.Writer.Reset(&s.sink)
	if s.sink.file != nil {
		s.sink.file.Close()
		s.sink.file, s.sink.fw = nil, nil
	}
	s.sink.buf.Reset()
}
