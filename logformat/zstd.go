package logformat

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sync"

	"github.com/klauspost/compress/zstd"
)

// A .jsonl.zstd log is a plain concatenation of independent, checksummed
// zstd frames: the first holds exactly the header line, each later one a
// durable append batch. The reader walks the frame structure itself (as
// upstream's scanZstdFrames does) so that it knows where each complete frame
// ends and whether the last one is torn, and decodes each frame with a
// streaming decoder, so memory stays bounded by the zstd window.

const zstdMagic = 0xFD2FB528

// isZstdMagic reports whether b starts with the zstd frame magic.
func isZstdMagic(b []byte) bool {
	return len(b) >= 4 && binary.LittleEndian.Uint32(b) == zstdMagic
}

// errFrameEnd is returned once by zstdSource.Read after the last plaintext
// byte of each complete frame.
var errFrameEnd = errors.New("end of zstd frame")

// MaxZstdWindow is the largest zstd window (the history a frame's decoder
// must keep; for a single-segment frame, its whole content) the reader
// accepts: the decoder holds it in memory. 512 MiB covers every level and
// --long up to 29; larger windows (zstd --long=30 and 31 on a stream) are
// refused by name, not as corruption.
const MaxZstdWindow = 512 << 20

// largeWindow is the window from which a frame's history is budgeted on
// top of the reader's usual memory (see Options.Reserve).
const largeWindow = 8 << 20

// ZstdFraming is the Notice kind of a .jsonl.zstd log whose first frame
// holds more than the header line (compressed by hand, not by upstream).
const ZstdFraming = "zstd-framing"

// ZstdWindowTooLarge is the Error kind of a log whose zstd window is
// larger than MaxZstdWindow: valid, but not read.
const ZstdWindowTooLarge = "zstd-window"

// zstdWindowError is a frame whose window is larger than MaxZstdWindow.
type zstdWindowError struct {
	Offset int64 // compressed byte offset of the frame
	Window uint64
}

func (e *zstdWindowError) Error() string {
	return fmt.Sprintf("the zstd frame at compressed byte %d needs a window of %s, larger than %d MiB, the most this reader holds in memory (decompress it first, e.g. zstd -dc --long=31 FILE | dsh-replay verify -)",
		e.Offset, mib(e.Window), MaxZstdWindow>>20)
}

func mib(n uint64) string {
	if n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
}

// frameWindow reads the window a frame header declares (for a
// single-segment frame, its content size). ok is false when b is too short
// to tell or holds no frame header.
func frameWindow(b []byte) (window uint64, ok bool) {
	if len(b) < 5 || binary.LittleEndian.Uint32(b) != zstdMagic {
		return 0, false
	}
	d := b[4]
	if d&0x20 == 0 {
		if len(b) < 6 {
			return 0, false
		}
		exp, mant := uint64(b[5]>>3), uint64(b[5]&7)
		base := uint64(1) << (10 + exp)
		return base + base/8*mant, true
	}
	at := 5 + [4]int{0, 1, 2, 4}[d&3]
	size := [4]int{1, 2, 4, 8}[d>>6]
	if len(b) < at+size {
		return 0, false
	}
	f := b[at : at+size]
	switch size {
	case 1:
		return uint64(f[0]), true
	case 2:
		return uint64(binary.LittleEndian.Uint16(f)) + 256, true
	case 4:
		return uint64(binary.LittleEndian.Uint32(f)), true
	}
	return binary.LittleEndian.Uint64(f), true
}

// zstdCorrupt is a structural or checksum failure in a complete frame.
type zstdCorrupt struct {
	Offset int64 // compressed byte offset
	Msg    string
}

func (e *zstdCorrupt) Error() string {
	return fmt.Sprintf("corrupt zstd stream at compressed byte %d: %s", e.Offset, e.Msg)
}

// frameWalker passes the bytes of one zstd frame through to the decoder while
// walking its structure; it reports io.EOF exactly at the frame's end and
// io.ErrUnexpectedEOF when the input ends inside the frame (a torn frame).
type frameWalker struct {
	br       *bufio.Reader
	off      int64 // compressed offset of the next byte
	start    int64 // offset where the current frame began
	unit     int64 // bytes left of the current structural unit
	phase    int   // what comes after the unit
	checksum bool
	torn     bool
	err      error  // corruption found while walking
	window   uint64 // the current frame's window, when its header was whole
}

const (
	phaseHeader = iota
	phaseBlockHeader
	phaseChecksum
	phaseDone
)

