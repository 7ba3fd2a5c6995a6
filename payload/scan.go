package payload

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// The statusline runs as a fresh process after every turn, so its decoder must not pay
// encoding/json's first-use cost (reflection over the payload types, building field caches:
// several hundred microseconds per process, measured). The payloads are decoded instead by this
// small validating scanner, which reads only the fields zoneline uses and skips the rest. It keeps
// encoding/json's semantics where they matter (FuzzScanMatchesEncodingJSON checks it against
// encoding/json): the whole input must be valid JSON; keys match exactly or ASCII
// case-insensitively; a field of the wrong type is skipped and reported while the others are
// kept; invalid UTF-8 and lone surrogates become U+FFFD; a later duplicate key wins.

// maxDepth is the deepest nesting accepted, as in encoding/json.
const maxDepth = 10000

// errSyntax reports input that is not one valid JSON value.
type errSyntax struct {
	off int
	msg string
}

func (e *errSyntax) Error() string { return fmt.Sprintf("%s at offset %d", e.msg, e.off) }

// scanner reads one JSON value from b.
type scanner struct {
	b       []byte
	i       int
	depth   int
	typeErr string // the first field that had the wrong type
}

func (s *scanner) fail(msg string) error { return &errSyntax{off: s.i, msg: msg} }

func (s *scanner) ws() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// peek returns the next non-space byte, or 0 at the end.
func (s *scanner) peek() byte {
	s.ws()
	if s.i < len(s.b) {
		return s.b[s.i]
	}
	return 0
}

// object reads an object, calling field for each key; field must consume the value (with one
// of the value readers or skip). A null is accepted as an absent object (present false).
func (s *scanner) object(field func(key []byte) error) (present bool, err error) {
	switch s.peek() {
	case 'n':
		return false, s.literal("null")
	case '{':
	default:
		return false, s.fail("want an object")
	}
	s.i++
	if s.depth++; s.depth > maxDepth {
		return false, s.fail("nesting too deep")
	}
	defer func() { s.depth-- }()
	if s.peek() == '}' {
		s.i++
		return true, nil
	}
	for {
		if s.peek() != '"' {
			return true, s.fail("want a key")
		}
		key, err := s.rawString()
		if err != nil {
			return true, err
		}
		if s.peek() != ':' {
			return true, s.fail("want ':'")
		}
		s.i++
		if err := field(key); err != nil {
			return true, err
		}
		switch s.peek() {
		case ',':
			s.i++
		case '}':
			s.i++
			return true, nil
		default:
			return true, s.fail("want ',' or '}'")
		}
	}
}

// objectField reads an object-valued field through fn. It reports what it found: an object
// (objPresent), null (objNull), or a value of another kind (objWrong: skipped and reported as a
// type error, the field left as it was, as encoding/json does).
func (s *scanner) objectField(name string, fn func(key []byte) error) (objKind, error) {
	c := s.peek()
	if c != '{' && c != 'n' {
		s.mismatch(name)
		return objWrong, s.skip()
	}
	present, err := s.object(fn)
	if present {
		return objPresent, err
	}
	return objNull, err
}

// objKind is what objectField found.
type objKind int

const (
	objNull objKind = iota
	objPresent
	objWrong
)

func (s *scanner) mismatch(name string) {
	if s.typeErr == "" {
		s.typeErr = name
	}
}

// str reads a string field; another kind of value is skipped and reported (null leaves it).
func (s *scanner) str(name string, dst *string) error {
	switch s.peek() {
	case '"':
		raw, err := s.rawString()
		if err != nil {
			return err
		}
		*dst = unquote(raw)
		return nil
	case 'n':
		return s.literal("null")
	}
	s.mismatch(name)
	return s.skip()
}

// strPtr reads an optional string: null sets nil.
func (s *scanner) strPtr(name string, dst **string) error {
	switch s.peek() {
	case '"':
		raw, err := s.rawString()
		if err != nil {
			return err
		}
		v := unquote(raw)
		*dst = &v
		return nil
	case 'n':
		*dst = nil
		return s.literal("null")
	}
	s.mismatch(name)
	return s.skip()
}

