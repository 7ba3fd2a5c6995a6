package payload

import (
	"bytes"
	"encoding/json"
	"errors"
	"github.com/zoneline/zoneline/internal/jsonscan"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The reference: the same payload types decoded by encoding/json, which the scanner replaces
// on the hot path. FuzzScanMatchesEncodingJSON holds the scanner to it.
type refNum int64

func (n *refNum) UnmarshalJSON(b []byte) error {
	*n = refNum(parseNum(b))
	return nil
}

type refStatusline struct {
	SessionID      string `json:"session_id"`
	TranscriptPath string `json:"transcript_path"`
	Cwd            string `json:"cwd"`
	Version        string `json:"version"`
	Model          *struct {
		ID          string `json:"id"`
		DisplayName string `json:"display_name"`
	} `json:"model"`
	Workspace *struct {
		CurrentDir string `json:"current_dir"`
		ProjectDir string `json:"project_dir"`
	} `json:"workspace"`
	ContextWindow *struct {
		Size         refNum `json:"context_window_size"`
		CurrentUsage *struct {
			Input         refNum `json:"input_tokens"`
			Output        refNum `json:"output_tokens"`
			CacheCreation refNum `json:"cache_creation_input_tokens"`
			CacheRead     refNum `json:"cache_read_input_tokens"`
		} `json:"current_usage"`
	} `json:"context_window"`
}

// view is what zoneline reads from a statusline payload.
type view struct {
	Session, Transcript, Cwd, Version, ModelID, ModelName, Dir string
	Size, Tokens                                               int64
	Known                                                      bool
}

func scanView(p *Statusline) view {
	v := view{Session: p.SessionID, Transcript: p.TranscriptPath, Cwd: p.Cwd, Version: p.Version, ModelID: p.ModelID(), Dir: p.Dir()}
	if p.Model != nil {
		v.ModelName = p.Model.DisplayName
	}
	if p.ContextWindow != nil {
		v.Size = int64(p.ContextWindow.Size)
	}
	v.Tokens, v.Known = p.Tokens()
	return v
}

func refView(r *refStatusline) view {
	v := view{Session: r.SessionID, Transcript: r.TranscriptPath, Cwd: r.Cwd, Version: r.Version, Dir: r.Cwd}
	if r.Model != nil {
		v.ModelID, v.ModelName = r.Model.ID, r.Model.DisplayName
	}
	if r.Workspace != nil {
		switch {
		case r.Workspace.ProjectDir != "":
			v.Dir = r.Workspace.ProjectDir
		case r.Workspace.CurrentDir != "":
			v.Dir = r.Workspace.CurrentDir
		}
	}
	if cw := r.ContextWindow; cw != nil {
		v.Size = int64(cw.Size)
		if u := cw.CurrentUsage; u != nil && (u.Input|u.Output|u.CacheCreation|u.CacheRead) != 0 {
			v.Tokens = Usage{Input: Num(u.Input), CacheCreation: Num(u.CacheCreation), CacheRead: Num(u.CacheRead)}.Context()
			v.Known = true
		}
	}
	return v
}

// comparable reports whether encoding/json's behaviour on data is one the scanner is meant to
// reproduce: encoding/json also folds the Unicode case pairs K/K (U+212A) and s/ſ (U+017F) in
// keys, and may fill part of a field before a type error; those are left out.
func comparable(data []byte) bool {
	l := bytes.ToLower(data)
	return !bytes.Contains(data, []byte("\u212a")) && !bytes.Contains(data, []byte("\u017f")) &&
		!bytes.Contains(l, []byte(`\u212a`)) && !bytes.Contains(l, []byte(`\u017f`))
}

func checkAgainstReference(t *testing.T, data []byte) {
	p, err := DecodeStatusline(data)
	if p == nil {
		t.Fatal("nil payload")
	}
	var r refStatusline
	rerr := json.Unmarshal(bytes.TrimSpace(data), &r)
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		if err == nil {
			t.Fatalf("%q: want an error for a non-object", data)
		}
		return
	}
	var syn *json.SyntaxError
	if errors.As(rerr, &syn) || (rerr != nil && strings.Contains(rerr.Error(), "exceeded max depth")) {
		if err == nil || !strings.Contains(err.Error(), "not valid JSON") {
			t.Fatalf("%q: encoding/json: %v; scanner: %v (want a syntax error)", data, rerr, err)
		}
		return
	}
	if (rerr == nil) != (err == nil) {
		t.Fatalf("%q: encoding/json err %v; scanner err %v", data, rerr, err)
	}
	if rerr != nil {
		return // a type error: encoding/json may have filled part of the field
	}
	if got, want := scanView(p), refView(&r); got != want {
		t.Fatalf("%q:\n scanner %+v\nencoding/json %+v", data, got, want)
	}
}

