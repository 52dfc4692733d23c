package logformat

import (
	"bytes"
	"errors"
	"fmt"
	"io"
)

// lineSource splits the plaintext of a log into newline-terminated records
// with a reusable buffer that grows only for long lines (up to maxLine). For
// zstd input it also enforces the frame rules of upstream's loader: the first
// frame is exactly the header line, and every complete frame ends on a line
// boundary.
type lineSource struct {
	src     io.Reader
	zs      *zstdSource // nil for plain input
	buf     []byte
	r, w    int   // unconsumed data is buf[r:w]
	off     int64 // plaintext offset of buf[r]
	line    int   // physical line number of the next line
	eof     bool
	maxLine int

	seen     int64 // plaintext bytes read so far
	lastByte byte
	frames   int // complete frames seen
	firstNL  int // newlines seen in the first frame
	// firstLines: the first frame held this many lines, the header and
	// more (upstream writes the header alone; a log compressed by hand is
	// one frame). 0 when the framing is upstream's.
	firstLines int
	fatal      error
	fatalLine  int
}

// sourceError is a fatal problem met while splitting lines (I/O error, zstd
// corruption, a frame that ends inside a record, a record over the limit).
type sourceError struct {
	Line int
	Err  error
}

func (e *sourceError) Error() string { return e.Err.Error() }

func newLineSource(src io.Reader, zs *zstdSource, bufSize, maxLine int) *lineSource {
	if bufSize < 4096 {
		bufSize = 4096
	}
	return &lineSource{src: src, zs: zs, buf: make([]byte, bufSize), line: 1, maxLine: maxLine}
}

// newBytesSource is a source over a log held whole in memory: its buffer
// is the data itself, already at its end (no copy, no reads).
func newBytesSource(data []byte, maxLine int) *lineSource {
	s := &lineSource{buf: data, w: len(data), eof: true, seen: int64(len(data)), line: 1, maxLine: maxLine}
	if len(data) > 0 {
		s.lastByte = data[len(data)-1]
	}
	return s
}

// inMemory reports whether everything left is already in the buffer.
func (s *lineSource) inMemory() bool { return s.eof && s.zs == nil && s.fatal == nil }

// takeRest is fillBatch for a source at its end: it indexes the complete
// lines left in the buffer where they lie (the batch shares the buffer).
func (s *lineSource) takeRest(b *batch) {
	b.lines = b.lines[:0]
	b.firstLine = s.line
	b.last = true
	b.err = nil
	b.buf = s.buf
	data := s.buf[:s.w]
	baseOff := s.off - int64(s.r) // plaintext offset of buf[0]
	last := s.r - 1
	if i := bytes.LastIndexByte(data[s.r:], '\n'); i >= 0 {
		last = s.r + i
	}
	for p := s.r; p <= last; {
		j := bytes.IndexByte(data[p:], '\n')
		if j > s.maxLine {
			s.failf(b.firstLine+len(b.lines), "record longer than %d bytes (the reader's limit)", s.maxLine)
			b.err = s.fatal
			last = p - 1
			break
		}
		b.lines = append(b.lines, lineRef{start: p, end: p + j, endOff: baseOff + int64(p+j+1)})
		p += j + 1
	}
	s.r = last + 1
	s.off = baseOff + int64(last+1)
	s.line = b.firstLine + len(b.lines)
}

// eachRest is takeRest without the batch: fn gets each complete line left
// in the buffer in turn, with its number and the plaintext offset past its
// newline, so a log held in memory is decoded and applied line by line
// with no index and no records kept. It stops at fn's first error and
// returns it; a line over the limit is the source's fatal error, after
// the lines before it.
func (s *lineSource) eachRest(fn func(line []byte, n int, endOff int64) error) error {
	data := s.buf[:s.w]
	baseOff := s.off - int64(s.r)
	last := s.r - 1
	if i := bytes.LastIndexByte(data[s.r:], '\n'); i >= 0 {
		last = s.r + i
	}
	n := s.line
	p := s.r
	var err error
	for p <= last {
		j := bytes.IndexByte(data[p:], '\n')
		if j > s.maxLine {
			err = s.failf(n, "record longer than %d bytes (the reader's limit)", s.maxLine)
			break
		}
		if err = fn(data[p:p+j], n, baseOff+int64(p+j+1)); err != nil {
			break
		}
		n++
		p += j + 1
	}
	s.r = p
	s.off = baseOff + int64(p)
	s.line = n
	return err
}

