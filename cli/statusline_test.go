package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/zoneline/zoneline/doctor"
	"github.com/zoneline/zoneline/paths"
	"github.com/zoneline/zoneline/state"
)

// testEnv returns an Env whose config, state and Claude folder live in a temp dir, with extra
// environment variables.
func testEnv(t *testing.T, stdin []byte, vars map[string]string) (*Env, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	dir := t.TempDir()
	env := map[string]string{
		"ZONELINE_CONFIG":    filepath.Join(dir, "config.toml"),
		"ZONELINE_STATE_DIR": filepath.Join(dir, "state"),
		"CLAUDE_CONFIG_DIR":  filepath.Join(dir, "claude"),
		"COLUMNS":            "200",
		"TERM":               "xterm-256color",
		"CLAUDECODE":         "1", // a render under Claude Code (a hand render keeps no state)
	}
	for k, v := range vars {
		env[k] = strings.ReplaceAll(v, "$DIR", dir)
	}
	getenv := func(k string) string { return env[k] }
	var out, errb bytes.Buffer
	e := &Env{Stdin: bytes.NewReader(stdin), Stdout: &out, Stderr: &errb, Getenv: getenv, Home: dir, Now: time.Now}
	e.Paths = paths.Resolve(getenv, dir)
	e.State = state.Dir{Root: e.Paths.StateDir}
	return e, &out, &errb
}

func fixture(t *testing.T, name string) []byte {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "claude-code", "*", name))
	if len(files) != 1 {
		t.Fatalf("fixture %s: %v", name, files)
	}
	data, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestStatuslineRecordedPayloads(t *testing.T) {
	tests := []struct {
		fixture string
		want    []string
	}{
		{"statusline-edge-01-no-usage-yet.json", []string{"--", "Sonnet 4.5"}},
		{"statusline-edge-03-ctx-20k.json", []string{"SMART", "20k/200k", "~147k to compact", "\x1b[38;5;114m"}},
		{"statusline-edge-05-ctx-100k.json", []string{"WARN", "100k/200k", "\x1b[38;5;221m"}},
		{"statusline-edge-07-ctx-190k.json", []string{"DUMB", "190k/200k", "compact due", "\x1b[1;38;5;203m"}},
		{"statusline-manual-05-ctx-140k.json", []string{"WARN", "140k/1M", "Opus 5.5"}},
	}
	for _, tt := range tests {
		t.Run(tt.fixture, func(t *testing.T) {
			e, out, _ := testEnv(t, fixture(t, tt.fixture), nil)
			if code := e.Run([]string{"statusline"}); code != 0 {
				t.Fatalf("exit %d", code)
			}
			for _, w := range tt.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("line %q lacks %q", out.String(), w)
				}
			}
		})
	}
}

