package shell

import (
	"strings"
	"unicode/utf8"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector/retain"
)

// Byte-bounded text retention: the single-push uses of upstream's
// TextRetainer (lasmex-output-retention) by tool-terminal and tool-jobs.
//
// JavaScript details that change bytes, all reproduced here:
//   - TextEncoder turns each lone surrogate into U+FFFD before counting;
//   - a cut is trimmed to a UTF-8 boundary only when bytes were omitted;
//   - TextDecoder (default options) drops one leading U+FEFF of every
//     buffer it decodes, so retained text can lose a BOM even when the
//     budget kept everything.

// byteLength is TextEncoder's byte count: a lone surrogate encodes as the
// 3-byte U+FFFD, exactly its WTF-8 size.
func byteLength(s string) int { return len(s) }

// retainHead keeps the first maxBytes bytes of s.
func retainHead(s string, maxBytes int) string {
	b := []byte(jsonv.ToWellFormed(s))
	if maxBytes < 0 {
		maxBytes = 0
	}
	if len(b) <= maxBytes {
		return decodeUTF8(b)
	}
	return decodeUTF8(retain.TrimPartialTail(b[:maxBytes]))
}

// retainTail keeps the last maxBytes bytes of s.
func retainTail(s string, maxBytes int) string {
	b := []byte(jsonv.ToWellFormed(s))
	if maxBytes < 0 {
		maxBytes = 0
	}
	if len(b) <= maxBytes {
		return decodeUTF8(b)
	}
	return decodeUTF8(retain.TrimContinuationHead(b[len(b)-maxBytes:]))
}

// decodeUTF8 is `new TextDecoder().decode(b)`: WHATWG UTF-8 decoding with
// one leading BOM removed and each maximal invalid subpart replaced by one
// U+FFFD.
func decodeUTF8(b []byte) string {
	if len(b) >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF {
		b = b[3:]
	}
	if utf8.Valid(b) {
		return string(b)
	}
	var sb strings.Builder
	for i := 0; i < len(b); {
		c := b[i]
		if c < 0x80 {
			sb.WriteByte(c)
			i++
			continue
		}
		n, lo, hi := 0, byte(0x80), byte(0xBF)
		switch {
		case c >= 0xC2 && c <= 0xDF:
			n = 1
		case c == 0xE0:
			n, lo = 2, 0xA0
		case c >= 0xE1 && c <= 0xEC, c == 0xEE, c == 0xEF:
			n = 2
		case c == 0xED:
			n, hi = 2, 0x9F
		case c == 0xF0:
			n, lo = 3, 0x90
		case c >= 0xF1 && c <= 0xF3:
			n = 3
		case c == 0xF4:
			n, hi = 3, 0x8F
		default:
			sb.WriteString("\uFFFD")
			i++
			continue
		}
		j := i + 1
		ok := true
		for k := 0; k < n; k++ {
			if j >= len(b) || b[j] < lo || b[j] > hi {
				ok = false
				break
			}
			lo, hi = 0x80, 0xBF
			j++
		}
		if !ok {
			// The lead and the continuation bytes that fit form one
			// maximal subpart; the offending byte is reprocessed.
			sb.WriteString("\uFFFD")
			i = j
			continue
		}
		sb.Write(b[i:j])
		i = j
	}
	return sb.String()
}

// truncatedMarker is tool-terminal's TRUNCATED.
const truncatedMarker = "\n[output truncated]"

// boundTerminalText bounds one complete terminal acknowledgement.
func boundTerminalText(t string, maxBytes int) string {
	if byteLength(t) <= maxBytes {
		return t
	}
	markerBytes := byteLength(truncatedMarker)
	if markerBytes >= maxBytes {
		return retainTail(truncatedMarker, maxBytes)
	}
	return retainHead(t, maxBytes-markerBytes) + truncatedMarker
}

// terminalFitWithSuffix is tool-terminal's fitWithSuffix: the suffix is
// kept whole and the content keeps its tail.
func terminalFitWithSuffix(content, suffix string, maxBytes int) string {
	fixedBytes := byteLength(suffix)
	if fixedBytes >= maxBytes {
		return retainTail(suffix, maxBytes)
	}
	return retainTail(content, maxBytes-fixedBytes) + suffix
}

// fitWithPrefix keeps the prefix and the content's tail.
func fitWithPrefix(prefix, content string, maxBytes int) string {
	fixed := prefix + truncatedMarker
	fixedBytes := byteLength(fixed)
	if fixedBytes >= maxBytes {
		return retainHead(fixed, maxBytes)
	}
	return prefix + retainTail(content, maxBytes-fixedBytes) + truncatedMarker
}

// boundBodyWithSuffix bounds body + metadata (+ the upstream truncation
// marker), cutting the body first.
func boundBodyWithSuffix(content, metadata string, upstreamTruncated bool, maxBytes int) string {
	suffix := metadata
	if upstreamTruncated {
		suffix += truncatedMarker
	}
	complete := content + suffix
	if byteLength(complete) <= maxBytes {
		return complete
	}
	return terminalFitWithSuffix(content, metadata+truncatedMarker, maxBytes)
}

// jobsFitWithSuffix is tool-jobs' fitWithSuffix: the omitted marker is not
// repeated when the content already ends with it.
func jobsFitWithSuffix(content, suffix string, maxBytes int, omitted string) string {
	complete := content + suffix
	if byteLength(complete) <= maxBytes {
		return complete
	}
	fixed := suffix
	if !strings.HasSuffix(content, jsonv.TrimStartJS(omitted)) {
		fixed = omitted + suffix
	}
	fixedBytes := byteLength(fixed)
	if fixedBytes >= maxBytes {
		return retainTail(fixed, maxBytes)
	}
	return retainTail(content, maxBytes-fixedBytes) + fixed
}
