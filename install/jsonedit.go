package install

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// Kind is the type of a JSON value.
type Kind int

// Kinds of Node.
const (
	Null Kind = iota
	Bool
	Number
	String
	Array
	Object
)

// Node is one JSON value that remembers its source text. A value that is unchanged since it was
// parsed is written back byte for byte; only the containers that changed are re-encoded, with
// the document's own indentation. Object members keep their order.
type Node struct {
	Kind    Kind
	Bool    bool
	Num     json.Number
	Str     string
	Elems   []*Node  // Array
	Members []Member // Object, in file order

	raw   []byte // the source text; nil for a node built in memory
	off   int    // where raw starts in the file
	canon string // the canonical form at parse time (containers), to tell "unchanged"
}

// Member is one key of an object.
type Member struct {
	Key    string
	rawKey []byte // the key as written, quotes included; nil when built in memory
	Val    *Node
}

// Document is a parsed settings file: the value plus what surrounds it and its style.
type Document struct {
	Root   *Node // nil for an empty file
	file   string
	data   []byte
	prefix []byte // BOM and whitespace before the value
	suffix []byte // whitespace after it
	Indent string // one level: "  ", "    " or "\t"
	EOL    string // "\n" or "\r\n"
}

// ParseError is a settings file zoneline refuses to edit, with the place of the problem.
type ParseError struct {
	File      string
	Line, Col int // 1-based
	Reason    string
}

func (e *ParseError) Error() string {
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Reason)
}

// Parse parses data (the contents of file, named in errors) keeping key order, number text and
// the source of every value. An empty or all-whitespace file has a nil Root. JSON with comments
// (JSONC), trailing commas or anything after the value is refused with its line and column.
func Parse(file string, data []byte) (*Document, error) {
	d := &Document{EOL: "\n", file: file, data: data}
	if bytes.Contains(data, []byte("\r\n")) {
		d.EOL = "\r\n"
	}
	d.Indent = detectIndent(data)
	start := 0
	if bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) {
		start = 3
	}
	for start < len(data) && isSpace(data[start]) {
		start++
	}
	d.prefix = data[:start]
	if start == len(data) {
		d.suffix = nil
		return d, nil
	}
	p := &parser{file: file, data: data, dec: json.NewDecoder(bytes.NewReader(data[start:])), base: int64(start)}
	p.dec.UseNumber()
	root, err := p.value()
	if err != nil {
		return nil, err
	}
	end := int(p.dec.InputOffset()) + start
	rest := end
	for rest < len(data) && isSpace(data[rest]) {
		rest++
	}
	if rest < len(data) {
		return nil, p.errAt(rest, "text after the end of the JSON value")
	}
	d.Root = root
	d.suffix = data[end:]
	return d, nil
}

type parser struct {
	file  string
	data  []byte
	dec   *json.Decoder
	base  int64 // offset of the decoder's input in data
	depth int   // containers open around the value being read
}

// maxDepth is the deepest nesting of objects and arrays Parse reads. Claude Code's settings nest
// about five deep; a file nested thousands deep (a repository's, for doctor -project) would
// cost time in the square of its depth (each container keeps its canonical form).
const maxDepth = 64

func (p *parser) offset() int { return int(p.dec.InputOffset() + p.base) }

// valueStart skips whitespace and the ':' or ',' the decoder has not consumed yet.
func (p *parser) valueStart() int {
	i := p.offset()
	for i < len(p.data) && (isSpace(p.data[i]) || p.data[i] == ':' || p.data[i] == ',') {
		i++
	}
	return i
}

func (p *parser) token() (json.Token, error) {
	t, err := p.dec.Token()
	if err == nil {
		return t, nil
	}
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se):
		// The token reader's offset can lag behind the offending byte; a plain decode of
		// the whole input places it exactly (the error is at the last byte it read).
		var v any
		if err := json.Unmarshal(p.data[p.base:], &v); errors.As(err, &se) {
			off := max(int(se.Offset+p.base)-1, 0)
			return nil, p.errAt(off, p.reason(off, se.Error()))
		}
		return nil, p.errAt(p.offset(), "invalid JSON: "+err.Error())
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return nil, p.errAt(len(p.data), "unexpected end of file: the JSON is cut short")
	}
	return nil, p.errAt(p.offset(), err.Error())
}

