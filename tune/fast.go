package tune

import "bytes"

// leadingTypeLimit is how far into a line leadingType looks.
const leadingTypeLimit = 1024

// leadingType returns the value of a top-level "type" key that comes before the first nested
// object or array of the JSON object in line, within the first leadingTypeLimit bytes. Claude
// Code writes "type" early in user records (whose tool results are most of a transcript's
// bytes) and in its bookkeeping records, so their type is known without reading the rest. ok
// is false when the type is not found that early, or the prefix is not plain JSON (escapes in
// a key or in the type, anything unexpected): the caller then falls back to reading the line.
// A repeated "type" key later in the line would win in encoding/json; Claude Code never writes
// one, and ParseRecord still judges every line that is not skipped.
func leadingType(line []byte) (typ []byte, ok bool) {
	b := line[:min(len(line), leadingTypeLimit)]
	i := skipWS(b, 0)
	if i >= len(b) || b[i] != '{' {
		return nil, false
	}
	i++
	for {
		i = skipWS(b, i)
		if i >= len(b) || b[i] != '"' {
			return nil, false
		}
		end := plainStringEnd(b, i+1)
		if end < 0 {
			return nil, false
		}
		key := b[i+1 : end]
		i = skipWS(b, end+1)
		if i >= len(b) || b[i] != ':' {
			return nil, false
		}
		i = skipWS(b, i+1)
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
				vend = stringEndEscaped(b, i+1)
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
		i = skipWS(b, i)
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

// stringEndEscaped returns the index of the quote closing the string (escapes allowed) whose
// contents start at b[i], or -1.
func stringEndEscaped(b []byte, i int) int {
	for ; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i
		}
	}
	return -1
}

func skipWS(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	return i
}
