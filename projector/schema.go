package projector

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"

	"github.com/dsh-replay/dsh-replay/jsonv"
)

// Schema validation follows upstream validateJsonSchemaValue
// (packages/core/tools/src/json-schema.ts) over the supported subset: type,
// oneOf, properties, required, additionalProperties, items, enum, const.
//
// Two engines can cooperate. The upstream walk (a port of upstream's
// validator) is the arbiter and the source of the exact violation texts, in
// upstream walk order; it allocates nothing for a valid value, so it decides
// alone by default. ValidateValueWithKaptinlin (verify --kaptinlin) lets
// kaptinlin/jsonschema give the standard JSON Schema verdict first, with the
// upstream-only rules it lacks (every number finite and not -0) beside it,
// and the walk runs only when either reports a problem. The verdicts agree
// (FuzzValidate), but kaptinlin costs about 20x more per value, which verify's
// throughput cannot afford on every call.

// Violation is one schema violation: the JSON pointer of the offending value
// (RFC 6901, "" = root) and upstream's text for it.
type Violation struct {
	Pointer string
	Message string
}

func (v Violation) String() string { return v.Message }

// JoinViolations joins messages as upstream does in ToolOutputError and
// ToolArgsError ("; ").
func JoinViolations(vs []Violation) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = v.Message
	}
	return strings.Join(parts, "; ")
}

// compiledSchemas holds what compile prepares once per tool. The kaptinlin
// forms are compiled on first use (only verify --kaptinlin uses them): 59
// tools' worth would otherwise be a few MB of live heap in every run.
type compiledSchemas struct {
	params, output          *schemaNode
	paramsSchema, outSchema jsonv.Value
	kOnce                   sync.Once
	kparams, koutput        kschema
}

func (c *compiledSchemas) kaptinlin() (params, output kschema) {
	c.kOnce.Do(func() {
		// The subset check passed at compile; a schema kaptinlin cannot
		// compile is then validated by the upstream walk alone.
		if c.paramsSchema.IsDefined() {
			c.kparams, _ = compileKaptinlin(c.paramsSchema)
		}
		if c.outSchema.IsDefined() {
			c.koutput, _ = compileKaptinlin(c.outSchema)
		}
	})
	return c.kparams, c.koutput
}

// schemaNode is one node of the supported subset, precompiled.
type schemaNode struct {
	typ        string // "" = oneOf or annotation-only
	oneOf      []*schemaNode
	props      []schemaProp
	required   []string
	nRequired  int  // props flagged required (distinct required keys when valid)
	closed     bool // additionalProperties: false
	items      *schemaNode
	enum       []jsonv.Value
	hasEnum    bool
	constValue jsonv.Value
	hasConst   bool
}

type schemaProp struct {
	key      string
	node     *schemaNode
	required bool // named in required
}

func (n *schemaNode) declares(key string) bool {
	for _, p := range n.props {
		if p.key == key {
			return true
		}
	}
	return false
}

// compile prepares the parameter and output schemas for validation.
func (t *Tool) compile() (*compiledSchemas, error) {
	c := &compiledSchemas{}
	var err error
	if t.Parameters.IsDefined() {
		if c.params, err = buildSchema(t.Parameters); err != nil {
			return nil, err
		}
		c.paramsSchema = t.Parameters
	}
	if t.Output != nil && t.Output.Schema.IsDefined() {
		if c.output, err = buildSchema(t.Output.Schema); err != nil {
			return nil, err
		}
		c.outSchema = t.Output.Schema
	}
	return c, nil
}

// SchemaErr compiles the tool's schemas if that has not happened yet and
// reports why they cannot be used (nil: they can).
func (t *Tool) SchemaErr() error {
	_, err := t.schemas()
	return err
}

// CompileSchema checks that schema is in upstream's supported subset and
// compiles it; ports call it in tests to pin their literals.
func CompileSchema(schema jsonv.Value) error {
	_, _, err := compileSchema(schema, "schema")
	return err
}

// buildSchema is upstream's subset check and the walk's precompiled form.
func buildSchema(schema jsonv.Value) (*schemaNode, error) {
	var problems []string
	node := buildNode(schema, "schema", &problems)
	if len(problems) > 0 {
		return nil, fmt.Errorf("unsupported JSON schema: %s", strings.Join(problems, "; "))
	}
	return node, nil
}

