package zones

import "testing"

func TestClassifyDefaultsAtEveryBoundary(t *testing.T) {
	tests := []struct {
		model  string
		window int64
		tokens int64
		want   Zone
	}{
		// Opus / Sonnet on 200k: warn 80k, dumb 120k.
		{"claude-sonnet-4-5-20250929", 200_000, 0, Smart},
		{"claude-sonnet-4-5-20250929", 200_000, 79_999, Smart},
		{"claude-sonnet-4-5-20250929", 200_000, 80_000, Warn},
		{"claude-sonnet-4-5-20250929", 200_000, 119_999, Warn},
		{"claude-sonnet-4-5-20250929", 200_000, 120_000, Dumb},
		{"claude-opus-4-1", 200_000, 80_000, Warn},
		{"claude-opus-4-1", 200_000, 120_000, Dumb},
		// Any 1M window: warn 120k, dumb 250k.
		{"claude-opus-5-5", 1_000_000, 119_999, Smart},
		{"claude-opus-5-5", 1_000_000, 120_000, Warn},
		{"claude-opus-5-5", 1_000_000, 249_999, Warn},
		{"claude-opus-5-5", 1_000_000, 250_000, Dumb},
		{"claude-sonnet-4-5[1m]", 1_000_000, 250_000, Dumb},
		{"claude-haiku-4-5", 1_000_000, 200_000, Warn}, // a 1M window wins over the family
		// Haiku: warn 50k, dumb 90k.
		{"claude-haiku-4-5", 200_000, 49_999, Smart},
		{"claude-haiku-4-5", 200_000, 50_000, Warn},
		{"claude-haiku-4-5", 200_000, 89_999, Warn},
		{"claude-haiku-4-5", 200_000, 90_000, Dumb},
		// Unknown model: min(80k, 40 %), min(120k, 60 %).
		{"some-model", 200_000, 79_999, Smart},
		{"some-model", 200_000, 80_000, Warn},
		{"some-model", 200_000, 120_000, Dumb},
		{"some-model", 100_000, 39_999, Smart},
		{"some-model", 100_000, 40_000, Warn},
		{"some-model", 100_000, 59_999, Warn},
		{"some-model", 100_000, 60_000, Dumb},
		// Small windows clamp the family defaults too.
		{"claude-sonnet-x", 100_000, 40_000, Warn},
		{"claude-sonnet-x", 100_000, 60_000, Dumb},
		{"claude-haiku-x", 32_000, 12_800, Warn},
		{"claude-haiku-x", 32_000, 19_200, Dumb},
	}
	for _, tt := range tests {
		th, _ := Resolve(nil, tt.model, tt.window)
		if got := Classify(tt.tokens, th); got != tt.want {
			t.Errorf("%s/%d at %d: %v, want %v (thresholds %+v)", tt.model, tt.window, tt.tokens, got, tt.want, th)
		}
	}
}

func TestRules(t *testing.T) {
	rules := []Rule{
		{Window: "1m", Warn: 150_000, Dumb: 300_000},
		{Match: "claude-opus-*", Warn: 90_000, Dumb: 130_000},
		{Match: "CLAUDE-HAIKU-*", Dumb: 70_000},
		{Match: "big-*", Warn: 10, Dumb: 900_000},
	}
	tests := []struct {
		model  string
		window int64
		want   Thresholds
	}{
		{"claude-opus-4-1", 200_000, Thresholds{90_000, 130_000}},      // glob
		{"claude-opus-5-5", 1_000_000, Thresholds{90_000, 130_000}},    // glob wins over window class
		{"claude-sonnet-4-5", 1_000_000, Thresholds{150_000, 300_000}}, // window class
		{"claude-haiku-4-5", 200_000, Thresholds{50_000, 70_000}},      // case-insensitive, partial override
		{"claude-sonnet-4-5", 200_000, Thresholds{80_000, 120_000}},    // no rule
		{"big-model", 200_000, Thresholds{10, 200_000}},                // kept inside the window
	}
	for _, tt := range tests {
		got, _ := Resolve(rules, tt.model, tt.window)
		if got != tt.want {
			t.Errorf("%s/%d: %+v, want %+v", tt.model, tt.window, got, tt.want)
		}
	}
}

