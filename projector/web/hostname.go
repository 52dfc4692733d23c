package web

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/idna"
	"golang.org/x/text/unicode/bidi"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector/internal/pct"
)

// Hostname is `new URL(raw).hostname` under the WHATWG URL standard (what
// Node implements): ok is false where the constructor throws. Only what
// decides the hostname and whether parsing fails is modelled: the scheme,
// the authority (credentials, host, port) of special and non-special URLs,
// file hosts, and URLs without an authority (opaque paths), whose hostname
// is empty.
func Hostname(raw string) (string, bool) {
	// The constructor takes a USVString: lone surrogates become U+FFFD.
	s := trimURLInput(jsonv.ToWellFormed(raw))
	// Scheme: an ASCII letter, then letters, digits, "+", "-", "."; a URL
	// without one needs a base, and there is none.
	i := 0
	for i < len(s) && isSchemeChar(s[i], i == 0) {
		i++
	}
	if i == 0 || i >= len(s) || s[i] != ':' {
		return "", false
	}
	scheme := strings.ToLower(s[:i])
	rest := s[i+1:]
	special := isSpecialScheme(scheme)
	isSlash := func(c byte) bool { return c == '/' || (special && c == '\\') }
	switch {
	case scheme == "file":
		// file state → file slash state → file host state.
		if len(rest) == 0 || !isSlash(rest[0]) {
			return "", true
		}
		rest = rest[1:]
		if len(rest) == 0 || !isSlash(rest[0]) {
			return "", true
		}
		rest = rest[1:]
		end := strings.IndexAny(rest, `/\?#`)
		if end < 0 {
			end = len(rest)
		}
		buf := rest[:end]
		if isWindowsDriveLetter(buf) || buf == "" {
			return "", true
		}
		h, ok := parseHost(buf, false)
		if !ok {
			return "", false
		}
		if h == "localhost" {
			h = ""
		}
		return h, true
	case special:
		// Special authority (ignore) slashes: any run of / and \ is skipped.
		for len(rest) > 0 && (rest[0] == '/' || rest[0] == '\\') {
			rest = rest[1:]
		}
	default:
		if !strings.HasPrefix(rest, "//") {
			return "", true // path-only or opaque-path URL: host is null
		}
		rest = rest[2:]
	}
	// Authority: up to the first / ? # (or \ for special schemes); the last
	// "@" in it ends the credentials.
	end := 0
	for end < len(rest) && rest[end] != '?' && rest[end] != '#' && !isSlash(rest[end]) {
		end++
	}
	auth := rest[:end]
	if at := strings.LastIndexByte(auth, '@'); at >= 0 {
		auth = auth[at+1:]
		if auth == "" {
			return "", false // credentials without a host
		}
	}
	// Host and port: a ":" outside brackets starts the port.
	host, port, hasPort := auth, "", false
	inBrackets := false
	for j := 0; j < len(auth); j++ {
		switch c := auth[j]; {
		case c == '[':
			inBrackets = true
		case c == ']':
			inBrackets = false
		case c == ':' && !inBrackets:
			host, port, hasPort = auth[:j], auth[j+1:], true
			j = len(auth)
		}
	}
	if hasPort && host == "" {
		return "", false
	}
	if host == "" {
		if special {
			return "", false
		}
		return "", true
	}
	h, ok := parseHost(host, !special)
	if !ok {
		return "", false
	}
	if hasPort && port != "" {
		n := 0
		for k := 0; k < len(port); k++ {
			if port[k] < '0' || port[k] > '9' {
				return "", false
			}
			n = n*10 + int(port[k]-'0')
			if n > 65535 {
				return "", false
			}
		}
	}
	return h, true
}

