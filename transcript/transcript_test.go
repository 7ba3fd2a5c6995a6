package transcript

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/zoneline/zoneline/internal/testtmp"
)

const fixtures = "../testdata/claude-code/"

var (
	manualT = fixtures + "manual-compact-opus-1m/transcript-manual.jsonl"
	autoT   = fixtures + "auto-compact-sonnet-200k/transcript-auto.jsonl"
	edgeT   = fixtures + "edge-cases-sonnet-200k/transcript-edge.jsonl"
)

// --- synthetic records, in the compact shape Claude Code really writes ---

func line(v map[string]any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b) + "\n"
}

var uuidN int

func nextUUID() string { uuidN++; return fmt.Sprintf("00000000-0000-4000-8000-%012d", uuidN) }

func assistant(id, model string, in, cc, cr, out int64, content ...map[string]any) string {
	if content == nil {
		content = []map[string]any{{"type": "text", "text": "ok"}}
	}
	return line(map[string]any{
		"parentUuid": nil, "isSidechain": false, "type": "assistant", "uuid": nextUUID(),
		"timestamp": "2026-11-29T21:34:13.529Z", "sessionId": "s1",
		"message": map[string]any{"id": id, "type": "message", "role": "assistant", "model": model,
			"content": content,
			"usage": map[string]any{"input_tokens": in, "cache_creation_input_tokens": cc,
				"cache_read_input_tokens": cr, "output_tokens": out}},
	})
}

func sidechain(s string) string {
	return strings.Replace(s, `"isSidechain":false`, `"isSidechain":true`, 1)
}

func boundary(trigger string, pre, post int64) string {
	return line(map[string]any{
		"parentUuid": nil, "isSidechain": false, "type": "system", "subtype": "compact_boundary",
		"content": "Conversation compacted", "uuid": nextUUID(), "timestamp": "2026-11-29T21:34:25.301Z",
		"compactMetadata": map[string]any{"trigger": trigger, "preTokens": pre, "postTokens": post},
	})
}

func user(content any, extra ...any) string {
	m := map[string]any{"parentUuid": nil, "isSidechain": false, "type": "user", "uuid": nextUUID(),
		"timestamp": "2026-11-29T21:34:13.357Z", "sessionId": "s1",
		"message": map[string]any{"role": "user", "content": content}}
	for i := 0; i+1 < len(extra); i += 2 {
		m[extra[i].(string)] = extra[i+1]
	}
	return line(m)
}

func toolUse(id, name string, input map[string]any) map[string]any {
	return map[string]any{"type": "tool_use", "id": id, "name": name, "input": input}
}

const attachment = `{"parentUuid":"x","isSidechain":false,"attachment":{"type":"date","date":"2026-11-29"},"type":"attachment","uuid":"a","timestamp":"2026-11-29T21:34:13.459Z"}` + "\n"