// reason explains a syntax error at off, naming comments and trailing commas, which editors
// allow and JSON does not.
func (p *parser) reason(off int, msg string) string {
	if off < len(p.data) && p.data[off] == '/' {
		return "comments are not JSON (a JSONC file): zoneline cannot keep them when it rewrites the file; remove the comments, or add zoneline's entries by hand as the README shows"
	}
	if off < len(p.data) && (p.data[off] == '}' || p.data[off] == ']') {
		j := off - 1
		for j >= 0 && isSpace(p.data[j]) {
			j--
		}
		if j >= 0 && p.data[j] == ',' {
			return "trailing comma before '" + string(p.data[off]) + "' is not JSON: remove it"
		}
	}
	return "invalid JSON: " + msg
}

func (p *parser) errAt(off int, reason string) *ParseError {
	if off > len(p.data) {
		off = len(p.data)
	}
	line := 1 + bytes.Count(p.data[:off], []byte("\n"))
	ls := bytes.LastIndexByte(p.data[:off], '\n') + 1
	col := 1 + utf8.RuneCount(p.data[ls:off])
	return &ParseError{File: p.file, Line: line, Col: col, Reason: reason}
}

func (p *parser) value() (*Node, error) {
	start := p.valueStart()
	t, err := p.token()
	if err != nil {
		return nil, err
	}
	n := &Node{}
	switch v := t.(type) {
	case json.Delim:
		if p.depth++; p.depth > maxDepth {
			return nil, p.errAt(start, fmt.Sprintf("nested deeper than %d levels: not a settings file zoneline edits", maxDepth))
		}
		defer func() { p.depth-- }()
		switch v {
		case '{':
			n.Kind = Object
			for p.dec.More() {
				ks := p.valueStart()
				kt, err := p.token()
				if err != nil {
					return nil, err
				}
				key, ok := kt.(string)
				if !ok {
					return nil, p.errAt(ks, "object key is not a string")
				}
				rawKey := p.data[ks:p.offset()]
				val, err := p.value()
				if err != nil {
					return nil, err
				}
				n.Members = append(n.Members, Member{Key: key, rawKey: rawKey, Val: val})
			}
		case '[':
			n.Kind = Array
			for p.dec.More() {
				e, err := p.value()
				if err != nil {
					return nil, err
				}
				n.Elems = append(n.Elems, e)
			}
		default:
			return nil, p.errAt(start, fmt.Sprintf("unexpected %q", rune(v)))
		}
		if _, err := p.token(); err != nil { // the closing delimiter
			return nil, err
		}
	case string:
		n.Kind, n.Str = String, v
	case json.Number:
		n.Kind, n.Num = Number, v
	case bool:
		n.Kind, n.Bool = Bool, v
	case nil:
		n.Kind = Null
	}
	n.raw, n.off = p.data[start:p.offset()], start
	if n.Kind == Object || n.Kind == Array {
		n.canon = n.Canonical()
	}
	return n, nil
}

// ErrorAt returns a ParseError placed at n (at the file's start for a node built in memory).
func (d *Document) ErrorAt(n *Node, reason string) *ParseError {
	p := &parser{file: d.file, data: d.data}
	off := 0
	if n != nil && n.raw != nil {
		off = n.off
	}
	return p.errAt(off, reason)
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// detectIndent returns the indentation of the first indented line: a tab, or that many spaces.
// A file with no indented line gets two spaces (what Claude Code writes).
func detectIndent(data []byte) string {
	for _, line := range strings.Split(string(data), "\n") {
		trimmed := strings.TrimLeft(line, " \t")
		if trimmed == "" || trimmed == "\r" || len(trimmed) == len(line) {
			continue
		}
		if line[0] == '\t' {
			return "\t"
		}
		return strings.Repeat(" ", len(line)-len(strings.TrimLeft(line, " ")))
	}
	return "  "
}

// Canonical returns the compact encoding of n's current value: equal values, equal strings.
func (n *Node) Canonical() string {
	var b strings.Builder
	n.writeCanon(&b)
	return b.String()
}

func (n *Node) writeCanon(b *strings.Builder) {
	switch n.Kind {
	case Null:
		b.WriteString("null")
	case Bool:
		fmt.Fprint(b, n.Bool)
	case Number:
		b.WriteString(n.Num.String())
	case String:
		b.WriteString(quote(n.Str))
	case Array:
		b.WriteByte('[')
		for i, e := range n.Elems {
			if i > 0 {
				b.WriteByte(',')
			}
			e.writeCanon(b)
		}
		b.WriteByte(']')
	case Object:
		b.WriteByte('{')
		for i, m := range n.Members {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(quote(m.Key))
			b.WriteByte(':')
			m.Val.writeCanon(b)
		}
		b.WriteByte('}')
	}
}

func quote(s string) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	return strings.TrimSuffix(buf.String(), "\n")
}

