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

// TestTopLevelType: the last top-level "type" of a line that is one JSON object, nested values
// passed over; a line that is not one object is refused.
func TestTopLevelType(t *testing.T) {
	for _, c := range []struct {
		line, want string
		ok         bool
	}{
		{`{"type":"user"}`, "user", true},
		{` {"a":{"type":"x"},"type":"attachment","b":[1,{"type":"y"}]} `, "attachment", true},
		{`{"type":"x","type":"system"}`, "system", true},
		{`{"typ\u0065":"summary"}`, "summary", true},
		{`{"a":1,"b":true,"c":null}`, "", false},
		{`{"type":"x","a":1]}`, "", false}, // a stray bracket after a number
		{`{"type":"x",}`, "", false},
		{`{"type":"x" "b":1}`, "", false},
		{`{"type":"x"} trailing`, "", false},
		{`["type","x"]`, "", false},
		{`{"type":5}`, "", false},
	} {
		got, ok := topLevelType([]byte(c.line))
		if got != c.want || ok != c.ok {
			t.Errorf("topLevelType(%s) = %q, %v; want %q, %v", c.line, got, ok, c.want, c.ok)
		}
	}
}
