package bench

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zoneline/zoneline/internal/procbench"
)

// reportHistoryBytes is the size of the history BenchmarkReport reads (ZONELINE_BENCH_REPORT_MB
// sets another, in MB).
const reportHistoryBytes = 1 << 30

// BenchmarkReport is `zoneline report -since all -json` as a person runs it, over a generated
// history of about 1 GB (100 sessions of about 10 MB: prompts, replies with tool calls (a third
// of them Bash, the rest reads and searches), tool results that are most of the bytes, some errors and interruptions, skill loads, pushes and a
// compaction with its summary every 150 turns). It reports the wall time of a whole process,
// MB/s and peak RSS. Run it alone:
//
//	go test ./bench -run '^$' -bench BenchmarkReport -benchtime 1x
func BenchmarkReport(b *testing.B) {
	zl := procbench.Build(b, "./cmd/zoneline")
	size := int64(reportHistoryBytes)
	if mb := os.Getenv("ZONELINE_BENCH_REPORT_MB"); mb != "" {
		var n int64
		fmt.Sscan(mb, &n)
		size = n << 20
	}
	// ZONELINE_BENCH_REPORT_DIR keeps the history there (written once) for profiling the binary.
	dir := os.Getenv("ZONELINE_BENCH_REPORT_DIR")
	if dir == "" {
		dir = b.TempDir()
	}
	claude := filepath.Join(dir, "claude")
	total := historySize(filepath.Join(claude, "projects"))
	if total == 0 {
		total = writeHistory(b, filepath.Join(claude, "projects"), size)
	}
	env := []string{"CLAUDE_CONFIG_DIR=" + claude, "ZONELINE_CONFIG=" + filepath.Join(dir, "config.toml"),
		"ZONELINE_STATE_DIR=" + filepath.Join(dir, "state")}
	args := []string{"report", "-since", "all", "-json"}
	b.ResetTimer()
	var wall float64
	for i := 0; i < b.N; i++ {
		r, err := procbench.Run(zl, args, nil, env)
		if err != nil || r.Code != 0 {
			b.Fatalf("exit %d, %v: %s", r.Code, err, r.Stderr)
		}
		if !strings.Contains(string(r.Stdout), `"compactions"`) {
			b.Fatalf("no report: %.200s", r.Stdout)
		}
		wall += r.Wall.Seconds()
	}
	b.StopTimer()
	secs := wall / float64(b.N)
	b.ReportMetric(secs, "s/run")
	b.ReportMetric(float64(total)/1e6/secs, "MB/s")
	b.ReportMetric(float64(total)/1e6, "history-MB")
	procbench.ReportPeakRSS(b, zl, args, nil, env, "")
}

// historySize is the bytes of the transcripts already under projects (0: none).
func historySize(projects string) int64 {
	var total int64
	filepath.Walk(projects, func(_ string, fi os.FileInfo, err error) error {
		if err == nil && fi.Mode().IsRegular() {
			total += fi.Size()
		}
		return nil
	})
	return total
}

// writeHistory writes sessions of about 10 MB each under projects/ until size bytes are
// written, and returns the bytes written.
func writeHistory(b *testing.B, projects string, size int64) int64 {
	b.Helper()
	var total int64
	for s := 0; total < size; s++ {
		dir := filepath.Join(projects, fmt.Sprintf("-home-me-proj%d", s%7))
		if err := os.MkdirAll(dir, 0o700); err != nil {
			b.Fatal(err)
		}
		id := fmt.Sprintf("%08d-0000-4000-8000-%012d", s, s)
		f, err := os.Create(filepath.Join(dir, id+".jsonl"))
		if err != nil {
			b.Fatal(err)
		}
		w := bufio.NewWriterSize(f, 1<<20)
		n := writeSession(w, id, s, min(10<<20, size-total))
		if err := w.Flush(); err != nil {
			b.Fatal(err)
		}
		f.Close()
		total += n
	}
	return total
}