// TestStatuslineBadInput: whatever arrives, a line is printed and the exit code is 0.
func TestStatuslineBadInput(t *testing.T) {
	dir := t.TempDir()
	half := filepath.Join(dir, "half.jsonl")
	os.WriteFile(half, []byte(`{"type":"assistant","isSidechain":false,"message":{"id":"m1","model":"claude-sonnet-4-5","usage":{"input_tokens":500,"cache_creation_input_tokens":1500,"cache_read_input_tokens":98000,"output_tokens":1}}}`+"\n"+`{"type":"assistant","message":{"id":"m2","usage":{"input_tok`), 0o600)
	huge := filepath.Join(dir, "huge.jsonl")
	os.WriteFile(huge, []byte(`{"type":"assistant","isSidechain":false,"message":{"id":"m1","model":"x","usage":{"input_tokens":95000}}}`+"\n"+`{"type":"user","message":{"content":"`+strings.Repeat("y", 10<<20)+`"}}`+"\n"), 0o600)
	zeros := func(path string) string {
		return fmt.Sprintf(`{"session_id":"aaa8e696-ca66-4fcf-8fb3-651eb7e68c12","transcript_path":%q,"model":{"id":"claude-sonnet-4-5","display_name":"Sonnet 4.5"},"context_window":{"context_window_size":200000,"current_usage":{"input_tokens":0,"output_tokens":0,"cache_creation_input_tokens":0,"cache_read_input_tokens":0}}}`, path)
	}
	tests := []struct {
		name  string
		stdin string
		want  []string
	}{
		{"empty stdin", "", []string{"⚠", "payload"}},
		{"not JSON", "hello", []string{"⚠", "payload"}},
		{"JSON array", `[1,2]`, []string{"⚠", "payload"}},
		{"50 MB", `{"x":"` + strings.Repeat("a", 50<<20) + `"}`, []string{"⚠", "payload"}},
		{"invalid UTF-8", "{\"model\":{\"id\":\"x\",\"display_name\":\"M\xff\"},\"context_window\":{\"current_usage\":{\"input_tokens\":130000}}}", []string{"DUMB", "M\ufffd"}},
		{"negative tokens count as absent", `{"context_window":{"context_window_size":200000,"current_usage":{"input_tokens":-100}}}`, []string{"--"}},
		{"absurd tokens", `{"context_window":{"context_window_size":200000,"current_usage":{"input_tokens":1e308}}}`, []string{"DUMB"}},
		{"window of 0", `{"context_window":{"context_window_size":0,"current_usage":{"input_tokens":90000}}}`, []string{"WARN", "90k/200k"}},
		{"missing transcript", zeros(filepath.Join(dir, "nope.jsonl")), []string{"--"}},
		{"transcript is a directory", zeros(dir), []string{"⚠", "transcript"}},
		{"half-written last line", zeros(half), []string{"100k/200k", "WARN"}},
		// The tail is bounded (4 MiB): a 10 MB last line hides what is before it.
		{"10 MB line", zeros(huge), []string{"--", "Sonnet 4.5"}},
		{"bad session id", `{"session_id":"../../etc","context_window":{"context_window_size":200000,"current_usage":{"input_tokens":1000}}}`, []string{"SMART"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, out, _ := testEnv(t, []byte(tt.stdin), nil)
			if code := e.Run([]string{"statusline"}); code != 0 {
				t.Fatalf("exit %d", code)
			}
			line := out.String()
			if strings.TrimSpace(line) == "" {
				t.Fatal("blank line")
			}
			for _, w := range tt.want {
				if !strings.Contains(line, w) {
					t.Errorf("line %q lacks %q", line, w)
				}
			}
		})
	}
}

func TestStatuslineBrokenConfig(t *testing.T) {
	e, out, _ := testEnv(t, fixture(t, "statusline-edge-05-ctx-100k.json"), nil)
	os.WriteFile(e.Paths.Config, []byte("color = \"auto\"\ncolour = \"none\"\n"), 0o600)
	e.Run([]string{"statusline"})
	for _, w := range []string{"WARN", "100k/200k", "config.toml:2:1", "colour"} {
		if !strings.Contains(out.String(), w) {
			t.Errorf("line %q lacks %q", out.String(), w)
		}
	}
	log, _ := os.ReadFile(e.State.LogPath())
	if !strings.Contains(string(log), "unknown key 'colour'") {
		t.Errorf("log %q lacks the config error", log)
	}
}

func TestStatuslineNoColor(t *testing.T) {
	e, out, _ := testEnv(t, fixture(t, "statusline-edge-05-ctx-100k.json"), map[string]string{"NO_COLOR": "1"})
	e.Run([]string{"statusline"})
	if strings.Contains(out.String(), "\x1b[") || !strings.Contains(out.String(), "WARN") {
		t.Errorf("NO_COLOR line %q", out.String())
	}
}

func TestStatuslineWidth(t *testing.T) {
	for _, cols := range []int{200, 80, 50, 30, 12, 8, 5, 3, 1} {
		e, out, _ := testEnv(t, fixture(t, "statusline-edge-05-ctx-100k.json"), map[string]string{"COLUMNS": fmt.Sprint(cols), "NO_COLOR": "1"})
		e.Run([]string{"statusline"})
		line := strings.TrimRight(out.String(), "\n")
		if w := len([]rune(line)); w > max(cols-4, 1) {
			t.Errorf("COLUMNS=%d: line of width %d: %q", cols, w, line)
		}
		if !strings.Contains(line, "WARN") && cols >= 30 {
			t.Errorf("COLUMNS=%d: zone dropped: %q", cols, line)
		}
		// The zone word whole where it fits, else the zone's dot: never blank, never "." or "● W…".
		if want := "● WARN"; cols >= 10 && !strings.HasPrefix(line, want) || cols < 10 && line != "●" {
			t.Errorf("COLUMNS=%d: %q, want %q or the dot alone below 10 columns", cols, line, want)
		}
	}
}

