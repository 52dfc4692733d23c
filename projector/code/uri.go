package code

import (
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/dsh-replay/dsh-replay/projector/internal/pct"
)

// renderURI is tool-lsp's renderUri: a valid file: URI becomes
// workspace-relative when it is under the workspace URI, or a URI-derived
// absolute path otherwise; malformed and non-file: URIs stay verbatim. The
// URL parsing follows the WHATWG file-scheme rules, path decoding follows
// Node's fileURLToPath, and relativization Node's path.posix/path.win32.
func renderURI(uri, workspaceURI string) string {
	if !strings.HasPrefix(uri, "file:") {
		return uri
	}
	target, ok := parseFileURL(uri)
	if !ok {
		return uri
	}
	workspace, ok := parseFileURL(workspaceURI)
	if !ok || !workspace.file {
		return uri
	}
	windowsWorld := workspace.host != "" || drivePath().MatchString(workspace.path)
	targetWindows := windowsWorld && (target.host != "" || drivePath().MatchString(target.path))
	wsPath, ok1 := filePath(workspace, windowsWorld)
	tPath, ok2 := filePath(target, targetWindows)
	if !ok1 || !ok2 {
		return uri
	}
	if windowsWorld != targetWindows {
		return tPath
	}
	var rel string
	var outside bool
	if windowsWorld {
		rel = win32Relative(wsPath, tPath)
		outside = rel == ".." || strings.HasPrefix(rel, `..\`) || win32IsAbsolute(rel)
	} else {
		rel = posixRelative(wsPath, tPath)
		outside = rel == ".." || strings.HasPrefix(rel, "../") || strings.HasPrefix(rel, "/")
	}
	rendered := rel
	switch {
	case rel == "":
		rendered = "."
	case outside:
		rendered = tPath
	}
	if windowsWorld {
		return strings.ReplaceAll(rendered, `\`, "/")
	}
	return rendered
}

var drivePath = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)^/[a-z](?::|%3A)`) })

// fileURL is the part of a parsed WHATWG URL renderUri reads.
type fileURL struct {
	file bool   // scheme is file
	host string // serialized hostname ("" for none and for localhost)
	path string // pathname
}

// parseFileURL parses an absolute URL the way `new URL(s)` does for the
// file scheme. Other schemes only report their scheme (renderUri rejects a
// non-file workspace and never parses a non-file target).
func parseFileURL(s string) (fileURL, bool) {
	// Strip leading/trailing C0 control or space, then every tab and newline.
	s = strings.TrimFunc(s, func(r rune) bool { return r <= 0x20 })
	s = strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' {
			return -1
		}
		return r
	}, s)
	colon := strings.IndexByte(s, ':')
	if colon < 1 || !isAlpha(s[0]) {
		return fileURL{}, false
	}
	for i := 1; i < colon; i++ {
		c := s[i]
		if !isAlpha(c) && !(c >= '0' && c <= '9') && c != '+' && c != '-' && c != '.' {
			return fileURL{}, false
		}
	}
	if !strings.EqualFold(s[:colon], "file") {
		// A valid non-file URL: only its scheme matters to the caller.
		return fileURL{}, true
	}
	rest := s[colon+1:]
	u := fileURL{file: true}
	// Query and fragment never reach the pathname.
	if i := strings.IndexAny(rest, "?#"); i >= 0 {
		rest = rest[:i]
	}
	isSlash := func(c byte) bool { return c == '/' || c == '\\' }
	var pathInput string
	if len(rest) >= 2 && isSlash(rest[0]) && isSlash(rest[1]) {
		// File host state: the host runs to the next slash.
		hostEnd := len(rest)
		for i := 2; i < len(rest); i++ {
			if isSlash(rest[i]) {
				hostEnd = i
				break
			}
		}
		buf := rest[2:hostEnd]
		switch {
		case isWindowsDriveLetter(buf, false):
			// The drive-letter quirk: the "host" is the first path segment.
			pathInput = rest[2:]
		case buf == "":
			pathInput = rest[hostEnd:]
		default:
			h, ok := parseHost(buf)
			if !ok {
				return fileURL{}, false
			}
			if h != "localhost" {
				u.host = h
			}
			pathInput = rest[hostEnd:]
		}
	} else {
		pathInput = rest
	}
	// Path start state consumes one leading slash.
	if len(pathInput) > 0 && isSlash(pathInput[0]) {
		pathInput = pathInput[1:]
	}
	u.path = "/" + strings.Join(parsePath(pathInput), "/")
	return u, true
}

