package search

import (
	"sync"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
)

// Compiled schemas exactly as upstream's DSL compiles them (glob.ts, grep.ts).
var (
	globParameters = sync.OnceValue(func() jsonv.Value {
		return projector.SchemaText(`{"type":"object","properties":{"pattern":{"type":"string","description":"Glob pattern to match file paths against (e.g. \"**/*.ts\", \"src/**/*.test.js\"). A pattern with no \"/\" matches the basename at any depth, so \"*\" and \"*.ts\" both search the whole tree; include a separator to anchor the depth."},"path":{"type":"string","description":"Directory to search in. Defaults to the session workspace; a relative path resolves against it."}},"required":["pattern"]}`)
	})
	globOutput = sync.OnceValue(func() jsonv.Value {
		return projector.SchemaText(`{"type":"object","additionalProperties":false,"properties":{"root":{"type":"string"},"paths":{"type":"array","items":{"type":"string"}}},"required":["root","paths"]}`)
	})
	grepParameters = sync.OnceValue(func() jsonv.Value {
		return projector.SchemaText(`{"type":"object","properties":{"pattern":{"type":"string","description":"Regular expression to search for (ripgrep syntax)."},"path":{"type":"string","description":"File or directory to search. Defaults to the session workspace; a relative path resolves against it."},"include":{"type":"string","description":"One glob filter for which files to search (e.g. \"*.ts\", \"*.{js,jsx}\"). Not a list; negation is not supported."}},"required":["pattern"]}`)
	})
	grepOutput = sync.OnceValue(func() jsonv.Value {
		return projector.SchemaText(`{"type":"object","additionalProperties":false,"properties":{"matches":{"type":"array","items":{"type":"object","additionalProperties":false,"properties":{"path":{"type":"string"},"lineNumber":{"type":"integer"},"line":{"type":"string"}},"required":["path","lineNumber","line"]}}},"required":["matches"]}`)
	})
)

// Register adds this family's tools to r (reading options from r.Config).
func Register(r *projector.Registry) error {
	caps, err := CapsFromConfig(r.Config)
	if err != nil {
		return err
	}
	for _, t := range []*projector.Tool{GlobTool(caps), GrepTool(caps)} {
		name := t.Name
		t.MatchOwnSpill = func(rendered, recorded jsonv.Value) bool {
			r, ok1 := singleText(rendered)
			rec, ok2 := singleText(recorded)
			if !ok1 || !ok2 {
				return false
			}
			_, ok := MatchSpilledContent(name, r, rec)
			return ok
		}
		if err := r.Add(t); err != nil {
			return err
		}
	}
	return nil
}

// singleText is the text of a content array holding exactly one text block.
func singleText(content jsonv.Value) (string, bool) {
	if content.Len() != 1 || !content.IsArray() {
		return "", false
	}
	b := content.At(0)
	if b.Get("type").Str() != "text" || !b.Get("text").IsString() {
		return "", false
	}
	return b.Get("text").Str(), true
}

// GlobTool is the glob definition for a deployment's caps.
func GlobTool(caps Caps) *projector.Tool {
	return &projector.Tool{
		Name:       "glob",
		Plugin:     Plugin,
		Parameters: globParameters(),
		Output: &projector.Output{
			Schema: globOutput(),
			Render: func(_, value jsonv.Value) (jsonv.Value, error) {
				root, paths, err := globValue(value)
				if err != nil {
					return jsonv.Value{}, err
				}
				return projector.TextContent(GlobText(paths, root, caps, nil)), nil
			},
			PresentationMeta: func(_, value jsonv.Value) (jsonv.Value, error) {
				root, paths, err := globValue(value)
				if err != nil {
					return jsonv.Value{}, err
				}
				return GlobMeta(paths, root, caps), nil
			},
		},
		PresentCall:   presentGlobCall,
		PresentResult: presentGlobResult,
		CallCards:     []string{"generic"},
		ResultCards:   []string{"search"},
	}
}

// GrepTool is the grep definition for a deployment's caps.
func GrepTool(caps Caps) *projector.Tool {
	return &projector.Tool{
		Name:       "grep",
		Plugin:     Plugin,
		Parameters: grepParameters(),
		Output: &projector.Output{
			Schema: grepOutput(),
			Render: func(_, value jsonv.Value) (jsonv.Value, error) {
				matches, err := grepValue(value)
				if err != nil {
					return jsonv.Value{}, err
				}
				return projector.TextContent(GrepText(matches, caps, nil)), nil
			},
			PresentationMeta: func(_, value jsonv.Value) (jsonv.Value, error) {
				matches, err := grepValue(value)
				if err != nil {
					return jsonv.Value{}, err
				}
				return GrepMeta(matches, caps), nil
			},
		},
		PresentCall:   presentGrepCall,
		PresentResult: presentGrepResult,
		CallCards:     []string{"generic"},
		ResultCards:   []string{"search"},
	}
}