func write(t testing.TB, content string) string {
	t.Helper()
	p := filepath.Join(testtmp.Dir(t), "t.jsonl")
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func readLines(t testing.TB, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.SplitAfter(strings.TrimSuffix(string(b), "\n"), "\n")
}

// firstLines returns the first n lines of a fixture as a new file.
func firstLines(t *testing.T, path string, n int) string {
	return write(t, strings.Join(readLines(t, path)[:n], "")+"\n")
}

// --- ParseRecord ---

func TestParseRecordFixtures(t *testing.T) {
	tm := func(s string) time.Time { v, _ := time.Parse(time.RFC3339Nano, s); return v }
	tests := []struct {
		name string
		path string
		line int // 1-based
		want Record
	}{
		{"assistant", manualT, 90, Record{Type: "assistant", UUID: "", MessageID: "msg_mock_eee5ed5ad9014861bdb0",
			Model: "claude-opus-5-5", Usage: &Usage{500, 1500, 10000, 120}, Time: tm("2026-11-29T21:34:30.405Z"), ParentUUID: "8efdb6b6-d5b4-45b5-a3fe-034c4a2b9095",
			SessionID: "730c8849-a6f0-454b-a922-063e0b765bf2"}},
		{"boundary", manualT, 60, Record{Type: "system", Subtype: "compact_boundary", Time: tm("2026-11-29T21:34:25.301Z"),
			SessionID:  "730c8849-a6f0-454b-a922-063e0b765bf2",
			Compaction: &Compaction{Trigger: "manual", PreTokens: 140120, PostTokens: 2925, PostKnown: true, Time: tm("2026-11-29T21:34:25.301Z")}}},
		{"summary", manualT, 61, Record{Type: "user", IsCompactSummary: true, Time: tm("2026-11-29T21:34:25.114Z"), ParentUUID: "8b2524ff-03d3-4ebe-bda3-b867c3b7324f",
			SessionID: "730c8849-a6f0-454b-a922-063e0b765bf2"}},
		{"meta", manualT, 62, Record{Type: "user", IsMeta: true, Time: tm("2026-11-29T21:34:24.982Z"), ParentUUID: "89e48eb5-fd36-46ca-8295-1af718f22496",
			SessionID: "730c8849-a6f0-454b-a922-063e0b765bf2"}},
		{"attachment", manualT, 6, Record{Type: "attachment"}},
		{"api-request-shape", manualT, 17, Record{Type: "api-request-shape"}},
		{"auto boundary", autoT, 42, Record{Type: "system", Subtype: "compact_boundary", Time: tm("2026-11-29T21:47:52.033Z"),
			SessionID:  "87244125-e587-4a34-84ff-fd34ded89441",
			Compaction: &Compaction{Trigger: "auto", PreTokens: 190326, PostTokens: 2992, PostKnown: true, Time: tm("2026-11-29T21:47:52.033Z")}}},
		{"tools-used", edgeT, 52, Record{Type: "tools-used"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ln := readLines(t, tt.path)[tt.line-1]
			got, ok := ParseRecord([]byte(ln))
			if !ok {
				t.Fatalf("ParseRecord(line %d) not ok", tt.line)
			}
			got.UUID = "" // not worth spelling out
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("ParseRecord(line %d)\n got %+v\nwant %+v", tt.line, got, tt.want)
			}
			// The same record, compact as Claude Code writes it.
			var v any
			if err := json.Unmarshal([]byte(ln), &v); err != nil {
				t.Fatal(err)
			}
			compact, _ := json.Marshal(v)
			got2, ok := ParseRecord(compact)
			got2.UUID = ""
			if !ok || !reflect.DeepEqual(got2, tt.want) {
				t.Errorf("ParseRecord(compact line %d) = %+v, %v", tt.line, got2, ok)
			}
		})
	}
}

func TestParseRecordEdges(t *testing.T) {
	tests := []struct {
		name   string
		in     string
		ok     bool
		typ    string
		tokens int64
	}{
		{"empty", "", false, "", 0},
		{"not object", `["type","user"]`, false, "", 0},
		{"half written", `{"type":"assistant","message":{"usage":{"input_tokens":5`, false, "", 0},
		{"trailing garbage", `{"type":"mode"} {"type":"user"}`, false, "", 0},
		{"no type", `{"mode":"normal"}`, false, "", 0},
		{"nested type only", `{"message":{"type":"assistant"}}`, false, "", 0},
		{"type number", `{"type":1}`, false, "", 0},
		{"type after nested", `{"message":{"type":"message"},"type":"mode"}`, true, "mode", 0},
		{"escaped type", `{"type":"mo\u0064e"}`, true, "mode", 0},
		{"quote in string", `{"a":"x\"type\":\"user","type":"mode"}`, true, "mode", 0},
		{"spaced", `{ "type" : "mode" }`, true, "mode", 0},
		{"invalid user json", `{"type":"user","x":tru}`, false, "", 0},
		{"negative usage", `{"type":"assistant","message":{"model":"m","usage":{"input_tokens":-5,"cache_read_input_tokens":7}}}`, true, "assistant", 7},
		{"huge usage", `{"type":"assistant","message":{"usage":{"input_tokens":1e300,"cache_read_input_tokens":1e300,"cache_creation_input_tokens":1e30}}}`, true, "assistant", MaxTokens},
		{"fractional usage", `{"type":"assistant","message":{"usage":{"input_tokens":1.5}}}`, true, "assistant", 1},
		{"null usage", `{"type":"assistant","message":{"usage":null}}`, true, "assistant", -1},
		{"bad timestamp", `{"type":"user","timestamp":"yesterday"}`, true, "user", -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, ok := ParseRecord([]byte(tt.in))
			if ok != tt.ok || r.Type != tt.typ {
				t.Fatalf("ParseRecord(%q) = %q, %v; want %q, %v", tt.in, r.Type, ok, tt.typ, tt.ok)
			}
			switch {
			case tt.tokens < 0 && r.Usage != nil:
				t.Errorf("Usage = %+v, want nil", r.Usage)
			case tt.tokens > 0 && (r.Usage == nil || r.Usage.Context() != tt.tokens):
				t.Errorf("Usage = %+v, want context %d", r.Usage, tt.tokens)
			}
		})
	}
}

