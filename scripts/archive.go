//go:build ignore

// archive writes the release archives byte for byte reproducibly: entries
// in the order given (the release script sorts nothing it does not name),
// one mod time, owner 0:0, fixed modes, gzip without a name or time. With
// -checksums DIR it writes DIR/checksums.txt (sha256sum's format, sorted by
// name) over every .tar.gz and .zip in DIR. Standard library only; run by
// scripts/release.sh:
//
//	go run scripts/archive.go -mtime EPOCH -o OUT.tar.gz|OUT.zip -C DIR FILE...
//	go run scripts/archive.go -checksums DIR
package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

func main() {
	mtime := flag.Int64("mtime", 315532800, "mod time of every entry (Unix seconds)")
	out := flag.String("o", "", "archive to write (.tar.gz or .zip)")
	dir := flag.String("C", ".", "directory the files are read from")
	sums := flag.String("checksums", "", "write checksums.txt in `DIR` instead")
	flag.Parse()
	var err error
	if *sums != "" {
		err = checksums(*sums)
	} else {
		err = archive(*out, *dir, time.Unix(*mtime, 0).UTC(), flag.Args())
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "archive:", err)
		os.Exit(1)
	}
}

func archive(out, dir string, mtime time.Time, names []string) error {
	names = append([]string(nil), names...)
	sort.Strings(names)
	var buf bytes.Buffer
	switch {
	case strings.HasSuffix(out, ".tar.gz"):
		gz, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		tw := tar.NewWriter(gz)
		for _, n := range names {
			data, mode, err := read(dir, n)
			if err != nil {
				return err
			}
			h := &tar.Header{Name: n, Mode: mode, Size: int64(len(data)), ModTime: mtime,
				Typeflag: tar.TypeReg, Format: tar.FormatPAX, Uname: "root", Gname: "root"}
			if err := tw.WriteHeader(h); err != nil {
				return err
			}
			if _, err := tw.Write(data); err != nil {
				return err
			}
		}
		if err := tw.Close(); err != nil {
			return err
		}
		if err := gz.Close(); err != nil {
			return err
		}
	case strings.HasSuffix(out, ".zip"):
		zw := zip.NewWriter(&buf)
		for _, n := range names {
			data, mode, err := read(dir, n)
			if err != nil {
				return err
			}
			h := &zip.FileHeader{Name: n, Method: zip.Deflate, Modified: mtime}
			h.SetMode(os.FileMode(mode))
			w, err := zw.CreateHeader(h)
			if err != nil {
				return err
			}
			if _, err := w.Write(data); err != nil {
				return err
			}
		}
		if err := zw.Close(); err != nil {
			return err
		}
	default:
		return fmt.Errorf("%s: want a .tar.gz or .zip name", out)
	}
	return writeAtomic(out, buf.Bytes())
}

// read returns a file and its archive mode: 0755 for the binary, 0644 else.
func read(dir, name string) ([]byte, int64, error) {
	data, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		return nil, 0, err
	}
	mode := int64(0o644)
	if strings.HasPrefix(name, "dsh-replay") {
		mode = 0o755
	}
	return data, mode, nil
}

func checksums(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	var b strings.Builder
	for _, e := range entries { // ReadDir sorts by name
		n := e.Name()
		if !strings.HasSuffix(n, ".tar.gz") && !strings.HasSuffix(n, ".zip") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			return err
		}
		sum := sha256.Sum256(data)
		fmt.Fprintf(&b, "%s  %s\n", hex.EncodeToString(sum[:]), n)
	}
	return writeAtomic(filepath.Join(dir, "checksums.txt"), []byte(b.String()))
}

func writeAtomic(path string, data []byte) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
