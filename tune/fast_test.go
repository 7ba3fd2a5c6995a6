package tune

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/zoneline/zoneline/transcript"
	"github.com/zoneline/zoneline/tune/internal/gen"
)

// wanted reports whether ParseRecord makes of line a record tune counts.
func wanted(line []byte) bool {
	rec, ok := transcript.ParseRecord(line)
	return ok && (rec.IsCompactBoundary() || (rec.Type == "assistant" && rec.Usage != nil))
}

// TestCandidateKeepsEveryWantedLine checks the prefilter against ParseRecord on every line of
// the real captures and of a generated session: it may pass extra lines, never drop one.
func TestCandidateKeepsEveryWantedLine(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "claude-code", "*", "*.jsonl"))
	var gen1 bytes.Buffer
	if err := gen.Write(&gen1, autoSession(3)); err != nil {
		t.Fatal(err)
	}
	inputs := [][]byte{gen1.Bytes()}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, data)
	}
	kept, total, want := 0, 0, 0
	for _, data := range inputs {
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(nil, MaxLine)
		for sc.Scan() {
			line := sc.Bytes()
			total++
			c := candidate(line)
			if c {
				kept++
			}
			if wanted(line) {
				want++
				if !c {
					t.Errorf("prefilter drops %.200s", line)
				}
			}
		}
	}
	if want == 0 || kept >= total/2 {
		t.Errorf("kept %d of %d lines for %d wanted: the prefilter should pass few", kept, total, want)
	}
}

// asWritten reports whether line is shaped as Claude Code writes JSON: no escapes, the one
// "type" key, and "usage" in its exact case. encoding/json accepts "usAge" and a repeated
// "type" (the last wins); the prefilter assumes neither (see worker.line).
func asWritten(line []byte) bool {
	return bytes.IndexByte(line, '\\') < 0 && bytes.Count(line, []byte(`"type"`)) <= 1 &&
		bytes.Count(bytes.ToLower(line), []byte("usage")) == bytes.Count(line, []byte("usage"))
}

// FuzzCandidate: for any line shaped as Claude Code writes JSON, the prefilter never drops a
// record ParseRecord would count.
func FuzzCandidate(f *testing.F) {
	for _, s := range []string{
		`{"type":"assistant","message":{"model":"m","id":"x","usage":{"input_tokens":5}}}`,
		`{"type":"system","subtype":"compact_boundary","compactMetadata":{"trigger":"auto"}}`,
		`{"type":"user","message":{"content":"usage"}}`,
		`{"parentUuid":null,"type" : "system","subtype":"compact_boundary"}`,
		`{"a":{"type":"user"},"type":"assistant","message":{"usage":{}}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		if asWritten(line) && wanted(line) && !candidate(line) {
			t.Errorf("prefilter drops %q", line)
		}
	})
}