// begin prepares for the frame at the current offset; ok is false at a clean
// end of input.
func (w *frameWalker) begin() (ok bool, err error) {
	w.start = w.off
	w.torn = false
	b, perr := w.br.Peek(1)
	if len(b) == 0 {
		if perr != nil && perr != io.EOF {
			return false, perr
		}
		return false, nil
	}
	w.phase = phaseHeader
	w.unit = 0
	w.window = 0
	if b, _ := w.br.Peek(18); len(b) > 0 {
		if win, ok := frameWindow(b); ok {
			w.window = win
			if win > MaxZstdWindow {
				w.err = &zstdWindowError{Offset: w.off, Window: win}
				return false, w.err
			}
		}
	}
	return true, nil
}

// next decides the size of the next structural unit; it returns io.EOF when
// the frame is done, io.ErrUnexpectedEOF when it is torn, or a corruption.
func (w *frameWalker) next() error {
	switch w.phase {
	case phaseHeader:
		b, _ := w.br.Peek(5)
		if len(b) < 4 {
			return w.tornNow()
		}
		if binary.LittleEndian.Uint32(b) != zstdMagic {
			w.err = &zstdCorrupt{Offset: w.off, Msg: "invalid frame magic"}
			return w.err
		}
		if len(b) < 5 {
			return w.tornNow()
		}
		d := b[4]
		if d&0x18 != 0 {
			w.err = &zstdCorrupt{Offset: w.off + 4, Msg: "reserved frame-header bit set"}
			return w.err
		}
		fcsFlag := d >> 6
		single := d&0x20 != 0
		w.checksum = d&0x04 != 0
		dict := int64([4]int{0, 1, 2, 4}[d&3])
		fcs := int64(0)
		switch fcsFlag {
		case 0:
			if single {
				fcs = 1
			}
		default:
			fcs = 1 << fcsFlag
		}
		win := int64(1)
		if single {
			win = 0
		}
		w.unit = 5 + win + dict + fcs
		w.phase = phaseBlockHeader
		return nil
	case phaseBlockHeader:
		b, _ := w.br.Peek(3)
		if len(b) < 3 {
			return w.tornNow()
		}
		h := uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16
		last := h&1 != 0
		typ := (h >> 1) & 3
		size := int64(h >> 3)
		if typ == 3 {
			w.err = &zstdCorrupt{Offset: w.off, Msg: "reserved block type"}
			return w.err
		}
		if typ == 1 {
			size = 1
		}
		w.unit = 3 + size
		switch {
		case !last:
			w.phase = phaseBlockHeader
		case w.checksum:
			w.phase = phaseChecksum
		default:
			w.phase = phaseDone
		}
		return nil
	case phaseChecksum:
		w.unit = 4
		w.phase = phaseDone
		return nil
	}
	return io.EOF
}

func (w *frameWalker) tornNow() error {
	w.torn = true
	return io.ErrUnexpectedEOF
}

func (w *frameWalker) Read(p []byte) (int, error) {
	if w.err != nil {
		return 0, w.err
	}
	for w.unit == 0 {
		if err := w.next(); err != nil {
			return 0, err
		}
	}
	if int64(len(p)) > w.unit {
		p = p[:w.unit]
	}
	n, err := w.br.Read(p)
	w.off += int64(n)
	w.unit -= int64(n)
	if n == 0 && err != nil {
		if err == io.EOF {
			return 0, w.tornNow()
		}
		return 0, err
	}
	return n, nil
}

// zstdSource yields the plaintext of a chained-frame stream. Read returns
// errFrameEnd once after each complete frame; after a torn final frame it
// returns what could be decoded and then io.EOF, with Torn set.
type zstdSource struct {
	w       frameWalker
	dec     *zstd.Decoder
	inFrame bool
	frames  int   // complete frames seen
	Torn    bool  // the last frame was incomplete
	TornAt  int64 // compressed offset where the torn frame starts
	done    bool
	// pendingEnd: a frame ended together with its last plaintext bytes; the
	// frame end is reported on the next call.
	pendingEnd bool
	pd         *pooledDecoder
	large      bool // a frame had a large window
	// reserve is Options.Reserve.
	reserve func(int64) func()
}

func newZstdSource(r io.Reader, reserve func(int64) func()) (*zstdSource, error) {
	pd, err := getDecoder()
	if err != nil {
		return nil, err
	}
	br, ok := r.(*bufio.Reader)
	if !ok || br.Size() < 1<<16 {
		br = bufio.NewReaderSize(r, 1<<20)
	}
	return &zstdSource{w: frameWalker{br: br}, dec: pd.dec, pd: pd, reserve: reserve}, nil
}

