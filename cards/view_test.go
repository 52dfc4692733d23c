package cards

import (
	"bufio"
	"os"
	"testing"

	"github.com/dsh-replay/dsh-replay/internal/sharedtest"
	"github.com/dsh-replay/dsh-replay/jsonv"
)

// conformanceViews yields every callView/resultView of the worked examples.
func conformanceViews(t *testing.T) (calls, results []jsonv.Value) {
	t.Helper()
	for _, name := range []string{"fs-examples.jsonl", "other-examples.jsonl"} {
		f, err := os.Open(sharedtest.Dir(t, "conformance", name))
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<24)
		for sc.Scan() {
			rec, err := jsonv.Parse(sc.Bytes())
			if err != nil {
				t.Fatal(err)
			}
			if v := rec.Get("callView"); v.IsObject() {
				calls = append(calls, v)
			}
			if v := rec.Get("resultView"); v.IsObject() {
				results = append(results, v)
			}
		}
		f.Close()
	}
	return calls, results
}

func TestConformanceViewsRoundTrip(t *testing.T) {
	t.Parallel()
	calls, results := conformanceViews(t)
	for _, v := range calls {
		d := DecodeCallView(v)
		if u, ok := d.(*Unknown); ok {
			t.Errorf("call view decoded as unknown (%s): %s", u.Problem, jsonv.Stringify(v))
		}
		if got, want := CallViewJSON(d), jsonv.Stringify(v); got != want {
			t.Errorf("call view round trip:\n got %s\nwant %s", got, want)
		}
	}
	for _, v := range results {
		d := DecodeResultView(v)
		if u, ok := d.(*Unknown); ok {
			t.Errorf("result view decoded as unknown (%s): %s", u.Problem, jsonv.Stringify(v))
		}
		if got, want := ResultViewJSON(d), jsonv.Stringify(v); got != want {
			t.Errorf("result view round trip:\n got %s\nwant %s", got, want)
		}
	}
	t.Logf("%d call views, %d result views round-tripped", len(calls), len(results))
}
