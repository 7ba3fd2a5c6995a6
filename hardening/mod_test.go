//go:build unix

package hardening

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/zoneline/zoneline/internal/safetext"
)

// checkModStatus: `zoneline mod status` (the mod's call on every turn) exits 0 as the status
// line does and answers exactly one JSON object whose strings carry no control, C1 or bidi rune.
func checkModStatus(t testing.TB, r result) {
	t.Helper()
	checkCommon(t, "mod status", r)
	dec := json.NewDecoder(bytes.NewReader(r.stdout))
	var v map[string]any
	if err := dec.Decode(&v); err != nil {
		t.Errorf("mod status: stdout is not a JSON object: %v: %q", err, cut(r.stdout))
		return
	}
	if dec.More() {
		t.Errorf("mod status: more than one JSON value: %q", cut(r.stdout))
	}
	if _, ok := v["zone"].(string); !ok {
		t.Errorf("mod status: no zone in %q", cut(r.stdout))
	}
	var walk func(any)
	walk = func(x any) {
		switch y := x.(type) {
		case string:
			for _, c := range y {
				if c != '\n' && c != '\t' && safetext.Unsafe(c) {
					t.Errorf("mod status: unsafe rune %U in %q", c, y)
					return
				}
			}
		case []any:
			for _, e := range y {
				walk(e)
			}
		case map[string]any:
			for _, e := range y {
				walk(e)
			}
		}
	}
	walk(v)
}
