package projector

import "github.com/dsh-replay/dsh-replay/jsonv"

// Param is one entry of a defineTool parameter map (ParameterSchemaSpec):
// a scalar property {type, description?, enum?}, or any compiled node in
// Schema. Required moves into the root's required list, as upstream's
// compiler does.
type Param struct {
	Name        string
	Type        string // string, number, integer, boolean, null (ignored when Schema is set)
	Description string
	Enum        []string
	Required    bool
	Schema      jsonv.Value // a compiled node, overriding Type/Description/Enum
}

// ParamSchema builds the compiled parameter schema upstream's
// parameterSchemaSpecToJsonSchema produces: {type:"object", properties,
// required?} with no additionalProperties (an open root), property nodes
// keyed type, description, enum (schema.ts:336-458).
func ParamSchema(params ...Param) jsonv.Value {
	props := make([]jsonv.Member, 0, len(params))
	var required []string
	for _, p := range params {
		node := p.Schema
		if node.IsUndefined() {
			ms := []jsonv.Member{jsonv.M("type", jsonv.Str(p.Type))}
			if p.Description != "" {
				ms = append(ms, jsonv.M("description", jsonv.Str(p.Description)))
			}
			if p.Enum != nil {
				ms = append(ms, jsonv.M("enum", jsonv.Strs(p.Enum...)))
			}
			node = jsonv.Obj(ms...)
		}
		props = append(props, jsonv.M(p.Name, node))
		if p.Required {
			required = append(required, p.Name)
		}
	}
	root := []jsonv.Member{jsonv.M("type", jsonv.Str("object")), jsonv.M("properties", jsonv.Obj(props...))}
	if len(required) > 0 {
		root = append(root, jsonv.M("required", jsonv.Strs(required...)))
	}
	return jsonv.Obj(root...)
}

// SchemaText is the schema literal text (a JSON object), parsed the first
// time anything looks inside it: registering ~60 tools parses none of their
// schemas, and a run parses those of the tools it meets. TestSchemasCompile
// looks at every one, so a bad literal fails there.
func SchemaText(text string) jsonv.Value {
	return jsonv.Deferred(jsonv.Object, func() jsonv.Value { return jsonv.MustParse(text) })
}