func TestUsageContextClamps(t *testing.T) {
	tests := []struct {
		u    Usage
		want int64
	}{
		{Usage{500, 1500, 18000, 120}, 20000},
		{Usage{-1, -1, -1, 0}, 0},
		{Usage{MaxTokens, MaxTokens, MaxTokens, 0}, MaxTokens},
		{Usage{1 << 62, 1 << 62, 1 << 62, 0}, MaxTokens},
	}
	for _, tt := range tests {
		if got := tt.u.Context(); got != tt.want {
			t.Errorf("%+v.Context() = %d, want %d", tt.u, got, tt.want)
		}
	}
}

// --- Tail ---

func TestTailFixtures(t *testing.T) {
	tests := []struct {
		name string
		path func(t *testing.T) string
		max  int64
		want Context
	}{
		{"manual: last reply after the boundary", fixed(manualT), 0,
			Context{Tokens: 12000, Output: 120, Model: "claude-opus-5-5", Found: true}},
		{"auto: last reply", fixed(autoT), 0,
			Context{Tokens: 17000, Output: 120, Model: "claude-sonnet-4-5-20250929", Found: true}},
		{"edge: above the window, as reported", fixed(edgeT), 0,
			Context{Tokens: 300000, Output: 120, Model: "claude-sonnet-4-5-20250929", Found: true}},
		{"manual cut just after the boundary", cut(manualT, 60), 0,
			Context{Tokens: 2925, FromBoundary: true, Found: true, Boundary: true}},
		{"manual cut after /compact's records", cut(manualT, 89), 0,
			Context{Tokens: 2925, FromBoundary: true, Found: true, Boundary: true}},
		{"manual cut before the boundary", cut(manualT, 59), 0,
			Context{Tokens: 140000, Output: 120, Model: "claude-opus-5-5", Found: true}},
		{"auto cut between boundary and reply", cut(autoT, 61), 0,
			Context{Tokens: 2992, FromBoundary: true, Found: true, Boundary: true}},
		{"auto cut before any reply", cut(autoT, 18), 0, Context{}},
		{"window too small for any reply", fixed(manualT), 5000, Context{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Tail(tt.path(t), tt.max)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("Tail = %+v\nwant   %+v", got, tt.want)
			}
		})
	}
}

func fixed(p string) func(*testing.T) string { return func(*testing.T) string { return p } }
func cut(p string, n int) func(*testing.T) string {
	return func(t *testing.T) string { return firstLines(t, p, n) }
}

