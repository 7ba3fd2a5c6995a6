package payload

import "testing"

func TestComplete(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want bool
	}{
		{`{"session_id":"x"}`, true},
		{"{\"a\":{\"b\":[1,2]}}\n", true},
		{`{"a":"}"`, false}, // a brace inside a string does not close the object
		{`{"a":{"b":1}`, false},
		{`{"session_id":`, false},
		{``, false},
		{"  \n", false},
		{`[1]`, false},
		{`{"a":1}{"b":2}`, false},
	} {
		if got := Complete([]byte(tt.in)); got != tt.want {
			t.Errorf("Complete(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}
