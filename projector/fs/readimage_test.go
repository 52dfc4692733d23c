package fs

import (
	"testing"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
)

// Values from Node 22's Number.prototype.toFixed(2).
func TestToFixed2(t *testing.T) {
	for _, c := range []struct {
		x    float64
		want string
	}{
		{0.125, "0.13"}, {1.005, "1.00"}, {2.675, "2.67"}, {1.5, "1.50"}, {2, "2.00"}, {1.333333, "1.33"},
		{0.5, "0.50"}, {3.14159, "3.14"}, {0.005, "0.01"}, {0.015, "0.01"}, {0.025, "0.03"}, {1.045, "1.04"},
		{10.235, "10.23"}, {0, "0.00"}, {0.001, "0.00"}, {99.995, "100.00"}, {1.255, "1.25"},
	} {
		if got := toFixed2(c.x); got != c.want {
			t.Errorf("toFixed2(%v) = %s, want %s", c.x, got, c.want)
		}
	}
}

// TestReadImageHosts: DSH's read_image says how a downscaled image maps onto
// the original and keeps originalDimensions in the image block; LasmeX's
// schema has no such field.
func TestReadImageHosts(t *testing.T) {
	value := jsonv.MustParse(`{"path":"/w/a.png","image":{"attachmentId":"att-1","mediaType":"image/png","bytes":900,"width":1000,"height":750,"originalDimensions":{"width":4000,"height":3030}}}`)
	dsh, lasmex := readImageTool("dsh"), readImageTool("")
	for _, tool := range []*projector.Tool{dsh, lasmex} {
		r, _ := projector.NewRegistry(projector.Config{})
		if err := r.Add(tool); err != nil {
			t.Fatal(err)
		}
	}
	content, err := dsh.RunRender(jsonv.MustParse(`{"file_path":"a.png"}`), value)
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"type":"text","text":"<path>/w/a.png</path>\n<type>image</type>\n<content>\nimage/png image, 1000x750 px, 900 bytes (downscaled from 4000x3030 px; multiply x coordinates by 4.00 and y coordinates by 4.04 to locate features in the original file)\n</content>"},{"type":"image","attachment":{"attachmentId":"att-1","mediaType":"image/png","bytes":900,"width":1000,"height":750,"originalDimensions":{"width":4000,"height":3030}}}]`
	if got := jsonv.Encode(content); got != want {
		t.Errorf("DSH render:\n got %s\nwant %s", got, want)
	}
	if vs := lasmex.ValidateValue(value); len(vs) == 0 {
		t.Error("LasmeX's schema accepted originalDimensions")
	}
	if vs := dsh.ValidateValue(value); len(vs) != 0 {
		t.Errorf("DSH's schema rejected its own value: %v", vs)
	}
}