func TestStatuslineAutoCompactEnv(t *testing.T) {
	tests := []struct {
		vars map[string]string
		want string
	}{
		{nil, "~67k to compact"},
		{map[string]string{"DISABLE_AUTO_COMPACT": "1"}, "auto-compact off"},
		{map[string]string{"CLAUDE_AUTOCOMPACT_PCT_OVERRIDE": "50", "CLAUDE_CODE_AUTO_COMPACT_WINDOW": "200000"}, "compact due"},
	}
	for _, tt := range tests {
		e, out, _ := testEnv(t, fixture(t, "statusline-edge-05-ctx-100k.json"), tt.vars)
		e.Run([]string{"statusline"})
		if !strings.Contains(out.String(), tt.want) {
			t.Errorf("%v: line %q lacks %q", tt.vars, out.String(), tt.want)
		}
	}
	// autoCompactEnabled: false in Claude Code's settings.
	e, out, _ := testEnv(t, fixture(t, "statusline-edge-05-ctx-100k.json"), nil)
	os.MkdirAll(e.Paths.ClaudeDir, 0o700)
	os.WriteFile(filepath.Join(e.Paths.ClaudeDir, "settings.json"), []byte(`{"autoCompactEnabled": false}`), 0o600)
	e.Run([]string{"statusline"})
	if !strings.Contains(out.String(), "auto-compact off") {
		t.Errorf("settings autoCompactEnabled=false: %q", out.String())
	}
}

