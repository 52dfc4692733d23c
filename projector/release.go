package projector

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/dsh-replay/dsh-replay/jsonv"
)

// releaseTool is a definition of a tool that DSH shipped from release since
// on; older logs keep the registry's (0.1.1-rc.2) definition.
type releaseTool struct {
	since string
	tool  *Tool
}

// AddReleaseTool registers the definition of a tool that DSH shipped from
// release since on (see LookupAt). Several definitions of one name are
// ordered newest first, so a lookup takes the first one the log's release
// has reached.
func (r *Registry) AddReleaseTool(since string, t *Tool) error {
	if t == nil || t.Name == "" {
		return fmt.Errorf("tool without a name")
	}
	if !IsRelease(since) {
		return fmt.Errorf("tool %q: not a DSH release: %q", t.Name, since)
	}
	if r.releaseTools == nil {
		r.releaseTools = map[string][]releaseTool{}
	}
	list := append(r.releaseTools[t.Name], releaseTool{since, t})
	sort.SliceStable(list, func(i, j int) bool { return CompareReleases(list[i].since, list[j].since) > 0 })
	r.releaseTools[t.Name] = list
	return nil
}

// Release is the release whose definitions apply to a log that says
// release ("" when it does not): the configuration's pin wins.
func (r *Registry) Release(release string) string {
	if r.Config.Release != "" {
		return r.Config.Release
	}
	return release
}

// LookupAt is LookupFor for a log that also names the DSH release it was
// written by (logformat.Call.Release, "" when it does not say): the
// definition that release shipped where releases differ. Releases are
// DSH's, so a LasmeX log keeps LasmeX's definitions. A registry without
// per-release definitions, and a log of no release, take LookupFor's path
// unchanged.
func (r *Registry) LookupAt(name, host, release string) *Tool {
	if len(r.releaseTools) != 0 {
		if t := r.releaseTool(name, host, release); t != nil {
			return t
		}
	}
	if t := r.LookupFor(name, host); t != nil {
		return t
	}
	return r.firstRelease(name, host)
}

// firstRelease is the oldest per-release definition of a tool the registry
// has no definition of its own for: a call of a tool that only later
// releases have shows the log was written by one of them (a format names
// only the oldest release that writes it). nil for a LasmeX log.
func (r *Registry) firstRelease(name, host string) *Tool {
	if r.Config.Host != "" {
		host = r.Config.Host
	}
	if list := r.releaseTools[name]; host != "lasmex" && len(list) > 0 {
		return list[len(list)-1].tool
	}
	return nil
}

// releaseTool is the per-release definition of name for a log of host and
// release, or nil.
func (r *Registry) releaseTool(name, host, release string) *Tool {
	rel := r.Release(release)
	if rel == "" {
		return nil
	}
	if r.Config.Host != "" {
		host = r.Config.Host
	}
	if host == "lasmex" {
		return nil
	}
	for _, rt := range r.releaseTools[name] {
		if CompareReleases(rel, rt.since) >= 0 {
			return rt.tool
		}
	}
	return nil
}

// ReleaseDefinitions lists, per tool name, the releases from which the
// registry has another definition, oldest first (for docs and tests).
func (r *Registry) ReleaseDefinitions() map[string][]string {
	out := make(map[string][]string, len(r.releaseTools))
	for name, list := range r.releaseTools {
		for i := len(list) - 1; i >= 0; i-- {
			out[name] = append(out[name], list[i].since)
		}
	}
	return out
}

// CompareReleases orders two releases as semantic versions: -1, 0 or +1.
// A pre-release sorts before its release (0.1.7-alpha.1 < 0.1.7); an
// unparsable release sorts before every parsable one.
func CompareReleases(a, b string) int {
	ca, pa, oka := splitRelease(a)
	cb, pb, okb := splitRelease(b)
	switch {
	case !oka && !okb:
		return strings.Compare(a, b)
	case !oka:
		return -1
	case !okb:
		return 1
	}
	for i := range 3 {
		if c := cmpInt(ca[i], cb[i]); c != 0 {
			return c
		}
	}
	switch {
	case pa == "" && pb == "":
		return 0
	case pa == "":
		return 1
	case pb == "":
		return -1
	}
	ia, ib := strings.Split(pa, "."), strings.Split(pb, ".")
	for i := 0; i < len(ia) && i < len(ib); i++ {
		na, ea := strconv.ParseUint(ia[i], 10, 64)
		nb, eb := strconv.ParseUint(ib[i], 10, 64)
		var c int
		switch {
		case ea == nil && eb == nil:
			c = cmpInt(na, nb)
		case ea == nil:
			c = -1 // numeric identifiers sort before alphanumeric ones
		case eb == nil:
			c = 1
		default:
			c = strings.Compare(ia[i], ib[i])
		}
		if c != 0 {
			return c
		}
	}
	return cmpInt(uint64(len(ia)), uint64(len(ib)))
}

func splitRelease(s string) (core [3]uint64, pre string, ok bool) {
	if !IsRelease(s) {
		return core, "", false
	}
	c, pre, _ := strings.Cut(s, "-")
	for i, p := range strings.Split(c, ".") {
		n, err := strconv.ParseUint(p, 10, 64)
		if err != nil {
			return core, "", false
		}
		core[i] = n
	}
	return core, pre, true
}

func cmpInt(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// NewerAccepting is, for a value that the definition a log of release
// resolves rejects, the oldest later release whose definition of name
// accepts it ("" when none does): what the log might be pinned to if a
// newer DSH wrote it than its format says.
func (r *Registry) NewerAccepting(name, host, release string, value jsonv.Value) string {
	if r.Config.Host != "" {
		host = r.Config.Host
	}
	if host == "lasmex" {
		return ""
	}
	rel := r.Release(release)
	list := r.releaseTools[name]
	for i := len(list) - 1; i >= 0; i-- {
		rt := list[i]
		if (rel == "" || CompareReleases(rt.since, rel) > 0) && len(rt.tool.ValidateValue(value)) == 0 {
			return rt.since
		}
	}
	return ""
}

// ReleaseDefinition is one definition of a tool and the release from which
// DSH shipped it ("" for the registry's own, the pinned release's).
type ReleaseDefinition struct {
	Release string
	Tool    *Tool
}

// PinnedRelease is the release the registry's own definitions follow.
const PinnedRelease = "0.1.1-rc.2"

// Definitions lists every definition of name a log of host may be checked
// against, newest release first, the registry's own last (none for a
// LasmeX log but LasmeX's own).
func (r *Registry) Definitions(name, host string) []ReleaseDefinition {
	if r.Config.Host != "" {
		host = r.Config.Host
	}
	var out []ReleaseDefinition
	if host != "lasmex" {
		for _, rt := range r.releaseTools[name] {
			out = append(out, ReleaseDefinition{rt.since, rt.tool})
		}
	}
	if t := r.LookupFor(name, host); t != nil {
		out = append(out, ReleaseDefinition{"", t})
	}
	return out
}
