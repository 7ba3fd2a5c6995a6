//go:build unix

package tune

import (
	"bufio"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/zoneline/zoneline/transcript"
	"github.com/zoneline/zoneline/tune/internal/gen"
)

// benchCorpus writes a corpus of about n bytes once per benchmark run.
func benchCorpus(b *testing.B, n int64) (files []string, sizes []int64, total int64) {
	b.Helper()
	dir := b.TempDir()
	written, _, err := gen.Corpus(dir, n, 7)
	if err != nil {
		b.Fatal(err)
	}
	files, sizes, _, err = Find([]string{filepath.Join(dir, "projects")})
	if err != nil {
		b.Fatal(err)
	}
	return files, sizes, written
}

// BenchmarkScan measures the whole scan (all workers) over a generated corpus.
func BenchmarkScan(b *testing.B) {
	files, sizes, total := benchCorpus(b, 200<<20)
	b.SetBytes(total)
	b.ResetTimer()
	cpu := cpuTime()
	for b.Loop() {
		scanFiles(files, sizes, 0, nil)
	}
	reportCPU(b, total, cpu)
}

// cpuTime returns the user plus system CPU time of the process so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU adds "MB/cpu-s": bytes per second of CPU time used (all cores). Other engineers'
// builds share the two cores, so wall-clock MB/s varies with their load; this figure does not
// (much), and times the number of cores it is the rate on an idle machine.
func reportCPU(b *testing.B, total int64, since time.Duration) {
	used := cpuTime() - since
	if used > 0 {
		b.ReportMetric(float64(total)*float64(b.N)/1e6/used.Seconds(), "MB/cpu-s")
	}
}

// BenchmarkScanOneWorker measures one worker, for the per-core rate.
func BenchmarkScanOneWorker(b *testing.B) {
	files, sizes, total := benchCorpus(b, 100<<20)
	b.SetBytes(total)
	b.ResetTimer()
	cpu := cpuTime()
	for b.Loop() {
		scanFiles(files, sizes, 1, nil)
	}
	reportCPU(b, total, cpu)
}

// BenchmarkParseRecordEveryLine is the rate without tune's prefilter: every line through
// transcript.ParseRecord, one core.
func BenchmarkParseRecordEveryLine(b *testing.B) {
	files, _, total := benchCorpus(b, 100<<20)
	b.SetBytes(total)
	b.ResetTimer()
	for b.Loop() {
		for _, path := range files {
			f, err := os.Open(path)
			if err != nil {
				b.Fatal(err)
			}
			br := bufio.NewReaderSize(f, MaxLine)
			for {
				line, err := br.ReadSlice('\n')
				if len(line) > 0 {
					transcript.ParseRecord(line)
				}
				if err != nil {
					break
				}
			}
			f.Close()
		}
	}
}
