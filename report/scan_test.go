package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLastMarker(t *testing.T) {
	pad := strings.Repeat("x", 100)
	for _, tc := range []struct {
		name string
		text string
		want int64
	}{
		{"none", pad + "\n" + pad, 0},
		{"a boundary", pad + `{"subtype":"compact_boundary"}` + "\n" + pad, int64(len(pad) + len(`{"subtype":"compact_boundary`))},
		{"a summary last, spaced", `"compact_boundary"` + pad + `{"isCompactSummary": true}`, int64(len(`"compact_boundary"` + pad + `{"isCompactSummary`))},
		// with a 64-byte buffer the marker at 90 spans two reads
		{"across a chunk", strings.Repeat("y", 90) + "compact_boundary" + pad, 106},
	} {
		path := filepath.Join(t.TempDir(), "t.jsonl")
		if err := os.WriteFile(path, []byte(tc.text), 0o600); err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		got, err := lastMarker(f, make([]byte, 64))
		if err != nil || got != tc.want {
			t.Errorf("%s: %d, %v; want %d", tc.name, got, err, tc.want)
		}
		f.Close()
	}
}
