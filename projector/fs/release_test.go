package fs

import (
	"testing"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
)

// read_image by release: from 0.1.6-alpha.1 presentationMeta is {path}
// (read-image.ts of that tree); before it the tool declares none. The render
// is the same in every release (DSH's, downscale sentence included).
func TestReadImageByRelease(t *testing.T) {
	value := jsonv.MustParse(`{"path":"/w/a.png","image":{"attachmentId":"att-1","mediaType":"image/png","bytes":900,"width":1000,"height":750,"originalDimensions":{"width":4000,"height":3000}}}`)
	args := jsonv.MustParse(`{"file_path":"a.png"}`)
	wantText := "<path>/w/a.png</path>\n<type>image</type>\n<content>\nimage/png image, 1000x750 px, 900 bytes (downscaled from 4000x3000 px; multiply coordinates by 4.00 to locate features in the original file)\n</content>"
	for _, c := range []struct {
		cfg     projector.Config
		host    string
		release string
		meta    string // "" = no presentationMeta
	}{
		{projector.Config{}, "dsh", "", ""},
		{projector.Config{}, "dsh", "0.1.3", ""},
		{projector.Config{}, "dsh", "0.1.5", ""},
		{projector.Config{}, "dsh", "0.1.7", `{"path":"/w/a.png"}`},
		{projector.Config{}, "", "0.1.7-alpha.1", `{"path":"/w/a.png"}`},
		{projector.Config{Release: "0.1.7"}, "dsh", "", `{"path":"/w/a.png"}`},
		{projector.Config{Release: "0.1.5"}, "dsh", "0.1.7", ""},
	} {
		r, err := projector.NewRegistry(c.cfg)
		if err != nil {
			t.Fatal(err)
		}
		if err := Register(r); err != nil {
			t.Fatal(err)
		}
		tl := r.LookupAt("read_image", c.host, c.release)
		if vs := tl.ValidateValue(value); len(vs) > 0 {
			t.Errorf("%q/%q: %v", c.host, c.release, vs)
		}
		content, err := tl.RunRender(args, value)
		if err != nil {
			t.Fatal(err)
		}
		if got := content.At(0).Get("text").Str(); got != wantText {
			t.Errorf("%q/%q: render = %q", c.host, c.release, got)
		}
		meta, ok, err := tl.RunPresentationMeta(args, value)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case c.meta == "" && ok:
			t.Errorf("%q/%q: meta %s from a release without presentationMeta", c.host, c.release, jsonv.Stringify(meta))
		case c.meta != "" && (!ok || jsonv.Stringify(meta) != c.meta):
			t.Errorf("%q/%q: meta = %s (declared %v), want %s", c.host, c.release, jsonv.Stringify(meta), ok, c.meta)
		}
	}
}
