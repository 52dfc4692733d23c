package logformat

import (
	"path/filepath"
	"sort"
)

// PathInfo is what a walk knows of one path it found: Inputs' maps for
// that path.
type PathInfo struct {
	Walked    bool   // found in a directory walk (Inputs.Walked)
	Err       *Error // known bad without opening it (Inputs.Errs)
	NoSidecar bool   // no values sidecar beside it (Inputs.NoSidecar)
}

// Stream is Expand of one directory handed out while the walk goes on, in
// the order Expand gives: a reader can start on the logs of the first
// subdirectory while the others are still being listed. Its methods are
// for one goroutine.
type Stream struct {
	top   *walker
	subs  []*subtree
	items []streamItem
	i     int
	// The subdirectory whose logs are being handed out.
	cur     *walker
	curPath string
	j       int
}

// A streamItem is a log or bad entry of the directory itself, or a
// subdirectory at one of its two places in the order: its own path (where
// it is reported when it cannot be listed) and its path plus a separator
// (where what is under it goes: every such path sorts there, since no name
// holds a separator).
type streamItem struct {
	key   string
	sub   *subtree // nil for an entry of the directory itself
	self  bool
	entry string
}

type subtree struct {
	path string
	w    *walker
	done chan struct{} // closed when w has walked it all and sorted found
}

// ExpandStream is Expand of one directory argument as a Stream; nil (and
// no error) when dir is not a directory, for Expand to handle. The errors
// are Expand's: before it returns it knows the directory holds something.
func ExpandStream(dir string, filter PathFilter) (*Stream, error) {
	return expandStream(dir, filter, osFS)
}

func expandStream(a string, filter PathFilter, fsys walkFS) (*Stream, error) {
	st, err := fsys.stat(a)
	if err != nil {
		return nil, &Error{File: a, Msg: openMsg(err)}
	}
	if !st.IsDir() {
		return nil, nil
	}
	filtered := len(filter.Include)+len(filter.Exclude) > 0
	slots := make(chan struct{}, walkers()) // shared by every subtree's walk
	newWalker := func() *walker {
		return &walker{root: a, filter: filter, filtered: filtered, fs: fsys, errs: map[string]*Error{}, alone: map[string]bool{}, slots: slots}
	}
	top := newWalker()
	var subs []*subtree
	top.list(a, func(p string) {
		subs = append(subs, &subtree{path: p, w: newWalker(), done: make(chan struct{})})
	})
	sort.Slice(subs, func(i, j int) bool { return subs[i].path < subs[j].path })
	// The subtrees are walked in the order they are handed out, a few at a
	// time (each walk also spreads over the shared slots).
	go func() {
		running := make(chan struct{}, 2)
		for _, s := range subs {
			running <- struct{}{}
			go func() {
				defer func() { <-running }()
				s.w.walkTree(s.path)
				s.w.wg.Wait()
				sort.Strings(s.w.found)
				close(s.done)
			}()
		}
	}()

	sep := string(filepath.Separator)
	items := make([]streamItem, 0, len(top.found)+2*len(subs))
	for _, p := range top.found {
		items = append(items, streamItem{key: p, entry: p})
	}
	for _, s := range subs {
		items = append(items, streamItem{key: s.path, sub: s, self: true}, streamItem{key: s.path + sep, sub: s})
	}
	sort.Slice(items, func(i, j int) bool { return items[i].key < items[j].key })

	if len(top.found) == 0 {
		// Expand's refusal of a directory holding nothing: wait for the
		// subtrees in turn until one holds something.
		found := false
		for _, s := range subs {
			<-s.done
			if len(s.w.found) > 0 {
				found = true
				break
			}
		}
		if !found {
			msg := "directory holds no session logs (*.jsonl, *.jsonl.zstd)"
			if filtered {
				msg = "directory holds no session logs (*.jsonl, *.jsonl.zstd) that pass --include/--exclude"
			}
			return nil, &Error{File: a, Msg: msg}
		}
	}
	return &Stream{top: top, subs: subs, items: items}, nil
}

// Next returns the next path and what the walk knows of it; ok is false
// after the last one. It waits for the walk of a subdirectory to finish
// before handing out what is under it.
func (s *Stream) Next() (path string, info PathInfo, ok bool) {
	for {
		if s.cur != nil {
			for s.j < len(s.cur.found) {
				p := s.cur.found[s.j]
				s.j++
				if p == s.curPath {
					continue // the subdirectory itself, handed out at its own place
				}
				return p, s.cur.info(p), true
			}
			s.cur = nil
		}
		if s.i == len(s.items) {
			return "", PathInfo{}, false
		}
		it := s.items[s.i]
		s.i++
		switch {
		case it.sub == nil:
			return it.entry, s.top.info(it.entry), true
		case it.self:
			<-it.sub.done
			if it.sub.w.errs[it.sub.path] != nil {
				return it.sub.path, it.sub.w.info(it.sub.path), true
			}
		default:
			<-it.sub.done
			s.cur, s.curPath, s.j = it.sub.w, it.sub.path, 0
		}
	}
}

// Superseded is Inputs.Superseded: the older generations the walk left
// out. Complete once Next has returned false.
func (s *Stream) Superseded() map[string]string {
	var out map[string]string
	add := func(w *walker) {
		for old, newest := range w.superseded {
			if out == nil {
				out = map[string]string{}
			}
			out[old] = newest
		}
	}
	add(s.top)
	for _, sub := range s.subs {
		select {
		case <-sub.done:
			add(sub.w)
		default: // not walked yet: Next has not finished
		}
	}
	return out
}

// Inputs reads the rest of the stream into Inputs (as Expand returns them).
func (s *Stream) Inputs() Inputs {
	in := Inputs{Walked: map[string]bool{}, Errs: map[string]*Error{}, NoSidecar: map[string]bool{}}
	for {
		p, info, ok := s.Next()
		if !ok {
			in.Superseded = s.Superseded()
			return in
		}
		in.Paths = append(in.Paths, p)
		in.Walked[p] = info.Walked
		if info.Err != nil {
			in.Errs[p] = info.Err
		}
		if info.NoSidecar {
			in.NoSidecar[p] = true
		}
	}
}

// info is what w found of p (a path it found; the walk is over).
func (w *walker) info(p string) PathInfo {
	return PathInfo{Walked: true, Err: w.errs[p], NoSidecar: w.alone[p]}
}
