package jsonv

// Reference copies of the raw scanner's value walk as it was before the
// compact-JSON fast paths (strings are still scanned by scanString):
// FuzzSkipValueRef checks that the two agree on every input, end offsets
// and error messages included.

func SkipValueRef(d []byte, i int, strict bool) (int, error) {
	// Scalars (most members and elements) without the container machinery.
	i = skipWS(d, i)
	if i < len(d) {
		if c := d[i]; c == '"' {
			end, _, err := scanString(d, i, strict)
			return end, err
		} else if c == '-' || (c >= '0' && c <= '9') {
			end, _, err := scanNumberRef(d, i)
			return end, err
		}
	}
	return skipValueRef(d, i, strict)
}

func skipValueRef(d []byte, i int, strict bool) (int, error) {
	var small [64]byte
	stack := small[:0]
	i = skipWS(d, i)
	for {
		// A value starts at d[i].
		if i >= len(d) {
			return i, &SyntaxError{Offset: i, Msg: "unexpected end of input"}
		}
		var err error
		switch c := d[i]; c {
		case '{', '[':
			if len(stack) >= MaxDepth {
				return i, &SyntaxError{Offset: i, Msg: ErrTooDeep.Error()}
			}
			i = skipWS(d, i+1)
			if c == '{' {
				stack = append(stack, '}')
				if i < len(d) && d[i] == '}' {
					i++
					stack = stack[:len(stack)-1]
					break
				}
				if i, err = skipKeyRef(d, i, strict); err != nil {
					return i, err
				}
				continue
			}
			stack = append(stack, ']')
			if i < len(d) && d[i] == ']' {
				i++
				stack = stack[:len(stack)-1]
				break
			}
			continue
		case '"':
			i, _, err = scanString(d, i, strict)
		case 't':
			i, err = scanLiteral(d, i, "true")
		case 'f':
			i, err = scanLiteral(d, i, "false")
		case 'n':
			i, err = scanLiteral(d, i, "null")
		default:
			if c == '-' || (c >= '0' && c <= '9') {
				i, _, err = scanNumberRef(d, i)
			} else {
				err = &SyntaxError{Offset: i, Msg: "unexpected character"}
			}
		}
		if err != nil {
			return i, err
		}
		// After a value: close containers or move to the next element.
		for {
			if len(stack) == 0 {
				return i, nil
			}
			i = skipWS(d, i)
			if i >= len(d) {
				return i, &SyntaxError{Offset: i, Msg: "unexpected end of input"}
			}
			top := stack[len(stack)-1]
			if d[i] == top {
				i++
				stack = stack[:len(stack)-1]
				continue
			}
			if d[i] != ',' {
				return i, &SyntaxError{Offset: i, Msg: "expected ',' or '" + string(top) + "'"}
			}
			i = skipWS(d, i+1)
			if top == '}' {
				if i, err = skipKeyRef(d, i, strict); err != nil {
					return i, err
				}
			}
			break
		}
	}
}

func skipKeyRef(d []byte, i int, strict bool) (int, error) {
	if i >= len(d) || d[i] != '"' {
		return i, &SyntaxError{Offset: i, Msg: "expected a string key"}
	}
	i, _, err := scanString(d, i, strict)
	if err != nil {
		return i, err
	}
	i = skipWS(d, i)
	if i >= len(d) || d[i] != ':' {
		return i, &SyntaxError{Offset: i, Msg: "expected ':' after key"}
	}
	return skipWS(d, i+1), nil
}

func scanNumberRef(d []byte, i int) (int, bool, error) {
	start := i
	simple := true
	if d[i] == '-' {
		i++
	}
	if i >= len(d) {
		return i, false, &SyntaxError{Offset: i, Msg: "unexpected end of input in number"}
	}
	if d[i] == '0' {
		i++
	} else if d[i] >= '1' && d[i] <= '9' {
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
	} else {
		return i, false, &SyntaxError{Offset: i, Msg: "invalid number"}
	}
	if i < len(d) && d[i] == '.' {
		simple = false
		i++
		n := i
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
		if i == n {
			return i, false, &SyntaxError{Offset: i, Msg: "invalid number: no digits after '.'"}
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		simple = false
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		n := i
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
		if i == n {
			return i, false, &SyntaxError{Offset: i, Msg: "invalid number: no digits in exponent"}
		}
	}
	_ = start
	return i, simple, nil
}