// TestStatuslineCompactionCount: the count comes from the transcript, incrementally.
func TestStatuslineCompactionCount(t *testing.T) {
	src := fixture(t, "transcript-manual.jsonl")
	dir := t.TempDir()
	tr := filepath.Join(dir, "t.jsonl")
	os.WriteFile(tr, src, 0o600)
	payload := fmt.Sprintf(`{"session_id":"730c8849-a6f0-454b-a922-063e0b765bf2","transcript_path":%q,"model":{"id":"claude-opus-5-5","display_name":"Opus 5.5"},"context_window":{"context_window_size":1000000,"current_usage":{"input_tokens":500,"output_tokens":1,"cache_creation_input_tokens":1500,"cache_read_input_tokens":10000}}}`, tr)
	e, out, _ := testEnv(t, []byte(payload), nil)
	e.Run([]string{"statusline"})
	if !strings.Contains(out.String(), "↻1") {
		t.Fatalf("one compaction expected: %q", out.String())
	}
	// The transcript grows by another compaction: the count follows without a re-read.
	f, _ := os.OpenFile(tr, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"type":"system","subtype":"compact_boundary","isSidechain":false,"compactMetadata":{"trigger":"auto","preTokens":170000,"postTokens":9000}}` + "\n")
	f.Close()
	e2, out2, _ := testEnv(t, []byte(payload), nil)
	e2.Paths, e2.State = e.Paths, e.State
	e2.Run([]string{"statusline"})
	if !strings.Contains(out2.String(), "↻2") {
		t.Fatalf("two compactions expected: %q", out2.String())
	}
	s, err := e.State.LoadSession("730c8849-a6f0-454b-a922-063e0b765bf2")
	if err != nil || s.Compactions != 2 || s.TranscriptOffset == 0 {
		t.Fatalf("session %+v, %v", s, err)
	}
	fi, _ := os.Stat(filepath.Join(e.Paths.StateDir, "sessions", "730c8849-a6f0-454b-a922-063e0b765bf2", "session.json"))
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("session.json mode %v, want 0600", fi.Mode().Perm())
	}
}

// TestStatuslineReplacedTranscript: a transcript replaced by a longer file without
// compactions at the same path (a rename over it) is not resumed mid-line at the old offset,
// which kept the old count (↻3): the new file is counted from 0, then followed incrementally.
func TestStatuslineReplacedTranscript(t *testing.T) {
	const sid = "730c8849-a6f0-454b-a922-063e0b765bf2"
	boundary := `{"type":"system","subtype":"compact_boundary","isSidechain":false,"compactMetadata":{"trigger":"auto","preTokens":170000,"postTokens":9000}}` + "\n"
	reply := `{"type":"assistant","isSidechain":false,"message":{"model":"claude-opus-5-5","usage":{"input_tokens":1,"output_tokens":1}}}` + "\n"
	dir := t.TempDir()
	tr := filepath.Join(dir, "t.jsonl")
	os.WriteFile(tr, []byte(reply+boundary+reply+boundary+reply+boundary), 0o600)
	payload := fmt.Sprintf(`{"session_id":%q,"transcript_path":%q,"model":{"id":"claude-opus-5-5","display_name":"Opus 5.5"},"context_window":{"context_window_size":1000000,"current_usage":{"input_tokens":500,"output_tokens":1,"cache_creation_input_tokens":1500,"cache_read_input_tokens":10000}}}`, sid, tr)
	e, _, _ := testEnv(t, nil, nil)
	render := func() string {
		t.Helper()
		var out bytes.Buffer
		e.Stdin, e.Stdout = bytes.NewReader([]byte(payload)), &out
		if code := e.Run([]string{"statusline"}); code != 0 {
			t.Fatalf("exit %d", code)
		}
		return out.String()
	}
	if line := render(); !strings.Contains(line, "↻3") {
		t.Fatalf("three compactions expected: %q", line)
	}
	// Another, longer file without a compaction is moved over the path.
	other := filepath.Join(dir, "other.jsonl")
	long := strings.Repeat(strings.Replace(reply, `"input_tokens":1`, `"input_tokens":12345`, 1), 20)
	os.WriteFile(other, []byte(long), 0o600)
	if err := os.Rename(other, tr); err != nil {
		t.Fatal(err)
	}
	if line := render(); strings.Contains(line, "↻") {
		t.Errorf("the replaced transcript has no compaction, the line says %q", line)
	}
	if s, err := e.State.LoadSession(sid); err != nil || s.Compactions != 0 || s.TranscriptOffset != int64(len(long)) {
		t.Errorf("session after the replacement: %d compactions at offset %d (%v), want 0 at %d", s.Compactions, s.TranscriptOffset, err, len(long))
	}
	// The new file grows by one compaction: counted from where its own scan stopped.
	f, _ := os.OpenFile(tr, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(boundary)
	f.Close()
	if line := render(); !strings.Contains(line, "↻1") {
		t.Errorf("one compaction in the new file expected: %q", line)
	}
	log, _ := os.ReadFile(e.State.LogPath())
	if !strings.Contains(string(log), "not the file counted before") {
		t.Errorf("the log does not say the transcript was replaced:\n%s", log)
	}
	if r := doctor.Log(e.State.LogPath(), e.Now()); r.Status != doctor.OK {
		t.Errorf("the recount is an ordinary entry, doctor warns: %s %q", r.Detail, r.More)
	}
}

func TestPreview(t *testing.T) {
	e, out, _ := testEnv(t, nil, map[string]string{"NO_COLOR": "1"})
	if code := e.Run([]string{"preview"}); code != 0 {
		t.Fatalf("exit %d", code)
	}
	lines := strings.Split(out.String(), "\n")
	for i, w := range [][2]string{{"SMART", "42k/200k"}, {"WARN", "96k/200k"}, {"DUMB", "142k/200k"}, {"SMART", "90k/1M"}, {"WARN", "180k/1M"}, {"DUMB", "310k/1M"}} {
		if l := lines[i+1]; !strings.Contains(l, w[0]) || !strings.Contains(l, w[1]) {
			t.Errorf("preview line %d %q lacks %q", i+1, l, w)
		}
	}
	if _, err := os.Stat(e.Paths.StateDir); err == nil {
		t.Errorf("preview wrote state")
	}
}

// TestStatuslineNudgeReady: past the prep threshold the line asks for /compact-prep; once the
// session's checkpoint is written it asks for /compact.
func TestStatuslineNudgeReady(t *testing.T) {
	payload := fixture(t, "statusline-edge-06-ctx-180k.json") // dumb, session aaa8e696-…
	e, out, _ := testEnv(t, payload, map[string]string{"NO_COLOR": "1", "DISABLE_AUTO_COMPACT": "1"})
	e.Run([]string{"statusline"})
	if !strings.Contains(out.String(), "⚑ /compact-prep") {
		t.Fatalf("no /compact-prep nudge: %q", out.String())
	}
	path := filepath.Join(e.Paths.StateDir, "sessions", "aaa8e696-ca66-4fcf-8fb3-651eb7e68c12", "checkpoint.md")
	if err := os.WriteFile(path, []byte("# zoneline checkpoint\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	e.Stdin = bytes.NewReader(payload)
	e.Run([]string{"statusline"})
	if !strings.Contains(out.String(), "⚑ /compact ") && !strings.HasSuffix(strings.TrimSpace(out.String()), "⚑ /compact") || strings.Contains(out.String(), "/compact-prep") {
		t.Fatalf("fresh checkpoint: want the /compact nudge: %q", out.String())
	}
	old := time.Now().Add(-2 * time.Hour)
	os.Chtimes(path, old, old)
	out.Reset()
	e.Stdin = bytes.NewReader(payload)
	e.Run([]string{"statusline"})
	if !strings.Contains(out.String(), "⚑ /compact-prep") {
		t.Fatalf("stale checkpoint: want /compact-prep again: %q", out.String())
	}
}

// TestNoRearmWhileCatchingUp: a long transcript seen for the first time is counted 4 MiB per
// render; a count that grows while catching up is not a compaction and must not re-arm the
// tiers (which would notify and nudge on every render).
func TestNoRearmWhileCatchingUp(t *testing.T) {
	dir := t.TempDir()
	tr := filepath.Join(dir, "t.jsonl")
	f, _ := os.Create(tr)
	filler := `{"type":"user","isSidechain":false,"message":{"role":"user","content":"` + strings.Repeat("x", 1<<20) + `"}}` + "\n"
	for range 3 {
		for range 5 { // 5 MiB between boundaries: one per render's scan
			f.WriteString(filler)
		}
		f.WriteString(`{"type":"system","subtype":"compact_boundary","isSidechain":false,"compactMetadata":{"trigger":"auto","preTokens":170000,"postTokens":9000}}` + "\n")
	}
	f.Close()
	const id = "aaa8e696-ca66-4fcf-8fb3-651eb7e68c12"
	payload := fmt.Sprintf(`{"session_id":%q,"transcript_path":%q,"model":{"id":"claude-sonnet-4-5-20250929","display_name":"Sonnet 4.5"},"context_window":{"context_window_size":200000,"current_usage":{"input_tokens":500,"output_tokens":1,"cache_creation_input_tokens":1500,"cache_read_input_tokens":188000}}}`, id, tr)
	e, _, _ := testEnv(t, []byte(payload), nil)
	for i := range 6 {
		e.Stdin = strings.NewReader(payload)
		e.Run([]string{"statusline"})
		if i == 0 {
			continue
		}
	}
	s, _ := e.State.LoadSession(id)
	if s.Compactions != 3 || !s.TranscriptCounted {
		t.Fatalf("count %d, counted %v; want 3, true", s.Compactions, s.TranscriptCounted)
	}
	ents, _ := os.ReadDir(filepath.Join(e.Paths.StateDir, "sessions", id))
	for _, en := range ents {
		if strings.HasPrefix(en.Name(), "epoch-") || (strings.HasPrefix(en.Name(), "marker-") && !strings.HasPrefix(en.Name(), "marker-0-")) {
			t.Errorf("re-armed while catching up: %s", en.Name())
		}
	}
	// Once caught up, a real compaction (the count grows) re-arms.
	f, _ = os.OpenFile(tr, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"type":"system","subtype":"compact_boundary","isSidechain":false,"compactMetadata":{"trigger":"auto","preTokens":170000,"postTokens":9000}}` + "\n")
	f.Close()
	e.Stdin = strings.NewReader(payload)
	e.Run([]string{"statusline"})
	if _, err := os.Stat(filepath.Join(e.Paths.StateDir, "sessions", id, "epoch-1.json")); err != nil {
		t.Errorf("a compaction after catching up did not re-arm: %v", err)
	}
}