// writeSession writes one session of about limit bytes.
func writeSession(w *bufio.Writer, id string, s int, limit int64) int64 {
	var n int64
	put := func(format string, args ...any) {
		k, _ := fmt.Fprintf(w, format+"\n", args...)
		n += int64(k)
	}
	model := []string{"claude-opus-4-6", "claude-sonnet-4-5-20250929", "claude-haiku-4-5"}[s%3]
	filler := strings.Repeat("lorem ipsum dolor sit amet, consectetur adipiscing elit ", 60) // about 3.4 kB of tool output
	skill := strings.Repeat("Always run the tests before you push, and write the changelog entry first. ", 40)
	ctx := int64(20_000)
	for t := 0; n < limit; t++ {
		ts := fmt.Sprintf("2026-11-%02dT%02d:%02d:%02d.000Z", 1+s%28, (t/3600)%24, (t/60)%60, t%60)
		head := fmt.Sprintf(`"parentUuid":null,"isSidechain":false,"sessionId":"%s","timestamp":"%s","uuid":"%s-%d"`, id, ts, id[:8], t)
		switch {
		case t%150 == 149:
			put(`{%s,"type":"system","subtype":"compact_boundary","content":"Conversation compacted","compactMetadata":{"trigger":"auto","preTokens":%d,"postTokens":15000}}`, head, ctx)
			put(`{%s,"type":"user","isCompactSummary":true,"message":{"role":"user","content":"Summary:\n1. We pushed feat/x-%d and ran the tests. %s"}}`, head, s, filler[:400])
			ctx = 15_000
			continue
		case t%150 == 3:
			put(`{%s,"type":"assistant","message":{"id":"msg_%d_%d","model":"%s","role":"assistant","content":[{"type":"tool_use","id":"toolu_s%d","name":"Skill","input":{"skill":"release"}}],"usage":{"input_tokens":10,"cache_read_input_tokens":%d,"output_tokens":50}}}`, head, s, t, model, t, ctx)
			put(`{%s,"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_s%d","content":"Launching skill: release"}]}}`, head, t)
			put(`{%s,"type":"user","isMeta":true,"sourceToolUseID":"toolu_s%d","message":{"role":"user","content":[{"type":"text","text":"Base directory for this skill: /home/me/.claude/skills/release\n\n%s"}]}}`, head, t, skill)
			continue
		case t%150 == 60:
			put(`{%s,"type":"assistant","message":{"id":"msg_%d_%d","model":"%s","role":"assistant","content":[{"type":"tool_use","id":"toolu_p%d","name":"Bash","input":{"command":"git push -u origin feat/x-%d"}}],"usage":{"input_tokens":10,"cache_read_input_tokens":%d,"output_tokens":50}}}`, head, s, t, model, t, s, ctx)
			put(`{%s,"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_p%d","content":"To github.com:o/r.git","is_error":false}]},"toolUseResult":{"stdout":"","stderr":"","interrupted":false,"gitOperation":{"push":{"branch":"feat/x-%d"}}}}`, head, t, s)
			continue
		case t%25 == 0:
			put(`{%s,"type":"user","message":{"role":"user","content":"please go on with the next step of the plan"}}`, head)
		}
		// A mix of tools as sessions have them: reads and searches most, one call in three a command.
		tool := [...]string{`"name":"Bash","input":{"command":"make test"}`, `"name":"Read","input":{"file_path":"/home/me/proj/main.go"}`,
			`"name":"Grep","input":{"pattern":"func main"}`}[t%3]
		put(`{%s,"type":"assistant","message":{"id":"msg_%d_%d","model":"%s","role":"assistant","content":[{"type":"tool_use","id":"toolu_%d",%s}],"usage":{"input_tokens":10,"cache_creation_input_tokens":500,"cache_read_input_tokens":%d,"output_tokens":120}}}`, head, s, t, model, t, tool, ctx)
		isErr := t%17 == 0
		put(`{%s,"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_%d","content":"%s","is_error":%v}]}}`, head, t, filler, isErr)
		if t%97 == 0 {
			put(`{%s,"type":"user","message":{"role":"user","content":[{"type":"text","text":"[Request interrupted by user]"}]}}`, head)
		}
		ctx += 1_100
	}
	return n
}