// boolPtr reads an optional bool: null sets nil.
func (s *scanner) boolPtr(name string, dst **bool) error {
	switch s.peek() {
	case 't', 'f':
		v := s.b[s.i] == 't'
		lit := "false"
		if v {
			lit = "true"
		}
		if err := s.literal(lit); err != nil {
			return err
		}
		*dst = &v
		return nil
	case 'n':
		*dst = nil
		return s.literal("null")
	}
	s.mismatch(name)
	return s.skip()
}

// num reads a lenient count (Num's rules): any value; numbers and numeric strings count.
func (s *scanner) num(dst *Num) error {
	start := s.i
	if err := s.skip(); err != nil {
		return err
	}
	return dst.UnmarshalJSON(s.b[start:s.i])
}

// numPtr reads an optional lenient count: null sets nil.
func (s *scanner) numPtr(dst **Num) error {
	if s.peek() == 'n' {
		*dst = nil
		return s.literal("null")
	}
	if *dst == nil {
		*dst = new(Num)
	}
	return s.num(*dst)
}

func (s *scanner) literal(lit string) error {
	if !bytes.HasPrefix(s.b[s.i:], []byte(lit)) {
		return s.fail("invalid literal")
	}
	s.i += len(lit)
	return nil
}

// rawString reads a string token and returns its raw content (between the quotes), validated.
func (s *scanner) rawString() ([]byte, error) {
	s.i++ // the opening quote
	start := s.i
	for s.i < len(s.b) {
		c := s.b[s.i]
		switch {
		case c == '"':
			raw := s.b[start:s.i]
			s.i++
			return raw, nil
		case c == '\\':
			if s.i+1 >= len(s.b) {
				return nil, s.fail("unterminated string")
			}
			switch s.b[s.i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				s.i += 2
			case 'u':
				if s.i+6 > len(s.b) || !isHex4(s.b[s.i+2:s.i+6]) {
					return nil, s.fail("invalid \\u escape")
				}
				s.i += 6
			default:
				return nil, s.fail("invalid escape")
			}
		case c < 0x20:
			return nil, s.fail("control character in string")
		default:
			s.i++
		}
	}
	return nil, s.fail("unterminated string")
}