// TestRearmOnWindowChange: switching from a 200k to a 1M model moves the tiers' levels, so the
// tiers re-arm and the 1M dumb tier fires at 250k.
func TestRearmOnWindowChange(t *testing.T) {
	const id = "aaa8e696-ca66-4fcf-8fb3-651eb7e68c12"
	render := func(e *Env, model string, window, tokens int64) {
		e.Stdin = strings.NewReader(fmt.Sprintf(`{"session_id":%q,"model":{"id":%q,"display_name":"M"},"context_window":{"context_window_size":%d,"current_usage":{"input_tokens":%d,"output_tokens":1,"cache_creation_input_tokens":0,"cache_read_input_tokens":0}}}`, id, model, window, tokens))
		e.Run([]string{"statusline"})
	}
	e, _, _ := testEnv(t, nil, nil)
	render(e, "claude-sonnet-4-5", 200_000, 130_000)
	render(e, "claude-opus-5-5", 1_000_000, 140_000)
	render(e, "claude-opus-5-5", 1_000_000, 300_000)
	ents, _ := os.ReadDir(filepath.Join(e.Paths.StateDir, "sessions", id))
	var names []string
	for _, en := range ents {
		names = append(names, en.Name())
	}
	if !slices.Contains(names, "marker-1-dumb.json") {
		t.Errorf("no dumb marker after the switch to 1M: %v", names)
	}
}