func TestTailSynthetic(t *testing.T) {
	big := strings.Repeat("x", 10<<20)
	tests := []struct {
		name string
		in   string
		max  int64
		want Context
	}{
		{"empty file", "", 0, Context{}},
		{"only newlines", "\n\n\n", 0, Context{}},
		{"only a boundary", boundary("manual", 140120, 2925), 0,
			Context{Tokens: 2925, FromBoundary: true, Found: true, Boundary: true}},
		{"boundary without postTokens", boundary("auto", 190000, 0), 0, Context{Boundary: true}},
		{"no trailing newline, valid", assistant("m1", "opus", 1, 2, 3, 4), 0,
			Context{Tokens: 6, Output: 4, Model: "opus", Found: true}},
		{"half-written last line", assistant("m1", "opus", 1, 2, 3, 4) + assistant("m2", "opus", 10, 20, 30, 40)[:60], 0,
			Context{Tokens: 6, Output: 4, Model: "opus", Found: true, Torn: true}},
		{"sidechain skipped", assistant("m1", "opus", 100, 0, 0, 1) + sidechain(assistant("m2", "haiku", 5, 0, 0, 1)), 0,
			Context{Tokens: 100, Output: 1, Model: "opus", Found: true}},
		{"sidechain boundary skipped", assistant("m1", "opus", 100, 0, 0, 1) + sidechain(boundary("auto", 9, 8)), 0,
			Context{Tokens: 100, Output: 1, Model: "opus", Found: true}},
		{"synthetic skipped", assistant("m1", "opus", 100, 0, 0, 1) + assistant("m2", SyntheticModel, 0, 0, 0, 0), 0,
			Context{Tokens: 100, Output: 1, Model: "opus", Found: true}},
		{"no usage skipped", assistant("m1", "opus", 100, 0, 0, 1) +
			`{"type":"assistant","isSidechain":false,"message":{"id":"m2","model":"opus","content":[]}}` + "\n", 0,
			Context{Tokens: 100, Output: 1, Model: "opus", Found: true}},
		{"duplicated message id", assistant("m1", "opus", 1, 2, 3, 4) + assistant("m1", "opus", 1, 2, 3, 4), 0,
			Context{Tokens: 6, Output: 4, Model: "opus", Found: true}},
		{"reply after boundary", boundary("manual", 10, 5) + assistant("m1", "opus", 7, 0, 0, 1), 0,
			Context{Tokens: 7, Output: 1, Model: "opus", Found: true}},
		{"10 MB line within budget", assistant("m1", "opus", 7, 0, 0, 1) + `{"type":"user","x":"` + big + `"}` + "\n", 16 << 20,
			Context{Tokens: 7, Output: 1, Model: "opus", Found: true}},
		{"10 MB line over budget", assistant("m1", "opus", 7, 0, 0, 1) + `{"type":"user","x":"` + big + `"}` + "\n", 4 << 20,
			Context{}},
		{"10 MB line, no newline at all", `{"type":"user","x":"` + big, 0, Context{}},
		{"reply cut by the window", strings.Repeat(attachment, 2) + assistant("m1", "opus", 7, 0, 0, 1), 100, Context{}},
		{"negative usage", `{"type":"assistant","message":{"model":"m","usage":{"input_tokens":-500}}}`, 0,
			Context{Model: "m", Found: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Tail(write(t, tt.in), tt.max)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("Tail = %+v\nwant   %+v", got, tt.want)
			}
		})
	}
}

// TestTailReadsOnlyTheWindow checks that a line starting before the window
// is never used, even when its tail happens to look complete.
func TestTailReadsOnlyTheWindow(t *testing.T) {
	rec := assistant("m1", "opus", 7, 0, 0, 1)
	p := write(t, rec+strings.Repeat(attachment, 3))
	got, err := Tail(p, int64(len(attachment)*3+len(rec)-1))
	if err != nil || got.Found {
		t.Errorf("Tail with the reply cut by one byte = %+v, %v; want not found", got, err)
	}
	got, err = Tail(p, int64(len(attachment)*3+len(rec)))
	if err != nil || !got.Found {
		t.Errorf("Tail with the reply exactly in the window = %+v, %v; want found", got, err)
	}
}

// --- ScanCompactions ---

