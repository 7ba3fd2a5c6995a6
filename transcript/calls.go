package transcript

import (
	"bytes"
	"encoding/json"
)

// DefaultCallBytes is how far back from the end CallsSinceCompaction reads.
const DefaultCallBytes int64 = 2 << 20

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
	start := max(0, size-maxBytes)
	buf := make([]byte, size-start)
	if err := readAt(f, buf, start); err != nil {
		return nil, false, err
	}
	if start > 0 {
		i := bytes.IndexByte(buf, '\n')
		if i < 0 {
			return nil, false, nil
		}
		buf = buf[i+1:]
	}
	seen := map[string]bool{}
	var content []byte
	for len(buf) > 0 {
		line := buf
		if i := bytes.IndexByte(buf, '\n'); i >= 0 {
			line, buf = buf[:i], buf[i+1:]
		} else {
			buf = nil
		}
		typ, ok := topLevelType(line)
		if !ok || (typ != "system" && typ != "assistant") {
			continue
		}
		if typ == "assistant" && !bytes.Contains(line, toolUseMarker) {
			continue
		}
		content = content[:0]
		rec, ok := parseRecord(line, &content)
		if !ok {
			continue
		}
		if rec.IsCompactBoundary() && !rec.Sidechain {
			calls, found = calls[:0], true
			clear(seen)
			continue
		}
		if rec.Type != "assistant" || rec.Sidechain {
			continue
		}
		var blocks []contentBlock
		if json.Unmarshal(content, &blocks) != nil {
			continue
		}
		for _, b := range blocks {
			if b.Type != "tool_use" || seen[b.ID] || len(calls) >= maxCalls {
				continue
			}
			seen[b.ID] = true
			var in toolInput
			json.Unmarshal(b.Input, &in)
			c := Call{ID: b.ID, Name: b.Name, File: in.FilePath}
			if c.File == "" {
				c.File = in.NotebookPath
			}
			switch b.Name {
			case "Bash":
				c.Command = in.Command
			case "Skill":
				c.Skill = in.Skill
			}
			calls = append(calls, c)
		}
	}
	return calls, found, nil
}
