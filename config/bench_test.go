package config

import (
	"path/filepath"
	"testing"

	"github.com/zoneline/zoneline/internal/testtmp"
)

// BenchmarkParse decodes and validates whole files: the commented template (every key, as
// `config init` writes it), a file that sets every kind of key, and one with a problem on every
// line.
func BenchmarkParse(b *testing.B) {
	broken := []byte("[statusline]\nbar_width = 0\nindent = \"x\"\nlines = [[\"nope\"]]\n[warning]\ntiers = [\"x\"]\nprep = true\n[[model]]\nwarn = -1\n")
	for _, c := range []struct {
		name string
		data []byte
	}{{"template", []byte(Template)}, {"full", []byte(fullConfig)}, {"broken", broken}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				parse("config.toml", c.data, false)
			}
		})
	}
}

// BenchmarkLoadCached is the render's config read: a stat of the file and a decode of the
// cache the first load wrote.
func BenchmarkLoadCached(b *testing.B) {
	dir := testtmp.Dir(b)
	path, cache := filepath.Join(dir, "config.toml"), filepath.Join(dir, CacheFile)
	if err := writeFile(path, []byte(fullConfig)); err != nil {
		b.Fatal(err)
	}
	if _, err := LoadCached(path, cache, writeFile); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		LoadCached(path, cache, writeFile)
	}
}
