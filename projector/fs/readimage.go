package fs

import (
	"math/big"
	"strconv"
	"sync"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
)

var readImageOutputSchema = sync.OnceValue(func() jsonv.Value {
	return projector.SchemaText(`{"type":"object","additionalProperties":false,"properties":{"path":{"type":"string"},"image":{"type":"object","additionalProperties":false,"properties":{"attachmentId":{"type":"string"},"mediaType":{"type":"string","enum":["image/png","image/jpeg","image/webp","image/gif"]},"bytes":{"type":"integer"},"width":{"type":"integer"},"height":{"type":"integer"},"name":{"type":"string"}},"required":["attachmentId","mediaType","bytes","width","height"]}},"required":["path","image"]}`)
})

// dshReadImageOutputSchema is DSH's: the image may carry originalDimensions
// (the on-disk size of an image stored downscaled).
var dshReadImageOutputSchema = sync.OnceValue(func() jsonv.Value {
	return projector.SchemaText(`{"type":"object","additionalProperties":false,"properties":{"path":{"type":"string"},"image":{"type":"object","additionalProperties":false,"properties":{"attachmentId":{"type":"string"},"mediaType":{"type":"string","enum":["image/png","image/jpeg","image/webp","image/gif"]},"bytes":{"type":"integer"},"width":{"type":"integer"},"height":{"type":"integer"},"name":{"type":"string"},"originalDimensions":{"type":"object","additionalProperties":false,"properties":{"width":{"type":"integer"},"height":{"type":"integer"}},"required":["width","height"]}},"required":["attachmentId","mediaType","bytes","width","height"]}},"required":["path","image"]}`)
})

// readImageTool is read-image.ts:130-231: render only (no presentationMeta,
// no presentResult: the generic fallback). DSH's (host "dsh") also says how
// a downscaled image maps onto the original (formatImageReadOutput).
func readImageTool(host string) *projector.Tool {
	schema := readImageOutputSchema
	if host == "dsh" {
		schema = dshReadImageOutputSchema
	}
	return &projector.Tool{
		Name:   "read_image",
		Plugin: Plugin,
		Parameters: projector.ParamSchema(
			projector.Param{Name: "file_path", Type: "string", Required: true, Description: "Path to the image file, resolved by the filesystem backend."},
		),
		Output: &projector.Output{
			Schema: schema(),
			Render: func(_, value jsonv.Value) (jsonv.Value, error) {
				image := value.Get("image")
				if nullish(image) {
					return jsonv.Value{}, projector.Throwf("Cannot read properties of %s (reading 'mediaType')", jsonv.ToString(image))
				}
				text := "<path>" + jsonv.ToString(value.Get("path")) + "</path>\n<type>image</type>\n<content>\n" +
					jsonv.ToString(image.Get("mediaType")) + " image, " + jsonv.ToString(image.Get("width")) + "x" + jsonv.ToString(image.Get("height")) +
					" px, " + jsonv.ToString(image.Get("bytes")) + " bytes"
				orig := image.Get("originalDimensions")
				if host == "dsh" && orig.IsDefined() {
					text += downscaled(image, orig)
				}
				text += "\n</content>"
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
				if orig := image.Get("originalDimensions"); host == "dsh" && orig.IsDefined() {
					ref = append(ref, jsonv.M("originalDimensions", jsonv.Obj(
						jsonv.M("width", orig.Get("width")), jsonv.M("height", orig.Get("height")))))
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

// downscaled is DSH's note on a downscaled image: the original size and the
// multiplier (one when both axes round to the same) back onto it.
func downscaled(image, orig jsonv.Value) string {
	x := toFixed2(orig.Get("width").Num() / image.Get("width").Num())
	y := toFixed2(orig.Get("height").Num() / image.Get("height").Num())
	advice := "multiply coordinates by " + x
	if x != y {
		advice = "multiply x coordinates by " + x + " and y coordinates by " + y
	}
	return " (downscaled from " + jsonv.ToString(orig.Get("width")) + "x" + jsonv.ToString(orig.Get("height")) +
		" px; " + advice + " to locate features in the original file)"
}

// toFixed2 is JavaScript's x.toFixed(2) for a finite x ≥ 0 below 1e21: the
// exact value rounded to two decimals, a tie going up (Go's 'f' format
// rounds a tie to even).
func toFixed2(x float64) string {
	r := new(big.Rat).SetFloat64(x)
	if r == nil {
		return strconv.FormatFloat(x, 'f', 2, 64)
	}
	r.Mul(r, big.NewRat(100, 1))
	n := new(big.Int).Quo(r.Num(), r.Denom())
	rem := new(big.Rat).Sub(r, new(big.Rat).SetInt(n))
	if rem.Cmp(big.NewRat(1, 2)) >= 0 {
		n.Add(n, big.NewInt(1))
	}
	s := n.String()
	for len(s) < 3 {
		s = "0" + s
	}
	return s[:len(s)-2] + "." + s[len(s)-2:]
}