func compileSchema(schema jsonv.Value, root string) (*schemaNode, kschema, error) {
	node, err := buildSchema(schema)
	if err != nil {
		return nil, nil, err
	}
	ks, err := compileKaptinlin(schema)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: compiling with jsonschema: %w", root, err)
	}
	return node, ks, nil
}

var schemaTypes = map[string]bool{"object": true, "array": true, "string": true, "number": true, "integer": true, "boolean": true, "null": true}

// buildNode precompiles one node and collects subset problems in upstream's
// wording (assertSupportedJsonSchema, json-schema.ts:203-370; the common ones).
func buildNode(s jsonv.Value, p string, problems *[]string) *schemaNode {
	add := func(format string, a ...any) { *problems = append(*problems, fmt.Sprintf(format, a...)) }
	n := &schemaNode{}
	if !s.IsObject() {
		add("%s must be a schema object", p)
		return n
	}
	for _, m := range s.Members() {
		switch m.Key {
		case "type", "oneOf", "properties", "required", "additionalProperties", "items", "enum", "const":
		case "description", "title":
			if !m.Value.IsString() {
				add("%s.%s must be a string", p, m.Key)
			}
		case "default", "examples":
			if !IsLossless(m.Value) {
				add("%s.%s annotation must be lossless JSON data", p, m.Key)
			}
		default:
			add("%s.%s is not a supported keyword (subset: type/oneOf/properties/required/additionalProperties/items/enum/const + annotations)", p, m.Key)
		}
	}
	if s.Has("type") && s.Has("oneOf") {
		add("%s cannot declare both type and oneOf", p)
		return n
	}
	if s.Has("oneOf") {
		branches := s.Get("oneOf")
		if !branches.IsArray() || branches.Len() < 2 {
			add("%s.oneOf must be an array of at least two schemas", p)
			return n
		}
		for i, b := range branches.Elems() {
			n.oneOf = append(n.oneOf, buildNode(b, fmt.Sprintf("%s.oneOf[%d]", p, i), problems))
		}
		for _, kw := range []string{"properties", "required", "additionalProperties", "items", "enum", "const"} {
			if s.Has(kw) {
				add("%s.%s is not supported beside oneOf", p, kw)
			}
		}
		return n
	}
	if !s.Has("type") {
		for _, kw := range []string{"properties", "required", "additionalProperties", "items", "enum", "const"} {
			if s.Has(kw) {
				add("%s.%s requires type or oneOf", p, kw)
			}
		}
		return n
	}
	tv := s.Get("type")
	if !tv.IsString() {
		add("%s.type must be a single type string (type arrays are not supported)", p)
		return n
	}
	if !schemaTypes[tv.Str()] {
		add("%s.type must be one of object/array/string/number/integer/boolean/null", p)
		return n
	}
	n.typ = tv.Str()
	placement := map[string]bool{}
	switch n.typ {
	case "object":
		placement["properties"], placement["required"], placement["additionalProperties"] = true, true, true
	case "array":
		placement["items"] = true
	default:
		placement["enum"], placement["const"] = true, true
	}
	for _, kw := range []string{"properties", "required", "additionalProperties", "items", "enum", "const"} {
		if s.Has(kw) && !placement[kw] {
			add("%s.%s is not supported on type \"%s\"", p, kw, n.typ)
		}
	}
	switch n.typ {
	case "object":
		if s.Has("properties") {
			props := s.Get("properties")
			if !props.IsObject() {
				add("%s.properties must be an object of schemas", p)
			} else {
				// Object.entries order: integer-like keys first, as the walk visits them.
				for _, m := range jsonv.JSOrder(props.Members()) {
					n.props = append(n.props, schemaProp{key: m.Key, node: buildNode(m.Value, p+".properties."+m.Key, problems)})
				}
			}
		}
		if s.Has("required") {
			req := s.Get("required")
			if !req.IsArray() {
				add("%s.required must be an array of strings", p)
			} else {
				for _, r := range req.Elems() {
					if !r.IsString() {
						add("%s.required must be an array of strings", p)
						break
					}
					if !n.declares(r.Str()) {
						add("%s.required names \"%s\" which is not in properties", p, r.Str())
					}
					n.required = append(n.required, r.Str())
				}
				for i := range n.props {
					for _, r := range n.required {
						if n.props[i].key == r {
							n.props[i].required = true
							n.nRequired++
							break
						}
					}
				}
			}
		}
		if s.Has("additionalProperties") {
			ap := s.Get("additionalProperties")
			if !ap.IsBool() {
				add("%s.additionalProperties must be a boolean", p)
			}
			n.closed = ap.IsBool() && !ap.Bool()
		}
	case "array":
		if s.Has("items") {
			n.items = buildNode(s.Get("items"), p+".items", problems)
		}
	default:
		if s.Has("enum") {
			e := s.Get("enum")
			ok := e.IsArray() && e.Len() > 0
			for _, x := range e.Elems() {
				ok = ok && scalarMatches(n.typ, x)
			}
			if !ok {
				add("%s.enum must be a non-empty array of %s values", p, n.typ)
			}
			n.hasEnum, n.enum = true, e.Elems()
		}
		if s.Has("const") {
			c := s.Get("const")
			if !scalarMatches(n.typ, c) {
				add("%s.const must be a %s value", p, n.typ)
			} else if n.hasEnum && !includes(n.enum, c) {
				add("%s.const must be one of %s.enum when both are declared", p, p)
			}
			n.hasConst, n.constValue = true, c
		}
	}
	return n
}

