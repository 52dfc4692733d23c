package logformat

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"io"

	"github.com/klauspost/compress/zstd"
)

// RewriteStream re-records a log read from r into w (Rewrite is it over
// bytes), for logs too large to hold: one line (of a chained-zstd log, one
// group of frames) is held at a time. next yields
// the edits in increasing line order (ok false when there are no more), so
// that they need not be held either.
func RewriteStream(name string, r io.Reader, w io.Writer, next func() (e Edit, ok bool, err error)) error {
	es := &editStream{name: name, next: next, prev: 1}
	br := bufio.NewReaderSize(r, 256<<10)
	if e, err := es.peek(); err != nil || e == nil {
		if err == nil {
			// No edit: the log as it is, whatever it holds (as Rewrite).
			_, err = io.Copy(w, br)
		}
		return err
	}
	if magic, _ := br.Peek(4); isZstdMagic(magic) {
		return rewriteZstdStream(name, br, w, es)
	}
	return rewriteTextStream(name, br, w, es)
}

// editStream hands out the edits of next one at a time, checked as Rewrite
// checks them (after the header, no line twice, in line order).
type editStream struct {
	name string
	next func() (Edit, bool, error)
	head *Edit // the next edit, read ahead
	done bool
	prev int
}

// peek returns the next edit without taking it (nil: none left).
func (s *editStream) peek() (*Edit, error) {
	if s.head != nil || s.done {
		return s.head, nil
	}
	e, ok, err := s.next()
	switch {
	case err != nil:
		return nil, err
	case !ok:
		s.done = true
		return nil, nil
	case e.Line < 2:
		return nil, &Error{File: s.name, Line: e.Line, Msg: "rewrite: an edit must name a line after the header"}
	case e.Line == s.prev:
		return nil, &Error{File: s.name, Line: e.Line, Msg: "rewrite: two edits name the same line"}
	case e.Line < s.prev:
		return nil, &Error{File: s.name, Line: e.Line, Msg: "rewrite: the edits are not in line order (this is a bug)"}
	}
	s.prev = e.Line
	s.head = &e
	return s.head, nil
}

func (s *editStream) take() { s.head = nil }

// readLine reads one line with its newline (without: a torn final line);
// nil at the end.
func readLine(br *bufio.Reader, buf []byte) ([]byte, error) {
	buf = buf[:0]
	for {
		frag, err := br.ReadSlice('\n')
		buf = append(buf, frag...)
		switch {
		case err == bufio.ErrBufferFull:
			continue
		case err == io.EOF:
			if len(buf) == 0 {
				return nil, nil
			}
			return buf, nil
		case err != nil:
			return nil, err
		}
		return buf, nil
	}
}

func rewriteTextStream(name string, br *bufio.Reader, w io.Writer, es *editStream) error {
	var f lineFormat
	var buf []byte
	for line := 1; ; line++ {
		e, err := es.peek()
		if err != nil {
			return err
		}
		if e == nil {
			_, err := io.Copy(w, br)
			return err
		}
		b, err := readLine(br, buf)
		if err != nil {
			return err
		}
		buf = b
		if b == nil || b[len(b)-1] != '\n' {
			// The end, or a torn final line (never edited).
			if _, err := w.Write(b); err != nil {
				return err
			}
			return &Error{File: name, Line: e.Line, Msg: "rewrite: no complete record on this line (past the end, or a torn final line)"}
		}
		if line == 1 {
			if f, err = sniffFormat(b[:len(b)-1]); err != nil {
				return &Error{File: name, Line: 1, Msg: "rewrite: " + err.Error()}
			}
		}
		if e.Line == line {
			nl, err := editLine(b[:len(b)-1], f, *e)
			if err != nil {
				return &Error{File: name, Line: line, Msg: "rewrite: " + err.Error()}
			}
			es.take()
			b = append(nl, '\n')
		}
		if _, err := w.Write(b); err != nil {
			return err
		}
	}
}

// frameReader reads the frames of a chained-zstd log one at a time, as
// splitZstdFrames walks them.
type frameReader struct {
	name   string
	br     *bufio.Reader
	dec    *zstd.Decoder
	off    int64
	pushed *zframe
	raw    []byte
	failed bool // a frame was corrupt
}

// frame returns the next frame (raw: its compressed bytes; text: decoded,
// complete frames only); nil at the end.
func (fr *frameReader) frame() (*zframe, []byte, error) {
	f, raw, err := fr.read()
	fr.failed = fr.failed || err != nil
	return f, raw, err
}