func TestWindow(t *testing.T) {
	tests := []struct {
		size       int64
		model      string
		configured int64
		want       int64
	}{
		{200_000, "claude-opus-5-5[1m]", 0, 200_000},
		{0, "claude-opus-5-5[1m]", 0, 1_000_000},
		{0, "claude-opus-5-5[1M]", 0, 1_000_000},
		{0, "claude-opus-5-5", 500_000, 500_000},
		{0, "claude-opus-5-5", 0, 1_000_000}, // Claude Code 2.1.332's default model: 1M
		{0, "claude-opus-5-5-20261001", 0, 1_000_000},
		{0, "claude-sonnet-4-5-20250929", 0, 200_000},
		{0, "claude-haiku-9", 0, 200_000}, // unknown: the 200k guess
		{-1, "", 0, 200_000},
	}
	for _, tt := range tests {
		if got := Window(tt.size, tt.model, tt.configured); got != tt.want {
			t.Errorf("Window(%d, %q, %d) = %d, want %d", tt.size, tt.model, tt.configured, got, tt.want)
		}
	}
	for _, id := range []string{"", "claude-haiku-9", "gpt-5"} {
		if _, known := ModelWindow(id); known {
			t.Errorf("ModelWindow(%q) claims to know the window", id)
		}
	}
}

func TestAutoCompact(t *testing.T) {
	f := false
	tr := true
	tests := []struct {
		name    string
		in      CompactInput
		enabled bool
		point   int64
	}{
		{"200k default", CompactInput{Window: 200_000}, true, 167_000},
		{"1M default", CompactInput{Window: 1_000_000}, true, 967_000},
		{"small max output", CompactInput{Window: 200_000, MaxOutput: 8_000}, true, 179_000},
		{"env window caps", CompactInput{Window: 1_000_000, EnvWindow: "200000"}, true, 167_000},
		{"env window below minimum ignored", CompactInput{Window: 1_000_000, EnvWindow: "50000"}, true, 967_000},
		{"env window above window ignored", CompactInput{Window: 200_000, EnvWindow: "400000"}, true, 167_000},
		{"settings window", CompactInput{Window: 1_000_000, SettingsWindow: 300_000}, true, 267_000},
		{"pct 50 with env window (the e2e setup)", CompactInput{Window: 200_000, EnvWindow: "200000", EnvPct: "50"}, true, 90_000},
		{"pct 95 capped at effective-13k", CompactInput{Window: 200_000, EnvPct: "95"}, true, 167_000},
		{"pct garbage ignored", CompactInput{Window: 200_000, EnvPct: "lots"}, true, 167_000},
		{"DISABLE_AUTO_COMPACT", CompactInput{Window: 200_000, EnvDisableAuto: "1"}, false, 0},
		{"DISABLE_COMPACT", CompactInput{Window: 200_000, EnvDisableAll: "true"}, false, 0},
		{"DISABLE_AUTO_COMPACT=0 keeps it on", CompactInput{Window: 200_000, EnvDisableAuto: "0"}, true, 167_000},
		{"settings off", CompactInput{Window: 200_000, SettingsOn: &f}, false, 0},
		{"settings on", CompactInput{Window: 200_000, SettingsOn: &tr}, true, 167_000},
		{"config override", CompactInput{Window: 200_000, Override: 150_000}, true, 150_000},
		{"config off", CompactInput{Window: 200_000, OverrideOff: true}, false, 0},
		{"no window", CompactInput{}, true, 167_000},
	}
	for _, tt := range tests {
		c := AutoCompact(tt.in)
		if c.Enabled != tt.enabled || c.Point != tt.point || c.Source == "" {
			t.Errorf("%s: %+v, want enabled %v point %d", tt.name, c, tt.enabled, tt.point)
		}
	}
}