// TestStatuslineNeverBlank: a layout that shows nothing falls back to the zone.
func TestStatuslineNeverBlank(t *testing.T) {
	for _, layout := range []string{`[["model"]]`, `[["dir"], ["branch"]]`} {
		e, out, _ := testEnv(t, []byte(`{"session_id":"x"}`), map[string]string{"NO_COLOR": "1"})
		os.WriteFile(e.Paths.Config, []byte("[statusline]\nlines = "+layout+"\n"), 0o600)
		e.Run([]string{"statusline"})
		if strings.TrimSpace(out.String()) != "○ --" {
			t.Errorf("layout %s: %q, want the zone", layout, out.String())
		}
	}
}

// TestStatuslineReserve: at every pane width the line leaves Claude Code its 4 columns
// (indent 2 and a right margin of 2, measured by e2e.TestStatuslineReserve), dropping whole
// segments: each segment shown is one of the unfitted line's, never cut, and no "…".
func TestStatuslineReserve(t *testing.T) {
	payload := fixture(t, "statusline-edge-07-ctx-190k.json")
	render := func(cols string, vars map[string]string) string {
		v := map[string]string{"COLUMNS": cols, "NO_COLOR": "1"}
		for k, x := range vars {
			v[k] = x
		}
		e, out, _ := testEnv(t, payload, v)
		if code := e.Run([]string{"statusline"}); code != 0 {
			t.Fatalf("exit %d", code)
		}
		return strings.TrimRight(out.String(), "\n")
	}
	full := strings.Fields(render("", nil))
	if len(full) < 10 {
		t.Fatalf("the unfitted line has %d words: %q", len(full), full)
	}
	for cols := 40; cols <= 220; cols++ {
		line := render(fmt.Sprint(cols), nil)
		if w := len([]rune(line)); w > cols-4 {
			t.Errorf("COLUMNS=%d: the line is %d wide, Claude Code shows %d: %q", cols, w, cols-4, line)
		}
		if strings.Contains(line, "…") {
			t.Errorf("COLUMNS=%d: a segment was cut: %q", cols, line)
		}
		if !wordSubsequence(strings.Fields(line), full) {
			t.Errorf("COLUMNS=%d: %q is not whole segments of %q", cols, line, full)
		}
	}
	// The indent is the config's: indent = 0 gives the line two more columns.
	cfg := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(cfg, []byte("[statusline]\nindent = 0\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for cols := 40; cols <= 120; cols++ {
		def, zero := render(fmt.Sprint(cols), nil), render(fmt.Sprint(cols), map[string]string{"ZONELINE_CONFIG": cfg})
		if w := len([]rune(zero)); w > cols-2 {
			t.Errorf("COLUMNS=%d indent=0: %d wide, want at most %d", cols, w, cols-2)
		}
		if len([]rune(zero)) < len([]rune(def)) {
			t.Errorf("COLUMNS=%d: indent = 0 gave a shorter line (%q) than the default (%q)", cols, zero, def)
		}
	}
}

// wordSubsequence reports whether the words of a fitted line are the unfitted line's words, in
// order, some left out: a segment cut mid-way leaves a partial word.
func wordSubsequence(words, full []string) bool {
	i := 0
	for _, w := range words {
		for i < len(full) && full[i] != w {
			i++
		}
		if i == len(full) {
			return false
		}
		i++
	}
	return true
}
