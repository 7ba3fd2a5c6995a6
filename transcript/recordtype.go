package transcript

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"
)

// A record's top-level "type" is found in one of two ways, both here: topLevelType (through
// ParseRecord) checks the whole line's structure, as every reader but tune's does; LeadingType
// is tune's cheap look at a line's first keys, to pass over the records it never reads.

// knownType interns the record types seen from Claude Code 1.0.48 to 2.1.332, so that skipping an
// uninteresting record allocates nothing. (A switch, not a map: a map literal is built at init,
// in every zoneline process.)
func knownType(typ []byte) (string, bool) {
	switch string(typ) {
	case "user":
		return "user", true
	case "assistant":
		return "assistant", true
	case "system":
		return "system", true
	case "attachment":
		return "attachment", true
	case "file-history-snapshot":
		return "file-history-snapshot", true
	case "last-prompt":
		return "last-prompt", true
	case "mode":
		return "mode", true
	case "permission-mode":
		return "permission-mode", true
	case "atis-latch":
		return "atis-latch", true
	case "cost-state":
		return "cost-state", true
	case "tools-used":
		return "tools-used", true
	case "api-request-shape":
		return "api-request-shape", true
	case "api-request-blob":
		return "api-request-blob", true
	case "api-request":
		return "api-request", true
	case "summary":
		return "summary", true
	case "progress":
		return "progress", true
	case "queue-operation":
		return "queue-operation", true
	case "custom-title":
		return "custom-title", true
	case "agent-name":
		return "agent-name", true
	case "ai-title":
		return "ai-title", true
	case "agent-setting":
		return "agent-setting", true
	case "bridge-session":
		return "bridge-session", true
	case "pr-link":
		return "pr-link", true
	}
	return "", false
}

// topLevelType returns the value of the top-level "type" key of the JSON
// object in line, the last one if the key repeats (as encoding/json does).
// It checks structure only (strings, brackets, a single object with nothing
// after it), not the full grammar; that is left to encoding/json for the
// records that get decoded. Spacing does not matter.
func topLevelType(line []byte) (string, bool) {
	b := bytes.TrimSpace(line)
	if len(b) < 2 || b[0] != '{' || b[len(b)-1] != '}' {
		return "", false
	}
	var (
		typ       []byte
		escaped   bool // typ holds JSON escapes or invalid UTF-8: let encoding/json decode it
		found     bool
		depth     int
		expectKey bool
	)
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '"':
			end := stringEnd(b, i+1)
			if end < 0 {
				return "", false
			}
			if depth != 1 || !expectKey {
				i = end
				continue
			}
			expectKey = false
			if !isKey(b[i+1:end], "type") {
				i = end
				continue
			}
			j := skipSpace(b, end+1)
			if j >= len(b) || b[j] != ':' {
				return "", false
			}
			j = skipSpace(b, j+1)
			if j < len(b) && b[j] == '"' {
				vend := stringEnd(b, j+1)
				if vend < 0 {
					return "", false
				}
				typ, found = b[j+1:vend], true
				escaped = bytes.IndexByte(typ, '\\') >= 0 || !utf8.Valid(typ)
				i = vend
				continue
			}
			found = false // a non-string "type"; a later one may still win
			i = j - 1
		case '{', '[':
			depth++
			if depth == 1 {
				expectKey = true
			}
		case '}', ']':
			depth--
			if depth < 0 || (depth == 0 && i != len(b)-1) {
				return "", false
			}
		case ',':
			if depth == 1 {
				expectKey = true
			}
		}
	}
	if depth != 0 || !found {
		return "", false
	}
	if escaped {
		var s string
		if json.Unmarshal(quoted(typ), &s) != nil {
			return "", false
		}
		return s, true
	}
	if s, ok := knownType(typ); ok {
		return s, true
	}
	return string(typ), true
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

// isKey reports whether the raw (still escaped) JSON string contents raw
// spell want.
func isKey(raw []byte, want string) bool {
	if bytes.IndexByte(raw, '\\') < 0 {
		return string(raw) == want
	}
	var s string
	return json.Unmarshal(quoted(raw), &s) == nil && s == want
}

func quoted(raw []byte) []byte {
	q := make([]byte, 0, len(raw)+2)
	q = append(q, '"')
	q = append(q, raw...)
	return append(q, '"')
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
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
	b := line[:min(len(line), LeadingTypeLimit)]
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return nil, false
	}
	i++
	for {
		i = skipSpace(b, i)
		if i >= len(b) || b[i] != '"' {
			return nil, false
		}
		end := plainStringEnd(b, i+1)
		if end < 0 {
			return nil, false
		}
		key := b[i+1 : end]
		i = skipSpace(b, end+1)
		if i >= len(b) || b[i] != ':' {
			return nil, false
		}
		i = skipSpace(b, i+1)
		if i >= len(b) {
			return nil, false
		}
		switch c := b[i]; {
		case c == '"':
			vend := plainStringEnd(b, i+1)
			if vend < 0 {
				if string(key) == "type" {
					return nil, false
				}
				vend = stringEnd(b, i+1)
				if vend < 0 {
					return nil, false
				}
			}
			if string(key) == "type" {
				return b[i+1 : vend], true
			}
			i = vend + 1
		case c == '{' || c == '[':
			return nil, false
		default: // number, true, false, null
			for i < len(b) && b[i] != ',' && b[i] != '}' {
				i++
			}
		}
		i = skipSpace(b, i)
		if i >= len(b) || b[i] != ',' {
			return nil, false
		}
		i++
	}
}

// plainStringEnd returns the index of the quote closing the string whose contents start at
// b[i], or -1 if the string holds a backslash or does not end within b.
func plainStringEnd(b []byte, i int) int {
	k := bytes.IndexByte(b[i:], '"')
	if k < 0 || bytes.IndexByte(b[i:i+k], '\\') >= 0 {
		return -1
	}
	return i + k
}
