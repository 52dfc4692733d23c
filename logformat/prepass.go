package logformat

import (
	"bufio"
	"bytes"
	"io"
	"os"
)

// scanReplacements is the prepass that lets pruned replacement copies of a
// result (compaction pruning, §2.9) be attached to their call even though
// they come turns later: it counts, per call id, the replacement tool/result
// records of a file. Only lines holding the bytes "replace" are decoded, so
// the pass runs at memory speed. Errors are left to the main pass.
func scanReplacements(path string, maxLine int) (map[string]int, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if views, ok := scanReplacementsMapped(f, maxLine); ok {
		return views, nil
	}
	size := int64(-1)
	if st, err := f.Stat(); err == nil {
		size = st.Size()
	}
	br := bufio.NewReaderSize(f, 1<<16)
	magic, _ := br.Peek(4)
	var src io.Reader = br
	var zs *zstdSource
	if isZstdMagic(magic) {
		if zs, err = newZstdSource(br); err != nil {
			return nil, err
		}
		defer zs.Close()
		src = zs
	}
	ls := newLineSource(src, zs, readBufSize(size, zs != nil), maxLine)
	first, _, err := ls.next()
	if err != nil {
		return nil, err
	}
	probe := &reader{file: path, noticeN: map[string]int{}}
	if err := probe.header(first); err != nil {
		return nil, err
	}
	views := map[string]int{}
	pat := []byte(`"replace"`)
	var rec record
	for {
		err := ls.fill()
		buf := ls.buf[ls.r:ls.w]
		last := bytes.LastIndexByte(buf, '\n')
		if last >= 0 {
			chunk := buf[:last+1]
			for p := 0; ; {
				i := bytes.Index(chunk[p:], pat)
				if i < 0 {
					break
				}
				i += p
				s := bytes.LastIndexByte(chunk[:i], '\n') + 1
				e := i + bytes.IndexByte(chunk[i:], '\n')
				decodeLine(probe.format, chunk[s:e], &rec)
				if rec.bad == "" && rec.typ == "tool/result" && rec.replace {
					if id := replacementCallID(rec); id != "" {
						views[id]++
					}
				}
				p = e + 1
			}
			ls.r += last + 1
		}
		if err != nil {
			break
		}
	}
	return views, nil
}

// countReplacement decodes the line around a "replace" hit at i in chunk
// and counts it when it is a replacement tool/result; it returns where the
// search continues.
func countReplacement(format lineFormat, chunk []byte, i int, views map[string]int, rec *record) int {
	s := bytes.LastIndexByte(chunk[:i], '\n') + 1
	e := bytes.IndexByte(chunk[i:], '\n')
	if e < 0 {
		e = len(chunk)
	} else {
		e += i
	}
	decodeLine(format, chunk[s:e], rec)
	if rec.bad == "" && rec.typ == "tool/result" && rec.replace {
		if id := replacementCallID(*rec); id != "" {
			views[id]++
		}
	}
	return e + 1
}

func replacementCallID(rec record) string {
	d := rec.data
	if msg := d.Get("message"); msg.IsDefined() {
		return msg.Path("source", "callId").Str()
	}
	return d.Get("callId").Str()
}