func scalarMatches(typ string, v jsonv.Value) bool {
	switch typ {
	case "string":
		return v.IsString()
	case "boolean":
		return v.IsBool()
	case "null":
		return v.IsNull()
	case "number":
		return v.IsFiniteNumber()
	case "integer":
		return v.IsFiniteNumber() && v.IsInteger()
	}
	return false
}

// ValidateArgs checks arguments against the parameter schema (root label
// "", printed "arguments"), as defineTool's soft validation does.
func (t *Tool) ValidateArgs(args jsonv.Value) []Violation {
	c, err := t.schemas()
	if err != nil {
		return schemaViolation(err)
	}
	if c.params == nil {
		return nil
	}
	return validate(c.params, c, true, args, "", false)
}

// ValidateValue checks a canonical value against the output schema (root
// label "value").
func (t *Tool) ValidateValue(value jsonv.Value) []Violation {
	return t.validateValue(value, false)
}

// ValidateValueWithKaptinlin is ValidateValue asking kaptinlin/jsonschema
// first (verify --kaptinlin): the same verdict, tens of allocations per
// value node slower.
func (t *Tool) ValidateValueWithKaptinlin(value jsonv.Value) []Violation {
	return t.validateValue(value, true)
}

func (t *Tool) validateValue(value jsonv.Value, kaptinlin bool) []Violation {
	c, err := t.schemas()
	if err != nil {
		return schemaViolation(err)
	}
	if c.output == nil {
		return nil
	}
	return validate(c.output, c, false, value, "value", kaptinlin)
}

// schemas compiles the schemas once, on first use, whichever goroutine
// gets there first.
func (t *Tool) schemas() (*compiledSchemas, error) {
	t.once.Do(func() {
		t.compiled, t.compileErr = t.compile()
		if t.compileErr != nil {
			t.compileErr = fmt.Errorf("tool %q: %w", t.Name, t.compileErr)
		}
	})
	return t.compiled, t.compileErr
}

// schemaViolation reports a schema that cannot be compiled as a violation
// of the value, so a broken definition fails the calls that use it instead
// of passing them unchecked.
func schemaViolation(err error) []Violation {
	return []Violation{{Message: err.Error()}}
}

// validate runs the upstream walk, or with kaptinlin first kaptinlin plus
// the lossless rule and the walk only when they report a problem. The walk
// is a port of upstream's validator (the arbiter in either mode) and
// allocates nothing for a valid value, while kaptinlin costs tens of
// allocations per value node; the verdicts agree (FuzzValidate checks it).
func validate(n *schemaNode, c *compiledSchemas, params bool, v jsonv.Value, root string, kaptinlin bool) []Violation {
	if kaptinlin {
		kp, ko := c.kaptinlin()
		ks := ko
		if params {
			ks = kp
		}
		if ks != nil && kaptinlinValid(ks, v) && IsLossless(v) {
			return nil
		}
	}
	var out []Violation
	walkValue(n, v, loc{root: root, segs: make([]seg, 0, 16)}, &out)
	return out
}