func TestScanCompactionsFixtures(t *testing.T) {
	tm := func(s string) time.Time { v, _ := time.Parse(time.RFC3339Nano, s); return v }
	tests := []struct {
		path      string
		n         int
		last      *Compaction
		reclaimed int64 // preTokens − postTokens
	}{
		{manualT, 1, &Compaction{Trigger: "manual", PreTokens: 140120, PostTokens: 2925, PostKnown: true, Time: tm("2026-11-29T21:34:25.301Z")}, 140120 - 2925},
		{autoT, 1, &Compaction{Trigger: "auto", PreTokens: 190326, PostTokens: 2992, PostKnown: true, Time: tm("2026-11-29T21:47:52.033Z")}, 190326 - 2992},
		{edgeT, 0, nil, 0}, // both /compact attempts were blocked by PreCompact
	}
	for _, tt := range tests {
		t.Run(filepath.Base(tt.path), func(t *testing.T) {
			fi, err := os.Stat(tt.path)
			if err != nil {
				t.Fatal(err)
			}
			s, err := ScanCompactions(tt.path, 0, 0)
			if err != nil {
				t.Fatal(err)
			}
			want := Scan{Compactions: tt.n, Offset: fi.Size(), Last: tt.last, Reclaimed: tt.reclaimed}
			if s.At.Offset != s.Offset {
				t.Errorf("At.Offset %d, Offset %d", s.At.Offset, s.Offset)
			}
			s.At = Position{}
			if !reflect.DeepEqual(s, want) {
				t.Errorf("ScanCompactions = %+v (last %+v)\nwant %+v (last %+v)", s, s.Last, want, want.Last)
			}
			// Line by line with a tiny budget gives the same total.
			total, off, calls := 0, int64(0), 0
			for {
				s, err := ScanCompactions(tt.path, off, 30000)
				if err != nil {
					t.Fatal(err)
				}
				total += s.Compactions
				if s.Offset == off {
					break
				}
				if s.Reset {
					t.Fatal("unexpected reset")
				}
				off = s.Offset
				calls++
			}
			if total != tt.n || off != fi.Size() {
				t.Errorf("incremental: %d compactions to offset %d in %d calls; want %d to %d", total, off, calls, tt.n, fi.Size())
			}
		})
	}
}

func TestScanCompactionsIncremental(t *testing.T) {
	b1 := boundary("manual", 1000, 100)
	b2 := boundary("auto", 2000, 200)
	a := assistant("m1", "opus", 1, 2, 3, 4)
	p := write(t, a+b1)
	s, err := ScanCompactions(p, 0, 0)
	if err != nil || s.Compactions != 1 || s.Offset != int64(len(a+b1)) || s.Reset || s.More {
		t.Fatalf("first scan = %+v, %v", s, err)
	}

	// Append one more boundary and half of another line.
	f, _ := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(a + b2 + b1[:40])
	f.Close()
	s2, err := ScanCompactions(p, s.Offset, 0)
	if err != nil || s2.Compactions != 1 || s2.Last.Trigger != "auto" || s2.Offset != int64(len(a+b1+a+b2)) {
		t.Fatalf("second scan = %+v, %v", s2, err)
	}

	// Nothing new: same offset, nothing counted.
	s3, err := ScanCompactions(p, s2.Offset, 0)
	if err != nil || s3.Compactions != 0 || s3.Offset != s2.Offset || s3.Last != nil {
		t.Fatalf("idle scan = %+v, %v", s3, err)
	}

	// Truncated (rewritten) between two calls: start over from 0.
	if err := os.WriteFile(p, []byte(b2), 0o600); err != nil {
		t.Fatal(err)
	}
	s4, err := ScanCompactions(p, s2.Offset, 0)
	if err != nil || !s4.Reset || s4.Compactions != 1 || s4.Offset != int64(len(b2)) {
		t.Fatalf("scan after truncation = %+v, %v", s4, err)
	}
	if s5, _ := ScanCompactions(p, -1, 0); !s5.Reset || s5.Compactions != 1 {
		t.Errorf("negative offset = %+v", s5)
	}
}

func TestScanCompactionsBudget(t *testing.T) {
	b := boundary("manual", 1000, 100)
	long := `{"type":"user","x":"` + strings.Repeat("y", 10<<20) + `"}` + "\n"
	p := write(t, b+long+b+strings.Repeat(attachment, 3)+b+b[:10])
	total, off, calls := 0, int64(0), 0
	for calls < 100 {
		s, err := ScanCompactions(p, off, 1<<20)
		if err != nil {
			t.Fatal(err)
		}
		if s.Reset {
			t.Fatalf("reset at %d", off)
		}
		if s.Offset-off > 1<<20 {
			t.Fatalf("read %d bytes, budget 1 MiB", s.Offset-off)
		}
		total += s.Compactions
		if s.Offset == off {
			if s.More {
				t.Error("More with no progress")
			}
			break
		}
		off = s.Offset
		calls++
	}
	if total != 3 {
		t.Errorf("counted %d compactions past a 10 MB line, want 3", total)
	}
	if want := int64(len(b + long + b + strings.Repeat(attachment, 3) + b)); off != want {
		t.Errorf("offset %d, want %d (before the half line)", off, want)
	}

	if s, err := ScanCompactions(write(t, ""), 0, 0); err != nil || s.At.Offset != 0 || (Scan{Compactions: s.Compactions, Offset: s.Offset, Reset: s.Reset, More: s.More}) != (Scan{}) {
		t.Errorf("empty file = %+v, %v", s, err)
	}
}

