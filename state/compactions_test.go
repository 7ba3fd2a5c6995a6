package state

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
	"time"
)

// TestCompactionsCodec: what AppendJSON writes, encoding/json reads back the same, and Decode
// reads what encoding/json writes; a field of the wrong type is lost alone.
func TestCompactionsCodec(t *testing.T) {
	at := time.Date(2026, 11, 29, 22, 12, 49, 5e8, time.UTC)
	full := Compactions{Count: 2, Delivered: 1, DeliveredPrompt: "p\"1", Pending: 2, HeldFor: 2, HeldAt: at,
		Records: []CompactionRecord{{N: 1, Time: at, Trigger: "auto", SummaryChars: 900, PromptID: "p1", Restore: "session_start"}, {N: 2, Time: at, Trigger: "manual"}}}
	norm := func(c Compactions) Compactions { // no records, nil or empty, are the same
		if len(c.Records) == 0 {
			c.Records = nil
		}
		return c
	}
	for _, in := range []Compactions{full, {}} {
		var ref Compactions
		if err := json.Unmarshal(in.AppendJSON(nil), &ref); err != nil || !reflect.DeepEqual(norm(ref), in) {
			t.Errorf("encoding/json reads %s as %+v, %v", in.AppendJSON(nil), ref, err)
		}
		data, _ := json.MarshalIndent(in, "", "  ")
		var back Compactions
		if err := back.Decode(data); err != nil || !reflect.DeepEqual(norm(back), in) {
			t.Errorf("Decode(%s) = %+v, %v", data, back, err)
		}
	}
	var c Compactions
	err := c.Decode([]byte(`{"pending":3,"records":[{"n":1,"time":5},{"n":2}],"count":"x"}`))
	if err == nil || err.Error() != `field "records[].time" has the wrong type` || c.Pending != 3 || len(c.Records) != 2 || c.Records[1].N != 2 {
		t.Errorf("lenient: %+v, %v", c, err)
	}
}

// FuzzCompactionsMatchEncodingJSON: on any input encoding/json reads without error, Decode
// reads the same (counts clamped to 0..2³¹-1; inputs where encoding/json's own quirks differ
// on purpose, duplicate keys and Unicode case folding, are left out).
func FuzzCompactionsMatchEncodingJSON(f *testing.F) {
	f.Add([]byte(`{"count":1,"delivered":1,"pending":0,"records":[{"n":1,"time":"2026-11-29T22:12:49Z","trigger":"auto","summary_chars":5}]}`))
	f.Add([]byte(`{"COUNT":2,"held_at":"2026-11-29T22:12:49.5+01:00","records":null,"x":[{}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var ref Compactions
		if json.Unmarshal(data, &ref) != nil || bytes.Contains(data, []byte(`\u`)) || bytes.ContainsAny(data, "\u212a\u017f") {
			return
		}
		if hasDuplicateKeys(data) {
			return
		}
		var got Compactions
		if err := got.Decode(data); err != nil {
			t.Fatalf("%s: encoding/json reads it, Decode: %v", data, err)
		}
		clamp := func(n *int) { *n = max(0, min(*n, maxCount)) }
		clamp(&ref.Count)
		clamp(&ref.Delivered)
		clamp(&ref.Pending)
		clamp(&ref.HeldFor)
		for i := range ref.Records {
			clamp(&ref.Records[i].N)
			clamp(&ref.Records[i].SummaryChars)
		}
		if len(ref.Records) == 0 && len(got.Records) == 0 {
			ref.Records, got.Records = nil, nil
		}
		if !reflect.DeepEqual(got, ref) {
			t.Fatalf("%s:\n Decode        %+v\n encoding/json %+v", data, got, ref)
		}
	})
}

// hasDuplicateKeys reports whether an object in data (valid JSON) names a key twice, ASCII
// case aside: encoding/json merges a repeated key into the value read before, Decode reads it
// afresh.
func hasDuplicateKeys(data []byte) bool {
	type frame struct {
		obj, key bool // an object; expecting a key
		seen     map[string]bool
	}
	var stack []*frame
	dec := json.NewDecoder(bytes.NewReader(data))
	for {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			stack = append(stack, &frame{obj: tok == json.Delim('{'), key: true, seen: map[string]bool{}})
			continue
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
			if len(stack) > 0 && stack[len(stack)-1].obj {
				stack[len(stack)-1].key = true
			}
			continue
		}
		if top == nil || !top.obj {
			continue
		}
		if top.key {
			k, _ := tok.(string)
			k = string(bytes.ToLower([]byte(k)))
			if top.seen[k] {
				return true
			}
			top.seen[k], top.key = true, false
		} else {
			top.key = true
		}
	}
}
