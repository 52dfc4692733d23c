package projector_test

import (
	"testing"

	"github.com/dsh-replay/dsh-replay/projector"
)

func TestCompareReleases(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"0.1.5", "0.1.5", 0},
		{"0.1.3", "0.1.5", -1},
		{"0.1.10", "0.1.9", 1},
		{"0.1.7-alpha.1", "0.1.7", -1},
		{"0.1.7-alpha.1", "0.1.6", 1},
		{"0.1.6-alpha.1", "0.1.5", 1},
		{"0.1.7-alpha.2", "0.1.7-alpha.10", -1},
		{"0.1.7-alpha.1", "0.1.7-beta.1", -1},
		{"0.1.7-1", "0.1.7-alpha", -1},
		{"0.1.7-alpha", "0.1.7-alpha.1", -1},
		{"0.1.1-rc.2", "0.1.3", -1},
		{"", "0.1.3", -1},
		{"x", "0.0.0", -1},
		{"1.0.0", "0.9.99", 1},
	} {
		if got := projector.CompareReleases(c.a, c.b); got != c.want {
			t.Errorf("CompareReleases(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
		if got := projector.CompareReleases(c.b, c.a); got != -c.want {
			t.Errorf("CompareReleases(%q, %q) = %d, want %d", c.b, c.a, got, -c.want)
		}
	}
}

// LookupAt takes the newest definition the release has reached, the
// baseline below every one, and nothing of a release for a LasmeX log; a
// plugin's own definition (Replace) beats every release.
func TestLookupAtSelectsRelease(t *testing.T) {
	r, err := projector.NewRegistry(projector.Config{})
	if err != nil {
		t.Fatal(err)
	}
	base, v5, v7 := &projector.Tool{Name: "x"}, &projector.Tool{Name: "x"}, &projector.Tool{Name: "x"}
	if err := r.Add(base); err != nil {
		t.Fatal(err)
	}
	// Registered out of order on purpose.
	if err := r.AddReleaseTool("0.1.7-alpha.1", v7); err != nil {
		t.Fatal(err)
	}
	if err := r.AddReleaseTool("0.1.5", v5); err != nil {
		t.Fatal(err)
	}
	if err := r.AddReleaseTool("latest", v5); err == nil {
		t.Error("a release that is not one was accepted")
	}
	for _, c := range []struct {
		host, release string
		want          *projector.Tool
	}{
		{"", "", base}, {"", "0.1.1-rc.2", base}, {"", "0.1.3", base}, {"dsh", "0.1.5", v5},
		{"", "0.1.6", v5}, {"", "0.1.7-alpha.1", v7}, {"dsh", "0.1.7", v7}, {"", "0.2.0", v7},
		{"lasmex", "0.1.7", base}, {"", "not-a-release", base},
	} {
		if got := r.LookupAt("x", c.host, c.release); got != c.want {
			t.Errorf("LookupAt(x, %q, %q) picked the wrong definition", c.host, c.release)
		}
	}
	if got := r.ReleaseDefinitions()["x"]; len(got) != 2 || got[0] != "0.1.5" || got[1] != "0.1.7-alpha.1" {
		t.Errorf("ReleaseDefinitions = %v", got)
	}
	own := &projector.Tool{Name: "x"}
	if _, err := r.Replace(own); err != nil {
		t.Fatal(err)
	}
	if r.LookupAt("x", "", "0.1.7") != own {
		t.Error("a plugin's definition did not beat the release's")
	}
}
