package transcript

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/zoneline/zoneline/internal/safetext"
)

// truthy reports whether a JSON value is true (or the string "true").
func truthy(raw json.RawMessage) bool {
	s := string(bytes.TrimSpace(raw))
	return s == "true" || s == `"true"`
}

// rawID returns a JSON string or number as text.
func rawID(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if raw[0] == '"' {
		if json.Unmarshal(raw, &s) != nil {
			return ""
		}
		return safetext.Field(s, 40)
	}
	return safetext.Field(string(raw), 40)
}

// ContentText returns a message's or a tool_result's content (raw JSON) as text: a string, or
// its text blocks joined by newlines.
func ContentText(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return ""
	}
	if raw[0] == '"' {
		var s string
		json.Unmarshal(raw, &s)
		return s
	}
	var blocks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	json.Unmarshal(raw, &blocks)
	var parts []string
	for _, b := range blocks {
		if b.Type == "text" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// after returns the text after the first marker up to end (or the end of the line), trimmed;
// "" without the marker.
func after(text, marker, end string) string {
	_, rest, ok := strings.Cut(text, marker)
	if !ok {
		return ""
	}
	if i := strings.Index(rest, end); i >= 0 {
		rest = rest[:i]
	}
	if i := strings.IndexByte(rest, '\n'); i >= 0 {
		rest = rest[:i]
	}
	return strings.TrimSpace(rest)
}
