package transcript

import (
	"bytes"
	"cmp"
	"encoding/json"
)

// DefaultCallBytes is how far back from the end CallsSinceCompaction reads.
const DefaultCallBytes int64 = 2 << 20

var compactBoundaryMarker = []byte("compact_boundary")

// maxCalls is how many tool calls CallsSinceCompaction returns at most (the first ones).
const maxCalls = 200

// Call is one main-chain tool call.
type Call struct {
	ID      string // tool_use id
	Name    string // Bash, Read, Edit, …
	Command string // Bash: input.command
	File    string // input.file_path or notebook_path
	Skill   string // Skill: input.skill
}

// CallsSinceCompaction returns the main chain's tool calls after the last compact_boundary
// record in the last maxBytes of the transcript (DefaultCallBytes if <= 0), oldest first, at
// most maxCalls; found reports whether a boundary was in the part read (when not, the calls
// are all those of the part read).
func CallsSinceCompaction(path string, maxBytes int64) (calls []Call, found bool, err error) {
	if maxBytes <= 0 {
		maxBytes = DefaultCallBytes
	}
	f, size, err := openRegular(path)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	// The boundary is usually near the end (the check runs on the few turns after a
	// compaction): look in the last 64 KB first, then in the whole part.
	var content []byte
	for _, n := range []int64{min(maxBytes, 64<<10), maxBytes} {
		start := max(0, size-n)
		buf := make([]byte, size-start)
		if err := readAt(f, buf, start); err != nil {
			return nil, false, err
		}
		if start > 0 {
			i := bytes.IndexByte(buf, '\n')
			if i < 0 {
				if n == maxBytes {
					return nil, false, nil
				}
				continue
			}
			buf = buf[i+1:]
		}
		if rest, ok := afterBoundary(buf, &content); ok {
			return callsIn(rest, &content), true, nil
		}
		if start == 0 || n == maxBytes {
			return callsIn(buf, &content), false, nil
		}
	}
	return nil, false, nil
}

// afterBoundary returns what follows the last main-chain compact_boundary record in buf,
// found from the end.
func afterBoundary(buf []byte, content *[]byte) ([]byte, bool) {
	for end := len(buf); end > 0; {
		i := bytes.LastIndex(buf[:end], compactBoundaryMarker)
		if i < 0 {
			return nil, false
		}
		ls := bytes.LastIndexByte(buf[:i], '\n') + 1
		le := len(buf)
		if j := bytes.IndexByte(buf[i:], '\n'); j >= 0 {
			le = i + j
		}
		if rec, ok := ParseRecordContent(buf[ls:le], content); ok && rec.IsCompactBoundary() && !rec.Sidechain {
			return buf[le:], true
		}
		end = ls
	}
	return nil, false
}

// callsIn returns the main chain's tool calls in buf (whole records), after the last boundary
// it meets, at most maxCalls.
func callsIn(buf []byte, content *[]byte) (calls []Call) {
	seen := map[string]bool{}
	for line := range bytes.Lines(buf) {
		typ, ok := topLevelType(line)
		if !ok || (typ != "system" && typ != "assistant") {
			continue
		}
		if typ == "assistant" && !bytes.Contains(line, toolUseMarker) {
			continue
		}
		*content = (*content)[:0]
		rec, ok := ParseRecordContent(line, content)
		if !ok {
			continue
		}
		if rec.IsCompactBoundary() && !rec.Sidechain {
			calls = calls[:0]
			clear(seen)
			continue
		}
		if rec.Type != "assistant" || rec.Sidechain {
			continue
		}
		var blocks []contentBlock
		if json.Unmarshal(*content, &blocks) != nil {
			continue
		}
		for _, b := range blocks {
			key := callKey(rec.MessageID, &b)
			if b.Type != "tool_use" || seen[key] || len(calls) >= maxCalls {
				continue
			}
			seen[key] = true
			var in toolInput
			json.Unmarshal(b.Input, &in)
			c := Call{ID: b.ID, Name: b.Name, File: cmp.Or(in.FilePath, in.NotebookPath)}
			switch b.Name {
			case "Bash":
				c.Command = in.Command
			case "Skill":
				c.Skill = in.Skill
			}
			calls = append(calls, c)
		}
	}
	return calls
}
