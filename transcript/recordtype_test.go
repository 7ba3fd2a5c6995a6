package transcript

import "testing"

// TestLeadingType: tune's look at a line's first keys.
func TestLeadingType(t *testing.T) {
	tests := []struct {
		line string
		want string // "" = not known early
	}{
		{`{"type":"user","message":{"content":"x"}}`, "user"},
		{`{"parentUuid": null, "isSidechain": false, "promptId": "p", "type": "user", "message": {}}`, "user"},
		{`{"parentUuid":"a","isSidechain":false,"message":{"id":"m"},"type":"assistant"}`, ""},
		{`{"a":"x\"y","type":"attachment"}`, "attachment"},
		{`{"a":1.5e3,"b":true,"type":"system","subtype":"x"}`, "system"},
		{`{"ty\u0070e":"user"}`, ""},
		{`{"type":"us\u0065r"}`, ""},
		{`["type","user"]`, ""},
		{`{"type":"user"`, "user"}, // half-written: known early; ParseRecord never sees it
		{``, ""},
	}
	for _, tt := range tests {
		got, ok := LeadingType([]byte(tt.line))
		if string(got) != tt.want || ok != (tt.want != "") {
			t.Errorf("LeadingType(%s) = %q, %v; want %q", tt.line, got, ok, tt.want)
		}
	}
}