// unchanged reports whether n can be written as its source text.
func (n *Node) unchanged() bool {
	if n.raw == nil {
		return false
	}
	if n.Kind == Object || n.Kind == Array {
		return n.Canonical() == n.canon
	}
	return true
}

// Bytes encodes the document: unchanged values as they were written, changed containers with
// the document's indentation and line ending.
func (d *Document) Bytes() []byte {
	if d.Root == nil {
		return append([]byte(nil), d.prefix...)
	}
	var b bytes.Buffer
	b.Write(d.prefix)
	d.write(&b, d.Root, 0)
	if d.Root.raw == nil && len(d.suffix) == 0 {
		b.WriteString(d.EOL) // a new file ends with a newline
	}
	b.Write(d.suffix)
	return b.Bytes()
}

func (d *Document) write(b *bytes.Buffer, n *Node, depth int) {
	if n.unchanged() {
		b.Write(n.raw)
		return
	}
	if n.Kind != Array && n.Kind != Object {
		b.WriteString(n.Canonical())
		return
	}
	open, end, items := "[", "]", len(n.Elems)
	if n.Kind == Object {
		open, end, items = "{", "}", len(n.Members)
	}
	if items == 0 {
		b.WriteString(open + end)
		return
	}
	b.WriteString(open)
	for i := range items {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(d.EOL + strings.Repeat(d.Indent, depth+1))
		if n.Kind == Array {
			d.write(b, n.Elems[i], depth+1)
			continue
		}
		if m := n.Members[i]; m.rawKey != nil {
			b.Write(m.rawKey)
		} else {
			b.WriteString(quote(m.Key))
		}
		b.WriteString(": ")
		d.write(b, n.Members[i].Val, depth+1)
	}
	b.WriteString(d.EOL + strings.Repeat(d.Indent, depth) + end)
}

// Get returns the value of key in object n (the last one when a key repeats), or nil.
func (n *Node) Get(key string) *Node {
	if n == nil || n.Kind != Object {
		return nil
	}
	for i := len(n.Members) - 1; i >= 0; i-- {
		if n.Members[i].Key == key {
			return n.Members[i].Val
		}
	}
	return nil
}

// Set sets key in object n to v: in place when the key exists, else appended at the end.
func (n *Node) Set(key string, v *Node) {
	for i := len(n.Members) - 1; i >= 0; i-- {
		if n.Members[i].Key == key {
			n.Members[i].Val = v
			return
		}
	}
	n.Members = append(n.Members, Member{Key: key, Val: v})
}

// Delete removes every member named key from object n.
func (n *Node) Delete(key string) {
	out := n.Members[:0]
	for _, m := range n.Members {
		if m.Key != key {
			out = append(out, m)
		}
	}
	n.Members = out
}

// Text returns n's string value, or "" when n is not a string.
func (n *Node) Text() string {
	if n == nil || n.Kind != String {
		return ""
	}
	return n.Str
}

// FromValue builds a node from a Go value: *Node, nil, bool, int, string or []*Node. Maps are
// not accepted (their order is random): build objects with Obj.
func FromValue(v any) *Node {
	switch x := v.(type) {
	case *Node:
		return x
	case nil:
		return &Node{Kind: Null}
	case bool:
		return &Node{Kind: Bool, Bool: x}
	case int:
		return &Node{Kind: Number, Num: json.Number(fmt.Sprint(x))}
	case string:
		return &Node{Kind: String, Str: x}
	case []*Node:
		return &Node{Kind: Array, Elems: x}
	}
	panic(fmt.Sprintf("install: FromValue(%T)", v))
}

// Obj builds an object from alternating keys and values, in order.
func Obj(kv ...any) *Node {
	n := &Node{Kind: Object}
	for i := 0; i+1 < len(kv); i += 2 {
		n.Members = append(n.Members, Member{Key: kv[i].(string), Val: FromValue(kv[i+1])})
	}
	return n
}

// ParseValue parses a standalone JSON value, such as the statusLine an install record keeps as
// it was written, so that it goes back into the file byte for byte.
func ParseValue(data []byte) (*Node, error) {
	d, err := Parse("value", data)
	if err != nil {
		return nil, err
	}
	if d.Root == nil {
		return nil, errors.New("zoneline: empty value")
	}
	return d.Root, nil
}

// Raw returns the source text of n, or its canonical encoding when n was built in memory or
// has changed.
func (n *Node) Raw() string {
	if n.unchanged() {
		return string(n.raw)
	}
	return n.Canonical()
}
