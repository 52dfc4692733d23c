//go:build slim

package projector

import "github.com/dsh-replay/dsh-replay/jsonv"

// kschema stands in for kaptinlin's compiled schema: the slim build leaves
// kaptinlin/jsonschema (and the net/http, YAML and XML it links) to the
// full build, which verify --kaptinlin runs.
type kschema = *struct{}

// compileKaptinlin compiles nothing: values are validated by the upstream
// walk alone, as they are without --kaptinlin (a slim run given --kaptinlin
// hands over to the full build before it builds an engine).
func compileKaptinlin(jsonv.Value) (kschema, error) { return nil, nil }

func kaptinlinValid(kschema, jsonv.Value) bool { return false }
