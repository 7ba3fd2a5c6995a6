package transcript

import (
	"bytes"
	"unicode/utf8"

	"github.com/zoneline/zoneline/internal/jsonscan"
)

// A record's top-level "type" is found by one scanner (findType) in two ways: topLevelType
// (through ParseRecord) checks the whole line's structure, as every reader but tune's does;
// LeadingType is tune's cheap look at a line's first keys, to pass over the records it never
// reads.

// knownTypes are the record types seen from Claude Code 1.0.48 to 2.1.332, the most frequent
// first: knownType interns them, so that skipping an uninteresting record allocates nothing.
// (An array of constants is static data; a map literal would be built at init, in every
// zoneline process.)
var knownTypes = [...]string{"assistant", "user", "progress", "attachment", "system", "file-history-snapshot",
	"queue-operation", "last-prompt", "mode", "permission-mode", "atis-latch", "cost-state", "tools-used",
	"api-request-shape", "api-request-blob", "api-request", "summary", "custom-title", "agent-name", "ai-title",
	"agent-setting", "bridge-session", "pr-link"}

func knownType(typ []byte) (string, bool) {
	for _, k := range knownTypes {
		if string(typ) == k {
			return k, true
		}
	}
	return "", false
}

// topLevelType returns the value of the top-level "type" key of the JSON
// object in line, the last one if the key repeats (as encoding/json does).
// It checks structure only (keys, colons, commas, strings, brackets, a single
// object with nothing after it), not the full grammar; that is left to jsonscan for the records
// that get decoded. Spacing does not matter.
func topLevelType(line []byte) (string, bool) {
	tok, ok := findType(line, false)
	if !ok {
		return "", false
	}
	typ := tok[1 : len(tok)-1]
	if bytes.IndexByte(typ, '\\') >= 0 || !utf8.Valid(typ) {
		return jsonscan.StringValue(tok) // escapes or invalid UTF-8: decoded as encoding/json would
	}
	if s, ok := knownType(typ); ok {
		return s, true
	}
	return string(typ), true
}

// LeadingTypeLimit is how far into a line LeadingType looks.
const LeadingTypeLimit = 1024

// LeadingType returns the value of a top-level "type" key that comes before the first nested
// object or array of the JSON object in line, within the first LeadingTypeLimit bytes. Claude
// Code writes "type" early in user records (whose tool results are most of a transcript's
// bytes) and in its bookkeeping records, so their type is known without reading the rest. ok
// is false when the type is not found that early, or the prefix is not plain JSON (escapes in
// a key or in the type, anything unexpected): the caller then falls back to reading the line.
// A repeated "type" key later in the line would win in encoding/json; Claude Code never writes
// one, and ParseRecord still judges every line that is not skipped.
func LeadingType(line []byte) (typ []byte, ok bool) {
	typ, ok = findType(line[:min(len(line), LeadingTypeLimit)], true)
	if !ok || bytes.IndexByte(typ, '\\') >= 0 {
		return nil, false
	}
	return typ[1 : len(typ)-1], true
}

// findType walks the top-level keys of the JSON object in b (key, colon, value, comma, nested
// values skipped by their brackets) and returns the "type" key's string value as written (quotes
// included). leading (LeadingType) takes the first one, in what may be a line's prefix, and
// stops at a nested value or a key with escapes; otherwise (topLevelType) the last one counts
// and the object must end the line.
func findType(b []byte, leading bool) (tok []byte, ok bool) {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return nil, false
	}
	for i = skipSpace(b, i+1); ; i = skipSpace(b, i+1) {
		if i >= len(b) || b[i] != '"' {
			return nil, false
		}
		end := stringEnd(b, i+1)
		if end < 0 || leading && bytes.IndexByte(b[i+1:end], '\\') >= 0 {
			return nil, false
		}
		isType := string(b[i+1:end]) == "type" || bytes.IndexByte(b[i+1:end], '\\') >= 0 && spellsType(b[i:end+1])
		if i = skipSpace(b, end+1); i >= len(b) || b[i] != ':' {
			return nil, false
		}
		start := skipSpace(b, i+1)
		switch i = start; {
		case i >= len(b):
			return nil, false
		case b[i] == '"':
			i = stringEnd(b, i+1) + 1
		case b[i] == '{' || b[i] == '[':
			if leading {
				return nil, false
			}
			i = nestedEnd(b, i)
		default: // number, true, false, null
			for i < len(b) && b[i] != ',' && b[i] != '}' && b[i] != ']' {
				i++
			}
		}
		if i <= 0 {
			return nil, false
		}
		if isType {
			if tok, ok = b[start:i], b[start] == '"'; ok && leading {
				return tok, true
			}
		}
		if i = skipSpace(b, i); i < len(b) && b[i] == ',' {
			continue
		}
		if leading || i >= len(b) || b[i] != '}' || skipSpace(b, i+1) != len(b) {
			return nil, false
		}
		return tok, ok
	}
}

// nestedEnd returns the index just past the object or array that starts at b[i], found by its
// brackets (strings skipped), or 0.
func nestedEnd(b []byte, i int) int {
	for depth := 0; i < len(b); i++ {
		switch b[i] {
		case '"':
			if i = stringEnd(b, i+1); i < 0 {
				return 0
			}
		case '{', '[':
			depth++
		case '}', ']':
			if depth--; depth == 0 {
				return i + 1
			}
		}
	}
	return 0
}

// spellsType reports whether the JSON string token tok (quotes included, with escapes) spells
// "type".
func spellsType(tok []byte) bool {
	s, ok := jsonscan.StringValue(tok)
	return ok && s == "type"
}

// stringEnd returns the index of the quote closing the JSON string whose
// contents start at b[i], or -1.
func stringEnd(b []byte, i int) int {
	for {
		k := bytes.IndexByte(b[i:], '"')
		if k < 0 {
			return -1
		}
		j := i + k
		n := 0
		for p := j - 1; p >= i && b[p] == '\\'; p-- {
			n++
		}
		if n%2 == 0 {
			return j
		}
		i = j + 1
	}
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}
