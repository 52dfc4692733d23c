package logformat

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/dsh-replay/dsh-replay/jsonv"
)

// SidecarPath is where the values of a log may sit instead of inline:
// <log basename>.values.jsonl next to it (session.jsonl.zstd and
// session.jsonl both map to session.values.jsonl).
func SidecarPath(logPath string) string {
	dir, base := filepath.Split(logPath)
	for _, suf := range []string{".jsonl.zstd", ".jsonl.zst", ".jsonl"} {
		if strings.HasSuffix(base, suf) {
			base = strings.TrimSuffix(base, suf)
			break
		}
	}
	return dir + base + ".values.jsonl"
}

// IsSidecar reports whether a file name is a values sidecar rather than a log.
func IsSidecar(name string) bool { return strings.HasSuffix(name, ".values.jsonl") }

// sidecar indexes a values file by call id (offsets only, so memory stays
// small) and reads an entry when its call is delivered.
type sidecar struct {
	path  string
	f     *os.File
	index map[string]sideEntry
	// long is the last entry too long for the line buffer, kept from
	// indexing for its claim (which follows shortly: the log is being
	// read) so that it is neither read nor allocated twice.
	long    []byte
	longOff int64
}

type sideEntry struct {
	off  int64
	n    int
	line int
}

type sideValue struct {
	value           jsonv.Value
	contentReplaced bool
	// unrecordable is the recorder's reason for writing no value.
	unrecordable string
}

// sidecarHold is the longest sidecar line gathered in the line buffer;
// a longer one (a spilled output's value) is read again by offset.
const sidecarHold = 1 << 20

// openSidecar indexes the sidecar of logPath; nil when there is none. Lines
// that cannot be read are reported through notice.
func openSidecar(logPath string, maxLine int, notice func(Notice)) (*sidecar, error) {
	path := SidecarPath(logPath)
	if path == logPath {
		return nil, nil
	}
	if _, err := os.Stat(path); os.IsNotExist(err) {
		return nil, nil
	}
	f, st, err := openRegular(path, "cannot open values sidecar: ")
	if err != nil {
		if st != nil && st.IsDir() {
			return nil, nil
		}
		return nil, err
	}
	s := &sidecar{path: path, f: f, index: map[string]sideEntry{}}
	ls := newLineSource(f, nil, 1<<16, maxLine)
	var start int64
	for {
		lineNo := ls.line
		line, n, end, err := ls.nextSpan(sidecarHold)
		if err == nil && line == nil && n > 0 {
			// An entry too long to gather in the line buffer is read alone
			// into memory of its exact size, indexed and dropped.
			line = make([]byte, n)
			if _, rerr := f.ReadAt(line, start); rerr != nil {
				f.Close()
				return nil, &Error{File: path, Line: lineNo, Msg: "read error: " + rerr.Error()}
			}
		}
		if err != nil {
			if err != io.EOF {
				f.Close()
				var se *sourceError
				if ok := asSourceError(err, &se); ok {
					return nil, &Error{File: path, Line: se.Line, Msg: se.Err.Error()}
				}
				return nil, &Error{File: path, Msg: err.Error()}
			}
			if frag := ls.Fragment(); len(frag) > 0 {
				// A last entry without a newline is still a complete JSON text
				// when it parses; the sidecar has no torn-tail rule of its own.
				s.add(frag, start, lineNo, notice)
			}
			break
		}
		if s.add(line, start, lineNo, notice) && n > sidecarHold {
			s.long, s.longOff = line, start
		}
		start = end
	}
	return s, nil
}

// add indexes one line; it reports whether the line is an entry.
func (s *sidecar) add(line []byte, off int64, lineNo int, notice func(Notice)) bool {
	if len(bytes.TrimSpace(line)) == 0 { // no copy: an entry may be tens of MB
		return false
	}
	r := jsonv.NewObjectReader(line, true)
	id, hasID := "", false
	for r.Next() {
		if string(r.Key()) == "callId" {
			id, hasID = stringValue(&r)
		} else {
			r.Skip()
		}
	}
	if err := r.Err(); err != nil {
		notice(Notice{File: s.path, Line: lineNo, Kind: "sidecar-invalid", Msg: "values sidecar entry is not valid JSON: " + err.Error()})
		return false
	}
	if !hasID {
		notice(Notice{File: s.path, Line: lineNo, Kind: "sidecar-invalid", Msg: "values sidecar entry has no string callId"})
		return false
	}
	s.index[id] = sideEntry{off: off, n: len(line), line: lineNo}
	return true
}

// claim reads and removes the entry for a call id.
func (s *sidecar) claim(id string) (sideValue, bool) {
	e, ok := s.index[id]
	if !ok {
		return sideValue{}, false
	}
	delete(s.index, id)
	var buf []byte
	if s.long != nil && s.longOff == e.off && len(s.long) == e.n {
		buf, s.long = s.long, nil
	} else {
		buf = make([]byte, e.n)
		if _, err := s.f.ReadAt(buf, e.off); err != nil {
			return sideValue{}, false
		}
	}
	// The entry may be tens of MB: its decoded value takes over buf's
	// memory or copies out of it, never both (Parse would copy it whole).
	v, err := jsonv.ParseOwned(buf)
	if err != nil {
		return sideValue{}, false
	}
	if u := v.Get("unrecordable"); u.IsString() && !v.Has("value") {
		return sideValue{unrecordable: u.Str()}, true
	}
	return sideValue{value: v.Get("value"), contentReplaced: v.Get("contentReplaced").True()}, true
}

// orphans reports the entries no call claimed, in sidecar order.
func (s *sidecar) orphans(notice func(Notice)) {
	type orphan struct {
		id   string
		line int
	}
	var out []orphan
	for id, e := range s.index {
		out = append(out, orphan{id, e.line})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].line < out[j].line })
	for _, o := range out {
		notice(Notice{File: s.path, Line: o.line, Kind: "orphan-value", Msg: "values sidecar names call " + jsonv.Quote(o.id) + ", which is not in the log"})
	}
}

func (s *sidecar) close() {
	if s != nil && s.f != nil {
		s.f.Close()
		s.long = nil
	}
}
