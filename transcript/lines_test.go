package transcript

import (
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/zoneline/zoneline/internal/testtmp"
)

// TestEachFile: every file read once, by at most the workers asked for, with the progress
// summed against the total of the sizes.
func TestEachFile(t *testing.T) {
	sizes := []int64{5, 40, 0, 17, 40, 3}
	var (
		mu      sync.Mutex
		read    = make([]int, len(sizes))
		lastSum int64
	)
	progress := func(done, total int64) {
		mu.Lock()
		defer mu.Unlock()
		if total != 105 {
			t.Errorf("total %d, want 105", total)
		}
		lastSum = max(lastSum, done)
	}
	ws := EachFile(sizes, 3, progress, func(report func(int64)) func(int64) { return report },
		func(report func(int64), i int) {
			mu.Lock()
			read[i]++
			mu.Unlock()
			report(sizes[i])
		})
	if len(ws) != 3 {
		t.Errorf("%d workers, want 3", len(ws))
	}
	for i, n := range read {
		if n != 1 {
			t.Errorf("file %d read %d times", i, n)
		}
	}
	if lastSum != 105 {
		t.Errorf("progress ended at %d, want 105", lastSum)
	}
	if ws := EachFile(nil, 0, nil, func(report func(int64)) func(int64) { return report }, nil); len(ws) != 1 || ws[0] != nil {
		t.Errorf("no files: %d workers, report %v; want one worker, no report", len(ws), ws)
	}
}

func TestOpenWhole(t *testing.T) {
	dir := testtmp.Dir(t)
	p := filepath.Join(dir, "a.jsonl")
	if err := os.WriteFile(p, []byte("{}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	f, fi, err := OpenWhole(p)
	if err != nil || fi.Size() != 3 {
		t.Fatalf("regular file: %v, %v", fi, err)
	}
	f.Close()
	if f, _, err := OpenWhole(filepath.Join(dir, "gone.jsonl")); f != nil || err != nil {
		t.Errorf("vanished file: %v, %v; want neither", f, err)
	}
	if f, _, err := OpenWhole(dir); f != nil || err == nil || err.Error() != "not a regular file" {
		t.Errorf("folder: %v, %v", f, err)
	}
}
