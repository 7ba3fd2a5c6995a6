package bench

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zoneline/zoneline/internal/procbench"
	"github.com/zoneline/zoneline/statusline"
)

const documented = "../testdata/claude-code/documented-2.1.332/statusline-documented-full.json"

// BenchmarkStatuslineAllSegments renders the documented payload (rate limits, prompt cache,
// cost, PR, …) with every segment on, git's included, in a real repository whose git cache
// entry is fresh (one `zoneline git-refresh` first, as a render would have started), with
// unicode and ascii glyphs. The render reads the cache; it starts no process.
func BenchmarkStatuslineAllSegments(b *testing.B) {
	zl := procbench.Build(b, "./cmd/zoneline")
	floor := procbench.Build(b, "./internal/floor")
	raw, err := os.ReadFile(documented)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := exec.LookPath("git"); err != nil {
		b.Skip("no git")
	}
	quote := func(names []string) string { return `["` + strings.Join(names, `", "`) + `"]` }
	for _, glyphs := range []string{"unicode", "ascii"} {
		b.Run(glyphs, func(b *testing.B) {
			dir := b.TempDir()
			repo := filepath.Join(dir, "project")
			os.MkdirAll(repo, 0o755)
			if out, err := exec.Command("git", "-C", repo, "init", "-q", "-b", "main").CombinedOutput(); err != nil {
				b.Fatalf("git init: %v %s", err, out)
			}
			os.WriteFile(filepath.Join(repo, "new.txt"), []byte("x\n"), 0o644)
			payload := []byte(strings.ReplaceAll(string(raw), `"/home/user/project"`, `"`+repo+`"`))
			cfg := "glyphs = \"" + glyphs + "\"\n[statusline]\nlines = [" + quote(statusline.DefaultLine()) + ", " + quote(statusline.OptionalSegments()) + "]\n"
			os.WriteFile(filepath.Join(dir, "config.toml"), []byte(cfg), 0o600)
			e := env(dir)
			if r, err := procbench.Run(zl, []string{"git-refresh", "-root", repo}, nil, e); err != nil {
				b.Fatalf("git-refresh: %v %q", err, r.Stderr)
			}
			r, err := procbench.Run(zl, []string{"statusline"}, payload, e)
			if err != nil || !strings.Contains(string(r.Stdout), "91%") || !strings.Contains(string(r.Stdout), "*1") {
				b.Fatalf("render: %v %q %q", err, r.Stdout, r.Stderr)
			}
			b.ResetTimer()
			procbench.Compare(b, runner(zl, []string{"statusline"}, payload, e), runner(floor, nil, payload, e))
			b.StopTimer()
			procbench.ReportPeakRSS(b, zl, []string{"statusline"}, payload, e, floor)
		})
	}
}