func isAlpha(c byte) bool { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') }

// isWindowsDriveLetter: an ASCII letter then ':' (or '|' unless normalized only).
func isWindowsDriveLetter(s string, normalized bool) bool {
	return len(s) == 2 && isAlpha(s[0]) && (s[1] == ':' || (!normalized && s[1] == '|'))
}

// parsePath is the path state for the file scheme: segments split on / and
// \, dot segments resolved, the first drive letter normalized and never popped.
func parsePath(in string) []string {
	var path []string
	start := 0
	for i := 0; i <= len(in); i++ {
		if i < len(in) && in[i] != '/' && in[i] != '\\' {
			continue
		}
		buf := in[start:i]
		atEnd := i == len(in)
		switch {
		case isDoubleDot(buf):
			if !(len(path) == 1 && isWindowsDriveLetter(path[0], true)) && len(path) > 0 {
				path = path[:len(path)-1]
			}
			if atEnd {
				path = append(path, "")
			}
		case isSingleDot(buf):
			if atEnd {
				path = append(path, "")
			}
		default:
			if len(path) == 0 && isWindowsDriveLetter(buf, false) {
				buf = buf[:1] + ":"
			}
			path = append(path, encodePath(buf))
		}
		start = i + 1
	}
	return path
}

func isSingleDot(s string) bool { return s == "." || strings.EqualFold(s, "%2e") }

func isDoubleDot(s string) bool {
	switch strings.ToLower(s) {
	case "..", ".%2e", "%2e.", "%2e%2e":
		return true
	}
	return false
}

// encodePath applies the path percent-encode set (UTF-8, uppercase hex);
// lone surrogates become U+FFFD first, as a USVString does.
func encodePath(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size <= 1 {
			// WTF-8 lone surrogate (ED A0..BF xx) or a stray byte.
			if i+2 < len(s) && s[i] == 0xED {
				size = 3
			} else {
				size = 1
			}
			b.WriteString("%EF%BF%BD")
			i += size
			continue
		}
		c := s[i]
		if r < 0x80 && !(c < 0x20 || c == 0x7F || c == ' ' || c == '"' || c == '#' || c == '<' || c == '>' || c == '?' || c == '`' || c == '{' || c == '}') {
			b.WriteByte(c)
		} else {
			for j := 0; j < size; j++ {
				b.WriteString(pctHex(s[i+j]))
			}
		}
		i += size
	}
	return b.String()
}

func pctHex(c byte) string {
	const hex = "0123456789ABCDEF"
	return string([]byte{'%', hex[c>>4], hex[c&15]})
}

// parseHost is the domain branch of the WHATWG host parser (IP literals
// are kept as written, lower-cased).
func parseHost(buf string) (string, bool) {
	if strings.HasPrefix(buf, "[") {
		if !strings.HasSuffix(buf, "]") {
			return "", false
		}
		return strings.ToLower(buf), true
	}
	domain, ok := pct.Decode(buf, false)
	if !ok {
		return "", false
	}
	// Full UTS #46 processing is not ported: a domain is lower-cased, which
	// is what domainToASCII does to ASCII labels. A non-ASCII label keeps its
	// Unicode form; only its presence (and domainToUnicode for a UNC path,
	// where it round-trips) matters to renderUri.
	ascii := strings.ToLower(domain)
	if ascii == "" || !utf8.ValidString(ascii) {
		return "", false
	}
	for _, r := range ascii {
		if r <= 0x20 || r == 0x7F || strings.ContainsRune("#%/:<>?@[\\]^|", r) {
			return "", false
		}
	}
	return ascii, true
}

