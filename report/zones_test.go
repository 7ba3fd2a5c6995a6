package report

import (
	"strings"
	"testing"
)

func TestRise(t *testing.T) {
	flat := func(calls, events int64, n int) []Band {
		var bs []Band
		for i := range n {
			bs = append(bs, Band{From: int64(i) * BandStep, Calls: calls, Errors: events})
		}
		return bs
	}
	steep := append(flat(100, 2, 5), flat(100, 12, 5)...)
	for i := range steep {
		steep[i].From = int64(i) * BandStep
	}
	noisy := append(flat(30, 1, 5), flat(30, 2, 5)...)
	for i := range noisy {
		noisy[i].From = int64(i) * BandStep
	}
	for _, tc := range []struct {
		name  string
		bands []Band
		at    int64
		note  string
	}{
		{"too little", flat(10, 1, 5), 0, "too little data: 50 tool calls"},
		{"flat", flat(100, 5, 10), 0, "no point found"},
		{"a clear step at 50k", steep, 50_000, "from 50k tokens on, errors and interruptions rise from 2.0 to 12.0 per 100 tool calls"},
		{"twice the rate, but 5 against 10 events", noisy, 0, "no point found"},
	} {
		at, note := rise(tc.bands)
		if at != tc.at || !strings.Contains(note, tc.note) {
			t.Errorf("%s: rise = %d %q, want %d %q", tc.name, at, note, tc.at, tc.note)
		}
	}
}