// trimURLInput strips leading and trailing C0 controls and spaces and
// removes every ASCII tab and newline.
func trimURLInput(s string) string {
	s = strings.TrimFunc(s, func(r rune) bool { return r <= 0x20 })
	if strings.ContainsAny(s, "\t\n\r") {
		s = strings.Map(func(r rune) rune {
			if r == '\t' || r == '\n' || r == '\r' {
				return -1
			}
			return r
		}, s)
	}
	return s
}

func isSchemeChar(c byte, first bool) bool {
	alpha := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
	if first {
		return alpha
	}
	return alpha || c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.'
}

func isSpecialScheme(s string) bool {
	switch s {
	case "ftp", "file", "http", "https", "ws", "wss":
		return true
	}
	return false
}

func isWindowsDriveLetter(s string) bool {
	return len(s) == 2 && (s[0] >= 'a' && s[0] <= 'z' || s[0] >= 'A' && s[0] <= 'Z') && (s[1] == ':' || s[1] == '|')
}

// isForbiddenHost is the forbidden host code point set.
func isForbiddenHost(c byte) bool {
	switch c {
	case 0, '\t', '\n', '\r', ' ', '#', '/', ':', '<', '>', '?', '@', '[', '\\', ']', '^', '|':
		return true
	}
	return false
}

// isForbiddenDomain adds C0 controls, "%" and DEL.
func isForbiddenDomain(c byte) bool {
	return isForbiddenHost(c) || c <= 0x1F || c == '%' || c == 0x7F
}

// whatwgIDNA is UTS #46 ToASCII with the URL standard's flags:
// CheckHyphens=false, CheckJoiners=true, UseSTD3ASCIIRules=false,
// Transitional_Processing=false, VerifyDnsLength=false. CheckBidi is done
// by adaBidiOK, the way Node's URL parser (ada 2.9) does it.
var whatwgIDNA = idna.New(
	idna.MapForLookup(),
	idna.CheckJoiners(true),
	idna.CheckHyphens(false),
	idna.StrictDomainName(false),
	idna.Transitional(false),
	idna.VerifyDNSLength(false),
)

// parseHost is the host parser; the result is the serialized host.
func parseHost(input string, opaque bool) (string, bool) {
	if strings.HasPrefix(input, "[") {
		if !strings.HasSuffix(input, "]") || len(input) < 2 {
			return "", false
		}
		a, ok := parseIPv6(input[1 : len(input)-1])
		if !ok {
			return "", false
		}
		return "[" + serializeIPv6(a) + "]", true
	}
	if opaque {
		for k := 0; k < len(input); k++ {
			if input[k] != '%' && isForbiddenHost(input[k]) {
				return "", false
			}
		}
		return percentEncodeC0(input), true
	}
	domain, _ := pct.Decode(input, false)
	if !utf8.ValidString(domain) {
		domain = strings.ToValidUTF8(domain, "\uFFFD")
	}
	ascii, err := whatwgIDNA.ToASCII(domain)
	if err != nil || ascii == "" {
		return "", false
	}
	if !adaBidiOK(ascii) {
		return "", false
	}
	for k := 0; k < len(ascii); k++ {
		if isForbiddenDomain(ascii[k]) {
			return "", false
		}
	}
	if endsInNumber(ascii) {
		v, ok := parseIPv4(ascii)
		if !ok {
			return "", false
		}
		return strconv.Itoa(int(v>>24)) + "." + strconv.Itoa(int(v>>16&0xFF)) + "." + strconv.Itoa(int(v>>8&0xFF)) + "." + strconv.Itoa(int(v&0xFF)), true
	}
	return ascii, true
}