// IsLossless is upstream's isJsonValue for a Value: every number finite and
// not -0, no undefined anywhere (an undefined member or element is what a JS
// object with an undefined property looks like here).
// losslessRest is IsLossless(v) for an object whose declared properties the
// walk has already checked without a violation (each such check implies its
// subtree is lossless), so only undeclared members need a look. This keeps
// validation linear in the size of the value.
func (n *schemaNode) losslessRest(v jsonv.Value) bool {
	for _, m := range v.Members() {
		if m.Value.IsUndefined() {
			return false
		}
		if !n.declares(m.Key) && !IsLossless(m.Value) {
			return false
		}
	}
	return true
}

// losslessItems is IsLossless(v) for an array the walk has checked: with an
// items schema every element passed it, so only holes remain to find.
func (n *schemaNode) losslessItems(v jsonv.Value) bool {
	if n.items == nil {
		return IsLossless(v)
	}
	for _, e := range v.Elems() {
		if e.IsUndefined() {
			return false
		}
	}
	return true
}

func IsLossless(v jsonv.Value) bool {
	switch v.Kind() {
	case jsonv.Undefined:
		return false
	case jsonv.Number:
		return v.IsFiniteNumber()
	case jsonv.Array:
		for _, e := range v.Elems() {
			if !IsLossless(e) {
				return false
			}
		}
	case jsonv.Object:
		for _, m := range v.Members() {
			if !IsLossless(m.Value) {
				return false
			}
		}
	}
	return true
}

func diagnosticPath(p string) string {
	if p == "" {
		return "arguments"
	}
	return p
}

func propertyPath(p, key string) string {
	if p == "" {
		return key
	}
	return p + "." + key
}

// loc is where the walk is: the root label ("value", or "" for arguments)
// and the segments below it. Segments are appended with stack discipline
// (siblings reuse the slot) and the path and pointer strings are only built
// for a violation, so a valid value walks without allocating.
type loc struct {
	root string
	segs []seg
	full bool // never take walkDeclared (tests compare the two walks)
}

type seg struct {
	key     string
	index   int
	isIndex bool
}

func (l loc) child(key string) loc { return loc{l.root, append(l.segs, seg{key: key}), l.full} }
func (l loc) item(i int) loc {
	return loc{l.root, append(l.segs, seg{index: i, isIndex: true}), l.full}
}

// path is upstream's diagnostic path: <p>.<key> (bare key at the "" root),
// <p>[<i>]; keys are not escaped.
func (l loc) path() string {
	p := l.root
	for _, s := range l.segs {
		if s.isIndex {
			p += "[" + strconv.Itoa(s.index) + "]"
		} else {
			p = propertyPath(p, s.key)
		}
	}
	return p
}

// pointer is the RFC 6901 JSON pointer.
func (l loc) pointer() string {
	var b strings.Builder
	for _, s := range l.segs {
		b.WriteByte('/')
		if s.isIndex {
			b.WriteString(strconv.Itoa(s.index))
		} else {
			b.WriteString(strings.ReplaceAll(strings.ReplaceAll(s.key, "~", "~0"), "/", "~1"))
		}
	}
	return b.String()
}

// quoted is upstream's `"${path}"`: plain quotes, nothing escaped.
func (l loc) quoted() string { return `"` + diagnosticPath(l.path()) + `"` }

func addViolation(out *[]Violation, at loc, msg string) {
	*out = append(*out, Violation{Pointer: at.pointer(), Message: msg})
}

// walkDeclared is the object walk for the usual value: its members are
// declared properties, in the schema's order, none undefined, every required
// one present. Then there is nothing to report but the members' own
// violations, in the order the full walk visits them; false (having done
// nothing) for any other object.
func (n *schemaNode) walkDeclared(v jsonv.Value, at loc, out *[]Violation) bool {
	ms := v.Members()
	j, req := 0, 0
	for _, m := range ms {
		for j < len(n.props) && n.props[j].key != m.Key {
			j++
		}
		if j == len(n.props) || m.Value.IsUndefined() {
			return false
		}
		if n.props[j].required {
			req++
		}
		j++
	}
	if req != n.nRequired || n.nRequired != len(n.required) {
		return false
	}
	j = 0
	for _, m := range ms {
		for n.props[j].key != m.Key {
			j++
		}
		walkValue(n.props[j].node, m.Value, at.child(m.Key), out)
		j++
	}
	return true
}

