package web

import (
	"sync"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
	"github.com/dsh-replay/dsh-replay/projector/web/turndown"
)

// fetchOutputSchema is web_fetch's compiled output schema.
var fetchOutputSchema = sync.OnceValue(func() jsonv.Value {
	return projector.SchemaText(`{"type":"object","additionalProperties":false,"properties":{"url":{"type":"string"},"statusCode":{"type":"integer"},"body":{"oneOf":[{"type":"object","additionalProperties":false,"properties":{"kind":{"type":"string","const":"html"},"content":{"type":"string"}},"required":["kind","content"]},{"type":"object","additionalProperties":false,"properties":{"kind":{"type":"string","const":"text"},"content":{"type":"string"}},"required":["kind","content"]}]},"truncated":{"type":"boolean"}},"required":["url","statusCode","body","truncated"]}`)
})

var fetchParameters = sync.OnceValue(func() jsonv.Value {
	return projector.SchemaText(`{"type":"object","properties":{"url":{"type":"string","description":"The HTTP(S) URL to fetch."}},"required":["url"]}`)
})

// TruncationFooter is appended when the provider or the output cap cut
// content (78 UTF-16 units).
const TruncationFooter = "\n\n(Content truncated. Fetch a more specific URL or section for the full text.)"

// FetchTool is web_fetch (identical in both forks).
func FetchTool(o Options) *projector.Tool { return fetchTool(o, fetchRender{}) }

// fetchRender is what a release's web_fetch renders differently.
type fetchRender struct {
	// notice puts EXTERNAL_WEB_CONTENT_NOTICE under the header, converts
	// with turndown's removeNonVisibleContent rule, and omits HTML it cannot
	// convert instead of passing it through raw (0.1.6).
	notice bool
}

func fetchTool(o Options, fr fetchRender) *projector.Tool {
	max := o.FetchMaxOutputChars
	return &projector.Tool{
		Name:       "web_fetch",
		Plugin:     Plugin,
		Parameters: fetchParameters(),
		Output: &projector.Output{
			Schema: fetchOutputSchema(),
			Render: func(_, value jsonv.Value) (jsonv.Value, error) {
				r, err := renderFetchOutput(value, max, fr)
				if err != nil {
					return jsonv.Value{}, err
				}
				return projector.TextContent(r.Text), nil
			},
			PresentationMeta: func(_, value jsonv.Value) (jsonv.Value, error) {
				r, err := renderFetchOutput(value, max, fr)
				if err != nil {
					return jsonv.Value{}, err
				}
				return jsonv.Obj(
					jsonv.M("url", value.Get("url")),
					jsonv.M("statusCode", value.Get("statusCode")),
					jsonv.M("truncated", jsonv.BoolValue(r.Truncated)),
				), nil
			},
		},
		PresentCall: func(args jsonv.Value) jsonv.Value {
			u := args.Get("url")
			if !u.IsString() {
				return jsonv.Value{}
			}
			return jsonv.Obj(
				jsonv.M("card", jsonv.Str("generic")),
				jsonv.M("title", u),
				jsonv.M("kind", jsonv.Str("fetch")),
				jsonv.M("rawInput", u),
			)
		},
		PresentResult: func(args jsonv.Value, r projector.Result) jsonv.Value {
			u := args.Get("url")
			if !u.IsString() {
				return jsonv.Value{}
			}
			return PresentFetchResult(u.Str(), r)
		},
		CallCards:   []string{"generic"},
		ResultCards: []string{"web"},
	}
}

// RenderedFetch is the bounded model-facing text and its effective
// truncation (provider cut, source cut, or output cap).
type RenderedFetch struct {
	Text      string
	Truncated bool
}

// RenderFetchOutput is computeFetchOutput: header, rendered body, footer,
// all bounded by maxOutputChars UTF-16 units with JavaScript slicing (a cut
// may split a surrogate pair).
func RenderFetchOutput(value jsonv.Value, maxOutputChars int) (RenderedFetch, error) {
	return renderFetchOutput(value, maxOutputChars, fetchRender{})
}