// percentEncodeC0 encodes the C0 control percent-encode set (C0 controls
// and everything above U+007E) of an opaque host.
func percentEncodeC0(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= 0x1F || c >= 0x7F {
			b.WriteByte('%')
			b.WriteByte("0123456789ABCDEF"[c>>4])
			b.WriteByte("0123456789ABCDEF"[c&15])
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// endsInNumber is the "ends in a number" checker.
func endsInNumber(s string) bool {
	parts := strings.Split(s, ".")
	if parts[len(parts)-1] == "" {
		if len(parts) == 1 {
			return false
		}
		parts = parts[:len(parts)-1]
	}
	last := parts[len(parts)-1]
	if last != "" && strings.Trim(last, "0123456789") == "" {
		return true
	}
	_, ok := parseIPv4Number(last)
	return ok
}

// parseIPv4Number parses decimal, 0x-hex or 0-octal; ok is false on failure.
func parseIPv4Number(s string) (uint64, bool) {
	if s == "" {
		return 0, false
	}
	base := 10
	switch {
	case len(s) >= 2 && (s[:2] == "0x" || s[:2] == "0X"):
		s, base = s[2:], 16
	case len(s) >= 2 && s[0] == '0':
		s, base = s[1:], 8
	}
	if s == "" {
		return 0, true
	}
	var v uint64
	for i := 0; i < len(s); i++ {
		var d uint64
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			d = uint64(c - '0')
		case base == 16 && pct.IsHex(c):
			d = uint64(pct.Unhex(c))
		default:
			return 0, false
		}
		if d >= uint64(base) {
			return 0, false
		}
		v = v*uint64(base) + d
		if v > 1<<40 {
			v = 1 << 40 // saturate: already out of range either way
		}
	}
	return v, true
}

// parseIPv4 is the IPv4 parser.
func parseIPv4(s string) (uint32, bool) {
	parts := strings.Split(s, ".")
	if parts[len(parts)-1] == "" && len(parts) > 1 {
		parts = parts[:len(parts)-1]
	}
	if len(parts) > 4 {
		return 0, false
	}
	nums := make([]uint64, len(parts))
	for i, p := range parts {
		n, ok := parseIPv4Number(p)
		if !ok {
			return 0, false
		}
		nums[i] = n
	}
	for _, n := range nums[:len(nums)-1] {
		if n > 255 {
			return 0, false
		}
	}
	last := nums[len(nums)-1]
	if last >= 1<<(8*(5-len(nums))) {
		return 0, false
	}
	v := last
	for i, n := range nums[:len(nums)-1] {
		v += n << (8 * (3 - i))
	}
	return uint32(v), true
}

// parseIPv6 is the IPv6 parser.
func parseIPv6(s string) ([8]uint16, bool) {
	var a [8]uint16
	piece, compress := 0, -1
	i := 0
	at := func(k int) byte {
		if k < len(s) {
			return s[k]
		}
		return 0
	}
	if at(0) == ':' {
		if at(1) != ':' {
			return a, false
		}
		i += 2
		piece++
		compress = piece
	}
	for i < len(s) {
		if piece == 8 {
			return a, false
		}
		if s[i] == ':' {
			if compress != -1 {
				return a, false
			}
			i++
			piece++
			compress = piece
			continue
		}
		value, length := 0, 0
		for length < 4 && i < len(s) && pct.IsHex(s[i]) {
			value = value*16 + int(pct.Unhex(s[i]))
			i++
			length++
		}
		if i < len(s) && s[i] == '.' {
			if length == 0 {
				return a, false
			}
			i -= length
			if piece > 6 {
				return a, false
			}
			seen := 0
			for i < len(s) {
				ipv4 := -1
				if seen > 0 {
					if s[i] == '.' && seen < 4 {
						i++
					} else {
						return a, false
					}
				}
				if i >= len(s) || s[i] < '0' || s[i] > '9' {
					return a, false
				}
				for i < len(s) && s[i] >= '0' && s[i] <= '9' {
					n := int(s[i] - '0')
					switch {
					case ipv4 == -1:
						ipv4 = n
					case ipv4 == 0:
						return a, false
					default:
						ipv4 = ipv4*10 + n
					}
					if ipv4 > 255 {
						return a, false
					}
					i++
				}
				a[piece] = a[piece]*0x100 + uint16(ipv4)
				seen++
				if seen == 2 || seen == 4 {
					piece++
				}
			}
			if seen != 4 {
				return a, false
			}
			break
		} else if i < len(s) && s[i] == ':' {
			i++
			if i >= len(s) {
				return a, false
			}
		} else if i < len(s) {
			return a, false
		}
		a[piece] = uint16(value)
		piece++
	}
	if compress != -1 {
		swaps := piece - compress
		piece = 7
		for piece != 0 && swaps > 0 {
			a[piece], a[compress+swaps-1] = a[compress+swaps-1], a[piece]
			piece--
			swaps--
		}
	} else if piece != 8 {
		return a, false
	}
	return a, true
}

// serializeIPv6 compresses the first longest run of two or more zero pieces.
func serializeIPv6(a [8]uint16) string {
	best, bestLen := -1, 1
	for i := 0; i < 8; {
		if a[i] != 0 {
			i++
			continue
		}
		j := i
		for j < 8 && a[j] == 0 {
			j++
		}
		if j-i > bestLen {
			best, bestLen = i, j-i
		}
		i = j
	}
	var b strings.Builder
	ignore0 := false
	for i := 0; i < 8; i++ {
		if ignore0 && a[i] == 0 {
			continue
		}
		ignore0 = false
		if i == best {
			if i == 0 {
				b.WriteString("::")
			} else {
				b.WriteString(":")
			}
			ignore0 = true
			continue
		}
		b.WriteString(strconv.FormatUint(uint64(a[i]), 16))
		if i != 7 {
			b.WriteByte(':')
		}
	}
	return b.String()
}

// adaBidiOK applies the bidi rules as ada 2.9 (Node 20's URL parser) does,
// label by label: only labels holding an R, AL or AN character are checked;
// one that starts with an L character must otherwise hold only L, EN, ES,
// CS, ET, ON, BN or NSM before its last non-NSM character (that last one is
// not checked); any other is held to the RTL rules (allowed classes, the
// last non-NSM character R, AL, EN or AN, not both EN and AN). A label with
// a joiner returns from ada's check before the bidi rules run.
func adaBidiOK(ascii string) bool {
	if !strings.Contains(ascii, "xn--") {
		return true
	}
	u, err := whatwgIDNA.ToUnicode(ascii)
	if err != nil {
		return false
	}
	for _, label := range strings.Split(u, ".") {
		if label == "" || strings.ContainsAny(label, "\u200c\u200d") {
			continue
		}
		rs := []rune(label)
		cls := make([]bidi.Class, len(rs))
		rtl := false
		for i, r := range rs {
			p, _ := bidi.LookupRune(r)
			cls[i] = p.Class()
			if cls[i] == bidi.R || cls[i] == bidi.AL || cls[i] == bidi.AN {
				rtl = true
			}
		}
		last := len(rs) - 1
		for last >= 0 && cls[last] == bidi.NSM {
			last--
		}
		if last < 0 {
			return false
		}
		if !rtl {
			continue
		}
		if cls[0] == bidi.L {
			for _, c := range cls[:last] {
				switch c {
				case bidi.L, bidi.EN, bidi.ES, bidi.CS, bidi.ET, bidi.ON, bidi.BN, bidi.NSM:
				default:
					return false
				}
			}
			continue
		}
		hasEN, hasAN := false, false
		for i, c := range cls[:last+1] {
			switch c {
			case bidi.EN:
				hasEN = true
			case bidi.AN:
				hasAN = true
			}
			if hasEN && hasAN {
				return false
			}
			switch c {
			case bidi.R, bidi.AL, bidi.AN, bidi.EN, bidi.ES, bidi.CS, bidi.ET, bidi.ON, bidi.BN, bidi.NSM:
			default:
				return false
			}
			if i == last && c != bidi.R && c != bidi.AL && c != bidi.AN && c != bidi.EN {
				return false
			}
		}
	}
	return true
}
