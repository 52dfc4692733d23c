package report

import (
	"bufio"
	"bytes"
	"io"
	"os"
)

// spool holds what a report writes before it can write its head (JUnit's
// totals, the HTML verdict): an unlinked temporary file, so memory stays
// bounded whatever the run's size and nothing is left behind; a buffer in
// memory when no temporary file can be made.
type spool struct {
	*bufio.Writer
	file *os.File
	buf  *bytes.Buffer
}

func newSpool() *spool {
	s := &spool{}
	if f, err := os.CreateTemp("", "dsh-replay-report-*"); err == nil {
		os.Remove(f.Name())
		s.file = f
		s.Writer = bufio.NewWriterSize(f, 1<<16)
	} else {
		s.buf = &bytes.Buffer{}
		s.Writer = bufio.NewWriter(s.buf)
	}
	return s
}

// copyTo writes everything spooled to w and releases the spool.
func (s *spool) copyTo(w io.Writer) error {
	if err := s.Flush(); err != nil {
		return err
	}
	if s.file == nil {
		_, err := w.Write(s.buf.Bytes())
		return err
	}
	defer s.file.Close()
	if _, err := s.file.Seek(0, io.SeekStart); err != nil {
		return err
	}
	_, err := io.Copy(w, s.file)
	return err
}
