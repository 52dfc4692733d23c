package search

import (
	"fmt"

	"github.com/dsh-replay/dsh-replay/projector"
)

// Plugin is the upstream plugin name (without the dsh-/lasmex- prefix).
const Plugin = "tool-fs-search"

// Shipped defaults (glob.ts, grep.ts, search-core.ts).
const (
	DefaultGlobMaxResults     = 100
	DefaultGrepMaxMatches     = 250
	DefaultGrepMaxLineBytes   = 2000
	DefaultSearchMetaMaxBytes = 65536
	// DefaultSampleOverCapGlobResults is what the shipped app presets set:
	// upstream makes the option required, with no schema default.
	DefaultSampleOverCapGlobResults = false

	defaultRawOutputMaxBytes = 20000000
	defaultGraceMs           = 3000
	defaultStderrMaxBytes    = 65536
	defaultTimeoutMs         = 30000
	maxTimerDelayMs          = 2147483647
)

// Caps are the plugin options the projectors read, after defaulting.
type Caps struct {
	SampleOverCapGlobResults bool
	GlobMaxResults           int
	GrepMaxMatches           int
	GrepMaxLineBytes         int
	SearchMetaMaxBytes       int
}

// DefaultCaps are the shipped defaults.
func DefaultCaps() Caps {
	return Caps{
		SampleOverCapGlobResults: DefaultSampleOverCapGlobResults,
		GlobMaxResults:           DefaultGlobMaxResults,
		GrepMaxMatches:           DefaultGrepMaxMatches,
		GrepMaxLineBytes:         DefaultGrepMaxLineBytes,
		SearchMetaMaxBytes:       DefaultSearchMetaMaxBytes,
	}
}

// CapsFromConfig reads the "tool-fs-search" options, rejecting what the
// upstream plugin's load-time checks reject (index.ts apply) with its wording.
func CapsFromConfig(cfg projector.Config) (Caps, error) {
	c := DefaultCaps()
	opts := cfg.Plugin(Plugin)
	if opts.IsDefined() && !opts.IsObject() {
		return c, fmt.Errorf("%s: plugin options must be an object", Plugin)
	}
	if v := opts.Get("sampleOverCapGlobResults"); v.IsDefined() {
		if !v.IsBool() {
			return c, fmt.Errorf("%s: sampleOverCapGlobResults must be a boolean", Plugin)
		}
		c.SampleOverCapGlobResults = v.Bool()
	}
	ints := []struct {
		key string
		def int
		dst *int
	}{
		{"globMaxResults", DefaultGlobMaxResults, &c.GlobMaxResults},
		{"grepMaxMatches", DefaultGrepMaxMatches, &c.GrepMaxMatches},
		{"grepMaxLineBytes", DefaultGrepMaxLineBytes, &c.GrepMaxLineBytes},
		{"searchMetaMaxBytes", DefaultSearchMetaMaxBytes, &c.SearchMetaMaxBytes},
		{"rawOutputMaxBytes", defaultRawOutputMaxBytes, nil},
		{"graceMs", defaultGraceMs, nil},
		{"stderrMaxBytes", defaultStderrMaxBytes, nil},
		{"timeoutMs", defaultTimeoutMs, nil},
	}
	for _, o := range ints {
		v := opts.Get(o.key)
		n := o.def
		if v.IsDefined() {
			f := v.Num()
			if !v.IsNumber() || !v.IsInteger() || f < 1 {
				return c, fmt.Errorf("%s: %s must be a positive integer", Plugin, o.key)
			}
			if o.key == "graceMs" && f > maxTimerDelayMs {
				return c, fmt.Errorf("%s: graceMs must be no greater than %d", Plugin, maxTimerDelayMs)
			}
			if f > 1<<53 {
				// Beyond every possible count: behaves as "no cap".
				f = 1 << 53
			}
			n = int(f)
		}
		if o.dst != nil {
			*o.dst = n
		}
	}
	return c, nil
}
