package config

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// The encoder writes a Config back as TOML from the schema: `config show` prints it, and the
// cache holds it (only the values that differ from the defaults), read back by the same decoder.

// quote returns s as a TOML basic string. Quotes, backslashes, control characters (C0, DEL, C1)
// and the bidi controls (U+202A–U+202E, U+2066–U+2069) are escaped, so a quoted value never
// carries an escape sequence or a direction override to a terminal.
func quote(s string) string { return `"` + escape(s, true) + `"` }

// escape escapes what quote does; quotes and backslashes only when quotes is set.
func escape(s string, quotes bool) string {
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, `\uFFFD`...)
		case quotes && (r == '"' || r == '\\'):
			b = append(b, '\\', byte(r))
		case r == '\n':
			b = append(b, `\n`...)
		case r == '\t':
			b = append(b, `\t`...)
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) || r == 0x2028 || r == 0x2029:
			b = fmt.Appendf(b, `\u%04X`, r)
		default:
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return string(b)
}

// showKey writes a key's parts as TOML: bare when they can be, quoted otherwise.
func showKey(parts []string) string {
	out := make([]string, len(parts))
	for i, p := range parts {
		out[i] = p
		if !bare(p) {
			out[i] = quote(p)
		}
	}
	return strings.Join(out, ".")
}

func bare(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// formatDefault writes a key's default.
func formatDefault(f *field) string {
	if v := f.val.show(Default(), &Model{}); v != "" {
		return v
	}
	return "(unset)"
}

// encode writes c as TOML, the keys in schema order. keep decides, for each key, the value
// written (none when "" or !ok) and its trailing comment; the [[model]] blocks come last.
func (c *Config) encode(keep func(key, value string) (out, comment string, ok bool)) []byte {
	var b strings.Builder
	table := ""
	for i := range schema {
		f := &schema[i]
		value, comment, ok := keep(f.key, f.val.show(c, nil))
		if !ok || value == "" {
			continue
		}
		if t := tableOf(f.key); t != table {
			if b.Len() > 0 {
				b.WriteByte('\n')
			}
			b.WriteString("[" + t + "]\n")
			table = t
		}
		b.WriteString(leafOf(f.key) + " = " + value)
		if comment != "" {
			b.WriteString("  # " + comment)
		}
		b.WriteByte('\n')
	}
	for i := range c.Models {
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString("[[model]]\n")
		for j := range modelSchema {
			f := &modelSchema[j]
			// What an empty block holds is not written.
			if v := f.val.show(nil, &c.Models[i]); v != "" && v != `""` && v != "0" {
				b.WriteString(f.key + " = " + v + "\n")
			}
		}
	}
	return []byte(b.String())
}

// Effective is the value the renderer uses for a key when it is not the key's own (separator
// "" is the glyph set's; window 0 is 200k; point 0 is computed), and where it came from.
type Effective struct {
	Value string // a TOML literal
	From  string
}

// ShowEffective returns the config as the renderer uses it: each key with the value in force and,
// when it is not the file's, a comment saying where it came from ("default", or eff's From).
// set is the keys the file set (see LoadSources).
func (c *Config) ShowEffective(set map[string]bool, eff map[string]Effective) []byte {
	return c.encode(func(key, value string) (string, string, bool) {
		if e, ok := eff[key]; ok {
			return e.Value, e.From, true
		}
		if set[key] {
			return value, "", true
		}
		return value, "default", true
	})
}

// Key is one config key as the reference page (docs/config.md) shows it.
type Key struct {
	Table   string // "" for the top level; "model" for a [[model]] block's keys
	Name    string // the key within its table
	Want    string // the value wanted, in the user's words
	Default string // the default as TOML, "(unset)" when there is none; "" in [[model]]
}

// Keys returns every key of the schema in its order, then the keys of a [[model]] block.
func Keys() []Key {
	keys := make([]Key, 0, len(schema)+len(modelSchema))
	for i := range schema {
		f := &schema[i]
		keys = append(keys, Key{tableOf(f.key), leafOf(f.key), f.want, formatDefault(f)})
	}
	for i := range modelSchema {
		f := &modelSchema[i]
		keys = append(keys, Key{Table: modelTable, Name: f.key, Want: f.want}) // no defaults: a block sets its own
	}
	return keys
}
