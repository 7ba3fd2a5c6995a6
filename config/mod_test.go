package config

import (
	"strings"
	"testing"
)

func TestModCompactAt(t *testing.T) {
	for _, c := range []struct {
		in     any
		tokens int64
		prep   bool
		bad    bool
	}{
		{nil, 0, false, false},
		{"off", 0, false, false},
		{"", 0, false, false},
		{"prep", 0, true, false},
		{"PREP", 0, true, false},
		{int64(150000), 150000, false, false},
		{"150k", 150000, false, false},
		{"1.5m", 1500000, false, false},
		{int64(0), 0, false, true},
		{int64(-5), 0, false, true},
		{"soon", 0, false, true},
		{"dumb", 0, false, true},
		{true, 0, false, true},
		// The floor: a compaction must leave room to climb back, or the mod compacts every turn.
		{int64(1), 0, false, true},
		{"5k", 0, false, true},
		{int64(19_999), 0, false, true},
		{int64(20_000), 20_000, false, false},
		{"20k", 20_000, false, false},
	} {
		tokens, prep, err := ModCompactAt(c.in)
		if tokens != c.tokens || prep != c.prep || (err != nil) != c.bad {
			t.Errorf("ModCompactAt(%#v) = %d, %v, %v; want %d, %v, bad %v", c.in, tokens, prep, err, c.tokens, c.prep, c.bad)
		}
	}
}

func TestModCompactAtFromFile(t *testing.T) {
	c, err := Parse("c.toml", []byte("[mod]\ncompact_at = 150000\n"))
	if err != nil || c.Mod.CompactAt != int64(150000) {
		t.Fatalf("got %#v, %v", c.Mod.CompactAt, err)
	}
	if _, err := Parse("c.toml", []byte("[mod]\ncompact_at = \"later\"\n")); err == nil {
		t.Fatal("compact_at = \"later\" accepted")
	}
	if Default().Mod.CompactAt != "off" {
		t.Fatalf("default compact_at %#v, want off", Default().Mod.CompactAt)
	}
}

// TestModCompactAtFloor: a token count under the floor is a config problem that names the
// floor and the default.
func TestModCompactAtFloor(t *testing.T) {
	for _, v := range []string{"1", `"5k"`} {
		_, err := Parse("c.toml", []byte("[mod]\ncompact_at = "+v+"\n"))
		if err == nil || !strings.Contains(err.Error(), "compact_at") || !strings.Contains(err.Error(), "below the floor of 20k") || !strings.Contains(err.Error(), `"off" (the default)`) {
			t.Errorf("compact_at = %s: %v", v, err)
		}
	}
}
