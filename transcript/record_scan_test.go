package transcript

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// checkScanMatchesJSON decodes line with jsonscan (ParseRecord's path) and with encoding/json
// (what ParseRecord used, and Facts still uses) and fails on any difference.
func checkScanMatchesJSON(t *testing.T, line []byte) {
	t.Helper()
	typ, ok := topLevelType(line)
	if !ok {
		return
	}
	switch typ {
	case "user", "assistant", "system":
	default:
		return
	}
	var ws, wj wireRecord
	okScan := scanRecord(line, &ws)
	okJSON := json.Unmarshal(line, &wj) == nil
	if okScan != okJSON {
		t.Fatalf("%q: jsonscan ok=%v, encoding/json ok=%v", line, okScan, okJSON)
	}
	if !okScan {
		return
	}
	if rs, rj := recordOf(typ, &ws), recordOf(typ, &wj); !reflect.DeepEqual(rs, rj) {
		t.Fatalf("%q:\njsonscan      %+v\nencoding/json %+v", line, rs, rj)
	}
	// message.content, kept raw when asked for (Facts), as encoding/json hands it over.
	var ref struct {
		Message struct {
			Content json.RawMessage `json:"content"`
		} `json:"message"`
	}
	if err := json.Unmarshal(line, &ref); err != nil {
		t.Fatalf("%q: %v", line, err)
	}
	content := []byte{}
	if _, ok := ParseRecordContent(line, &content); !ok || !bytes.Equal(content, ref.Message.Content) {
		t.Fatalf("%q: content %q (ok %v), encoding/json %q", line, content, ok, ref.Message.Content)
	}
}

var scanSeeds = []string{
	`{"type":"user","isSidechain":true,"isSidechain":null,"isMeta":true,"isMeta":null,"isCompactSummary":true,"isCompactSummary":false}`,
	`{"type":"user","isMeta":true,"isMeta":"x"}`,
	`{"type":"assistant","message":{"id":"m1","model":"claude","usage":{"input_tokens":5,"cache_creation_input_tokens":7,"cache_read_input_tokens":9,"output_tokens":1}},"uuid":"u","isSidechain":false}`,
	`{"type":"assistant","message":{"usage":{"input_tokens":1,"cache_read_input_tokens":2},"usage":{"input_tokens":5}}}`,
	`{"type":"assistant","message":{"usage":{"input_tokens":1}},"message":{"usage":null}}`,
	`{"type":"assistant","message":{"usage":null},"message":{"usage":{"output_tokens":3}}}`,
	`{"type":"assistant","message":null}`,
	`{"type":"assistant","message":[]}`,
	`{"type":"assistant","message":{"usage":[1]}}`,
	`{"type":"assistant","message":{"usage":{"input_tokens":"5"}}}`,
	`{"type":"assistant","message":{"usage":{"input_tokens":1e400}}}`,
	`{"type":"assistant","message":{"usage":{"input_tokens":-1.5e3,"output_tokens":null}}}`,
	`{"type":"assistant","MESSAGE":{"ID":"x","Usage":{"INPUT_TOKENS":4}},"IsSidechain":true}`,
	`{"type":"assistant","message":{"\u0075sage":{"input_tokens":4}},"isSide\u0063hain":true}`,
	`{"type":"assistant","isSidechain":"yes"}`,
	`{"type":"assistant","isSidechain":null,"isMeta":true,"isCompactSummary":false}`,
	`{"type":"user","uuid":5}`,
	`{"type":"user","sessionId":"a","session_id":"b","timestamp":"2026-11-30T01:02:03.456Z"}`,
	`{"type":"user","timestamp":"yesterday","message":{"content":[{"type":"text","text":"hi \u00e9 \ud83d\ude00"}]}}`,
	`{"type":"system","subtype":"compact_boundary","compactMetadata":{"trigger":"manual","preTokens":140120,"postTokens":2925}}`,
	`{"type":"system","subtype":"compact_boundary","compactMetadata":null}`,
	`{"type":"system","subtype":"compact_boundary","compactMetadata":{"trigger":"auto"},"compactMetadata":{"postTokens":5}}`,
	`{"type":"system","subtype":"compact_boundary","compactMetadata":"x"}`,
	`{"type":5,"type":"user"}`,
	`{"type":"user","x":{"a":[1,2,{"b":null}],"c":"\u0000"}}`,
	`{"type":"user","message":{"content":"` + "\xff\xfe" + `"}}`,
	`{"type":"user"} x`,
	`{"type":"user",}`,
	`{"type":"assistant","message":{"usage":{"input_tokens":01}}}`,
	`{"type":"system","ſubtype":"compact_boundary","compactMetadata":{"postTokens":7}}`,
	`{"type":"assistant","message":{"usage":{"input_toKens":4,"cache_read_input_tokens":2}}}`,
	`{"type":"system","subtype":"compact_boundary","compactMetadata":{"trigger":"auto","preTokens":9,"postTokens":null}}`,
	`{"type":"system","subtype":"compact_boundary","compactMetadata":{"postTokens":3},"compactMetadata":{"postTokens":null}}`,
	`{"type":"user","parentUuid":null,"isCompactSummary":true}`,
	`{"type":"user","parentUuid":7}`,
}

func TestScanRecordMatchesJSON(t *testing.T) {
	for _, s := range scanSeeds {
		checkScanMatchesJSON(t, []byte(s))
	}
	files, _ := filepath.Glob("../testdata/claude-code/*/*.jsonl")
	more, _ := filepath.Glob("testdata/realworld/*.jsonl") // the older and newer shapes: postTokens absent, parentUuid, …
	files = append(files, more...)
	if len(files) == 0 {
		t.Fatal("no recorded transcripts")
	}
	n := 0
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(nil, 16<<20)
		for sc.Scan() {
			checkScanMatchesJSON(t, sc.Bytes())
			n++
		}
		fh.Close()
	}
	if n < 50 {
		t.Fatalf("only %d recorded lines", n)
	}
}

func FuzzParseRecordScan(f *testing.F) {
	for _, s := range scanSeeds {
		f.Add(s)
	}
	f.Add(strings.Repeat(`{"type":"user","a":`, 50) + `1` + strings.Repeat(`}`, 50))
	f.Fuzz(func(t *testing.T, line string) {
		checkScanMatchesJSON(t, []byte(line))
	})
}