// --- Facts ---

func TestFactsFixtures(t *testing.T) {
	texts := func(ps []Prompt) []string {
		var s []string
		for _, p := range ps {
			s = append(s, p.Text)
		}
		return s
	}
	tests := []struct {
		path     string
		prompts  []string
		commands []Command
		skills   []string
		ctx      Context
		n        int
	}{
		{manualT, []string{"first prompt hello", "second prompt MOCK_TOOL please", "third prompt", "fourth prompt", "fifth prompt after compact"},
			nil, []string{"/compact"}, Context{Tokens: 12000, Output: 120, Model: "claude-opus-5-5", Found: true}, 1},
		{autoT, []string{"a1 small", "a2 reports 190k", "a3 next prompt", "a4 one more"},
			nil, nil, Context{Tokens: 17000, Output: 120, Model: "claude-sonnet-4-5-20250929", Found: true}, 1},
		{edgeT, []string{"p1 baseline", "p2 statusline exits 1", "p3 statusline prints nothing", "p4 MOCK_TOOL run a tool",
			"p5 this turn reports 190k context", "p6 next prompt after 190k", "p7 one more"},
			[]Command{{"echo mock-tool-ran", "Echo a marker"}}, []string{"/compact"},
			Context{Tokens: 300000, Output: 120, Model: "claude-sonnet-4-5-20250929", Found: true}, 0},
	}
	for _, tt := range tests {
		t.Run(filepath.Base(tt.path), func(t *testing.T) {
			fs, err := Facts(tt.path, 0, FactLimits{})
			if err != nil {
				t.Fatal(err)
			}
			if got := texts(fs.Prompts); !reflect.DeepEqual(got, tt.prompts) {
				t.Errorf("Prompts = %q\nwant %q", got, tt.prompts)
			}
			if !reflect.DeepEqual(fs.Commands, tt.commands) {
				t.Errorf("Commands = %q, want %q", fs.Commands, tt.commands)
			}
			if !reflect.DeepEqual(fs.Skills, tt.skills) {
				t.Errorf("Skills = %q, want %q", fs.Skills, tt.skills)
			}
			if fs.Files != nil {
				t.Errorf("Files = %q, want none", fs.Files)
			}
			if fs.Context != tt.ctx || fs.Compactions != tt.n || fs.Partial || fs.SessionID == "" {
				t.Errorf("Context %+v, Compactions %d, Partial %v, SessionID %q", fs.Context, fs.Compactions, fs.Partial, fs.SessionID)
			}
			tail, _ := Tail(tt.path, 0)
			if tail != fs.Context {
				t.Errorf("Facts.Context %+v != Tail %+v", fs.Context, tail)
			}
		})
	}
}

