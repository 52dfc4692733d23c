//go:build ignore

// pgostrip rewrites a pprof CPU profile so that it names no path of the
// machine it was recorded on: every string that is an absolute path (the
// profiled executable's mapping, source files of a build without -trimpath)
// becomes its base name. PGO matches functions by name, so the profile
// works as before. Standard library only; run by scripts/pgo.sh:
//
//	go run scripts/pgostrip.go IN OUT
package main

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"strings"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: go run scripts/pgostrip.go IN OUT")
		os.Exit(2)
	}
	if err := run(os.Args[1], os.Args[2]); err != nil {
		fmt.Fprintln(os.Stderr, "pgostrip:", err)
		os.Exit(1)
	}
}

func run(in, out string) error {
	raw, err := os.ReadFile(in)
	if err != nil {
		return err
	}
	if zr, err := gzip.NewReader(bytes.NewReader(raw)); err == nil {
		if raw, err = io.ReadAll(zr); err != nil {
			return err
		}
	}
	msg, err := rewrite(raw)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(msg)
	if err := zw.Close(); err != nil {
		return err
	}
	return os.WriteFile(out, buf.Bytes(), 0o644)
}

// rewrite copies the top-level fields of a Profile message, replacing each
// string_table entry (field 6) that is an absolute path by its base name.
func rewrite(in []byte) ([]byte, error) {
	var out []byte
	for len(in) > 0 {
		key, n := binary.Uvarint(in)
		if n <= 0 {
			return nil, errors.New("bad field key")
		}
		start := in
		in = in[n:]
		switch key & 7 {
		case 0: // varint
			_, m := binary.Uvarint(in)
			if m <= 0 {
				return nil, errors.New("bad varint")
			}
			in = in[m:]
		case 1: // 64-bit
			if len(in) < 8 {
				return nil, errors.New("short fixed64")
			}
			in = in[8:]
		case 5: // 32-bit
			if len(in) < 4 {
				return nil, errors.New("short fixed32")
			}
			in = in[4:]
		case 2: // length-delimited
			l, m := binary.Uvarint(in)
			if m <= 0 || uint64(len(in)-m) < l {
				return nil, errors.New("bad length")
			}
			payload := in[m : m+int(l)]
			in = in[m+int(l):]
			if key>>3 == 6 {
				s := string(payload)
				if strings.HasPrefix(s, "/") {
					s = path.Base(s)
				}
				out = binary.AppendUvarint(out, key)
				out = binary.AppendUvarint(out, uint64(len(s)))
				out = append(out, s...)
				continue
			}
		default:
			return nil, fmt.Errorf("unsupported wire type %d", key&7)
		}
		out = append(out, start[:len(start)-len(in)]...)
	}
	return out, nil
}