// hasEncoded reports %2f (or %5c when withBackslash), any case.
func hasEncoded(p string, withBackslash bool) bool {
	l := strings.ToLower(p)
	return strings.Contains(l, "%2f") || (withBackslash && strings.Contains(l, "%5c"))
}

// filePath is Node's fileURLToPath(url, {windows}); a NUL in the result
// counts as a failure, as renderUri treats it.
func filePath(u fileURL, windows bool) (string, bool) {
	var p string
	if windows {
		if hasEncoded(u.path, true) {
			return "", false
		}
		d, ok := pct.Decode(strings.ReplaceAll(u.path, "/", `\`), true)
		if !ok {
			return "", false
		}
		if u.host != "" {
			// domainToUnicode(hostname): parseHost kept the Unicode form
			// (punycode written as such stays encoded: a known simplification).
			p = `\\` + u.host + d
		} else {
			if len(d) < 3 || (d[1]|0x20) < 'a' || (d[1]|0x20) > 'z' || d[2] != ':' {
				return "", false
			}
			p = d[1:]
		}
	} else {
		if u.host != "" || hasEncoded(u.path, false) {
			return "", false
		}
		d, ok := pct.Decode(u.path, true)
		if !ok {
			return "", false
		}
		p = d
	}
	if strings.Contains(p, "\x00") {
		return "", false
	}
	return p, true
}

// normalizeSegments resolves an absolute path's segments (no climbing above root).
func normalizeSegments(p string, isSep func(byte) bool) string {
	var out []string
	start := 0
	for i := 0; i <= len(p); i++ {
		if i < len(p) && !isSep(p[i]) {
			continue
		}
		seg := p[start:i]
		start = i + 1
		switch seg {
		case "", ".":
		case "..":
			if len(out) > 0 {
				out = out[:len(out)-1]
			}
		default:
			out = append(out, seg)
		}
	}
	return strings.Join(out, string(sepOf(isSep)))
}

func sepOf(isSep func(byte) bool) byte {
	if isSep('\\') {
		return '\\'
	}
	return '/'
}

func posixSep(c byte) bool { return c == '/' }
func winSep(c byte) bool   { return c == '/' || c == '\\' }

// posixRelative is path.posix.relative for two absolute paths.
func posixRelative(from, to string) string {
	if from == to {
		return ""
	}
	from = "/" + normalizeSegments(from, posixSep)
	to = "/" + normalizeSegments(to, posixSep)
	if from == to {
		return ""
	}
	fromStart, fromEnd := 1, len(from)
	fromLen := fromEnd - fromStart
	toStart := 1
	toLen := len(to) - toStart
	length := min(fromLen, toLen)
	lastCommonSep := -1
	i := 0
	for ; i < length; i++ {
		c := from[fromStart+i]
		if c != to[toStart+i] {
			break
		} else if c == '/' {
			lastCommonSep = i
		}
	}
	if i == length {
		if toLen > length {
			if to[toStart+i] == '/' {
				return to[toStart+i+1:]
			}
			if i == 0 {
				return to[toStart+i:]
			}
		} else if fromLen > length {
			if from[fromStart+i] == '/' {
				lastCommonSep = i
			} else if i == 0 {
				lastCommonSep = 0
			}
		}
	}
	out := ""
	for i = fromStart + lastCommonSep + 1; i <= fromEnd; i++ {
		if i == fromEnd || from[i] == '/' {
			if out == "" {
				out = ".."
			} else {
				out += "/.."
			}
		}
	}
	return out + to[toStart+lastCommonSep:]
}

// win32Resolve is path.win32.resolve for one absolute path (drive or UNC).
func win32Resolve(p string) string {
	device, rootEnd := "", 0
	switch {
	case len(p) >= 2 && winSep(p[0]) && winSep(p[1]):
		j := 2
		for j < len(p) && !winSep(p[j]) {
			j++
		}
		rootEnd = 1
		if j < len(p) && j != 2 {
			first := p[2:j]
			last := j
			for j < len(p) && winSep(p[j]) {
				j++
			}
			if j < len(p) && j != last {
				last = j
				for j < len(p) && !winSep(p[j]) {
					j++
				}
				if first != "." && first != "?" {
					device = `\\` + first + `\` + p[last:j]
					rootEnd = j
				} else {
					device = `\\` + first
					rootEnd = 4
				}
			}
		}
	case len(p) >= 1 && winSep(p[0]):
		rootEnd = 1
	case len(p) >= 2 && isAlpha(p[0]) && p[1] == ':':
		device, rootEnd = p[:2], 2
		if len(p) > 2 && winSep(p[2]) {
			rootEnd = 3
		}
	}
	return device + `\` + normalizeSegments(p[rootEnd:], winSep)
}

// win32IsAbsolute is path.win32.isAbsolute.
func win32IsAbsolute(p string) bool {
	if p == "" {
		return false
	}
	if winSep(p[0]) {
		return true
	}
	return len(p) > 2 && isAlpha(p[0]) && p[1] == ':' && winSep(p[2])
}

// win32Relative is path.win32.relative for two absolute paths.
func win32Relative(from, to string) string {
	if from == to {
		return ""
	}
	fromOrig, toOrig := win32Resolve(from), win32Resolve(to)
	if fromOrig == toOrig {
		return ""
	}
	from, to = strings.ToLower(fromOrig), strings.ToLower(toOrig)
	if from == to {
		return ""
	}
	if len(from) != len(fromOrig) || len(to) != len(toOrig) {
		fs, ts := strings.Split(fromOrig, `\`), strings.Split(toOrig, `\`)
		if fs[len(fs)-1] == "" {
			fs = fs[:len(fs)-1]
		}
		if ts[len(ts)-1] == "" {
			ts = ts[:len(ts)-1]
		}
		length := min(len(fs), len(ts))
		i := 0
		for ; i < length; i++ {
			if strings.ToLower(fs[i]) != strings.ToLower(ts[i]) {
				break
			}
		}
		switch {
		case i == 0:
			return toOrig
		case i == length:
			if len(ts) > length {
				return strings.Join(ts[i:], `\`)
			}
			if len(fs) > length {
				return strings.Repeat(`..\`, len(fs)-1-i) + ".."
			}
			return ""
		}
		return strings.Repeat(`..\`, len(fs)-i) + strings.Join(ts[i:], `\`)
	}
	fromStart := 0
	for fromStart < len(from) && from[fromStart] == '\\' {
		fromStart++
	}
	fromEnd := len(from)
	for fromEnd-1 > fromStart && from[fromEnd-1] == '\\' {
		fromEnd--
	}
	fromLen := fromEnd - fromStart
	toStart := 0
	for toStart < len(to) && to[toStart] == '\\' {
		toStart++
	}
	toEnd := len(to)
	for toEnd-1 > toStart && to[toEnd-1] == '\\' {
		toEnd--
	}
	toLen := toEnd - toStart
	length := min(fromLen, toLen)
	lastCommonSep := -1
	i := 0
	for ; i < length; i++ {
		c := from[fromStart+i]
		if c != to[toStart+i] {
			break
		} else if c == '\\' {
			lastCommonSep = i
		}
	}
	if i != length {
		if lastCommonSep == -1 {
			return toOrig
		}
	} else {
		if toLen > length {
			if to[toStart+i] == '\\' {
				return toOrig[toStart+i+1:]
			}
			if i == 2 {
				return toOrig[toStart+i:]
			}
		}
		if fromLen > length {
			if from[fromStart+i] == '\\' {
				lastCommonSep = i
			} else if i == 2 {
				lastCommonSep = 3
			}
		}
		if lastCommonSep == -1 {
			lastCommonSep = 0
		}
	}
	out := ""
	for i = fromStart + lastCommonSep + 1; i <= fromEnd; i++ {
		if i == fromEnd || from[i] == '\\' {
			if out == "" {
				out = ".."
			} else {
				out += `\..`
			}
		}
	}
	toStart += lastCommonSep
	if out != "" {
		return out + toOrig[toStart:toEnd]
	}
	if toStart < len(toOrig) && toOrig[toStart] == '\\' {
		toStart++
	}
	return toOrig[toStart:toEnd]
}