// Close hands the decoder back for reuse.
func (s *zstdSource) Close() {
	if s.pd != nil {
		putDecoder(s.pd, s.large)
		s.pd, s.dec = nil, nil
	}
}

// budget makes room for a frame's history (see pooledDecoder).
func (s *zstdSource) budget(window uint64) {
	if window < largeWindow {
		return
	}
	s.large = true
	need := int64(window) + 2<<20
	s.pd.ring = max(s.pd.ring, need)
	if need > s.pd.reserved {
		if s.pd.release != nil {
			s.pd.release()
		}
		s.pd.reserved, s.pd.release = 0, nil
		if s.reserve == nil {
			return
		}
		if release := s.reserve(need); release != nil {
			s.pd.reserved, s.pd.release = need, release
		}
	}
}

// Decoders are reused. A decoder keeps the history ring of the largest
// window it has decoded (allocated and zeroed once: 128 MiB for
// --long=27), and that memory is budgeted for as long as the decoder
// lives. A log's main pass reuses its prepass's decoder; once a log
// without a large window is done, idle large decoders are dropped, so a
// run does not keep a big ring for the logs after the one that needed it.
type pooledDecoder struct {
	dec      *zstd.Decoder
	ring     int64  // the history it holds, when a large window made it
	reserved int64  // of which budgeted under the memory limit
	release  func() // gives that back
}

var decoderPool struct {
	sync.Mutex
	free []*pooledDecoder
}

func getDecoder() (*pooledDecoder, error) {
	p := &decoderPool
	p.Lock()
	if n := len(p.free); n > 0 {
		// The largest ring first: a main pass after its prepass.
		best := 0
		for i, d := range p.free {
			if d.ring > p.free[best].ring {
				best = i
			}
		}
		d := p.free[best]
		p.free = append(p.free[:best], p.free[best+1:]...)
		p.Unlock()
		return d, nil
	}
	p.Unlock()
	dec, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(false),
		zstd.WithDecoderMaxWindow(MaxZstdWindow), zstd.WithDecoderMaxMemory(64<<30))
	if err != nil {
		return nil, err
	}
	return &pooledDecoder{dec: dec}, nil
}

func putDecoder(d *pooledDecoder, large bool) {
	d.dec.Reset(nil) // drop the input
	p := &decoderPool
	p.Lock()
	defer p.Unlock()
	if !large {
		kept := p.free[:0]
		for _, f := range p.free {
			if f.ring > 0 {
				f.close()
			} else {
				kept = append(kept, f)
			}
		}
		clear(p.free[len(kept):])
		p.free = kept
	}
	if (!large && d.ring > 0) || len(p.free) >= runtime.GOMAXPROCS(0) {
		d.close()
		return
	}
	p.free = append(p.free, d)
}

func (d *pooledDecoder) close() {
	d.dec.Close()
	if d.release != nil {
		d.release()
		d.release = nil
	}
}

func (s *zstdSource) Read(p []byte) (int, error) {
	if s.pendingEnd {
		s.pendingEnd = false
		return 0, errFrameEnd
	}
	if s.done {
		return 0, io.EOF
	}
	if !s.inFrame {
		ok, err := s.w.begin()
		if err != nil {
			return 0, err
		}
		if !ok {
			s.done = true
			return 0, io.EOF
		}
		s.budget(s.w.window)
		if err := s.dec.Reset(&s.w); err != nil {
			return 0, err
		}
		s.inFrame = true
	}
	n, err := s.dec.Read(p)
	if err == nil {
		return n, nil
	}
	if s.w.err != nil {
		return n, s.w.err
	}
	if s.w.torn {
		// Keep what the torn frame yielded; the caller keeps complete lines only.
		s.Torn = true
		s.TornAt = s.w.start
		if n > 0 {
			// Report the end on the next call.
			s.done = true
			return n, nil
		}
		s.done = true
		return 0, io.EOF
	}
	if err == io.EOF {
		if s.w.phase != phaseDone || s.w.unit != 0 {
			// The decoder stopped before the walker saw the frame end.
			return n, &zstdCorrupt{Offset: s.w.off, Msg: "frame ended early"}
		}
		s.inFrame = false
		s.frames++
		if n > 0 {
			s.pendingEnd = true
			return n, nil
		}
		return 0, errFrameEnd
	}
	return n, &zstdCorrupt{Offset: s.w.start, Msg: err.Error()}
}