func (fr *frameReader) read() (*zframe, []byte, error) {
	if p := fr.pushed; p != nil {
		fr.pushed = nil
		return p, fr.raw, nil
	}
	start := fr.off
	raw := fr.raw[:0]
	// fill reads until raw holds n bytes; false when the data ends first.
	fill := func(n int) (bool, error) {
		if len(raw) >= n {
			return true, nil
		}
		have := len(raw)
		raw = append(raw, make([]byte, n-have)...)
		k, err := io.ReadFull(fr.br, raw[have:])
		raw = raw[:have+k]
		fr.off += int64(k)
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return false, nil
		}
		return err == nil, err
	}
	corrupt := func(msg string) error {
		return &Error{File: fr.name, Msg: fmt.Sprintf("rewrite: corrupt zstd stream at compressed byte %d: %s", start, msg)}
	}
	torn := func() (*zframe, []byte, error) {
		fr.raw = raw
		if len(raw) == 0 {
			return nil, nil, nil
		}
		return &zframe{torn: true}, raw, nil
	}
	ok, err := fill(4)
	if err != nil {
		return nil, nil, err
	}
	if !ok {
		return torn()
	}
	if binary.LittleEndian.Uint32(raw) != zstdMagic {
		return nil, nil, corrupt("invalid frame magic")
	}
	if ok, err = fill(5); !ok || err != nil {
		if err != nil {
			return nil, nil, err
		}
		return torn()
	}
	d := raw[4]
	if d&0x18 != 0 {
		return nil, nil, corrupt("reserved frame-header bit set")
	}
	single := d&0x20 != 0
	fcs := 0
	if f := d >> 6; f != 0 {
		fcs = 1 << f
	} else if single {
		fcs = 1
	}
	win := 1
	if single {
		win = 0
	}
	i := 5 + win + [4]int{0, 1, 2, 4}[d&3] + fcs
	for {
		if ok, err = fill(i + 3); !ok || err != nil {
			if err != nil {
				return nil, nil, err
			}
			return torn()
		}
		h := uint32(raw[i]) | uint32(raw[i+1])<<8 | uint32(raw[i+2])<<16
		typ := (h >> 1) & 3
		size := int(h >> 3)
		if typ == 3 {
			return nil, nil, corrupt("reserved block type")
		}
		if typ == 1 {
			size = 1
		}
		i += 3 + size
		if h&1 != 0 {
			break
		}
	}
	if d&0x04 != 0 {
		i += 4
	}
	if ok, err = fill(i); !ok || err != nil {
		if err != nil {
			return nil, nil, err
		}
		return torn()
	}
	fr.raw = raw
	text, err := fr.dec.DecodeAll(raw, nil)
	if err != nil {
		return nil, nil, &Error{File: fr.name, Msg: fmt.Sprintf("rewrite: corrupt zstd frame at compressed byte %d: %v", start, err)}
	}
	return &zframe{text: text}, raw, nil
}

// rewriteZstdStream is rewriteZstd over a stream: a group of frames whose
// text ends on a line boundary is held at a time.
func rewriteZstdStream(name string, br *bufio.Reader, w io.Writer, es *editStream) error {
	dec, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(1<<34))
	if err != nil {
		return err
	}
	defer dec.Close()
	fr := &frameReader{name: name, br: br, dec: dec}
	err = rewriteFrames(name, fr, w, es)
	if err != nil && !fr.failed {
		// Rewrite checks every frame before it edits: a corrupt frame
		// further on is the error it reports.
		for {
			f, _, ferr := fr.frame()
			if ferr != nil {
				return ferr
			}
			if f == nil || f.torn {
				break
			}
		}
	}
	return err
}

func rewriteFrames(name string, fr *frameReader, w io.Writer, es *editStream) error {
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderCRC(true), zstd.WithEncoderConcurrency(1), zstd.WithEncoderLevel(zstd.SpeedDefault))
	if err != nil {
		return err
	}
	defer enc.Close()
	var format lineFormat
	var out, group []byte
	line := 1 // number of the first line of the current group
	for first := true; ; first = false {
		f, raw, err := fr.frame()
		if err != nil {
			return err
		}
		if first {
			if f == nil || f.torn {
				return &Error{File: name, Msg: "rewrite: the log has no complete header frame"}
			}
			hdr := f.text
			if i := bytes.IndexByte(hdr, '\n'); i >= 0 {
				hdr = hdr[:i]
			}
			if format, err = sniffFormat(hdr); err != nil {
				return &Error{File: name, Line: 1, Msg: "rewrite: " + err.Error()}
			}
		}
		if f == nil {
			break
		}
		if f.torn {
			// A torn final frame is kept as it is; its lines are never edited.
			if _, err := w.Write(raw); err != nil {
				return err
			}
			break
		}
		// Extend the group while its text does not end on a line boundary.
		group = append(group[:0], raw...)
		text := f.text
		for len(text) > 0 && text[len(text)-1] != '\n' {
			g, graw, err := fr.frame()
			if err != nil {
				return err
			}
			if g == nil {
				break
			}
			if g.torn {
				fr.pushed = g
				break
			}
			text = append(text, g.text...)
			group = append(group, graw...)
		}
		lines := bytes.Count(text, []byte{'\n'})
		if len(text) > 0 && text[len(text)-1] != '\n' {
			lines++ // the group ends with the torn frame's start: a partial line
		}
		var here []Edit
		for {
			e, err := es.peek()
			if err != nil {
				return err
			}
			if e == nil || e.Line >= line+lines {
				break
			}
			here = append(here, *e)
			es.take()
		}
		if len(here) > 0 {
			newText, n, err := rewriteText(name, text, here, line, &format)
			if err != nil {
				return err
			}
			if n == 0 {
				return &Error{File: name, Line: here[0].Line, Msg: "rewrite: the line is not a complete record (torn frame)"}
			}
			if n < len(here) {
				// On the group's partial line: only a torn frame or the end
				// follows it.
				return &Error{File: name, Line: here[n].Line, Msg: "rewrite: no complete record on this line (past the end, or in a torn final frame)"}
			}
			out = enc.EncodeAll(newText, out[:0])
			if _, err := w.Write(out); err != nil {
				return err
			}
		} else if _, err := w.Write(group); err != nil {
			return err
		}
		line += bytes.Count(text, []byte{'\n'})
	}
	if e, err := es.peek(); err != nil || e != nil {
		if err != nil {
			return err
		}
		return &Error{File: name, Line: e.Line, Msg: "rewrite: no complete record on this line (past the end, or in a torn final frame)"}
	}
	return nil
}
