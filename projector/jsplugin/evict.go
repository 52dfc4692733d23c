package jsplugin

import (
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
)

// The cache is bounded in size: once it holds more than CacheMax bytes,
// the bundles used least recently (a hit touches its manifest) are removed
// until it fits, never the one just stored. A bundle is keyed by the
// plugin's path, so each checkout of a plugin adds one.

// DefaultCacheMax is CacheMax's default: 512 MiB (a plugin bundling its
// harness's real packages makes a bundle of about 40 MB).
const DefaultCacheMax = 512 << 20

// CacheMaxEnv names the variable that sets the bound: bytes, or a number
// with a K, M or G suffix (KiB, MiB, GiB).
const CacheMaxEnv = "DSH_REPLAY_CACHE_MAX"

// CacheMax is the bound $DSH_REPLAY_CACHE_MAX sets, else DefaultCacheMax.
func CacheMax() int64 {
	if n, ok := parseSize(os.Getenv(CacheMaxEnv)); ok {
		return n
	}
	return DefaultCacheMax
}

// parseSize reads "123", "64K", "512M", "2G".
func parseSize(s string) (int64, bool) {
	s = strings.TrimSpace(s)
	shift := 0
	if s != "" {
		switch s[len(s)-1] {
		case 'k', 'K':
			shift = 10
		case 'm', 'M':
			shift = 20
		case 'g', 'G':
			shift = 30
		}
		if shift > 0 {
			s = s[:len(s)-1]
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 || n > (1<<62)>>shift {
		return 0, false
	}
	return n << shift, true
}

type cacheEntry struct {
	key   string
	size  int64
	used  time.Time
	files []string
}

// evict removes the least recently used bundles of dir until what is left
// is at most max bytes; keep is never removed.
func evict(dir string, max int64, keep string) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	byKey := map[string]*cacheEntry{}
	var total int64
	for _, e := range ents {
		name := e.Name()
		if strings.HasPrefix(name, ".tmp-") || e.IsDir() {
			continue // a write under way
		}
		key, ext, ok := strings.Cut(name, ".")
		if !ok || (ext != "js" && ext != "map" && ext != "json") {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		ce := byKey[key]
		if ce == nil {
			ce = &cacheEntry{key: key}
			byKey[key] = ce
		}
		ce.size += info.Size()
		total += info.Size()
		ce.files = append(ce.files, filepath.Join(dir, name))
		if ext == "json" || ce.used.IsZero() {
			ce.used = info.ModTime()
		}
	}
	if total <= max {
		return
	}
	order := make([]*cacheEntry, 0, len(byKey))
	for _, ce := range byKey {
		if ce.key != keep {
			order = append(order, ce)
		}
	}
	sort.Slice(order, func(i, j int) bool { return order[i].used.Before(order[j].used) })
	for _, ce := range order {
		if total <= max {
			return
		}
		// The manifest first: a bundle without it is never used.
		sort.Slice(ce.files, func(i, j int) bool { return strings.HasSuffix(ce.files[i], ".json") })
		for _, f := range ce.files {
			os.Remove(f)
		}
		total -= ce.size
	}
}
