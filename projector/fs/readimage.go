package fs

import (
	"github.com/dsh-replay/dsh-replay/logformat/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
	"sync"
)

var readImageOutputSchema = sync.OnceValue(func() jsonv.Value {
	return jsonv.MustParse(`{"type":"object","additionalProperties":false,"properties":{"path":{"type":"string"},"image":{"type":"object","additionalProperties":false,"properties":{"attachmentId":{"type":"string"},"mediaType":{"type":"string","enum":["image/png","image/jpeg","image/webp","image/gif"]},"bytes":{"type":"integer"},"width":{"type":"integer"},"height":{"type":"integer"},"name":{"type":"string"}},"required":["attachmentId","mediaType","bytes","width","height"]}},"required":["path","image"]}`)
})

// readImageTool is read-image.ts:130-231: render only (no presentationMeta,
// no presentResult: the generic fallback).
func readImageTool() *projector.Tool {
	return &projector.Tool{
		Name:   "read_image",
		Plugin: Plugin,
		Parameters: projector.ParamSchema(
			projector.Param{Name: "file_path", Type: "string", Required: true, Description: "Path to the image file, resolved by the filesystem backend."},
		),
		Output: &projector.Output{
			Schema: readImageOutputSchema(),
			Render: func(_, value jsonv.Value) (jsonv.Value, error) {
				image := value.Get("image")
				if nullish(image) {
					return jsonv.Value{}, projector.Throwf("Cannot read properties of %s (reading 'mediaType')", jsonv.ToString(image))
				}
				text := "<path>" + jsonv.ToString(value.Get("path")) + "</path>\n<type>image</type>\n<content>\n" +
					jsonv.ToString(image.Get("mediaType")) + " image, " + jsonv.ToString(image.Get("width")) + "x" + jsonv.ToString(image.Get("height")) +
					" px, " + jsonv.ToString(image.Get("bytes")) + " bytes\n</content>"
				ref := []jsonv.Member{
					jsonv.M("attachmentId", image.Get("attachmentId")),
					jsonv.M("mediaType", image.Get("mediaType")),
					jsonv.M("bytes", image.Get("bytes")),
					jsonv.M("width", image.Get("width")),
					jsonv.M("height", image.Get("height")),
				}
				if name := image.Get("name"); name.IsDefined() {
					ref = append(ref, jsonv.M("name", name))
				}
				return jsonv.Arr(
					projector.Text(text),
					jsonv.Obj(jsonv.M("type", jsonv.Str("image")), jsonv.M("attachment", jsonv.Obj(ref...))),
				), nil
			},
		},
		PresentCall: func(args jsonv.Value) jsonv.Value {
			fp := args.Get("file_path")
			return jsonv.Obj(
				jsonv.M("card", jsonv.Str("generic")),
				jsonv.M("title", jsonv.Str("Read image "+jsonv.ToString(fp))),
				jsonv.M("kind", jsonv.Str("read")),
				jsonv.M("locations", jsonv.Arr(jsonv.Obj(jsonv.M("path", fp)))),
			)
		},
		CallCards: []string{"generic"},
	}
}
