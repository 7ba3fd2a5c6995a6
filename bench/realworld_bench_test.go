package bench

import (
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zoneline/zoneline/internal/procbench"
)

const realworld = "../../shared/realworld-transcripts"

// largestRealTranscript decompresses the largest of the public transcripts into dir, or skips.
func largestRealTranscript(b *testing.B, dir string) (path string, size int64) {
	data, err := os.ReadFile(filepath.Join(realworld, "manifest.json"))
	if err != nil {
		b.Skipf("no corpus of public transcripts at %s (%v): skipped", realworld, err)
	}
	var m struct {
		Transcripts []struct {
			Name  string `json:"name"`
			File  string `json:"file"`
			Bytes int64  `json:"bytes"`
		} `json:"transcripts"`
	}
	if err := json.Unmarshal(data, &m); err != nil {
		b.Fatal(err)
	}
	best := -1
	for i, t := range m.Transcripts {
		if best < 0 || t.Bytes > m.Transcripts[best].Bytes {
			best = i
		}
	}
	if best < 0 {
		b.Skip("empty manifest")
	}
	f, err := os.Open(filepath.Join(realworld, m.Transcripts[best].File))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		b.Fatal(err)
	}
	path = filepath.Join(dir, m.Transcripts[best].Name+".jsonl")
	out, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	defer out.Close()
	size, err = io.Copy(out, zr)
	if err != nil {
		b.Fatal(err)
	}
	return path, size
}

// BenchmarkStatuslineRealTranscript renders against the largest public transcript (a 1M Opus 5
// session of about 4 MB, ../shared/realworld-transcripts/) with a payload that carries no count
// and no window, as Claude Code before 2.1.x sent: the tokens, the window and the compaction
// count come from the transcript. The first renders catch the count up; then the steady cost,
// which must be that of the synthetic transcripts (BenchmarkStatuslineTranscript): flat in size.
func BenchmarkStatuslineRealTranscript(b *testing.B) {
	zl := procbench.Build(b, "./cmd/zoneline")
	floor := procbench.Build(b, "./internal/floor")
	dir := b.TempDir()
	tr, size := largestRealTranscript(b, dir)
	payload := []byte(fmt.Sprintf(`{"session_id":"aaa8e696-ca66-4fcf-8fb3-651eb7e68c12","transcript_path":%q,"cwd":%q,"model":{"id":"claude-opus-5","display_name":"Opus 5"}}`, tr, dir))
	e := env(dir)
	for i := 0; i < 100; i++ {
		r, err := procbench.Run(zl, []string{"statusline"}, payload, e)
		if err != nil || !strings.Contains(string(r.Stdout), "/1M") {
			b.Fatalf("render: %v %q", err, r.Stdout)
		}
		if caughtUp(filepath.Join(dir, "state"), size) {
			break
		}
	}
	b.ResetTimer()
	procbench.Compare(b, runner(zl, []string{"statusline"}, payload, e), runner(floor, nil, payload, e))
	b.StopTimer()
	procbench.ReportPeakRSS(b, zl, []string{"statusline"}, payload, e, floor)
}
