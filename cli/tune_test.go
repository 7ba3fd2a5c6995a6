package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zoneline/zoneline/config"
	"github.com/zoneline/zoneline/tune"
)

func TestTuneJSONOnFixtures(t *testing.T) {
	e, out, errb := testEnv(t, nil, nil)
	if code := e.Run([]string{"tune", "--json", filepath.Join("..", "testdata", "claude-code")}); code != exitOK {
		t.Fatalf("exit %d: %s", code, errb)
	}
	var rep tune.Report
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	// Three recorded sessions; the edge-case session writes one response as two records.
	if rep.Totals.Files != 3 || rep.Totals.Sessions != 3 || rep.Totals.Compactions != 2 || rep.Totals.Duplicates != 1 || rep.Totals.Unreadable != 0 {
		t.Errorf("totals %+v", rep.Totals)
	}
	got := map[string]string{}
	for _, m := range rep.Models {
		for _, c := range m.Compactions {
			post := "?"
			if c.PostTokens != nil {
				post = fmt.Sprint(*c.PostTokens)
			}
			got[m.Model] += fmt.Sprintf("%s %d→%s;", c.Trigger, c.PreTokens, post)
		}
	}
	want := map[string]string{
		"claude-sonnet-4-5-20250929": "auto 190326→2992;", // auto-compact-sonnet-200k
		"claude-opus-5-5":            "manual 140120→2925;",
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s compactions %q, want %q", k, got[k], v)
		}
	}
	if len(rep.Models) != 2 || rep.Models[0].Model != "claude-sonnet-4-5-20250929" || rep.Models[0].Window != 200_000 {
		t.Errorf("models %+v", rep.Models)
	}
	// No registry here: Opus 5.5 gets its known 1M default, not the 200k guess.
	for _, m := range rep.Models {
		if m.Model == "claude-opus-5-5" && (m.Window != 1_000_000 || m.WindowGuess || m.Current.AutoCompact < 900_000) {
			t.Errorf("Opus 5.5 without registry data: window %d (%s, guess %v), auto-compact %d", m.Window, m.WindowSource, m.WindowGuess, m.Current.AutoCompact)
		}
	}
}