func (s *lineSource) failf(line int, format string, args ...any) error {
	s.fatal = &sourceError{Line: line, Err: fmt.Errorf(format, args...)}
	return s.fatal
}

// fill reads more plaintext; it returns io.EOF at the end of input.
func (s *lineSource) fill() error {
	if s.fatal != nil {
		return s.fatal
	}
	if s.eof {
		return io.EOF
	}
	if s.r > 0 && (s.r == s.w || s.w == len(s.buf)) {
		// Slide the unconsumed tail to the front.
		n := copy(s.buf, s.buf[s.r:s.w])
		s.r, s.w = 0, n
	}
	if s.w == len(s.buf) {
		if len(s.buf) > s.maxLine {
			return s.failf(s.line, "record longer than %d bytes (the reader's limit)", s.maxLine)
		}
		nb := make([]byte, min(2*len(s.buf), s.maxLine+1))
		copy(nb, s.buf[s.r:s.w])
		s.w -= s.r
		s.r = 0
		s.buf = nb
	}
	for {
		n, err := s.src.Read(s.buf[s.w:])
		if n > 0 {
			if s.zs != nil && s.frames == 0 {
				s.firstNL += bytes.Count(s.buf[s.w:s.w+n], nl)
			}
			s.w += n
			s.seen += int64(n)
			s.lastByte = s.buf[s.w-1]
		}
		switch {
		case err == nil:
			if n > 0 {
				return nil
			}
		case errors.Is(err, errFrameEnd):
			if s.frames == 0 && s.firstNL == 0 {
				return s.failf(1, "corrupt zstd session log: the first frame ends inside the header line")
			}
			if s.frames == 0 && s.firstNL > 1 {
				s.firstLines = s.firstNL
			}
			if s.seen > 0 && s.lastByte != '\n' {
				return s.failf(s.line+bytes.Count(s.buf[s.r:s.w], nl), "corrupt zstd session log: complete frame contains a torn JSONL record")
			}
			s.frames++
			if n > 0 {
				return nil
			}
		case err == io.EOF:
			s.eof = true
			if s.zs != nil && s.frames == 0 {
				if s.zs.Torn {
					return s.failf(1, "empty or header-less zstd session log (the first frame is torn)")
				}
				return s.failf(1, "empty or header-less zstd session log")
			}
			if n > 0 {
				return nil
			}
			return io.EOF
		default:
			var zc *zstdCorrupt
			var zw *zstdWindowError
			switch {
			case errors.As(err, &zc):
				return s.failf(s.line+bytes.Count(s.buf[s.r:s.w], nl), "%v", zc)
			case errors.As(err, &zw):
				s.fatal = &sourceError{Line: s.line + bytes.Count(s.buf[s.r:s.w], nl), Err: zw}
				return s.fatal
			}
			return s.failf(0, "read error: %v", err)
		}
	}
}

var nl = []byte{'\n'}

// next returns the next complete line (without its newline) and the
// plaintext offset just past it. At the end it returns io.EOF; a final
// fragment without a newline is left in Fragment.
func (s *lineSource) next() (line []byte, end int64, err error) {
	for {
		if i := bytes.IndexByte(s.buf[s.r:s.w], '\n'); i >= 0 {
			if i > s.maxLine {
				return nil, 0, s.failf(s.line, "record longer than %d bytes (the reader's limit)", s.maxLine)
			}
			line = s.buf[s.r : s.r+i]
			s.r += i + 1
			s.off += int64(i + 1)
			s.line++
			return line, s.off, nil
		}
		if err := s.fill(); err != nil {
			return nil, 0, err
		}
	}
}

