package report

import (
	"fmt"
	"io"
	"strings"
)

// Host is what --host loaded: the installed host whose own projectors
// replaced the ports for the run.
type Host struct {
	Product string `json:"product"` // DSH, LasmeX
	Version string `json:"version"`
	Dir     string `json:"dir"`
	Layout  string `json:"layout"` // source tree, node_modules
	// Tools came from the host, by name.
	Tools []HostTool `json:"tools"`
	// NotLoaded are packages that did not load ("name: why"); tools they
	// may define keep their ports.
	NotLoaded []string `json:"notLoaded,omitempty"`
	// Filled are required plugin options --config did not give, set as the
	// host ships them ("tool-todo.allowParallelInProgress=true").
	Filled []string `json:"filledOptions,omitempty"`
}

// HostTool is one tool the host's code answered for.
type HostTool struct {
	Tool    string `json:"tool"`
	Plugin  string `json:"plugin"`
	Version string `json:"version"`
	// ReplacesPort: a Go port of that name was replaced; otherwise the
	// tool is one no port covers.
	ReplacesPort bool `json:"replacesPort"`
}

// Headline is the one-line account of the host: "DSH 0.1.1-rc.2 (source
// tree DIR): 52 tools from 24 plugins, 49 replacing ports, 3 no port has".
func (h *Host) Headline() string {
	plugins := map[string]bool{}
	replaced := 0
	for _, t := range h.Tools {
		plugins[t.Plugin] = true
		if t.ReplacesPort {
			replaced++
		}
	}
	s := fmt.Sprintf("%s %s (%s %s): %s from %s, %d replacing ports", h.Product, h.Version, h.Layout, h.Dir,
		plural(len(h.Tools), "tool", "tools"), plural(len(plugins), "plugin", "plugins"), replaced)
	if n := len(h.Tools) - replaced; n > 0 {
		s += fmt.Sprintf(", %d no port has", n)
	}
	return s
}

// writeHost writes the text report's host lines.
func writeHost(w io.Writer, h *Host) {
	if h == nil {
		return
	}
	fmt.Fprintf(w, "host: %s\n", h.Headline())
	var added []string
	for _, t := range h.Tools {
		if !t.ReplacesPort {
			added = append(added, t.Tool)
		}
	}
	if len(added) > 0 {
		fmt.Fprintf(w, "host: tools no port has: %s\n", strings.Join(added, ", "))
	}
	for _, n := range h.NotLoaded {
		fmt.Fprintf(w, "host: not loaded (any tools it defines keep their ports): %s\n", n)
	}
	if len(h.Filled) > 0 {
		fmt.Fprintf(w, "host: required options set as shipped (--config overrides): %s\n", strings.Join(h.Filled, ", "))
	}
}
