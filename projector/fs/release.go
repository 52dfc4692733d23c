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

// WriteOperationRelease is the first release whose write persists the
// operation in its presentationMeta, first: {operation, diffs}
// (packages/fs/tool-fs/src/write.ts of 0.1.7-alpha.2 and 0.2.x trees; the
// 0.1.6-alpha.1 one has the pinned {diffs}). presentResult still reads
// only diffs.
const WriteOperationRelease = "0.1.7-alpha.2"

// writeOperationTool is write from WriteOperationRelease.
func writeOperationTool(escalation []projector.Param) *projector.Tool {
	t := writeTool(escalation)
	out := *t.Output
	pinned := out.PresentationMeta
	out.PresentationMeta = func(args, value jsonv.Value) (jsonv.Value, error) {
		if nullish(value) {
			return jsonv.Value{}, projector.Throwf("Cannot read properties of %s (reading 'operation')", jsonv.ToString(value))
		}
		m, err := pinned(args, value)
		if err != nil {
			return jsonv.Value{}, err
		}
		return jsonv.Obj(jsonv.M("operation", value.Get("operation")), jsonv.M("diffs", m.Get("diffs"))), nil
	}
	t.Output = &out
	return t
}

// registerReleases adds the definitions later releases shipped.
func registerReleases(r *projector.Registry) error {
	if err := r.AddReleaseTool(PresentRelease, presentTool()); err != nil {
		return err
	}
	if err := r.AddReleaseTool(WorkspaceDependenciesRelease, workspaceDependenciesTool()); err != nil {
		return err
	}
	return r.AddReleaseTool(ImageMetaRelease, readImageMetaTool())
}
