package config

import (
	"strconv"
	"strings"

	"github.com/pelletier/go-toml/v2/unstable"
)

// A key's value is typed: of[T] knows where the value lives in a Config or a [[model]] block,
// its kind (how a T is read from a TOML node and written back as a TOML literal) and its own
// check. Decoding, `config show` and the cache go through it and never ask a value's type.

// value is a key's value in a Config or in a [[model]] block's Model.
type value interface {
	// set decodes v, checks it (f's bounds, then the value's check) and stores it. When it
	// cannot, it returns why, as the end of a problem that starts with the key: ": want …, got
	// …" or " = <value>: <reason>".
	set(f *field, c *Config, m *Model, v *unstable.Node) string
	// show returns the value as a TOML literal, "" when it is unset.
	show(c *Config, m *Model) string
}

// of is a value of Go type T.
type of[T any] struct {
	at    func(c *Config, m *Model) *T // its storage
	kind  *kind[T]
	check func(T) string // why a well-typed value is refused ("" when it is fine); nil for none
}

// kind is how a value of Go type T is read and written.
type kind[T any] struct {
	// read returns the node's value, or what the node holds instead in the user's words
	// ("a string (\"x\")").
	read  func(v *unstable.Node) (T, string)
	write func(T) string // a TOML literal; "" for unset
	num   func(T) int64  // an integer's value, for the key's bounds; nil for other kinds
}

func (o of[T]) set(f *field, c *Config, m *Model, v *unstable.Node) string {
	x, got := o.kind.read(v)
	if got != "" {
		return ": want " + f.want + ", got " + got
	}
	why := ""
	if o.kind.num != nil {
		why = f.checkRange(o.kind.num(x))
	}
	if why == "" && o.check != nil {
		why = o.check(x)
	}
	if why != "" {
		return " = " + o.kind.write(x) + ": " + why
	}
	*o.at(c, m) = x
	return ""
}

func (o of[T]) show(c *Config, m *Model) string { return o.kind.write(*o.at(c, m)) }

// The kinds.
var (
	textKind  = kind[string]{read: readText, write: quote}
	boolKind  = kind[bool]{read: readBool, write: strconv.FormatBool}
	maybeKind = kind[*bool]{read: readMaybe, write: writeMaybe} // true, false or unset (nil)
	intKind   = kind[int]{read: readInt, write: strconv.Itoa, num: func(n int) int64 { return int64(n) }}
	int64Kind = kind[int64]{read: readInt64, write: writeInt64, num: func(n int64) int64 { return n }}
	specKind  = kind[any]{read: readSpec, write: writeSpec} // a prep threshold, [mod] compact_at
	listKind  = kind[[]string]{read: readList, write: writeList}
	linesKind = kind[[][]string]{read: readLines, write: writeLines}
)

func readText(v *unstable.Node) (string, string) {
	switch v.Kind {
	case unstable.String:
		return string(v.Data), ""
	case unstable.Integer, unstable.Float, unstable.Bool:
		return "", describe(v) + " (write it in quotes: " + quote(string(v.Data)) + ")"
	}
	return "", describe(v)
}

func readBool(v *unstable.Node) (bool, string) {
	if v.Kind != unstable.Bool {
		return false, describe(v)
	}
	return string(v.Data) == "true", ""
}

func readMaybe(v *unstable.Node) (*bool, string) {
	b, got := readBool(v)
	return &b, got
}

func writeMaybe(b *bool) string {
	if b == nil {
		return ""
	}
	return strconv.FormatBool(*b)
}

// readInt reads an integer that fits in 32 bits.
func readInt(v *unstable.Node) (int, string) {
	n, got := readInt64(v)
	if got == "" && int64(int32(n)) != n {
		got = "an integer out of range (" + string(v.Data) + ")"
	}
	return int(n), got
}

