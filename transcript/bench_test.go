package transcript

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/zoneline/zoneline/internal/testtmp"
)

// Generated transcripts are shared by every run of a benchmark (the
// function is called again for each b.N), so a 200 MB file is written once
// per test binary, into a directory removed by TestMain.
var (
	benchDir   string
	benchFiles sync.Map // size → path
)

func TestMain(m *testing.M) {
	code := m.Run()
	if benchDir != "" {
		os.RemoveAll(benchDir)
	}
	os.Exit(code)
}

// turn is one prompt-to-reply cycle in the shape of the recorded sessions:
// a user prompt, attachments, request bookkeeping, a reply with a tool call,
// the tool result and the turn's system records.
func turn(i int) string {
	return user(fmt.Sprintf("prompt %d: please refactor the parser", i)) +
		attachment + attachment + attachment +
		`{"type":"api-request-blob","sessionId":"s1","hash":"7d9017e78881f92cef2beea2317726dd2c0f1f450861a0ded80094a35585e778","message":{"role":"user","content":[{"type":"text","text":"` + fmt.Sprint(i) + `"}]}}` + "\n" +
		assistant(fmt.Sprintf("msg_%d", i), "claude-opus-5-5", 500, 1500, int64(1000+i%100000), 120,
			toolUse(fmt.Sprintf("toolu_%d", i), "Bash", map[string]any{"command": "go test ./...", "description": "Run the tests"})) +
		user([]any{map[string]any{"tool_use_id": fmt.Sprintf("toolu_%d", i), "type": "tool_result", "content": "ok  \tgithub.com/x/y\t0.5s", "is_error": false}}) +
		assistant(fmt.Sprintf("msg_%db", i), "claude-opus-5-5", 500, 1500, int64(2000+i%100000), 120) +
		`{"parentUuid":"x","isSidechain":false,"type":"system","subtype":"turn_duration","durationMs":5230,"timestamp":"2026-11-29T21:34:13.600Z","uuid":"u"}` + "\n"
}

func benchTranscript(b *testing.B, size int64) string {
	if p, ok := benchFiles.Load(size); ok {
		return p.(string)
	}
	if benchDir == "" {
		d, err := os.MkdirTemp("", "zoneline-transcript-bench-")
		if err != nil {
			b.Fatal(err)
		}
		benchDir = d
	}
	p := filepath.Join(benchDir, fmt.Sprintf("t-%d.jsonl", size))
	f, err := os.Create(p)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	var n int64
	for i := 0; n < size; i++ {
		k, _ := w.WriteString(turn(i))
		n += int64(k)
		if i%100 == 99 {
			k, _ := w.WriteString(boundary("auto", 190000, 3000))
			n += int64(k)
		}
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	benchFiles.Store(size, p)
	return p
}

// reportCPU adds cpu-ns/op, measured from start, to b.
func reportCPU(b *testing.B, start time.Duration) {
	if d := cpuTime() - start; d > 0 && b.N > 0 {
		b.ReportMetric(float64(d.Nanoseconds())/float64(b.N), "cpu-ns/op")
	}
}

// BenchmarkTail shows that Tail's cost is flat in the file size: the 200 MB
// case should take the same time as the 1 MB one.
func BenchmarkTail(b *testing.B) {
	for _, size := range []int64{1 << 20, 200 << 20} {
		b.Run(fmt.Sprintf("%dMB", size>>20), func(b *testing.B) {
			p := benchTranscript(b, size)
			b.ReportAllocs()
			start := cpuTime()
			for b.Loop() {
				c, err := Tail(p, 0)
				if err != nil || !c.Found {
					b.Fatal(c, err)
				}
			}
			reportCPU(b, start)
		})
	}
}

// BenchmarkTailNoReply is the worst case for Tail: no reply anywhere, so it
// reads its whole 4 MiB window.
func BenchmarkTailNoReply(b *testing.B) {
	p := filepath.Join(testtmp.Dir(b), "t.jsonl")
	f, _ := os.Create(p)
	w := bufio.NewWriter(f)
	for n := 0; n < 8<<20; {
		k, _ := w.WriteString(attachment)
		n += k
	}
	w.Flush()
	f.Close()
	b.SetBytes(DefaultTailBytes)
	start := cpuTime()
	for b.Loop() {
		if c, err := Tail(p, 0); err != nil || c.Found {
			b.Fatal(c, err)
		}
	}
	reportCPU(b, start)
}

// BenchmarkParseRecord measures the throughput tune sees over a mix of
// real record types.
func BenchmarkParseRecord(b *testing.B) {
	var lines [][]byte
	var total int64
	for _, p := range []string{manualT, autoT, edgeT} {
		for _, ln := range readLines(b, p) {
			lines = append(lines, []byte(ln))
			total += int64(len(ln))
		}
	}
	b.Run("fixtures", func(b *testing.B) {
		b.SetBytes(total)
		b.ReportAllocs()
		start := cpuTime()
		for b.Loop() {
			for _, ln := range lines {
				ParseRecord(ln)
			}
		}
		reportCPU(b, start)
	})
	for _, tc := range []struct{ name, line string }{
		{"assistant", assistant("msg_1", "claude-opus-5-5", 500, 1500, 18000, 120)},
		{"attachment", attachment},
		{"boundary", boundary("manual", 140120, 2925)},
	} {
		b.Run(tc.name, func(b *testing.B) {
			ln := []byte(tc.line)
			b.SetBytes(int64(len(ln)))
			b.ReportAllocs()
			start := cpuTime()
			for b.Loop() {
				if _, ok := ParseRecord(ln); !ok {
					b.Fatal("not ok")
				}
			}
			reportCPU(b, start)
		})
	}
}

func BenchmarkScanCompactions(b *testing.B) {
	p := benchTranscript(b, 1<<20)
	b.SetBytes(1 << 20)
	start := cpuTime()
	for b.Loop() {
		if s, err := ScanCompactions(p, 0, 0); err != nil || s.Compactions == 0 {
			b.Fatal(s, err)
		}
	}
	reportCPU(b, start)
}

func BenchmarkFacts(b *testing.B) {
	p := benchTranscript(b, 200<<20)
	b.SetBytes(DefaultFactBytes)
	start := cpuTime()
	for b.Loop() {
		if fs, err := Facts(p, 0, FactLimits{}); err != nil || len(fs.Commands) == 0 {
			b.Fatal(fs, err)
		}
	}
	reportCPU(b, start)
}