// manualTranscript writes a session that compacts by hand at each of the points.
func manualTranscript(t *testing.T, path string, points ...int64) {
	t.Helper()
	var b strings.Builder
	n := 0
	for _, p := range points {
		for ctx := int64(20_000); ctx <= p; ctx += 20_000 {
			n++
			fmt.Fprintf(&b, `{"parentUuid":"x","isSidechain":false,"message":{"model":"claude-sonnet-4-5-20250929","id":"msg_%s_%d","type":"message","role":"assistant","content":[],"usage":{"input_tokens":%d,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":100}},"type":"assistant","timestamp":"2026-11-01T10:%02d:00.000Z","sessionId":"s"}`+"\n", filepath.Base(path), n, ctx, n%60)
		}
		fmt.Fprintf(&b, `{"parentUuid":null,"isSidechain":false,"type":"system","subtype":"compact_boundary","compactMetadata":{"trigger":"manual","preTokens":%d,"postTokens":5000},"timestamp":"2026-11-01T11:%02d:00.000Z","sessionId":"s"}`+"\n", p+100, n%60)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestTuneWriteKeepsConfig(t *testing.T) {
	e, out, errb := testEnv(t, nil, nil)
	manualTranscript(t, filepath.Join(e.Paths.ClaudeDir, "projects", "-p", "a.jsonl"), 100_000, 100_000, 140_000)
	orig := "# mine\ncolor = \"none\"  # keep me\n\n[checkpoint]\nbudget = 5000\n"
	if err := os.WriteFile(e.Paths.Config, []byte(orig), 0o600); err != nil {
		t.Fatal(err)
	}
	if code := e.Run([]string{"tune", "-write"}); code != exitOK {
		t.Fatalf("exit %d: %s", code, errb)
	}
	for _, want := range []string{"+match = \"claude-sonnet-4-5-20250929\"", "+dumb = 100_000", "wrote " + e.Paths.Config, "claude-sonnet-4-5-20250929 · window 200k"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	data, _ := os.ReadFile(e.Paths.Config)
	if !strings.HasPrefix(string(data), orig) {
		t.Errorf("config lost its text:\n%s", data)
	}
	cfg, err := config.Load(e.Paths.Config)
	if err != nil || cfg.Color != "none" || cfg.Checkpoint.Budget != 5000 || len(cfg.Models) != 1 || cfg.Models[0].Dumb != 100_000 {
		t.Errorf("config after write: %+v, %v", cfg, err)
	}
	// A second run finds nothing to change.
	out.Reset()
	if code := e.Run([]string{"tune", "-write"}); code != exitOK || !strings.Contains(out.String(), "nothing to write") {
		t.Errorf("second write: exit %d:\n%s", code, out)
	}
}

func TestTuneSVGAndErrors(t *testing.T) {
	e, _, errb := testEnv(t, nil, nil)
	if code := e.Run([]string{"tune"}); code != exitNoTranscripts || !strings.Contains(errb.String(), "no transcripts found in") {
		t.Errorf("no projects folder: exit %d, %s", code, errb)
	}
	// An empty projects folder: the same message, the same exit code.
	missing := errb.String()
	os.MkdirAll(filepath.Join(e.Paths.ClaudeDir, "projects", "-home-user-p"), 0o700)
	errb.Reset()
	if code := e.Run([]string{"tune"}); code != exitNoTranscripts || errb.String() != missing {
		t.Errorf("empty projects folder: exit %d, %q; want %d, %q", code, errb, exitNoTranscripts, missing)
	}
	// A file that is not a transcript says so.
	errb.Reset()
	readme := filepath.Join("..", "README.md")
	if code := e.Run([]string{"tune", readme}); code != exitNoTranscripts || !strings.HasPrefix(errb.String(), "zoneline: "+readme+" is not a Claude Code transcript") || strings.Count(errb.String(), "\n") != 1 {
		t.Errorf("tune README.md: exit %d, want one line saying it is not a transcript: %s", code, errb)
	}
	// A file and a folder, neither holding a transcript: each named once, for what it is.
	errb.Reset()
	empty := t.TempDir()
	if code := e.Run([]string{"tune", readme, empty}); code != exitNoTranscripts || errb.String() != "zoneline: "+readme+" is not a Claude Code transcript (no assistant responses with usage)\n"+noTranscripts(empty)+"\n" {
		t.Errorf("tune README.md DIR: exit %d: %s", code, errb)
	}
	errb.Reset()
	svg := filepath.Join(t.TempDir(), "chart.svg")
	fix := filepath.Join("..", "testdata", "claude-code")
	if code := e.Run([]string{"tune", fix, "-svg", svg}); code != exitOK { // flags after paths work too
		t.Fatalf("exit %d: %s", code, errb)
	}
	data, err := os.ReadFile(svg)
	if err != nil || !strings.HasPrefix(string(data), "<svg ") || !strings.Contains(string(data), "claude-opus-5-5") {
		t.Errorf("svg: %v\n%.200s", err, data)
	}
	if code := e.Run([]string{"tune", "-lead", "0", fix}); code != exitUsage {
		t.Errorf("-lead 0: exit %d, want %d", code, exitUsage)
	}
	os.WriteFile(e.Paths.Config, []byte("colour = 1\n"), 0o600)
	errb.Reset()
	if code := e.Run([]string{"tune", fix}); code != exitFail || !strings.Contains(errb.String(), "config.toml:1:1") {
		t.Errorf("broken config: exit %d, %s", code, errb)
	}
}

// TestWriteUserFileKeepsLinkAndMode: a symlinked config stays a link, its target keeps its mode.
func TestWriteUserFileKeepsLinkAndMode(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "dots", "config.toml")
	os.MkdirAll(filepath.Dir(target), 0o755)
	os.WriteFile(target, []byte("old\n"), 0o644)
	link := filepath.Join(dir, "config.toml")
	if err := os.Symlink(target, link); err != nil {
		t.Skip(err)
	}
	if err := writeUserFile(link, []byte("new\n")); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link was replaced: %v %v", fi, err)
	}
	fi, _ := os.Stat(target)
	data, _ := os.ReadFile(target)
	if string(data) != "new\n" || fi.Mode().Perm() != 0o644 {
		t.Fatalf("target %q mode %v", data, fi.Mode().Perm())
	}
}