func TestFactsSynthetic(t *testing.T) {
	var b strings.Builder
	b.WriteString(user("fix the parser\n<system-reminder>\nsecret harness text\n</system-reminder>"))
	b.WriteString(assistant("m1", "opus", 1, 0, 100, 5, map[string]any{"type": "text", "text": "on it"}))
	// One response, split into one record per content block, usage repeated.
	b.WriteString(assistant("m2", "opus", 1, 0, 200, 5, toolUse("t1", "Write", map[string]any{"file_path": "/p/a.go", "content": "package a"})))
	b.WriteString(assistant("m2", "opus", 1, 0, 200, 5, toolUse("t2", "Edit", map[string]any{"file_path": "/p/b.go", "old_string": "x", "new_string": "y"})))
	b.WriteString(assistant("m2", "opus", 1, 0, 200, 5, toolUse("t2", "Edit", map[string]any{"file_path": "/p/b.go", "old_string": "x", "new_string": "y"}))) // written twice
	b.WriteString(user([]any{map[string]any{"tool_use_id": "t1", "type": "tool_result", "content": "ok"}}))
	b.WriteString(assistant("m3", "opus", 1, 0, 300, 5,
		toolUse("t3", "Bash", map[string]any{"command": "go test ./...", "description": "Run tests"}),
		toolUse("t4", "NotebookEdit", map[string]any{"notebook_path": "/p/n.ipynb", "new_source": "1"}),
		toolUse("t5", "MultiEdit", map[string]any{"file_path": "/p/a.go", "edits": []any{}}),
		toolUse("t6", "Skill", map[string]any{"skill": "dataviz", "args": "bar chart"}),
		toolUse("t7", "Read", map[string]any{"file_path": "/p/readonly.go"}),
	))
	b.WriteString(sidechain(assistant("m4", "haiku", 1, 0, 9, 5, toolUse("t8", "Bash", map[string]any{"command": "ls"})))) // no description
	b.WriteString(sidechain(user("subagent prompt")))
	b.WriteString(user("<local-command-caveat>Caveat: …</local-command-caveat>", "isMeta", true))
	b.WriteString(user("<command-name>/review-pr</command-name>\n<command-message>review-pr</command-message>\n<command-args>123</command-args>"))
	b.WriteString(user("<local-command-stdout>done</local-command-stdout>"))
	b.WriteString(user("/dataviz make a chart"))
	b.WriteString(user([]any{map[string]any{"type": "text", "text": "what is in this image?"}, map[string]any{"type": "image", "source": map[string]any{}}}))
	b.WriteString(user([]any{map[string]any{"type": "text", "text": "[Request interrupted by user for tool use]"}}))
	b.WriteString(user("Summary: …", "isCompactSummary", true, "parentUuid", "b1")) // its boundary's compaction, not another (a chain's first: 1.0.6x)
	b.WriteString(assistant("m5", "opus", 1, 0, 400, 5, toolUse("t9", "Bash", map[string]any{"command": "go test ./...", "description": "Run tests again"})))
	b.WriteString(assistant("m6", SyntheticModel, 0, 0, 0, 0))

	fs, err := Facts(write(t, b.String()), 0, FactLimits{})
	if err != nil {
		t.Fatal(err)
	}
	var prompts []string
	for _, p := range fs.Prompts {
		prompts = append(prompts, p.Text)
	}
	want := FactSet{
		SessionID: "s1",
		Files:     []string{"/p/b.go", "/p/n.ipynb", "/p/a.go"},
		Commands:  []Command{{"ls", ""}, {"go test ./...", "Run tests again"}},
		Skills:    []string{"dataviz", "/review-pr 123", "/dataviz"},
		Context:   Context{Tokens: 401, Output: 5, Model: "opus", Found: true},
	}
	if w := []string{"fix the parser", "/dataviz make a chart", "what is in this image?"}; !reflect.DeepEqual(prompts, w) {
		t.Errorf("Prompts = %q\nwant %q", prompts, w)
	}
	fs.Prompts = nil
	if !reflect.DeepEqual(fs, want) {
		t.Errorf("Facts =\n %+v\nwant\n %+v", fs, want)
	}

	// Limits keep the most recent.
	fs, _ = Facts(write(t, b.String()), 0, FactLimits{Prompts: 1, Files: 2, Commands: 1, Skills: 1})
	if len(fs.Prompts) != 1 || fs.Prompts[0].Text != "what is in this image?" ||
		!reflect.DeepEqual(fs.Files, []string{"/p/n.ipynb", "/p/a.go"}) ||
		!reflect.DeepEqual(fs.Commands, []Command{{"go test ./...", "Run tests again"}}) ||
		!reflect.DeepEqual(fs.Skills, []string{"/dataviz"}) {
		t.Errorf("limited Facts = %+v", fs)
	}
}

