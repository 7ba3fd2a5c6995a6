package bench

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zoneline/zoneline/internal/procbench"
	"github.com/zoneline/zoneline/sessions"
	"github.com/zoneline/zoneline/state"
)

const fixture = "../testdata/claude-code/edge-cases-sonnet-200k/statusline-edge-06-ctx-180k.json"

// env returns a private environment: config, state and Claude's folder in dir.
func env(dir string, extra ...string) []string {
	return append([]string{
		"ZONELINE_CONFIG=" + filepath.Join(dir, "config.toml"),
		"ZONELINE_STATE_DIR=" + filepath.Join(dir, "state"),
		"CLAUDE_CONFIG_DIR=" + filepath.Join(dir, "claude"),
		"COLUMNS=200", "TERM=xterm-256color",
		"CLAUDECODE=1", // as Claude Code runs it: a hand render keeps no state, and would measure less
	}, extra...)
}

func runner(bin string, args []string, stdin []byte, env []string) func() (procbench.Result, error) {
	return func() (procbench.Result, error) { return procbench.Run(bin, args, stdin, env) }
}

// BenchmarkStatusline renders a recorded payload, with unicode and with ascii glyphs.
func BenchmarkStatusline(b *testing.B) {
	zl := procbench.Build(b, "./cmd/zoneline")
	floor := procbench.Build(b, "./internal/floor")
	payload, err := os.ReadFile(fixture)
	if err != nil {
		b.Fatal(err)
	}
	for _, glyphs := range []string{"unicode", "ascii"} {
		b.Run(glyphs, func(b *testing.B) {
			dir := b.TempDir()
			os.WriteFile(filepath.Join(dir, "config.toml"), []byte(fmt.Sprintf("glyphs = %q\n", glyphs)), 0o600)
			e := env(dir)
			// A first render creates the session's state, as in a running session.
			if r, err := procbench.Run(zl, []string{"statusline"}, payload, e); err != nil || !strings.Contains(string(r.Stdout), "DUMB") {
				b.Fatalf("render: %v %q %q", err, r.Stdout, r.Stderr)
			}
			b.ResetTimer()
			procbench.Compare(b, runner(zl, []string{"statusline"}, payload, e), runner(floor, nil, payload, e))
			b.StopTimer()
			procbench.ReportPeakRSS(b, zl, []string{"statusline"}, payload, e, floor)
		})
	}
}