func isHex4(b []byte) bool {
	for _, c := range b[:4] {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// skip reads and validates any value.
func (s *scanner) skip() error {
	switch c := s.peek(); {
	case c == '{':
		_, err := s.object(func([]byte) error { return s.skip() })
		return err
	case c == '[':
		s.i++
		if s.depth++; s.depth > maxDepth {
			return s.fail("nesting too deep")
		}
		defer func() { s.depth-- }()
		if s.peek() == ']' {
			s.i++
			return nil
		}
		for {
			if err := s.skip(); err != nil {
				return err
			}
			switch s.peek() {
			case ',':
				s.i++
			case ']':
				s.i++
				return nil
			default:
				return s.fail("want ',' or ']'")
			}
		}
	case c == '"':
		_, err := s.rawString()
		return err
	case c == 't':
		return s.literal("true")
	case c == 'f':
		return s.literal("false")
	case c == 'n':
		return s.literal("null")
	case c == '-' || '0' <= c && c <= '9':
		return s.number()
	case c == 0:
		return s.fail("unexpected end of input")
	}
	return s.fail("invalid character")
}

// number validates a number: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (s *scanner) number() error {
	b, i := s.b, s.i
	if i < len(b) && b[i] == '-' {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(b) && '0' <= b[i] && b[i] <= '9' {
			i++
			n++
		}
		return n
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case digits() == 0:
		s.i = i
		return s.fail("invalid number")
	}
	if i < len(b) && b[i] == '.' {
		i++
		if digits() == 0 {
			s.i = i
			return s.fail("invalid number")
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if digits() == 0 {
			s.i = i
			return s.fail("invalid number")
		}
	}
	s.i = i
	return nil
}

// end checks that nothing but white space follows the value.
func (s *scanner) end() error {
	if s.peek() != 0 {
		return s.fail("data after the top-level value")
	}
	return nil
}

// unquote decodes a validated raw string: escapes, surrogate pairs, and U+FFFD for invalid
// UTF-8 and lone surrogates, as encoding/json does.
func unquote(raw []byte) string {
	if !needsUnquote(raw) {
		return string(raw)
	}
	out := make([]byte, 0, len(raw)+8)
	for i := 0; i < len(raw); {
		c := raw[i]
		switch {
		case c == '\\':
			switch e := raw[i+1]; e {
			case 'b':
				out = append(out, '\b')
			case 'f':
				out = append(out, '\f')
			case 'n':
				out = append(out, '\n')
			case 'r':
				out = append(out, '\r')
			case 't':
				out = append(out, '\t')
			case 'u':
				r := rune(hex4(raw[i+2:]))
				i += 6
				if utf16.IsSurrogate(r) {
					r2 := rune(-1)
					if i+6 <= len(raw) && raw[i] == '\\' && raw[i+1] == 'u' {
						r2 = rune(hex4(raw[i+2:]))
					}
					if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
						r = dec
						i += 6
					} else {
						r = utf8.RuneError
					}
				}
				out = utf8.AppendRune(out, r)
				continue
			default: // " \ /
				out = append(out, e)
			}
			i += 2
		case c < utf8.RuneSelf:
			out = append(out, c)
			i++
		default:
			r, size := utf8.DecodeRune(raw[i:])
			if r == utf8.RuneError && size == 1 {
				out = append(out, "\uFFFD"...)
			} else {
				out = append(out, raw[i:i+size]...)
			}
			i += size
		}
	}
	return string(out)
}

// needsUnquote reports whether raw has an escape or a non-ASCII byte.
func needsUnquote(raw []byte) bool {
	for _, c := range raw {
		if c == '\\' || c >= utf8.RuneSelf {
			return true
		}
	}
	return false
}

func hex4(b []byte) int {
	n := 0
	for _, c := range b[:4] {
		n <<= 4
		switch {
		case c <= '9':
			n |= int(c - '0')
		case c <= 'F':
			n |= int(c-'A') + 10
		default:
			n |= int(c-'a') + 10
		}
	}
	return n
}

// keyIs reports whether a raw key names field: exactly, or ASCII case-insensitively (as
// encoding/json matches struct fields). A key with escapes is decoded first.
func keyIs(raw []byte, field string) bool {
	if string(raw) == field {
		return true
	}
	if bytes.IndexByte(raw, '\\') >= 0 {
		raw = []byte(unquote(raw))
	}
	return len(raw) == len(field) && bytes.EqualFold(raw, []byte(field))
}

// scanDecode runs fn over the top-level object of data, with encoding/json's error rules.
func scanDecode(data []byte, fn func(s *scanner, key []byte) error) error {
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return errors.New("zoneline: empty payload")
	}
	if data[0] != '{' {
		return errors.New("zoneline: payload is not a JSON object")
	}
	s := &scanner{b: data}
	_, err := s.object(func(key []byte) error { return fn(s, key) })
	if err == nil {
		err = s.end()
	}
	if err != nil {
		return fmt.Errorf("zoneline: payload is not valid JSON: %w", err)
	}
	if s.typeErr != "" {
		return fmt.Errorf("zoneline: payload field %q has the wrong type", s.typeErr)
	}
	return nil
}

// parseNum is Num's reading of a raw JSON value.
func parseNum(b []byte) int64 {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		if len(b) < 2 || b[len(b)-1] != '"' {
			return 0
		}
		b = []byte(unquote(b[1 : len(b)-1]))
	}
	if len(b) == 0 || string(b) == "null" {
		return 0
	}
	f, err := strconv.ParseFloat(string(b), 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0
	}
	return clampFloat(f)
}