func TestFactsWindow(t *testing.T) {
	old := user("old prompt") + assistant("m1", "opus", 1, 0, 0, 1, toolUse("t1", "Write", map[string]any{"file_path": "/old"}))
	recentPart := user("new prompt") + boundary("auto", 100, 10)
	p := write(t, old+recentPart)
	fs, err := Facts(p, int64(len(recentPart)+5), FactLimits{})
	if err != nil {
		t.Fatal(err)
	}
	if !fs.Partial || len(fs.Prompts) != 1 || fs.Prompts[0].Text != "new prompt" || fs.Files != nil ||
		fs.Compactions != 1 || fs.Context != (Context{Tokens: 10, FromBoundary: true, Found: true, Boundary: true}) {
		t.Errorf("Facts over the last bytes = %+v", fs)
	}
	if fs, err := Facts(write(t, ""), 0, FactLimits{}); err != nil || !reflect.DeepEqual(fs, FactSet{}) {
		t.Errorf("Facts(empty) = %+v, %v", fs, err)
	}
}

func TestStripReminders(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain", "plain"},
		{"a<system-reminder>x</system-reminder>b<system-reminder>y</system-reminder>c", "abc"},
		{"a<system-reminder>unclosed", "a"},
		{"</system-reminder>a", "</system-reminder>a"},
	}
	for _, tt := range tests {
		if got := stripReminders(tt.in); got != tt.want {
			t.Errorf("stripReminders(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// --- fuzzing ---

func fixtureSeeds(f *testing.F) [][]byte {
	var seeds [][]byte
	for _, p := range []string{manualT, autoT, edgeT} {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		for _, ln := range bytes.SplitAfter(b, []byte("\n")) {
			var v any
			if json.Unmarshal(ln, &v) == nil {
				c, _ := json.Marshal(v) // compact, as Claude Code writes
				if len(c) < 4096 {
					seeds = append(seeds, ln, c)
				}
			}
		}
	}
	return seeds
}

func FuzzParseRecord(f *testing.F) {
	for _, s := range fixtureSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		r, ok := ParseRecord(line)
		if !ok {
			return
		}
		if r.Usage != nil {
			if c := r.Usage.Context(); c < 0 || c > MaxTokens {
				t.Fatalf("Context() = %d", c)
			}
		}
		// Against encoding/json as the reference: a valid object's "type".
		var ref map[string]json.RawMessage
		if json.Unmarshal(line, &ref) != nil {
			return
		}
		var typ string
		if json.Unmarshal(ref["type"], &typ) != nil {
			return // e.g. a "TYPE" key that only case-insensitive matching sees
		}
		if r.Type != typ {
			t.Fatalf("Type = %q, encoding/json says %q", r.Type, typ)
		}
	})
}

func FuzzTail(f *testing.F) {
	seeds := fixtureSeeds(f)
	for i := 0; i+2 < len(seeds); i += 7 {
		f.Add(bytes.Join(seeds[i:i+3], []byte("\n")), int64(len(seeds[i])))
	}
	f.Add([]byte(boundary("manual", -5, -1)), int64(0))
	f.Add([]byte(assistant("m", "x", -1, -1e18, 1e18, -3)), int64(10))
	dir := testtmp.Dir(f)
	f.Fuzz(func(t *testing.T, data []byte, max int64) {
		p := filepath.Join(dir, "t.jsonl")
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		c, err := Tail(p, max)
		if err != nil {
			t.Fatal(err)
		}
		if c.Tokens < 0 || c.Tokens > MaxTokens || c.Output < 0 || c.Output > MaxTokens {
			t.Fatalf("Tail = %+v", c)
		}
		if !c.Found && c.Tokens != 0 {
			t.Fatalf("Tail = %+v: tokens without Found", c)
		}
		fs, err := Facts(p, max, FactLimits{})
		if err != nil {
			t.Fatal(err)
		}
		if fs.Context != c { // the same window, read forwards
			t.Fatalf("Facts.Context %+v != Tail %+v", fs.Context, c)
		}
		s, err := ScanCompactions(p, max%int64(len(data)+1), max)
		if err != nil || s.Offset < 0 || s.Offset > int64(len(data)) {
			t.Fatalf("ScanCompactions = %+v, %v", s, err)
		}
	})
}