// walkValue is upstream checkValue: all violations in walk order.
func walkValue(n *schemaNode, v jsonv.Value, at loc, out *[]Violation) {
	add := func(at loc, msg string) { addViolation(out, at, msg) }
	if n.oneOf != nil {
		matches := 0
		for _, b := range n.oneOf {
			var branch []Violation
			walkValue(b, v, at, &branch)
			if len(branch) == 0 {
				matches++
			}
		}
		if matches != 1 {
			add(at, at.quoted()+" must match exactly one oneOf branch (matched "+strconv.Itoa(matches)+")")
		}
		return
	}
	switch n.typ {
	case "":
		if !IsLossless(v) {
			add(at, at.quoted()+" must be a lossless JSON value")
		}
	case "object":
		if !v.IsObject() {
			add(at, at.quoted()+" must be an object")
			return
		}
		if !at.full && n.walkDeclared(v, at, out) {
			return
		}
		before := len(*out)
		for _, key := range n.required {
			if v.Get(key).IsUndefined() {
				child := at.child(key)
				add(child, `missing required property "`+child.path()+`"`)
			}
		}
		for _, p := range n.props {
			if c := v.Get(p.key); c.IsDefined() {
				walkValue(p.node, c, at.child(p.key), out)
			}
		}
		if n.closed {
			for _, m := range jsonv.JSOrder(v.Members()) {
				if !n.declares(m.Key) {
					child := at.child(m.Key)
					add(child, `"`+child.path()+`" is not a declared property (additionalProperties: false)`)
				}
			}
		}
		if len(*out) == before && !n.losslessRest(v) {
			add(at, at.quoted()+" must be a lossless JSON object")
		}
	case "array":
		if !v.IsArray() {
			add(at, at.quoted()+" must be an array")
			return
		}
		before := len(*out)
		if n.items != nil {
			for i, e := range v.Elems() {
				if e.IsUndefined() { // a hole: upstream flatMap skips it
					continue
				}
				walkValue(n.items, e, at.item(i), out)
			}
		}
		if len(*out) == before && !n.losslessItems(v) {
			add(at, at.quoted()+" must be a dense lossless JSON array")
		}
	case "string":
		if !v.IsString() {
			add(at, at.quoted()+" must be a string")
			return
		}
		checkScalar(n, v, at, out)
	case "number":
		switch {
		case !v.IsNumber():
			add(at, at.quoted()+" must be a number")
		case !v.IsFiniteNumber():
			add(at, at.quoted()+" must be a finite JSON number")
		default:
			checkScalar(n, v, at, out)
		}
	case "integer":
		if !v.IsFiniteNumber() || !v.IsInteger() {
			add(at, at.quoted()+" must be an integer")
			return
		}
		checkScalar(n, v, at, out)
	case "boolean":
		if !v.IsBool() {
			add(at, at.quoted()+" must be a boolean")
			return
		}
		checkScalar(n, v, at, out)
	case "null":
		if !v.IsNull() {
			add(at, at.quoted()+" must be null")
			return
		}
		checkScalar(n, v, at, out)
	}
}

// checkScalar is upstream checkScalarValue: enum (Array.prototype.includes)
// first, then const (!==); at most one literal violation.
func checkScalar(n *schemaNode, v jsonv.Value, at loc, out *[]Violation) {
	if n.hasEnum && !includes(n.enum, v) {
		*out = append(*out, Violation{at.pointer(), at.quoted() + " must be one of " + jsonv.Stringify(jsonv.Arr(n.enum...))})
		return
	}
	if n.hasConst && !strictEqual(v, n.constValue) {
		*out = append(*out, Violation{at.pointer(), at.quoted() + " must be " + jsonv.Stringify(n.constValue)})
	}
}

// includes is Array.prototype.includes over scalars (SameValueZero).
func includes(list []jsonv.Value, v jsonv.Value) bool {
	for _, e := range list {
		if e.Kind() != v.Kind() {
			continue
		}
		if v.IsNumber() && math.IsNaN(v.Num()) && math.IsNaN(e.Num()) {
			return true
		}
		if strictEqual(e, v) {
			return true
		}
	}
	return false
}

// strictEqual is === over scalars (containers are never equal here: the
// subset only allows scalar enum/const).
func strictEqual(a, b jsonv.Value) bool {
	if a.Kind() != b.Kind() {
		return false
	}
	switch a.Kind() {
	case jsonv.Null, jsonv.Undefined:
		return true
	case jsonv.Bool:
		return a.Bool() == b.Bool()
	case jsonv.Number:
		return a.Num() == b.Num()
	case jsonv.String:
		return a.Str() == b.Str()
	}
	return false
}
