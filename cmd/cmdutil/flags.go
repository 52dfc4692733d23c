package cmdutil

import (
	"bytes"
	"encoding/csv"
	"strings"

	"github.com/spf13/pflag"
)

// StringArrayVar is pflag's StringArrayVar (same type name, parsing and
// help text) without its start-up cost: pflag renders every default through
// a new encoding/csv writer, a 4 KB buffer per flag on every run, whatever
// the command.
func StringArrayVar(f *pflag.FlagSet, p *[]string, name string, value []string, usage string) {
	*p = value
	f.Var(&stringArray{p: p}, name, usage)
}

type stringArray struct {
	p       *[]string
	changed bool
}

// Set appends, replacing the default on the first use (as pflag does).
func (s *stringArray) Set(v string) error {
	if !s.changed {
		*s.p = []string{v}
		s.changed = true
	} else {
		*s.p = append(*s.p, v)
	}
	return nil
}

func (s *stringArray) Type() string { return "stringArray" }

func (s *stringArray) String() string {
	if len(*s.p) == 0 {
		return "[]"
	}
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.Write(*s.p)
	w.Flush()
	return "[" + strings.TrimSuffix(b.String(), "\n") + "]"
}

func (s *stringArray) Append(v string) error {
	*s.p = append(*s.p, v)
	return nil
}

func (s *stringArray) Replace(v []string) error {
	*s.p = append([]string(nil), v...)
	return nil
}

func (s *stringArray) GetSlice() []string { return *s.p }
