package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// releaseVersion is the version the test releases are stamped with.
const releaseVersion = "v0.0.0-releasetest"

// buildTimeout bounds one scripts/release.sh run (a cold build on a loaded
// two-core machine takes minutes): the exec watchdog of these tests.
const buildTimeout = 30 * time.Minute

func releaseGo() string {
	if g := filepath.Join(runtime.GOROOT(), "bin", "go"); fileExists(g) {
		return g
	}
	return "go"
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }

// runRelease runs scripts/release.sh for the host platform into out.
func runRelease(t *testing.T, out string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), buildTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "scripts/release.sh", out)
	cmd.Env = append(os.Environ(), "GO="+releaseGo(), "VERSION="+releaseVersion, "PLATFORMS=host", "SOURCE_DATE_EPOCH=1700000000")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("scripts/release.sh: %v (ctx %v)\n%s", err, ctx.Err(), b)
	}
}

func hostArchive() string {
	ext := ".tar.gz"
	if runtime.GOOS == "windows" {
		ext = ".zip"
	}
	return "dsh-replay_" + strings.TrimPrefix(releaseVersion, "v") + "_" + runtime.GOOS + "_" + runtime.GOARCH + ext
}

// TestRelease builds the host platform's release archive as make release
// does, checks checksums.txt, unpacks it and runs the binary; builds it
// again for the same bytes; and runs the GitHub Action's script against it
// (TestActionScript's body).
func TestRelease(t *testing.T) {
	if testing.Short() {
		t.Skip("builds release archives")
	}
	dir := t.TempDir()
	rel := filepath.Join(dir, "release")
	runRelease(t, rel)

	t.Run("checksums", func(t *testing.T) {
		sums, err := os.ReadFile(filepath.Join(rel, "checksums.txt"))
		if err != nil {
			t.Fatal(err)
		}
		entries, _ := os.ReadDir(rel)
		listed := 0
		for _, line := range strings.Split(strings.TrimSuffix(string(sums), "\n"), "\n") {
			sum, name, ok := strings.Cut(line, "  ")
			if !ok {
				t.Fatalf("checksums.txt line %q: want HEX  NAME", line)
			}
			data, err := os.ReadFile(filepath.Join(rel, name))
			if err != nil {
				t.Fatal(err)
			}
			h := sha256.Sum256(data)
			if got := hex.EncodeToString(h[:]); got != sum {
				t.Errorf("%s: sha256 %s, checksums.txt says %s", name, got, sum)
			}
			listed++
		}
		if listed != len(entries)-1 || listed == 0 {
			t.Errorf("checksums.txt lists %d archives, the directory has %d files besides it", listed, len(entries)-1)
		}
	})

	t.Run("unpacked", func(t *testing.T) {
		bin := unpack(t, filepath.Join(rel, hostArchive()), filepath.Join(dir, "unpacked"))
		for _, f := range []string{"LICENSE", "README.md"} {
			if !fileExists(filepath.Join(filepath.Dir(bin), f)) {
				t.Errorf("the archive has no %s", f)
			}
		}
		out, code := execBin(t, bin, "--version")
		if code != 0 || !strings.Contains(out, releaseVersion) {
			t.Errorf("--version: exit %d, %q; want %s", code, out, releaseVersion)
		}
		out, code = execBin(t, bin, "verify", "testdata/example")
		if code != 0 || !strings.Contains(out, "OK:") {
			t.Errorf("verify testdata/example: exit %d\n%s", code, out)
		}
	})

	t.Run("reproducible", func(t *testing.T) {
		again := filepath.Join(dir, "again")
		runRelease(t, again)
		for _, n := range []string{hostArchive(), "checksums.txt"} {
			a, _ := os.ReadFile(filepath.Join(rel, n))
			b, err := os.ReadFile(filepath.Join(again, n))
			if err != nil || !bytes.Equal(a, b) || len(a) == 0 {
				t.Errorf("%s differs between two builds of the same tree (%d and %d bytes, %v)", n, len(a), len(b), err)
			}
		}
	})

	t.Run("action", func(t *testing.T) { testActionScript(t, rel, filepath.Join(dir, "action")) })
}

// execBin runs a built binary under a watchdog and returns its combined
// output and exit code.
func execBin(t *testing.T, bin string, args ...string) (string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = append(os.Environ(), "NO_COLOR=1", "CI=", "GITHUB_STEP_SUMMARY=")
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); ok && ctx.Err() == nil {
		return string(out), ee.ExitCode()
	} else if err != nil {
		t.Fatalf("%s %v: %v (%v)\n%s", bin, args, err, ctx.Err(), out)
	}
	return string(out), 0
}

// unpack extracts a release archive into dir and returns the binary's path.
func unpack(t *testing.T, archive, dir string) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(name string, mode os.FileMode, r io.Reader) {
		if strings.Contains(name, "/") || strings.Contains(name, "..") {
			t.Fatalf("%s: entry %q is not a plain file name", archive, name)
		}
		f, err := os.OpenFile(filepath.Join(dir, name), os.O_CREATE|os.O_WRONLY|os.O_TRUNC, mode)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.Copy(f, r); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	var names []string
	if strings.HasSuffix(archive, ".zip") {
		zr, err := zip.OpenReader(archive)
		if err != nil {
			t.Fatal(err)
		}
		defer zr.Close()
		for _, f := range zr.File {
			rc, err := f.Open()
			if err != nil {
				t.Fatal(err)
			}
			write(f.Name, f.Mode(), rc)
			rc.Close()
			names = append(names, f.Name)
		}
	} else {
		f, err := os.Open(archive)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		gz, err := gzip.NewReader(f)
		if err != nil {
			t.Fatal(err)
		}
		tr := tar.NewReader(gz)
		for {
			h, err := tr.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			if h.Uid != 0 || h.Gid != 0 || h.ModTime.Unix() != 1700000000 {
				t.Errorf("%s: owner %d:%d, mod time %v; want 0:0 at SOURCE_DATE_EPOCH", h.Name, h.Uid, h.Gid, h.ModTime)
			}
			write(h.Name, os.FileMode(h.Mode), tr)
			names = append(names, h.Name)
		}
	}
	want := "LICENSE README.md dsh-replay"
	if runtime.GOOS == "windows" {
		want += ".exe"
	}
	if got := strings.Join(names, " "); got != want {
		t.Errorf("%s holds %q, want %q (sorted)", archive, got, want)
	}
	bin := filepath.Join(dir, "dsh-replay")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	return bin
}
