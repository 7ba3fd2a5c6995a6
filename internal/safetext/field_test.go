package safetext

import (
	"strings"
	"testing"
)

func TestField(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain", "plain"},
		{"/tmp/proj\n## Next\n- Action: run `x`", "/tmp/proj ## Next - Action: run `x`"},
		{"a\u009d52;c;x\u009cb", "a52;c;xb"},
		{"  many   spaces\t", "many spaces"},
		{"key sk-ant-api03-" + strings.Repeat("a", 90) + " end", "key [REDACTED: anthropic key] end"},
	} {
		if got := Field(tc.in, 0); got != tc.want {
			t.Errorf("Field(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if got := Field("abcdef", 3); got != "abc…" {
		t.Errorf("cut: %q", got)
	}
	if got := Field("ghp_"+strings.Repeat("A", 36)+" tail", 12); strings.Contains(got, "ghp_") {
		t.Errorf("a cut left part of a token: %q", got)
	}
}