func TestScanMatchesEncodingJSON(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "claude-code", "*", "statusline-*.json"))
	for _, f := range files {
		data, _ := os.ReadFile(f)
		checkAgainstReference(t, data)
	}
	for _, in := range []string{
		`{"SESSION_ID":"a","Model":{"ID":"m"}}`,
		`{"model":{"id":"a"},"model":{"display_name":"b"}}`,
		`{"model":{"id":"a"},"model":null}`,
		`{"context_window":{"current_usage":{"input_tokens":1}},"context_window":{"context_window_size":5}}`,
		`{"cwd":"a\"b\\c\/d\n\t"}`,
		`{"cwd":"\u00e9\u20ac"}`,
		"{\"cwd\":\"\xff\xfe\xe2\x82\"}",
		`{"cwd":null,"version":"1"}`,
		`{"a":[1,{"b":[true,false,null,-0.5e+3]}],"cwd":"x"}`,
		`{"cwd":"x"} trailing`,
		`{"cwd":"x",}`,
		`{"cwd":01}`,
		`{"cwd":"x"`,
		`{"context_window":{"context_window_size":"200000","current_usage":{"input_tokens":"12","cache_read_input_tokens":1e3}}}`,
		`{"context_window":{"context_window_size":[1],"current_usage":{"input_tokens":{"a":1}}}}`,
		`{"x":-}`, `{"x":1.}`, `{"x":.5}`, `{"x":1e}`, `{"x":tru}`, `{"x":"\x"}`, "{\"x\":\"a\x01\"}",
	} {
		checkAgainstReference(t, []byte(in))
	}
}

func FuzzScanMatchesEncodingJSON(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "claude-code", "*", "statusline-*.json"))
	for _, file := range files {
		data, _ := os.ReadFile(file)
		f.Add(data)
	}
	f.Add([]byte(`{"model":{"id":"a"},"model":{"display_name":"b"},"cwd":"\u00e9"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if !comparable(data) {
			return
		}
		checkAgainstReference(t, data)
	})
}

func TestUnquote(t *testing.T) {
	tests := map[string]string{
		`plain`:        "plain",
		`a\"b\\c\/d`:   `a"b\c/d`,
		`\b\f\n\r\t`:   "\b\f\n\r\t",
		`\u00e9`:       "é",
		`\ud83d\ude00`: "😀",
		`\ud83d`:       "\ufffd",
		`\ude00\ud83d`: "\ufffd\ufffd",
		`\ud83dx`:      "\ufffdx",
		"\xff":         "\ufffd",
		"ok\xe2\x82":   "ok\ufffd\ufffd",
		`\ud83d\u0041`: "\ufffdA",
	}
	for in, want := range tests {
		var ref string
		json.Unmarshal([]byte(`"`+in+`"`), &ref)
		if got := jsonscan.Unquote([]byte(in)); got != want || got != ref {
			t.Errorf("unquote(%q) = %q, want %q (encoding/json: %q)", in, got, want, ref)
		}
	}
}

func BenchmarkDecodeStatusline(b *testing.B) {
	data, err := os.ReadFile(filepath.Join("..", "testdata", "claude-code", "edge-cases-sonnet-200k", "statusline-edge-06-ctx-180k.json"))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := DecodeStatusline(data); err != nil {
			b.Fatal(err)
		}
	}
}