func TestPrep(t *testing.T) {
	th := Thresholds{Warn: 80_000, Dumb: 120_000}
	on := Compact{Enabled: true, Point: 167_000}
	tests := []struct {
		spec   string
		window int64
		c      Compact
		want   int64
		ok     bool
	}{
		{"", 200_000, on, 120_000, true},
		{"dumb", 200_000, on, 120_000, true},
		{"WARN", 200_000, on, 80_000, true},
		{"100000", 200_000, on, 100_000, true},
		{"150k", 200_000, on, 147_000, true}, // never later than auto-compact − 20k
		{"50%", 200_000, on, 100_000, true},
		{"99%", 200_000, on, 147_000, true},
		{"smart", 200_000, on, 120_000, false},
		{"soon", 200_000, on, 120_000, false},
		{"150k", 200_000, Compact{}, 150_000, true}, // auto-compact off: no cap
		{"dumb", 200_000, Compact{Enabled: true, Point: 90_000}, 70_000, true},
	}
	for _, tt := range tests {
		got, ok := Prep(tt.spec, th, tt.window, tt.c)
		if got != tt.want || ok != tt.ok {
			t.Errorf("Prep(%q) = %d, %v; want %d, %v", tt.spec, got, ok, tt.want, tt.ok)
		}
	}
}

func TestParseTokens(t *testing.T) {
	for in, want := range map[string]int64{"150000": 150_000, "150k": 150_000, "1.5m": 1_500_000, "150_000": 150_000, " 90K ": 90_000} {
		if got, err := ParseTokens(in); err != nil || got != want {
			t.Errorf("ParseTokens(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "k", "abc", "inf", "nan", "1e400"} {
		if got, err := ParseTokens(in); err == nil && (got <= 0 || got > 1<<40) {
			t.Errorf("ParseTokens(%q) = %d, want an error", in, got)
		}
	}
}

// TestModelWindowFamilies: ids of known families that no payload showed get a rule by
// generation (the corpus of public transcripts: Opus, Sonnet and Fable 5 ran past 400k; the
// fourth generation compacted near 160k), never a silent guess.
func TestModelWindowFamilies(t *testing.T) {
	for _, tt := range []struct {
		id     string
		window int64
		known  bool
	}{
		{"claude-opus-5", 1_000_000, true},
		{"claude-sonnet-5", 1_000_000, true},
		{"claude-fable-5", 1_000_000, true},
		{"claude-opus-5-1-20270101", 1_000_000, true},
		{"claude-opus-4-8", 200_000, true},
		{"claude-opus-4-1-20250805", 200_000, true},
		{"claude-sonnet-4-20250514", 200_000, true},
		{"claude-haiku-4-5-20251001", 200_000, true},
		{"claude-sonnet-4-6[1m]", 1_000_000, true},
		{"claude-haiku-9", 0, false},
		{"claude-3-5-sonnet-20241022", 0, false},
		{"x-ai/grok-4-fast:free", 0, false},
		{"claude-opus-20250514", 0, false}, // a date, not a generation
	} {
		w, known := ModelWindow(tt.id)
		if w != tt.window || known != tt.known {
			t.Errorf("ModelWindow(%q) = %d, %v; want %d, %v", tt.id, w, known, tt.window, tt.known)
		}
	}
}

// TestSessionWindowHolding: tokens above a window Claude Code did not send prove it larger:
// the next known window that holds them, as tune concludes; a window Claude Code sent stays.
func TestSessionWindowHolding(t *testing.T) {
	for _, tt := range []struct {
		size   int64
		model  string
		config int64
		tokens int64
		want   int64
	}{
		{0, "claude-mystery-1", 0, 554_000, 1_000_000},       // 1.0.x payload, unknown id: not 554k/200k
		{0, "claude-mystery-1", 0, 150_000, 200_000},         // held: the guess stays
		{0, "claude-opus-4-8", 0, 210_000, 1_000_000},        // the family's 200k, proved wrong
		{0, "claude-opus-4-8", 0, 0, 200_000},                // unknown tokens prove nothing
		{0, "claude-mystery-1", 300_000, 400_000, 1_000_000}, // the config's window too
		{0, "claude-opus-5", 0, 2_000_000, 1_000_000},        // beyond every known window: the largest
		{200_000, "claude-mystery-1", 0, 260_000, 200_000},   // Claude Code's own size is kept
	} {
		got := SessionWindow(tt.size, tt.model, tt.config, tt.tokens)
		if got != tt.want {
			t.Errorf("SessionWindow(%d, %q, %d, %d) = %d, want %d", tt.size, tt.model, tt.config, tt.tokens, got, tt.want)
		}
	}
}
