package config

// Template is the commented config that `zoneline config init` writes. It decodes to Default().
const Template = `# zoneline config. Every key is optional; these are the defaults.
# Check it with:  zoneline config check      See the effective config: zoneline config show

# Colour: auto (reads NO_COLOR, FORCE_COLOR, COLORTERM, TERM) | truecolor | 256 | 16 | none
color = "auto"
# Glyphs: unicode | ascii | nerd (needs a Nerd Font)
glyphs = "unicode"
# Treat East-Asian ambiguous-width characters as wide (CJK terminals).
east_asian_width = false
# Context window of a model that reports none (0 = 200k; a "[1m]" model id means 1M).
window = 0

[statusline]
# Segments per output line; every segment, and those off unless named: docs/segments.md
# (or 'zoneline preview', which shows them all).
lines = [["zone", "tokens", "bar", "percent", "compact", "nudge", "limits", "model", "dir", "branch", "compactions", "resume", "problems"]]
separator = ""   # "" = " · " (unicode) or " | " (ascii)
bar_width = 10
indent = 2       # Claude Code indents the status line by 2 columns (and keeps 2 more at the right)
# Another status line to show with zoneline's (ccstatusline, claude-powerline, your script): run
# with sh -c, the same stdin JSON and environment, in the background (the line shows its last
# output at once, never waits for it), killed at wrap_timeout. zoneline's part goes before or
# after its first line, or on a line of its own ("line"). Also: zoneline statusline -wrap 'CMD'.
wrap = ""
wrap_position = "before"
wrap_timeout = "10s"

[autocompact]
# Where Claude Code auto-compacts. Computed from the window as Claude Code does, honouring
# CLAUDE_CODE_AUTO_COMPACT_WINDOW, CLAUDE_AUTOCOMPACT_PCT_OVERRIDE, DISABLE_AUTO_COMPACT and
# autoCompactEnabled in settings.json. Set point (tokens) to override, enabled = false for "off".
point = 0
# enabled = true
max_output = 0

# Per-model thresholds, first match wins: a glob on model.id, else a window class ("200k"/"1m").
# Defaults: Opus/Sonnet on 200k: warn 80k, dumb 120k; any 1M window: warn 120k, dumb 250k;
# Haiku: warn 50k, dumb 90k; unknown: 40 % / 60 % of the window, at most 80k / 120k.
# [[model]]
# match = "claude-opus-*"
# warn = 80_000
# dumb = 120_000
# prep = "dumb"        # or a token count (110_000) or a percent of the window ("55%")

[warning]
# When the marker is written and the agent is nudged to /compact-prep: "warn", "dumb", tokens
# or a percent of the window. Never later than the auto-compact point minus 20k.
prep = "dumb"
# The "imminent" tier fires this many tokens before the auto-compact point.
imminent_distance = 20_000
# Inject the nudge into the next prompt (UserPromptSubmit hook).
nudge = true
# Custom nudge; placeholders: {tokens} {zone} {to_compact} {window} {model} {next}
# (used when the next step is /compact only if it contains {next})
nudge_text = ""
# Tiers that nudge the agent.
tiers = ["dumb", "imminent"]

[notify]
# Desktop notifications (one per tier per session, until a compaction re-arms it).
enabled = true
tiers = ["warn", "dumb", "imminent"]
urgency = "normal"   # low | normal | critical
app_name = "zoneline"

[checkpoint]
# Characters of the /compact-prep checkpoint put back after compaction.
budget = 6000
# A checkpoint older than this (minutes before the compaction) is reported as stale.
stale_minutes = 30

[precompact]
# Block one auto-compaction when no checkpoint newer than the warning exists (off by default).
hold_once = false
# PreCompact snapshots kept.
snapshots = 40
# Tell the summariser of every compaction (automatic ones too) what this session's records show:
# the skills loaded, the pushes, PRs, tags, releases and deploys done, the checkpoint's Next and
# Rules, the work in flight. Claude Code adds PreCompact's output to the summarisation request.
instructions = true
# Your own standing instructions for every summary, appended to zoneline's (one line).
instructions_extra = ""

[state]
# Per-session state older than this many days is removed.
gc_days = 14

[flow]
# zoneline compact-flow: /compact-prep, then /compact, then /postcompact. /compact-prep hands you
# the same /compact line. Words here follow "/compact" (none by default: zoneline's PreCompact
# hook tells the summariser what to keep on every compaction; see [precompact] instructions).
# Phrase them as what to keep, never as a request to act.
compact_instructions = ""

[flow.timeouts]
# Each wait of compact-flow; on a timeout it stops and sends nothing more.
prep = "10m"          # until the checkpoint is written and passes verify
compact = "5m"        # until the hooks record the compaction
postcompact = "10m"   # until the /postcompact report is done

[watch]
# zoneline watch: how often the registry is read.
interval = "5s"
# Run compact-flow on an idle session past its prep tier instead of notifying (also --auto).
auto = false
# Project dirs (globs allowed) where auto may run compact-flow; empty = none.
projects = []

[resume]
# After a restore, compare the agent's first tool calls (past the recovery steps) with the
# checkpoint's Next: the status line shows "on plan" or "off plan" until the next prompt, and
# off plan sends one notification.
check = true

[mod]
# The Claude Code mod (zoneline install -mod): compact an idle session by itself once it is past
# this point, after writing and verifying a checkpoint through a fork of the conversation.
# "off", "prep" (the session's prep tier) or a token count of at least 20k such as 150000 or "150k".
compact_at = "off"
`
