package fs

import (
	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
)

// ImageMetaRelease is the first release whose read_image declares
// presentationMeta (packages/fs/tool-fs/src/read-image.ts of the
// 0.1.6-alpha.1 tree; the 0.1.4 tree has none).
const ImageMetaRelease = "0.1.6-alpha.1"

// readImageMetaTool is DSH's read_image from ImageMetaRelease: the same
// render, and presentationMeta {path} so a client can title the card
// without parsing the envelope (the image reference stays in content only).
func readImageMetaTool() *projector.Tool {
	t := readImageTool("dsh")
	out := *t.Output
	out.PresentationMeta = func(_, value jsonv.Value) (jsonv.Value, error) {
		if nullish(value) {
			return jsonv.Value{}, projector.Throwf("Cannot read properties of %s (reading 'path')", jsonv.ToString(value))
		}
		return jsonv.Obj(jsonv.M("path", value.Get("path"))), nil
	}
	t.Output = &out
	return t
}

// registerReleases adds the definitions later releases shipped.
func registerReleases(r *projector.Registry) error {
	return r.AddReleaseTool(ImageMetaRelease, readImageMetaTool())
}
