package bench

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/zoneline/zoneline/internal/procbench"
)

// BenchmarkStatuslineBrokenConfig renders the recorded payload with a config of 20,000 unknown
// tables (about 240 KB; issue 12 measured 20–30 s per render before the schema decoder):
// "cached" is every render after the first (the parse cache answers, problems included),
// "parse" removes the cache before each run, so each render parses the whole file.
func BenchmarkStatuslineBrokenConfig(b *testing.B) {
	zl := procbench.Build(b, "./cmd/zoneline")
	floor := procbench.Build(b, "./internal/floor")
	payload, err := os.ReadFile(fixture)
	if err != nil {
		b.Fatal(err)
	}
	var cfg bytes.Buffer
	cfg.WriteString("glyphs = \"ascii\"\n")
	for i := range 20_000 {
		cfg.WriteString("[t" + strconv.Itoa(i) + "]\nx=1\n")
	}
	for _, mode := range []string{"cached", "parse"} {
		b.Run(mode, func(b *testing.B) {
			dir := b.TempDir()
			os.WriteFile(filepath.Join(dir, "config.toml"), cfg.Bytes(), 0o600)
			e := env(dir)
			if r, err := procbench.Run(zl, []string{"statusline"}, payload, e); err != nil || !strings.Contains(string(r.Stdout), "(+19999 more)") {
				b.Fatalf("render: %v %q %q", err, r.Stdout, r.Stderr)
			}
			cache := filepath.Join(dir, "state", "config-cache.toml")
			run := runner(zl, []string{"statusline"}, payload, e)
			if mode == "parse" {
				run = func() (procbench.Result, error) {
					os.Remove(cache)
					return procbench.Run(zl, []string{"statusline"}, payload, e)
				}
			}
			b.ResetTimer()
			procbench.Compare(b, run, runner(floor, nil, payload, e))
		})
	}
}