func readInt64(v *unstable.Node) (int64, string) {
	if v.Kind != unstable.Integer {
		return 0, describe(v)
	}
	n, ok := parseInt(v.Data)
	if !ok {
		return 0, "an integer out of range (" + string(v.Data) + ")"
	}
	return n, ""
}

func writeInt64(n int64) string { return strconv.FormatInt(n, 10) }

// readSpec reads a string, an integer or a float.
func readSpec(v *unstable.Node) (any, string) {
	switch v.Kind {
	case unstable.String:
		return string(v.Data), ""
	case unstable.Integer:
		n, got := readInt64(v)
		if got != "" {
			return nil, got
		}
		return n, ""
	case unstable.Float:
		if f, ok := parseFloat(v.Data); ok {
			return f, ""
		}
	}
	return nil, describe(v)
}

func writeSpec(v any) string {
	switch x := v.(type) {
	case string:
		return quote(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		s := strconv.FormatFloat(x, 'g', -1, 64)
		if !strings.ContainsAny(s, ".eEn") {
			s += ".0"
		}
		return s
	}
	return ""
}

// readList reads a list of strings ([] is an empty, non-nil slice).
func readList(v *unstable.Node) ([]string, string) {
	if v.Kind != unstable.Array {
		return nil, describe(v)
	}
	ss := []string{}
	it := v.Children()
	for it.Next() {
		e := it.Node()
		if e.Kind != unstable.String {
			return nil, "a list with an element that is not a string"
		}
		ss = append(ss, string(e.Data))
	}
	return ss, ""
}

func writeList(ss []string) string {
	parts := make([]string, len(ss))
	for i, s := range ss {
		parts[i] = quote(s)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// readLines reads a list of lists of strings.
func readLines(v *unstable.Node) ([][]string, string) {
	if v.Kind != unstable.Array {
		return nil, describe(v)
	}
	lines := [][]string{}
	it := v.Children()
	for it.Next() {
		ss, got := readList(it.Node())
		if got != "" {
			return nil, "a list with an element that is not a list of strings"
		}
		lines = append(lines, ss)
	}
	return lines, ""
}

func writeLines(lines [][]string) string {
	parts := make([]string, len(lines))
	for i, l := range lines {
		parts[i] = writeList(l)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// describe names what a value is, with the value when it is short.
func describe(v *unstable.Node) string {
	w := kindWord(v.Kind)
	switch v.Kind {
	case unstable.String:
		if len(v.Data) <= 40 {
			return w + " (" + quote(string(v.Data)) + ")"
		}
	case unstable.Integer, unstable.Float, unstable.Bool:
		return w + " (" + string(v.Data) + ")"
	}
	return w
}

func kindWord(k unstable.Kind) string {
	switch k {
	case unstable.String:
		return "a string"
	case unstable.Bool:
		return "a boolean"
	case unstable.Integer:
		return "an integer"
	case unstable.Float:
		return "a float"
	case unstable.Array:
		return "a list"
	case unstable.InlineTable:
		return "a table"
	case unstable.LocalDate, unstable.LocalTime, unstable.LocalDateTime, unstable.DateTime:
		return "a date or time"
	}
	return "a value of another kind"
}

// parseInt reads a TOML integer: decimal with underscores, or 0x, 0o, 0b.
func parseInt(b []byte) (int64, bool) {
	s := strings.ReplaceAll(string(b), "_", "")
	base := 10
	if len(s) > 2 && s[0] == '0' {
		switch s[1] {
		case 'x':
			base = 16
		case 'o':
			base = 8
		case 'b':
			base = 2
		}
		if base != 10 {
			s = s[2:]
		}
	}
	n, err := strconv.ParseInt(s, base, 64)
	return n, err == nil
}

func parseFloat(b []byte) (float64, bool) {
	s := strings.ReplaceAll(string(b), "_", "")
	switch strings.TrimPrefix(strings.TrimPrefix(s, "+"), "-") {
	case "inf", "nan":
		return 0, false // no prep spec is infinite
	}
	f, err := strconv.ParseFloat(s, 64)
	return f, err == nil
}
