// Package jsonscan is a small validating JSON scanner for zoneline's hot paths. The statusline
// and the hooks run as a fresh process after every turn, so they must not pay encoding/json's
// first-use cost (reflection over the decoded types, building field caches: several hundred
// microseconds per process, measured). A record is read through its key table (Field,
// table.go): each key's reader takes its field, the rest is skipped (Decode's callback per key is
// the form beneath). It keeps encoding/json's semantics where they matter:
// the whole input must be valid JSON; keys match exactly or ASCII case-insensitively; a field of
// the wrong type is skipped and reported while the others are kept; invalid UTF-8 and lone
// surrogates become U+FFFD. payload's FuzzScanMatchesEncodingJSON holds it to encoding/json.
package jsonscan

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"time"
	"unicode/utf16"
	"unicode/utf8"
)

// maxDepth is the deepest nesting accepted, as in encoding/json.
const maxDepth = 10000

// SyntaxError reports input that is not one valid JSON value.
type SyntaxError struct {
	off int
	msg string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("%s at offset %d", e.msg, e.off) }

// Scanner reads one JSON value: Decode hands it to a callback, which reads each field's
// value with one of its readers (String, Int, Object, …) or Skip.
type Scanner struct {
	b       []byte
	i       int
	depth   int
	typeErr string // the first field that had the wrong type
	// keys are the table keys (Field.Key, "[]" for an array element) leading to the value being
	// read, so that a type error names its field's path ("rate_limits.five_hour"); nkeys may
	// exceed len(keys), whose deeper keys are left out of the name.
	keys  [4]string
	nkeys int
}

func (s *Scanner) fail(msg string) error { return &SyntaxError{off: s.i, msg: msg} }

