package show

import (
	"fmt"
	"io"
	"strings"

	"github.com/dsh-replay/dsh-replay/cards"
	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/logformat"
	"github.com/dsh-replay/dsh-replay/replay"
	"github.com/dsh-replay/dsh-replay/report"
)

// differ prints both sides of each selected call (show --diff): the
// recorded content and meta, what the projectors replay from the recorded
// value, the value, a line diff, and the commands that accept the replayed
// side.
type differ struct {
	o     *showOptions
	eng   *replay.Engine
	w     io.Writer
	st    cards.Styles
	shown int
}

func (d *differ) call(c *logformat.Call) {
	if d.o.callID == "" || c.CallID == d.o.callID {
		if (d.o.tool == "" || c.Name == d.o.tool) && (d.o.turn < 0 || c.Turn == d.o.turn) {
			d.print(c)
		}
	}
	for _, s := range c.SubCalls {
		d.call(s)
	}
}

func (d *differ) heading(s string) {
	fmt.Fprintln(d.w, d.st.Dim.Render("── "+s))
}

func (d *differ) block(s string) {
	for _, l := range strings.Split(strings.TrimSuffix(s, "\n"), "\n") {
		fmt.Fprintln(d.w, "  "+cards.Sanitize(l))
	}
}

// contentText is a content block array's text blocks joined, else the value
// as indented JSON.
func contentText(v jsonv.Value) string {
	if v.IsUndefined() {
		return "(none)"
	}
	if v.IsArray() {
		var b strings.Builder
		for _, e := range v.Elems() {
			if e.Get("type").Str() != "text" || !e.Get("text").IsString() {
				return jsonv.StringifyIndent(v, "  ")
			}
			b.WriteString(e.Get("text").Str())
		}
		return b.String()
	}
	return jsonv.StringifyIndent(v, "  ")
}

func jsonText(v jsonv.Value) string {
	if v.IsUndefined() {
		return "(none)"
	}
	return jsonv.StringifyIndent(v, "  ")
}

func (d *differ) print(c *logformat.Call) {
	if d.shown > 0 {
		fmt.Fprintln(d.w)
	}
	d.shown++
	fmt.Fprintln(d.w, cards.Sanitize(strings.Join([]string{c.CallID, c.Name, fmt.Sprintf("%s:%d", c.File, c.Line)}, " · ")))
	s := d.eng.Sides(c)
	d.heading("recorded content")
	d.block(contentText(c.Content))
	d.heading("replayed content (render of the recorded value)")
	var replayed jsonv.Value
	switch {
	case s.Why != "":
		d.block(s.Why)
	case s.ContentErr != nil:
		d.block("render failed: " + s.ContentErr.Error())
	default:
		replayed = s.Content
		if replay.Same(c.Content, replayed) {
			d.block("(the same)")
		} else {
			d.block(contentText(replayed))
		}
	}
	metaMoved := false
	if s.Why == "" && !c.IsSubCall {
		d.heading("recorded presentationMeta")
		d.block(jsonText(c.Meta))
		d.heading("replayed presentationMeta")
		switch {
		case s.MetaErr != nil:
			d.block("presentationMeta failed: " + s.MetaErr.Error())
		case !s.MetaDeclared:
			d.block("(the tool declares none)")
			metaMoved = c.Meta.IsDefined()
		case c.Meta.IsDefined() && replay.Same(c.Meta, s.Meta):
			d.block("(the same)")
		default:
			d.block(jsonText(s.Meta))
			metaMoved = true
		}
	}
	if c.Value.IsDefined() {
		d.heading("value")
		d.block(jsonText(c.Value))
	}
	contentMoved := replayed.IsDefined() && !replay.Same(c.Content, replayed)
	if contentMoved {
		d.heading("diff (- recorded, + replayed)")
		for _, l := range replay.TextDiff(contentText(c.Content), contentText(replayed), replay.DiffLimit) {
			fmt.Fprintln(d.w, "  "+cards.Sanitize(l))
		}
	}
	if contentMoved || metaMoved {
		f := replay.Finding{Class: replay.ContentMismatch, File: c.File, CallID: c.CallID}
		for _, step := range report.NextSteps(&f, d.o.proj.ShowArgs()) {
			if strings.HasPrefix(step, "see ") {
				continue
			}
			fmt.Fprintln(d.w, "→ "+step)
		}
	} else if s.Why == "" && s.ContentErr == nil && s.MetaErr == nil {
		fmt.Fprintln(d.w, "→ verified: the replayed side is the recorded one")
	}
}
