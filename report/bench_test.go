package report

import "testing"

// BenchmarkRunCorpus is Run over the real-world corpus (about 58 MB), one worker: for CPU
// profiles (the whole-process figure is bench.BenchmarkReport's).
func BenchmarkRunCorpus(b *testing.B) {
	dir := b.TempDir()
	_, files := unpackCorpusTo(b, dir)
	if len(files) == 0 {
		b.Skip("no corpus")
	}
	b.ResetTimer()
	for range b.N {
		if _, err := Run(Options{Paths: []string{dir}, Workers: 1}); err != nil {
			b.Fatal(err)
		}
	}
}