// Fragment is the unterminated tail left at EOF (empty when the input ended
// on a newline).
func (s *lineSource) Fragment() []byte { return s.buf[s.r:s.w] }

// batch is a run of complete lines copied out of the source, decoded by a
// worker and applied in order by the reader.
type batch struct {
	buf       []byte
	lines     []lineRef
	firstLine int
	recs      []record
	done      chan struct{}
	// Set on the last batch only.
	last bool
	err  error // fatal source error (a *sourceError)
}

type lineRef struct {
	start, end int   // within buf, without the newline
	endOff     int64 // plaintext offset just past the newline
}

// fillBatch reads plaintext straight into b's buffer (after the partial
// line carried over from the previous batch) until about size bytes, and
// indexes its complete lines; the partial tail stays for the next batch.
func (s *lineSource) fillBatch(b *batch, size int) {
	b.lines = b.lines[:0]
	b.firstLine = s.line
	b.last = false
	b.err = nil
	if cap(b.buf) < size || cap(b.buf) > 8*size {
		b.buf = make([]byte, max(size, 2*(s.w-s.r)))
	}
	buf := b.buf[:cap(b.buf)]
	tail := copy(buf, s.buf[s.r:s.w])
	baseOff := s.off
	s.buf, s.r, s.w = buf, 0, tail
	seen := 0 // bytes known to hold no newline
	for {
		if s.w >= size {
			if bytes.IndexByte(s.buf[seen:s.w], '\n') >= 0 {
				break
			}
			seen = s.w
		}
		if err := s.fill(); err != nil {
			b.last = true
			if err != io.EOF {
				b.err = err
			}
			break
		}
	}
	// fill may have grown the buffer for a long line.
	b.buf = s.buf
	data := s.buf[:s.w]
	last := bytes.LastIndexByte(data, '\n')
	for p := 0; p <= last; {
		j := bytes.IndexByte(data[p:], '\n')
		if j > s.maxLine {
			s.failf(b.firstLine+len(b.lines), "record longer than %d bytes (the reader's limit)", s.maxLine)
			b.last, b.err = true, s.fatal
			last = p - 1
			break
		}
		b.lines = append(b.lines, lineRef{start: p, end: p + j, endOff: baseOff + int64(p+j+1)})
		p += j + 1
	}
	s.r = last + 1
	s.off = baseOff + int64(last+1)
	s.line = b.firstLine + len(b.lines)
}

// nextSpan is next for a caller that can read a line again by its offset (a
// values sidecar): a line longer than hold is measured, not gathered, and
// comes back as a nil line and its length n, so that the buffer does not
// grow to hold an entry of tens of MB. A last line without a newline that is
// that long is returned the same way (Fragment is then empty).
func (s *lineSource) nextSpan(hold int) (line []byte, n int, end int64, err error) {
	for {
		if bytes.IndexByte(s.buf[s.r:s.w], '\n') >= 0 {
			line, end, err = s.next()
			return line, len(line), end, err
		}
		if s.w-s.r >= hold {
			return s.skipLine()
		}
		if err := s.fill(); err != nil {
			return nil, 0, 0, err
		}
	}
}

// skipLine consumes the current line without keeping it.
func (s *lineSource) skipLine() (line []byte, n int, end int64, err error) {
	for {
		if i := bytes.IndexByte(s.buf[s.r:s.w], '\n'); i >= 0 {
			if n += i; n > s.maxLine {
				return nil, 0, 0, s.failf(s.line, "record longer than %d bytes (the reader's limit)", s.maxLine)
			}
			s.r += i + 1
			s.off += int64(n + 1)
			s.line++
			return nil, n, s.off, nil
		}
		if n += s.w - s.r; n > s.maxLine {
			return nil, 0, 0, s.failf(s.line, "record longer than %d bytes (the reader's limit)", s.maxLine)
		}
		s.r = s.w
		if err := s.fill(); err != nil {
			if err == io.EOF {
				s.off += int64(n)
				return nil, n, s.off, nil
			}
			return nil, 0, 0, err
		}
	}
}