// BenchmarkStatuslineTranscript renders a payload with no usable count (all zeros, as right
// after /compact), so the tokens come from the transcript's tail, for a 1 MB and a 200 MB
// transcript: the cost must be flat in transcript size.
func BenchmarkStatuslineTranscript(b *testing.B) {
	zl := procbench.Build(b, "./cmd/zoneline")
	floor := procbench.Build(b, "./internal/floor")
	for _, size := range []int64{1 << 20, 200 << 20} {
		b.Run(fmt.Sprintf("%dMB", size>>20), func(b *testing.B) {
			dir := b.TempDir()
			tr := filepath.Join(dir, "t.jsonl")
			if err := writeTranscript(tr, size); err != nil {
				b.Fatal(err)
			}
			payload := []byte(fmt.Sprintf(`{"session_id":"aaa8e696-ca66-4fcf-8fb3-651eb7e68c12","transcript_path":%q,"cwd":%q,"model":{"id":"claude-sonnet-4-5-20250929","display_name":"Sonnet 4.5"},"context_window":{"context_window_size":200000,"current_usage":{"input_tokens":0,"output_tokens":0,"cache_creation_input_tokens":0,"cache_read_input_tokens":0}}}`, tr, dir))
			e := env(dir)
			// Catch the incremental compaction count up with the transcript, as a running
			// session's earlier renders would have.
			for i := 0; i < 100; i++ {
				r, err := procbench.Run(zl, []string{"statusline"}, payload, e)
				if err != nil || !strings.Contains(string(r.Stdout), "142k") {
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
		})
	}
}

// caughtUp reports whether the session's saved transcript offset reached the file's end.
func caughtUp(stateDir string, size int64) bool {
	data, err := os.ReadFile(filepath.Join(stateDir, "sessions", "aaa8e696-ca66-4fcf-8fb3-651eb7e68c12", "session.json"))
	if err != nil {
		return false
	}
	var off int64
	i := strings.Index(string(data), `"transcript_offset": `)
	if i < 0 {
		return false
	}
	fmt.Sscan(string(data[i+len(`"transcript_offset": `):]), &off)
	return off >= size-(64<<10)
}

// writeTranscript writes about size bytes of realistic transcript records: user prompts, tool
// results and assistant turns with usage, a compaction in the middle, and a last assistant turn
// whose context is 142,000 tokens.
func writeTranscript(path string, size int64) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	filler := strings.Repeat("lorem ipsum dolor sit amet ", 40)
	var n int64
	for i := 0; n < size; i++ {
		var line string
		switch i % 4 {
		case 0:
			line = fmt.Sprintf(`{"parentUuid":null,"isSidechain":false,"type":"user","message":{"role":"user","content":"prompt %d %s"},"uuid":"u%d","timestamp":"2026-11-29T21:35:54.218Z","sessionId":"aaa8e696-ca66-4fcf-8fb3-651eb7e68c12"}`, i, filler, i)
		case 1, 3:
			line = fmt.Sprintf(`{"parentUuid":"u%d","isSidechain":false,"type":"assistant","message":{"id":"msg_%d","model":"claude-sonnet-4-5-20250929","role":"assistant","content":[{"type":"text","text":"reply %d"}],"usage":{"input_tokens":500,"cache_creation_input_tokens":1500,"cache_read_input_tokens":%d,"output_tokens":120}},"uuid":"a%d","timestamp":"2026-11-29T21:35:55.218Z"}`, i, i, i, 140000, i)
		case 2:
			line = fmt.Sprintf(`{"parentUuid":"a%d","isSidechain":false,"type":"user","message":{"role":"user","content":[{"tool_use_id":"toolu_%d","type":"tool_result","content":"%s","is_error":false}]},"uuid":"t%d"}`, i, i, filler, i)
		}
		if i == 1000 {
			line = `{"parentUuid":null,"isSidechain":false,"type":"system","subtype":"compact_boundary","content":"Conversation compacted","compactMetadata":{"trigger":"manual","preTokens":140120,"postTokens":2925},"uuid":"b1","timestamp":"2026-11-29T21:40:00.000Z"}`
		}
		m, err := f.WriteString(line + "\n")
		if err != nil {
			return err
		}
		n += int64(m)
	}
	return nil
}

// BenchmarkStartup runs `zoneline version` (no work: only the process start, the runtime and
// the package inits of the one zoneline binary) against the floor, to show how much of the
// statusline's ratio is start-up.
func BenchmarkStartup(b *testing.B) {
	zl := procbench.Build(b, "./cmd/zoneline")
	floor := procbench.Build(b, "./internal/floor")
	e := env(b.TempDir())
	b.ResetTimer()
	procbench.Compare(b, runner(zl, []string{"version"}, nil, e), runner(floor, nil, nil, e))
}

// BenchmarkStatuslineTurn renders as a running session does: the token count changes every
// turn (100k, 105k, 100k, …, all in the warn zone). Such a render saves the registry only when
// its saved state is a few seconds old (pipeline.SaveAction); BenchmarkStatuslineSave measures a
// render that saves.
func BenchmarkStatuslineTurn(b *testing.B) {
	zl := procbench.Build(b, "./cmd/zoneline")
	floor := procbench.Build(b, "./internal/floor")
	p100, p105 := turnPayloads(b)
	e := env(b.TempDir())
	n := 0
	next := func() []byte {
		n++
		if n%2 == 0 {
			return p105
		}
		return p100
	}
	b.ResetTimer()
	procbench.Compare(b,
		func() (procbench.Result, error) { return procbench.Run(zl, []string{"statusline"}, next(), e) },
		func() (procbench.Result, error) { return procbench.Run(floor, nil, p100, e) })
}

// BenchmarkStatuslineSave renders as BenchmarkStatuslineTurn does, but the model's display
// name alternates too, so that every render rewrites the session's registry (a temp file and a
// rename): the cost of a render whose zone, model, window or compaction count changed.
func BenchmarkStatuslineSave(b *testing.B) {
	zl := procbench.Build(b, "./cmd/zoneline")
	floor := procbench.Build(b, "./internal/floor")
	p100, p105 := turnPayloads(b)
	p105 = []byte(strings.Replace(string(p105), `"display_name": "Sonnet 4.5"`, `"display_name": "Sonnet 4.5 (bench)"`, 1))
	if !strings.Contains(string(p105), "(bench)") {
		b.Fatal("fixture changed: no display_name Sonnet 4.5")
	}
	dir := b.TempDir()
	e := env(dir)
	const id = "aaa8e696-ca66-4fcf-8fb3-651eb7e68c12"
	registry := filepath.Join(dir, "state", "sessions", id, state.SessionFileName)
	n := 0
	render := func() (procbench.Result, error) {
		n++
		p := p100
		if n%2 == 0 {
			p = p105
		}
		before, _ := os.Stat(registry)
		r, err := procbench.Run(zl, []string{"statusline"}, p, e)
		if after, _ := os.Stat(registry); before != nil && after != nil && os.SameFile(before, after) {
			b.Fatalf("render %d did not save the registry", n)
		}
		return r, err
	}
	if _, err := render(); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	procbench.Compare(b, render, func() (procbench.Result, error) { return procbench.Run(floor, nil, p100, e) })
}

// BenchmarkStatuslinePrompt renders as BenchmarkStatuslineTurn does, with a prompt recorded (as
// the UserPromptSubmit hook does) before each render, untimed: the first render after each
// prompt, which touches the registry so that its time follows the prompt.
func BenchmarkStatuslinePrompt(b *testing.B) {
	zl := procbench.Build(b, "./cmd/zoneline")
	floor := procbench.Build(b, "./internal/floor")
	p100, p105 := turnPayloads(b)
	dir := b.TempDir()
	e := env(dir)
	const id = "aaa8e696-ca66-4fcf-8fb3-651eb7e68c12"
	d := state.Dir{Root: filepath.Join(dir, "state")}
	n := 0
	render := func() (procbench.Result, error) {
		n++
		p := p100
		if n%2 == 0 {
			p = p105
		}
		if err := sessions.RecordPrompt(d, id, "p", time.Now()); err != nil {
			return procbench.Result{}, err
		}
		r, err := procbench.Run(zl, []string{"statusline"}, p, e)
		if s, _ := d.LoadSession(id); n > 1 && s.Updated.Before(time.Now().Add(-time.Second)) {
			b.Fatalf("render %d left the registry's time at %v", n, s.Updated)
		}
		return r, err
	}
	if _, err := render(); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	procbench.Compare(b, render, func() (procbench.Result, error) { return procbench.Run(floor, nil, p100, e) })
}

// turnPayloads returns the recorded 100k payload and the same at 105k, for the benchmarks of
// renders whose tokens move.
func turnPayloads(b *testing.B) (p100, p105 []byte) {
	p100, err := os.ReadFile("../testdata/claude-code/edge-cases-sonnet-200k/statusline-edge-05-ctx-100k.json")
	if err != nil {
		b.Fatal(err)
	}
	p105 = []byte(strings.Replace(string(p100), `"cache_read_input_tokens": 98000`, `"cache_read_input_tokens": 103000`, 1))
	if string(p105) == string(p100) {
		b.Fatal("fixture changed: no cache_read_input_tokens of 98000")
	}
	return p100, p105
}
