package config

import (
	"bytes"
	"slices"
	"strconv"
	"strings"

	"github.com/pelletier/go-toml/v2/unstable"
)

// decode walks the file once with go-toml's position-keeping parser and the schema: each
// well-typed, acceptable value is set; each other key keeps its default and yields a problem that
// says so. A syntax error costs the rest of its line only: parsing resumes on the next line.
// Every problem carries a byte offset; positions are computed once at the end (finish), so the
// whole walk is linear in the file's size however many problems it finds.

// problem is an Error before its position is known.
type problem struct {
	off, n int    // the bytes it is about
	msg    string // the reason
	ref    int    // an earlier offset the message refers to ("first set on line N"), or -1
}

type decoder struct {
	data  []byte
	c     *Config
	probs []problem
	seen  map[string]int // full key (a [[model]] key with its block's index) -> offset
	heads map[string]int // table header -> offset

	table   string // the current table ("" top level, modelTable in a [[model]] block)
	skip    bool   // the current table is unknown or misused: its keys are not reported again
	model   *Model // the current [[model]] block
	modelN  int    // its number, from 1
	modelAt int    // its header's offset
	modelW  int    // and width
	modelOK bool   // no value in it was refused
	set     map[string]bool
}

// maxSyntaxErrors bounds how many syntax errors are reported before the rest of the file is
// given up on (a binary file would otherwise yield one per line).
const maxSyntaxErrors = 100

func decode(data []byte) (*Config, []problem, map[string]bool) {
	d := &decoder{data: data, c: Default(), set: map[string]bool{}}
	var p unstable.Parser
	syntax := 0
	for base := 0; base < len(data); {
		p.Reset(data[base:])
		for p.NextExpression() {
			d.expression(base, p.Expression())
		}
		err := p.Error()
		if err == nil {
			break
		}
		off := len(data)
		pe, ok := err.(*unstable.ParserError)
		if !ok {
			pe = &unstable.ParserError{Message: err.Error()}
		}
		if pe.Highlight != nil {
			off = cap(data) - cap(pe.Highlight)
		}
		off = min(max(off, base), len(data))
		syntax++
		msg := "not valid TOML: " + syntaxWords(pe.Message)
		if syntax == maxSyntaxErrors {
			msg += "; the rest of the file is ignored"
		}
		d.add(off, max(len(pe.Highlight), 1), msg)
		if syntax == maxSyntaxErrors {
			break
		}
		if line := bytes.TrimLeft(data[bytes.LastIndexByte(data[:off], '\n')+1:min(off+1, len(data))], " \t"); len(line) > 0 && line[0] == '[' {
			// A broken table header: the keys below it belong to no known table, and must not
			// land in the one before.
			d.endModel()
			d.table, d.skip = "", true
		}
		// Resume on the line after the error.
		nl := bytes.IndexByte(data[off:], '\n')
		if nl < 0 {
			break
		}
		base = off + nl + 1
	}
	d.endModel()
	return d.c, d.probs, d.set
}

// syntaxWords rephrases the parser's commonest messages (and escapes what it quotes).
func syntaxWords(msg string) string {
	switch msg {
	case "unexpected character U+000A at start of value", "expected value, not end of input":
		return "a value is missing after '='"
	case "expected '=' after key":
		return "want '=' after the key"
	}
	return escape(msg, false)
}

func (d *decoder) add(off, n int, msg string) {
	d.probs = append(d.probs, problem{off: off, n: n, msg: msg, ref: -1})
}

// refuse adds a problem about value v, or about its key (at off, n) when v has no span of its
// own (a list, an inline table).
func (d *decoder) refuse(base int, v *unstable.Node, off, n int, msg string) {
	if o, l := span(base, v); l > 0 {
		off, n = o, l
	}
	d.add(off, n, msg)
}

// span returns a node's offset and length in the whole file.
func span(base int, n *unstable.Node) (int, int) {
	return base + int(n.Raw.Offset), int(n.Raw.Length)
}

// keyParts returns a key's parts and the span of the whole key.
func keyParts(base int, it unstable.Iterator) (parts []string, off, n int) {
	off = -1
	end := 0
	for it.Next() {
		k := it.Node()
		parts = append(parts, string(k.Data))
		o, l := span(base, k)
		if off < 0 {
			off = o
		}
		end = o + l
	}
	return parts, max(off, 0), max(end-off, 1)
}

func (d *decoder) expression(base int, e *unstable.Node) {
	switch e.Kind {
	case unstable.Table, unstable.ArrayTable:
		parts, off, n := keyParts(base, e.Key())
		// Point at the header's bracket, not at its name.
		for off > 0 && (d.data[off-1] == ' ' || d.data[off-1] == '\t' || d.data[off-1] == '[') {
			off, n = off-1, n+1
		}
		for off+n < len(d.data) && (d.data[off+n] == ' ' || d.data[off+n] == '\t' || d.data[off+n] == ']') {
			n++
		}
		d.header(parts, e.Kind == unstable.ArrayTable, off, n)
	case unstable.KeyValue:
		parts, off, n := keyParts(base, e.Key())
		if d.skip {
			return
		}
		if d.table == modelTable {
			d.modelKey(base, parts, e.Value(), off, n)
			return
		}
		d.keyValue(base, joinKey(d.table, parts), e.Value(), off, n)
	}
}

func joinKey(table string, parts []string) string {
	key := strings.Join(parts, ".")
	if table != "" {
		key = table + "." + key
	}
	return key
}