func renderFetchOutput(value jsonv.Value, maxOutputChars int, fr fetchRender) (RenderedFetch, error) {
	if !value.IsObject() {
		return RenderedFetch{}, projector.Throwf("Cannot read properties of %s (reading 'url')", jsonv.ToString(value))
	}
	header := "Fetched " + jsonv.ToString(value.Get("url")) + " (HTTP " + jsonv.ToString(value.Get("statusCode")) + ")\n\n"
	if fr.notice {
		header += ExternalWebContentNotice + "\n\n"
	}
	text, sourceTruncated, err := renderBody(value.Get("body"), maxOutputChars, fr)
	if err != nil {
		return RenderedFetch{}, err
	}
	prefix := header + text
	prefixLen := jsonv.Len16(prefix)
	truncated := value.Get("truncated").Truthy() || sourceTruncated || prefixLen > maxOutputChars
	full := prefix
	fullLen := prefixLen
	if truncated {
		full += TruncationFooter
		fullLen += jsonv.Len16(TruncationFooter)
	}
	footerLen := jsonv.Len16(TruncationFooter)
	switch {
	case fullLen <= maxOutputChars:
		return RenderedFetch{full, truncated}, nil
	case maxOutputChars < footerLen:
		return RenderedFetch{jsonv.Slice16(full, 0, maxOutputChars), truncated}, nil
	}
	return RenderedFetch{jsonv.Slice16(prefix, 0, maxOutputChars-footerLen) + TruncationFooter, truncated}, nil
}

// renderBody converts an html body (unless it nests beyond the conversion
// depth or the converter throws, when the raw source is kept) and passes a
// text body through; the source is first cut to maxInputChars units.
func renderBody(body jsonv.Value, maxInputChars int, fr fetchRender) (string, bool, error) {
	if !body.IsObject() {
		return "", false, projector.Throwf("Cannot read properties of %s (reading 'content')", jsonv.ToString(body))
	}
	c := body.Get("content")
	if !c.IsString() {
		return "", false, projector.Throwf("body.content.slice is not a function")
	}
	src := c.Str()
	content := src
	sourceTruncated := false
	if jsonv.Len16(src) > maxInputChars {
		content = jsonv.Slice16(src, 0, maxInputChars)
		sourceTruncated = jsonv.Len16(content) != jsonv.Len16(src)
	}
	switch kind := body.Get("kind"); {
	case kind.IsString() && kind.Str() == "html":
		failed := content
		if fr.notice {
			failed = htmlOmitted
		}
		if ExceedsConversionDepth(content) {
			return failed, sourceTruncated, nil
		}
		md, err := turndown.ConvertWith(content, turndown.Options{RemoveNonVisible: fr.notice})
		if err != nil {
			return failed, sourceTruncated, nil
		}
		return md, sourceTruncated, nil
	case kind.IsString() && kind.Str() == "text":
		return content, sourceTruncated, nil
	}
	return "", false, projector.Throwf("unhandled web fetch body kind")
}

// PresentFetchResult is presentFetchResult.
func PresentFetchResult(title string, r projector.Result) jsonv.Value {
	if r.IsError {
		return jsonv.Value{}
	}
	m := r.Meta
	if !m.IsObject() {
		return jsonv.Value{}
	}
	url, status, truncated := m.Get("url"), m.Get("statusCode"), m.Get("truncated")
	if !url.IsString() || !status.IsNumber() || !truncated.IsBool() {
		return jsonv.Value{}
	}
	return jsonv.Obj(
		jsonv.M("card", jsonv.Str("web")),
		jsonv.M("kind", jsonv.Str("fetch")),
		jsonv.M("title", jsonv.Str(title)),
		jsonv.M("url", url),
		jsonv.M("statusCode", status),
		jsonv.M("truncated", truncated),
	)
}
