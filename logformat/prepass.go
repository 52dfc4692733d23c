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
// records of a file. Only lines that mayBeReplacement are decoded, so the
// pass runs at memory speed. Errors are left to the main pass.
func scanReplacements(path string, maxLine int) (map[string]int, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
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
	// A modest buffer that stays in cache: the scan is bound by memory, and
	// reading into hot memory beats mapping the file on virtual machines.
	ls := newLineSource(src, zs, min(readBufSize(size, zs != nil), 1<<20), maxLine)
	first, _, err := ls.next()
	if err != nil {
		return nil, err
	}
	probe := &reader{file: path, noticeN: map[string]int{}}
	if err := probe.header(first); err != nil {
		return nil, err
	}
	views := map[string]int{}
	var rec record
	for {
		err := ls.fill()
		buf := ls.buf[ls.r:ls.w]
		last := bytes.LastIndexByte(buf, '\n')
		if last >= 0 {
			chunk := buf[:last+1]
			for p := 0; p < len(chunk); {
				e := p + bytes.IndexByte(chunk[p:], '\n')
				if line := chunk[p:e]; mayBeReplacement(probe.format, line) {
					decodeLine(probe.format, false, line, &rec)
					if rec.bad == "" && rec.typ == "tool/result" && rec.replace {
						if id := replacementCallID(rec); id != "" {
							views[id]++
						}
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

// mayBeReplacement is a cheap test for a line that may be a replacement
// tool/result. Writers put "type" first and "surfaceOp" last in an event, so
// for a session log only tool/result lines are looked at, and only their
// tail; other layouts fall back to a search for "replace".
func mayBeReplacement(format lineFormat, line []byte) bool {
	const typePrefix = `{"type":"`
	const resultPrefix = `{"type":"tool/result"`
	if format == fmtLog && bytes.HasPrefix(line, []byte(typePrefix)) {
		if !bytes.HasPrefix(line, []byte(resultPrefix)) {
			return false
		}
		tail := line[max(0, len(line)-200):]
		if i := bytes.LastIndex(tail, []byte(`"surfaceOp"`)); i >= 0 {
			return bytes.Contains(tail[i:], []byte(`"replace"`))
		}
	}
	return bytes.Contains(line, []byte(`"replace"`))
}

func replacementCallID(rec record) string {
	d := rec.data
	if msg := d.Get("message"); msg.IsDefined() {
		return msg.Path("source", "callId").Str()
	}
	return d.Get("callId").Str()
}