// header starts a table or a [[model]] block.
func (d *decoder) header(parts []string, array bool, off, n int) {
	d.endModel()
	name := strings.Join(parts, ".")
	d.table, d.skip = name, false
	switch {
	case array && name == modelTable:
		d.startModel(off, n)
		return
	case array && name != "" && slices.Contains(tables, name):
		d.add(off, n, "["+showKey(parts)+"] is not a list of tables: write ["+showKey(parts)+"]; its keys are ignored")
	case name == modelTable:
		d.add(off, n, "[model] is a list of tables: write [[model]]; its keys are ignored")
	case array || name == "" || !slices.Contains(tables, name):
		msg := "unknown table [" + showKey(parts) + "]"
		if array {
			msg = "unknown list of tables [[" + showKey(parts) + "]]"
		}
		// The nearest of the tables and [[model]]; on a tie, what the brackets say.
		cands := append(slices.Clip(tables[1:]), modelTable)
		if array {
			cands = append([]string{modelTable}, tables[1:]...)
		}
		switch near := closest(name, cands); near {
		case "":
		case modelTable:
			msg += " (did you mean [[model]]?)"
		default:
			msg += " (did you mean [" + near + "]?)"
		}
		d.add(off, n, msg+"; its keys are ignored")
	default:
		if d.heads == nil {
			d.heads = map[string]int{}
		}
		if first, dup := d.heads[name]; dup {
			d.probs = append(d.probs, problem{off: off, n: n, msg: "table [" + name + "] is defined twice", ref: first})
		} else {
			d.heads[name] = off
		}
		return
	}
	d.skip = true
}

// keyValue sets key (full, dotted) outside [[model]].
func (d *decoder) keyValue(base int, key string, v *unstable.Node, off, n int) {
	f := lookup(schema, key)
	switch {
	case f != nil:
		if !d.once(key, key, off, n) {
			return
		}
		if why := f.val.set(f, d.c, nil, v); why != "" {
			d.refuse(base, v, off, n, key+why+"; using the default "+formatDefault(f))
			return
		}
		d.set[key] = true
		return
	case v.Kind == unstable.InlineTable && slices.Contains(tables, key):
		it := v.Children()
		for it.Next() {
			kv := it.Node()
			parts, o, l := keyParts(base, kv.Key())
			d.keyValue(base, key+"."+strings.Join(parts, "."), kv.Value(), o, l)
		}
		return
	case key == modelTable && v.Kind == unstable.Array:
		it := v.Children()
		for it.Next() {
			t := it.Node()
			d.startModel(span(base, t))
			if t.Kind != unstable.InlineTable {
				d.add(d.modelAt, d.modelW, "model: want a list of tables ([[model]] blocks), got "+kindWord(t.Kind))
				d.model = nil
				continue
			}
			mt := t.Children()
			for mt.Next() {
				kv := mt.Node()
				parts, ko, kl := keyParts(base, kv.Key())
				d.modelKey(base, parts, kv.Value(), ko, kl)
			}
		}
		d.endModel()
		return
	case slices.Contains(tables, key) || key == modelTable:
		d.add(off, n, key+" is a table: write ["+key+"] and its keys below it")
		return
	}
	d.add(off, n, unknownKey(key, showKey(strings.Split(key, "."))))
}

// once reports whether key is set for the first time (else a problem names the first place).
func (d *decoder) once(key, shown string, off, n int) bool {
	if d.seen == nil {
		d.seen = map[string]int{}
	}
	if first, dup := d.seen[key]; dup {
		d.probs = append(d.probs, problem{off: off, n: n, msg: "'" + shown + "' is set twice; the first value is kept", ref: first})
		return false
	}
	d.seen[key] = off
	return true
}

// modelKey sets a key of the current [[model]] block.
func (d *decoder) modelKey(base int, parts []string, v *unstable.Node, off, n int) {
	if d.model == nil {
		return
	}
	key := strings.Join(parts, ".")
	shown := "model." + key
	f := lookup(modelSchema, key)
	if f == nil {
		msg := "unknown key 'model." + showKey(parts) + "' in [[model]] #" + strconv.Itoa(d.modelN)
		var names []string
		for i := range modelSchema {
			names = append(names, modelSchema[i].key)
		}
		if near := closest(key, names); near != "" {
			msg += " (did you mean '" + near + "'?)"
		}
		d.add(off, n, msg)
		return
	}
	if !d.once("model#"+strconv.Itoa(d.modelN)+"."+key, shown, off, n) {
		return
	}
	if why := f.val.set(f, nil, d.model, v); why != "" {
		d.refuse(base, v, off, n, shown+why+"; [[model]] #"+strconv.Itoa(d.modelN)+" is ignored")
		d.modelOK = false
	}
}

// startModel starts a [[model]] block (its header or inline table at off, n).
func (d *decoder) startModel(off, n int) {
	d.endModel()
	d.modelN++
	d.model, d.modelAt, d.modelW, d.modelOK = &Model{}, off, n, true
}

// endModel checks the current [[model]] block as a whole and keeps it if it holds.
func (d *decoder) endModel() {
	m := d.model
	if m == nil {
		return
	}
	d.model = nil
	if !d.modelOK {
		return
	}
	block := "[[model]] #" + strconv.Itoa(d.modelN)
	switch {
	case m.Match == "" && m.Window == "":
		d.add(d.modelAt, d.modelW, block+` needs match (a glob on model.id) or window ("200k" or "1m"); it is ignored`)
		return
	case m.Warn > 0 && m.Dumb > 0 && m.Warn > m.Dumb:
		d.add(d.modelAt, d.modelW, block+": want warn <= dumb (warn "+strconv.FormatInt(m.Warn, 10)+", dumb "+strconv.FormatInt(m.Dumb, 10)+"); it is ignored")
		return
	}
	d.c.Models = append(d.c.Models, *m)
	d.set[modelTable] = true
}
