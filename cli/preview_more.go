package cli

import (
	"fmt"
	"slices"
	"time"

	"github.com/zoneline/zoneline/pipeline"

	"github.com/zoneline/zoneline/config"
	"github.com/zoneline/zoneline/statusline"
)

// extraSample is the preview's last row: a dumb 200k session with every field Claude Code
// documents for the status line, rendered with the optional segments added on a line of
// their own (the git segment needs the state's git cache, which preview does not keep).
var extraSample = sample{"200k dumb, every segment", "claude-sonnet-4-5-20250929", "Sonnet 4.5", 200_000, 142_000, true}

// extraJSON is extraSample's payload at now: the rate limits reset and the cache expires at
// fixed distances from now, so the picture is the same on every run.
func (s sample) extraJSON(dir string, now time.Time) []byte {
	t := now.Unix()
	return fmt.Appendf(nil, `{"cwd":%q,"model":{"id":%q,"display_name":%q},"workspace":{"current_dir":%q,"project_dir":%q,"repo":{"host":"github.com","owner":"you","name":"project"}},`+
		`"version":"2.1.332","output_style":{"name":"Explanatory"},`+
		`"cost":{"total_cost_usd":1.23,"total_duration_ms":754000,"total_api_duration_ms":61000,"total_lines_added":120,"total_lines_removed":37},`+
		`"context_window":{"context_window_size":%d,"current_usage":{"input_tokens":500,"output_tokens":120,"cache_creation_input_tokens":1500,"cache_read_input_tokens":%d}},`+
		`"effort":{"level":"high"},"thinking":{"enabled":true},"fast_mode":false,`+
		`"rate_limits":{"five_hour":{"used_percentage":42,"resets_at":%d},"seven_day":{"used_percentage":91,"resets_at":%d}},`+
		`"prompt_cache":{"warm":true,"caching_observed":true,"ttl":"5m","expires_at":%d,"requests":9,"misses":1,"hit_ratio":0.98,"last_miss_cause":{"causes":["tools_changed"]},"recache_tokens_if_cold":142000},`+
		`"pr":{"number":42,"url":"https://github.com/you/project/pull/42","review_state":"approved"}}`,
		dir, s.modelID, s.name, dir, dir, s.window, s.tokens-2000, t+7980, t+273600, t+252)
}

// renderSample renders one preview row with pe.
func (s sample) render(pe *Env, cfg *config.Config, cfgErr error) pipeline.Rendered {
	const dir = "/home/user/project"
	if !s.extra {
		return pe.pipeline().Render(s.json(dir), nil, cfg, cfgErr)
	}
	c := *cfg
	c.Statusline.Lines = withOptional(cfg.Statusline.Lines)
	at := pe.Now() // one instant for the payload and the render: the countdowns never tick
	fe := *pe
	fe.Now = func() time.Time { return at }
	return fe.pipeline().Render(s.extraJSON(dir, at), nil, &c, cfgErr)
}

// withOptional returns lines (nil: the default) and a line of the optional segments it lacks.
func withOptional(lines [][]string) [][]string {
	if lines == nil {
		lines = [][]string{statusline.DefaultLine()}
	}
	var more []string
	for _, n := range statusline.OptionalSegments() {
		if !statusline.LayoutHas(lines, n) {
			more = append(more, n)
		}
	}
	if len(more) == 0 {
		return lines
	}
	return append(slices.Clone(lines), more)
}
