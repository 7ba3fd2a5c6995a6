package report

import (
	"fmt"
	"math"
	"slices"

	"github.com/zoneline/zoneline/tune"
	"github.com/zoneline/zoneline/zones"
)

// modelZones sums one model's histogram into its smart, warn and dumb zones (each bucket by
// its lower end) and bands, and finds where the rates rise.
func modelZones(name string, window int64, source string, th zones.Thresholds, m *modelStats) ModelZones {
	z := ModelZones{Model: name, Window: window, WindowSource: source, Warn: th.Warn, Dumb: th.Dumb,
		Sessions: m.sessions, SessionIDs: slices.Compact(slices.Sorted(slices.Values(m.ids))), Bands: []Band{}}
	zs := []ZoneStats{{Zone: "smart", From: 0, To: th.Warn}, {Zone: "warn", From: th.Warn, To: th.Dumb}, {Zone: "dumb", From: th.Dumb}}
	for i, b := range m.buckets {
		lo := int64(i) * Bucket
		k := int(zones.Classify(lo, th)) - int(zones.Smart)
		s := &zs[k]
		s.Turns += b.turns
		s.Calls += b.calls
		s.Errors += b.errors
		s.Interrupts += b.interrupts
		z.Turns += b.turns
		bi := int(lo / BandStep)
		for len(z.Bands) <= bi {
			z.Bands = append(z.Bands, Band{From: int64(len(z.Bands)) * BandStep})
		}
		bd := &z.Bands[bi]
		bd.Turns += b.turns
		bd.Calls += b.calls
		bd.Errors += b.errors
		bd.Interrupts += b.interrupts
	}
	for i := range zs {
		s := &zs[i]
		s.ErrorRate, s.IntRate = rate(s.Errors, s.Calls), rate(s.Interrupts, s.Calls)
		s.Enough = s.Calls >= MinCalls
	}
	z.Zones = zs
	z.RiseAt, z.RiseNote = rise(z.Bands)
	return z
}

// rate is n per 100 calls; nil without calls.
func rate(n, calls int64) *float64 {
	if calls == 0 {
		return nil
	}
	r := 100 * float64(n) / float64(calls)
	return &r
}

// rise finds the band edge that best splits the tool calls into a lower rate below and a
// higher one above (errors and interruptions per 100 calls): each side needs MinCalls calls,
// the rate above must be RiseFactor times the rate below, and the difference must stand out of
// the noise (a two-proportion z-score of at least RiseZ). Of the edges that qualify, the one
// with the highest z-score wins. It returns 0 and the reason when none does.
func rise(bands []Band) (int64, string) {
	var total Band
	for _, b := range bands {
		total.Calls += b.Calls
		total.Errors += b.Errors + b.Interrupts
	}
	if total.Calls < 2*MinCalls {
		return 0, fmt.Sprintf("too little data: %s tool calls, %d needed to compare below and above a point", Count(total.Calls), 2*MinCalls)
	}
	var below Band
	var best int64
	var bestZ, bestBelow, bestAbove float64
	for i := 1; i < len(bands); i++ {
		below.Calls += bands[i-1].Calls
		below.Errors += bands[i-1].Errors + bands[i-1].Interrupts
		above := Band{Calls: total.Calls - below.Calls, Errors: total.Errors - below.Errors}
		if below.Calls < MinCalls || above.Calls < MinCalls {
			continue
		}
		rb := float64(below.Errors) / float64(below.Calls)
		ra := float64(above.Errors) / float64(above.Calls)
		z := zScore(below, above)
		if ra >= RiseFactor*rb && z >= RiseZ && z > bestZ {
			best, bestZ, bestBelow, bestAbove = bands[i].From, z, 100*rb, 100*ra
		}
	}
	if best == 0 {
		return 0, "no point found above which errors and interruptions per 100 tool calls are clearly higher"
	}
	return best, fmt.Sprintf("from %s tokens on, errors and interruptions rise from %.1f to %.1f per 100 tool calls", tune.Tokens(best), bestBelow, bestAbove)
}

// zScore is the two-proportion z-score of the event rate above against below (events per call,
// taken as at most one per call).
func zScore(below, above Band) float64 {
	n1, n2 := float64(below.Calls), float64(above.Calls)
	e1, e2 := min(float64(below.Errors), n1), min(float64(above.Errors), n2)
	p := (e1 + e2) / (n1 + n2)
	se := math.Sqrt(p * (1 - p) * (1/n1 + 1/n2))
	if se == 0 {
		return 0
	}
	return (e2/n2 - e1/n1) / se
}
