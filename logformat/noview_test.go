package logformat_test

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/dsh-replay/dsh-replay/internal/sharedtest"
	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/logformat"
)

// TestReadCallsBytesHoldsNoView: what ReadCallsBytes returns must not point
// into the bytes it read, because verify reads the next small log into the
// same buffer. Each log is read twice, once from bytes left alone and once
// from a buffer overwritten afterwards; the two readings must print alike.
func TestReadCallsBytesHoldsNoView(t *testing.T) {
	checkNoView(t, logsUnder("../testdata"), 100)
}

// TestReadCallsBytesHoldsNoViewFixtures is the same over the real logs.
func TestReadCallsBytesHoldsNoViewFixtures(t *testing.T) {
	checkNoView(t, logsUnder(sharedtest.Dir(t, "fixtures")), 150)
}

func logsUnder(root string) []string {
	var paths []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".jsonl") && !logformat.IsSidecar(d.Name()) {
			paths = append(paths, p)
		}
		return nil
	})
	return paths
}

func checkNoView(t *testing.T, paths []string, minCalls int) {
	opts := logformat.Options{NoSidecar: true, DecodeValues: true, Jobs: 1}
	calls := 0
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		// Printed after the buffer is overwritten: lazily parsed values
		// are parsed only then.
		var want, got []string
		var wantErr, gotErr error
		for pass, out := range []*[]string{&want, &got} {
			buf := append([]byte(nil), data...)
			var kept []*logformat.Call
			sum, err := logformat.ReadCallsBytes(path, buf, opts, func(c *logformat.Call) error {
				cc := *c
				kept = append(kept, &cc)
				return nil
			})
			if pass == 1 {
				for i := range buf {
					buf[i] = '#'
				}
				gotErr = err
			} else {
				wantErr = err
			}
			for _, c := range kept {
				var b strings.Builder
				dump(&b, reflect.ValueOf(c))
				*out = append(*out, b.String())
			}
			var b strings.Builder
			dump(&b, reflect.ValueOf(sum))
			*out = append(*out, b.String())
		}
		if fmt.Sprint(wantErr) != fmt.Sprint(gotErr) {
			t.Errorf("%s: error %v, then %v after overwriting the bytes", path, wantErr, gotErr)
		}
		if len(want) != len(got) {
			t.Fatalf("%s: %d items, then %d", path, len(want), len(got))
		}
		for i := range want {
			if want[i] != got[i] {
				j := 0
				for j < len(want[i]) && j < len(got[i]) && want[i][j] == got[i][j] {
					j++
				}
				from := max(0, j-80)
				t.Errorf("%s: item %d changed when the bytes read were overwritten, at byte %d:\nbefore …%s\nafter  …%s",
					path, i, j, want[i][from:min(len(want[i]), j+80)], got[i][from:min(len(got[i]), j+80)])
				break
			}
		}
		calls += len(want) - 1
	}
	if calls < minCalls {
		t.Fatalf("only %d calls in %d logs", calls, len(paths))
	}
	t.Logf("%d logs, %d calls", len(paths), calls)
}

// dump prints v whole: strings quoted, JSON values stringified, pointers
// and slices followed.
func dump(b *strings.Builder, v reflect.Value) {
	if v.Type() == reflect.TypeFor[jsonv.Value]() {
		jv := v.Interface().(jsonv.Value)
		if jv.IsUndefined() {
			b.WriteString("undefined")
		} else {
			b.WriteString(jsonv.Stringify(jv))
		}
		return
	}
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			b.WriteString("nil")
			return
		}
		dump(b, v.Elem())
	case reflect.Struct:
		b.WriteString("{")
		for i := range v.NumField() {
			fmt.Fprintf(b, "%s:", v.Type().Field(i).Name)
			dump(b, v.Field(i))
			b.WriteString(" ")
		}
		b.WriteString("}")
	case reflect.Slice:
		b.WriteString("[")
		for i := range v.Len() {
			dump(b, v.Index(i))
			b.WriteString(",")
		}
		b.WriteString("]")
	case reflect.Map:
		fmt.Fprintf(b, "map[%d]", v.Len())
	case reflect.String:
		fmt.Fprintf(b, "%q", v.String())
	default:
		fmt.Fprintf(b, "%v", v)
	}
}