func (s *Scanner) ws() {
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
func (s *Scanner) peek() byte {
	s.ws()
	if s.i < len(s.b) {
		return s.b[s.i]
	}
	return 0
}

// object reads an object, calling field for each key; field must consume the value (with one
// of the value readers or skip). A null is accepted as an absent object (present false).
func (s *Scanner) object(field func(key []byte) error) (present bool, err error) {
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

// Object reads an object-valued field through fn. It reports what it found: an object
// (Present), null (Null), or a value of another kind (Wrong: skipped and reported as a
// type error named name, or when "" the path of table keys, the field left as it was, as
// encoding/json does). A record with a key table reads through ReadObject instead.
func (s *Scanner) Object(name string, fn func(key []byte) error) (Kind, error) {
	c := s.peek()
	if c != '{' && c != 'n' {
		s.mismatch(name)
		return Wrong, s.Skip()
	}
	present, err := s.object(fn)
	if present {
		return Present, err
	}
	return Null, err
}

// Kind is what Object found.
type Kind int

const (
	Null Kind = iota
	Present
	Wrong
)

// mismatch records a type error: name, or when "" the path of table keys being read.
func (s *Scanner) mismatch(name string) {
	if s.typeErr != "" {
		return
	}
	if name == "" {
		for _, k := range s.keys[:min(s.nkeys, len(s.keys))] {
			if name != "" && k != "[]" {
				name += "."
			}
			name += k
		}
	}
	s.typeErr = name
}

func (s *Scanner) push(key string) {
	if s.nkeys < len(s.keys) {
		s.keys[s.nkeys] = key
	}
	s.nkeys++
}

func (s *Scanner) pop() { s.nkeys-- }

// String reads a string field; another kind of value is skipped and reported (null leaves it).
// The readers report a type error under the path of table keys being read (Field).
func (s *Scanner) String(dst *string) error {
	switch s.peek() {
	case '"':
		raw, err := s.rawString()
		if err != nil {
			return err
		}
		*dst = Unquote(raw)
		return nil
	case 'n':
		return s.literal("null")
	}
	s.mismatch("")
	return s.Skip()
}

// StringPtr reads an optional string: null sets nil.
func (s *Scanner) StringPtr(dst **string) error {
	var v string
	switch s.peek() {
	case 'n':
		*dst = nil
	case '"':
		*dst = &v
	}
	return s.String(&v)
}

// BoolPtr reads an optional bool: null sets nil.
func (s *Scanner) BoolPtr(dst **bool) error {
	switch s.peek() {
	case 'n':
		*dst = nil
		return s.literal("null")
	case 't', 'f':
		v := s.b[s.i] == 't'
		*dst = &v
		if v {
			return s.literal("true")
		}
		return s.literal("false")
	}
	s.mismatch("")
	return s.Skip()
}

// Bool reads a bool field: true or false; null or a value of another kind (skipped and
// reported) leaves dst as it was (false in a fresh struct), as encoding/json does.
func (s *Scanner) Bool(dst *bool) error {
	var v *bool
	err := s.BoolPtr(&v)
	if v != nil { // null and a value of another kind leave dst as it was, as encoding/json does
		*dst = *v
	}
	return err
}

// Array reads an array field, calling fn once per element (fn must consume it; a type error in
// it is named "key[]"). A value of another kind is skipped and reported; null reads as Null.
func (s *Scanner) Array(fn func() error) (Kind, error) {
	switch s.peek() {
	case 'n':
		return Null, s.literal("null")
	case '[':
	default:
		s.mismatch("")
		return Wrong, s.Skip()
	}
	s.push("[]")
	defer s.pop()
	s.i++
	if s.depth++; s.depth > maxDepth {
		return Present, s.fail("nesting too deep")
	}
	defer func() { s.depth-- }()
	if s.peek() == ']' {
		s.i++
		return Present, nil
	}
	for {
		if err := fn(); err != nil {
			return Present, err
		}
		switch s.peek() {
		case ',':
			s.i++
		case ']':
			s.i++
			return Present, nil
		default:
			return Present, s.fail("want ',' or ']'")
		}
	}
}

// Raw reads any value and returns its bytes, validated (for a caller's own lenient reading).
func (s *Scanner) Raw() ([]byte, error) {
	s.ws()
	start := s.i
	if err := s.Skip(); err != nil {
		return nil, err
	}
	return s.b[start:s.i], nil
}

// Float reads a number field; another kind of value, or a number beyond float64's range, is
// skipped and reported; null leaves it.
func (s *Scanner) Float(dst *float64) error {
	c := s.peek()
	switch {
	case c == 'n':
		return s.literal("null")
	case c == '-' || '0' <= c && c <= '9':
		start := s.i
		if err := s.number(); err != nil {
			return err
		}
		f, err := strconv.ParseFloat(string(s.b[start:s.i]), 64)
		if err != nil {
			s.mismatch("")
			return nil
		}
		*dst = f
		return nil
	}
	s.mismatch("")
	return s.Skip()
}

// FloatPtr reads an optional number: null sets nil.
func (s *Scanner) FloatPtr(dst **float64) error {
	var v float64
	switch c := s.peek(); {
	case c == 'n':
		*dst = nil
	case c == '-' || '0' <= c && c <= '9':
		*dst = &v
	}
	return s.Float(&v)
}

// Int reads an integer field (a JSON number in int64 range, fractions dropped); another kind of
// value is skipped and reported; null leaves it.
func (s *Scanner) Int(dst *int64) error {
	f := math.NaN() // stays NaN unless a number is read
	err := s.Float(&f)
	switch {
	case f != f:
	case f > math.MaxInt64 || f < math.MinInt64:
		s.mismatch("")
	default:
		*dst = int64(f)
	}
	return err
}

// Count reads an integer field into an int, clamped to 0..hi.
func (s *Scanner) Count(dst *int, hi int64) error {
	n := int64(*dst)
	err := s.Int(&n)
	*dst = int(max(0, min(n, hi)))
	return err
}

// Time reads an RFC 3339 time string; another value is skipped and reported.
func (s *Scanner) Time(dst *time.Time) error {
	var v string
	if err := s.String(&v); err != nil || v == "" {
		return err
	}
	t, err := time.Parse(time.RFC3339Nano, v)
	if err != nil {
		s.mismatch("")
		return nil
	}
	*dst = t
	return nil
}

func (s *Scanner) literal(lit string) error {
	if !bytes.HasPrefix(s.b[s.i:], []byte(lit)) {
		return s.fail("invalid literal")
	}
	s.i += len(lit)
	return nil
}

// rawString reads a string token and returns its raw content (between the quotes), validated.
func (s *Scanner) rawString() ([]byte, error) {
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

// Skip reads and validates any value.
func (s *Scanner) Skip() error {
	switch c := s.peek(); {
	case c == '{':
		_, err := s.object(func([]byte) error { return s.Skip() })
		return err
	case c == '[':
		_, err := s.Array(s.Skip)
		return err
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
func (s *Scanner) number() error {
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
func (s *Scanner) end() error {
	if s.ws(); s.i < len(s.b) { // (not peek: a NUL byte is data, not the end)
		return s.fail("data after the top-level value")
	}
	return nil
}

// Unquote decodes a validated raw string: escapes, surrogate pairs, and U+FFFD for invalid
// UTF-8 and lone surrogates, as encoding/json does.
func Unquote(raw []byte) string {
	if !needsUnquote(raw) {
		return string(raw)
	}
	out := make([]byte, 0, len(raw)+8)
	for i := 0; i < len(raw); {
		c := raw[i]
		switch {
		case c == '\\' && raw[i+1] != 'u':
			out = append(out, unescape[raw[i+1]])
			i += 2
		case c == '\\':
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

// StringValue decodes tok, one JSON string token (quotes included), as Unquote does; ok is false
// when tok is not exactly one valid string.
func StringValue(tok []byte) (string, bool) {
	s := &Scanner{b: tok}
	if len(tok) == 0 || tok[0] != '"' {
		return "", false
	}
	raw, err := s.rawString()
	if err != nil || s.i != len(tok) {
		return "", false
	}
	return Unquote(raw), true
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

// unescape and escape are a string's two-byte escapes: \n read as a newline, a newline written
// as \n (static tables: nothing built at init).
var (
	unescape = [256]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}
	escape   = [256]byte{'"': '"', '\\': '\\', '\b': 'b', '\f': 'f', '\n': 'n', '\r': 'r', '\t': 't'}
)

// KeyIs reports whether a raw key names field: exactly, or ASCII case-insensitively (as
// encoding/json matches struct fields). A key with escapes is decoded first.
func KeyIs(raw []byte, field string) bool {
	if string(raw) == field {
		return true
	}
	if bytes.IndexByte(raw, '\\') >= 0 {
		raw = []byte(Unquote(raw))
	}
	// Case folding keeps the length of ASCII; a non-ASCII key may fold onto an ASCII field
	// (ſ U+017F folds to s, K U+212A to k), as encoding/json matches it.
	if len(raw) != len(field) && isASCII(raw) {
		return false
	}
	return bytes.EqualFold(raw, []byte(field))
}

// Decode walks the top-level object of data, with encoding/json's error rules, calling fn for
// each key; fn must consume the value (with a reader such as String, or Skip). It returns
// ErrEmpty, ErrNotObject, a *SyntaxError (nothing can be trusted), or a *TypeError (every other
// field was read).
func Decode(data []byte, fn func(s *Scanner, key []byte) error) error {
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return ErrEmpty
	}
	if data[0] != '{' {
		return ErrNotObject
	}
	s := &Scanner{b: data}
	_, err := s.object(func(key []byte) error { return fn(s, key) })
	if err == nil {
		err = s.end()
	}
	if err != nil {
		return err
	}
	if s.typeErr != "" {
		return &TypeError{Field: s.typeErr}
	}
	return nil
}

// Errors of Decode.
var (
	ErrEmpty     = errors.New("empty input")
	ErrNotObject = errors.New("not a JSON object")
)

// TypeError reports the first field whose value had the wrong type.
type TypeError struct{ Field string }

func (e *TypeError) Error() string { return fmt.Sprintf("field %q has the wrong type", e.Field) }

// AppendString appends s as a JSON string, escaping as encoding/json does (without its HTML
// escaping); invalid UTF-8 becomes U+FFFD.
func AppendString(dst []byte, s string) []byte {
	const hexDigits = "0123456789abcdef"
	dst = append(slices.Grow(dst, len(s)+2), '"')
	start := 0 // the bytes from start to i need no escape: copied as one run
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			if e := escape[c]; e != 0 {
				dst = append(dst, '\\', e)
			} else {
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			dst = append(append(dst, s[start:i]...), "\\ufffd"...)
			start = i + size
		case r == '\u2028' || r == '\u2029':
			dst = append(append(dst, s[start:i]...), '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			start = i + size
		}
		i += size
	}
	return append(append(dst, s[start:]...), '"')
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}
