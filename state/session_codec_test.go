package state

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestSessionKeysMatchTags: sessionFields names every field's json tag, in field order (the
// round trip below holds each key's reader and writer to its field, and omitempty to the tag).
func TestSessionKeysMatchTags(t *testing.T) {
	typ := reflect.TypeOf(Session{})
	var tags []string
	for i := range typ.NumField() {
		if tag := typ.Field(i).Tag.Get("json"); tag != "-" {
			tags = append(tags, strings.Split(tag, ",")[0])
		}
	}
	var keys []string
	for _, k := range sessionFields {
		keys = append(keys, k.Key)
	}
	if strings.Join(keys, " ") != strings.Join(tags, " ") {
		t.Fatalf("sessionFields and Session's tags differ: update the table\n keys %v\n tags %v", keys, tags)
	}
}

// TestSessionCodecMatchesEncodingJSON: the hand codec writes what encoding/json writes for
// Session's tags (byte for byte, as MarshalIndent), and reads back what encoding/json wrote.
func TestSessionCodecMatchesEncodingJSON(t *testing.T) {
	full := Session{ID: "aaa8e696-ca66-4fcf-8fb3-651eb7e68c12", Updated: time.Date(2026, 11, 29, 22, 12, 49, 5e8, time.UTC),
		Tokens: 142000, Window: 200000, WindowGuessed: true, AutoCompact: 167000, Zone: "dumb", Model: "Opus \"5.5\" <&>", ModelID: "claude-opus-5-5",
		Cwd: "/home/u/é\n\u2028", Project: "/home/u/p", Version: "2.1.332", Compactions: 3, Reclaimed: 98000, Transcript: "/t.jsonl",
		TranscriptOffset: 1 << 40, TranscriptDev: 65024, TranscriptIno: 1<<63 + 5, TranscriptSum: 0xcbf29ce484222325, TranscriptCounted: true, Pane: "%3", TmuxSocket: "/tmp/tmux-0/default", RenderMicros: 812}
	bare := full
	bare.Pane, bare.TmuxSocket, bare.Reclaimed, bare.TranscriptCounted, bare.Updated = "", "", 0, false, time.Date(2026, 1, 2, 3, 4, 5, 0, time.FixedZone("", 3600))
	for _, in := range []Session{full, bare, {}} {
		data := in.appendJSON(nil)
		var buf strings.Builder
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(in); err != nil {
			t.Fatal(err)
		}
		if want := strings.TrimSuffix(buf.String(), "\n"); string(data) != want {
			t.Errorf("appendJSON:\n%s\nencoding/json:\n%s", data, want)
		}
		var back Session
		if err := back.decode([]byte(buf.String())); err != nil {
			t.Fatal(err)
		}
		if !back.Updated.Equal(in.Updated) {
			t.Errorf("updated %v, want %v", back.Updated, in.Updated)
		}
		back.Updated = in.Updated
		if back != in {
			t.Errorf("round trip:\n in %+v\nback %+v", in, back)
		}
	}
}

func TestSessionDecodeLenient(t *testing.T) {
	var s Session
	err := s.decode([]byte(`{"tokens":"x","window":5,"compactions":1e12,"transcript_counted":null,"extra":[1,{"a":2}]}`))
	if err == nil || s.Window != 5 || s.Compactions != 1<<31-1 || s.TranscriptCounted {
		t.Errorf("%+v, %v", s, err)
	}
	if err := s.decode([]byte(`{"compactions":-3}`)); err != nil || s.Compactions != 0 {
		t.Errorf("negative compactions: %d, %v", s.Compactions, err)
	}
}

func TestSessionCorrupt(t *testing.T) {
	for _, in := range []string{"", "{", `[]`, "\x00garbage", `{"tokens":1,}`} {
		var s Session
		if err := s.decode([]byte(in)); err == nil {
			t.Errorf("%q: no error", in)
		}
	}
}
