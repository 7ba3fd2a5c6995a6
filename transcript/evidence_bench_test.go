package transcript

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/zoneline/zoneline/internal/testtmp"
)

// BenchmarkEvidenceSinceCompaction is PreCompact's read of the transcript for the summariser's
// instructions, on 200 MB: "boundaries" is the shared bench transcript (a compaction every 100
// turns: the stretch after the last one is short, but the window is read whole); "no-boundary"
// never compacted, so the whole DefaultEvidenceBytes window is the stretch, every turn a Bash
// call paired with its result.
func BenchmarkEvidenceSinceCompaction(b *testing.B) {
	noBoundary := filepath.Join(testtmp.Dir(b), "t.jsonl")
	f, err := os.Create(noBoundary)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	for i, n := 0, 0; n < 200<<20; i++ {
		k, _ := w.WriteString(turn(i))
		n += k
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	f.Close()
	for _, tc := range []struct {
		name     string
		path     string
		boundary bool
	}{
		{"boundaries", benchTranscript(b, 200<<20), true},
		{"no-boundary", noBoundary, false},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.SetBytes(DefaultEvidenceBytes)
			b.ReportAllocs()
			start := cpuTime()
			for b.Loop() {
				_, rd, err := EvidenceSinceCompaction(tc.path, 0)
				if err != nil || rd.Boundary != tc.boundary || rd.Bytes != DefaultEvidenceBytes {
					b.Fatal(fmt.Sprint(rd), err)
				}
			}
			reportCPU(b, start)
		})
	}
}
