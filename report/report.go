// Package report is `zoneline report`: what compaction cost the user, measured on their own
// Claude Code transcripts and zoneline's per-session state.
//
// Run streams every transcript once (one worker per core, one bounded line buffer each, as
// tune does) and keeps, per file, only its compactions and what their summaries kept; turns,
// tool calls, tool errors and interruptions go into per-model histograms of 1,000-token
// buckets, so memory does not grow with the history's size. From them it reports:
//
//   - the compactions: auto and manual per model, tokens reclaimed, compaction loops, and
//     from zoneline's state where it exists whether each was prepared (a fresh checkpoint),
//     restored, and resumed on or off plan;
//   - what the summaries lost: for every compaction whose summary is in the transcript, the
//     skills loaded since the previous one (named in the summary? how many of their distinct
//     5-word phrases it keeps) and the external actions (is each one's id kept?);
//   - the zones as lived: per model, turns, tool calls, tool errors and user interruptions in
//     the smart, warn and dumb zones of the user's own thresholds.
package report

import (
	"time"

	"github.com/zoneline/zoneline/config"
	"github.com/zoneline/zoneline/tune"
)

// Options is what Run needs. The caller (cli) resolves the paths, the config and the state.
type Options struct {
	Paths   []string       // transcript files or folders searched for *.jsonl
	Since   time.Time      // records before it are left out (zero: all)
	Model   string         // only models whose id contains it, case-insensitively ("": all)
	Config  *config.Config // thresholds in force; nil = the defaults
	Windows map[string]int64
	// State returns zoneline's state for a session; ok false when zoneline kept none for it
	// (not installed then, or the state was collected): its figures are "unknown". nil: no
	// state at all.
	State    func(session string) (s SessionState, ok bool)
	Workers  int                     // <= 0: one per core
	Progress func(read, total int64) // called from the workers; nil: none
}

// SessionState is what zoneline's state dir says of one session's compactions.
type SessionState struct {
	Records    []StateRecord  // compactions.json's records, as PostCompact saw them
	Checkpoint time.Time      // checkpoint.md's modification time; zero when there is none
	Verdicts   map[int]string // resume verdicts by compaction number: "on" or "off"
	Limit      time.Duration  // a checkpoint's freshness limit (stale_minutes); 0 none
}

// StateRecord is one compaction as zoneline's PostCompact hook recorded it.
type StateRecord struct {
	N       int
	Time    time.Time
	Trigger string
	Restore string // how the restore reached the agent; "" none (yet)
}

// Report is the result. It is what `zoneline report -json` prints.
type Report struct {
	Since       *time.Time     `json:"since"` // null: the whole history
	Model       string         `json:"model_filter,omitempty"`
	Totals      Totals         `json:"totals"`
	Problems    []Problem      `json:"problems"`
	Compactions CompactionPart `json:"compactions"`
	Lost        LostPart       `json:"lost"`
	Zones       []ModelZones   `json:"zones"` // by turns, most first
}

// Totals counts what was read.
type Totals struct {
	Files      int   `json:"files"`      // transcript files found
	Skipped    int   `json:"skipped"`    // files last written before -since, not read
	Sessions   int   `json:"sessions"`   // files with at least one main-chain turn
	Bytes      int64 `json:"bytes"`      // bytes read
	Lines      int64 `json:"lines"`      // lines read
	BadLines   int64 `json:"bad_lines"`  // lines that looked like a record zoneline reads but did not parse
	HugeLines  int64 `json:"huge_lines"` // lines longer than tune.MaxLine, skipped
	Unreadable int   `json:"unreadable"` // files or folders that could not be read
	Turns      int64 `json:"turns"`      // main-chain assistant responses with usage (of the models shown)
	ToolCalls  int64 `json:"tool_calls"`
	ElapsedMS  int64 `json:"-"`
}

// Problem is a file that could not be read: tune's, whose scan lists the files.
type Problem = tune.Problem

// CompactionPart is section 1: the compactions.
type CompactionPart struct {
	Total     int             `json:"total"`
	Auto      int             `json:"auto"`
	Manual    int             `json:"manual"`
	Unknown   int             `json:"unknown_trigger"` // older transcripts mark a compaction only by its summary
	PerModel  []ModelCompacts `json:"per_model"`
	Prepared  Tally           `json:"prepared"` // a fresh checkpoint existed
	Restored  Tally           `json:"restored"` // zoneline's restore reached the agent
	Resume    ResumeTally     `json:"resume"`   // the first action after the restore: on or off the checkpoint's plan
	Reclaimed int64           `json:"reclaimed_tokens"`
	// ReclaimedOf is how many compactions recorded both counts (the others have no postTokens).
	ReclaimedOf int          `json:"reclaimed_of"`
	Loops       []Loop       `json:"loops"`
	List        []Compaction `json:"list"` // every compaction, by time
}

// ModelCompacts counts one model's compactions.
type ModelCompacts struct {
	Model   string `json:"model"`
	Auto    int    `json:"auto"`
	Manual  int    `json:"manual"`
	Unknown int    `json:"unknown_trigger"`
}

// Tally counts a yes/no figure that zoneline's state may not know.
type Tally struct {
	Yes     int `json:"yes"`
	No      int `json:"no"`
	Unknown int `json:"unknown"`
}

// ResumeTally counts resume verdicts.
type ResumeTally struct {
	On      int `json:"on_plan"`
	Off     int `json:"off_plan"`
	Unknown int `json:"unknown"`
}

// Compaction is one compaction and everything the report found about it.
type Compaction struct {
	Session    string       `json:"session"`
	File       string       `json:"file"`
	UUID       string       `json:"uuid,omitempty"` // the compact_boundary record's (or the summary's, without one)
	Time       time.Time    `json:"time"`
	Trigger    string       `json:"trigger"` // "auto", "manual" or "" (unknown)
	Model      string       `json:"model"`
	PreTokens  int64        `json:"pre_tokens"`
	PostTokens *int64       `json:"post_tokens"` // null: not recorded
	Reclaimed  *int64       `json:"reclaimed"`   // null: unknown
	TurnsSince int          `json:"turns_since"` // main-chain turns since the previous compaction (or the file's start)
	Summary    bool         `json:"summary"`     // its isCompactSummary record is in the transcript
	SummaryLen int          `json:"summary_chars"`
	Prepared   string       `json:"prepared"` // "yes", "no" or "unknown"
	Restored   string       `json:"restored"` // "yes", "no" or "unknown"
	Resume     string       `json:"resume"`   // "on", "off" or "unknown"
	StateN     int          `json:"state_n,omitempty"`
	Skills     []Skill      `json:"skills"`
	Actions    []ActionKept `json:"actions"`
}

// Skill is one skill loaded before a compaction, judged against its summary.
type Skill struct {
	Name    string `json:"name"`
	UUID    string `json:"uuid,omitempty"`
	Phrases int    `json:"phrases"` // distinct 5-word phrases of its text
	Kept    int    `json:"kept"`    // of them, found in the summary
	Named   bool   `json:"named"`   // the summary names the skill
}

// ActionKept is one external action before a compaction, judged against its summary.
type ActionKept struct {
	Kind    string `json:"kind"`
	ID      string `json:"id"`
	Command string `json:"command,omitempty"`
	UUID    string `json:"uuid,omitempty"`
	Kept    bool   `json:"kept"` // the summary keeps its id
}

// Loop is a run of compactions close together, or compactions that reclaimed little.
type Loop struct {
	Session     string    `json:"session"`
	File        string    `json:"file"`
	Start       time.Time `json:"start"`
	End         time.Time `json:"end"`
	Compactions int       `json:"compactions"`
	Turns       int       `json:"turns"`     // turns between the first and the last
	Reclaimed   int64     `json:"reclaimed"` // tokens reclaimed by the run, where known
	Reason      string    `json:"reason"`
}

// LostPart is section 2: what the summaries lost.
type LostPart struct {
	Summaries    int        `json:"summaries"` // compactions whose summary is in the transcript
	Phrases      int        `json:"phrases"`
	PhrasesKept  int        `json:"phrases_kept"`
	SkillLoads   int        `json:"skill_loads"`
	NoPhraseKept int        `json:"skill_loads_no_phrase_kept"` // of the loads whose text the transcript holds
	NoText       int        `json:"skill_loads_without_text"`   // loads whose text the transcript does not hold
	SkillsNamed  int        `json:"skills_named"`
	Actions      []KindKept `json:"actions"` // per kind, ids kept
	NoID         int        `json:"actions_without_id"`
	Line         string     `json:"line"` // the totals in the seeds' form
}

// KindKept counts one kind of action whose id the summaries kept.
type KindKept struct {
	Kind string `json:"kind"`
	Kept int    `json:"kept"`
	Of   int    `json:"of"`
}

// ModelZones is section 3 for one model: the zones as lived.
type ModelZones struct {
	Model        string      `json:"model"`
	Window       int64       `json:"window"`
	WindowSource string      `json:"window_source"`
	Warn         int64       `json:"warn"`
	Dumb         int64       `json:"dumb"`
	Sessions     int         `json:"sessions"`
	SessionIDs   []string    `json:"session_ids"` // the sessions behind the figures
	Turns        int64       `json:"turns"`
	Zones        []ZoneStats `json:"zones"` // smart, warn, dumb
	// RiseAt is the context (tokens) from which errors and interruptions per 100 tool calls
	// are clearly higher than below it; 0 when the data shows no such point or is too little.
	RiseAt   int64  `json:"rise_at"`
	RiseNote string `json:"rise_note"`
	Bands    []Band `json:"bands"` // per BandStep tokens, for the chart and -v
}

// ZoneStats is one zone's figures for one model.
type ZoneStats struct {
	Zone       string   `json:"zone"`
	From       int64    `json:"from"`
	To         int64    `json:"to"` // 0: no upper bound
	Turns      int64    `json:"turns"`
	Calls      int64    `json:"tool_calls"`
	Errors     int64    `json:"tool_errors"`
	Interrupts int64    `json:"interruptions"`
	ErrorRate  *float64 `json:"errors_per_100_calls"` // null: no calls
	IntRate    *float64 `json:"interruptions_per_100_calls"`
	Enough     bool     `json:"enough_data"` // at least MinCalls tool calls
}

// Band is one BandStep of context.
type Band struct {
	From       int64 `json:"from"`
	Turns      int64 `json:"turns"`
	Calls      int64 `json:"tool_calls"`
	Errors     int64 `json:"tool_errors"`
	Interrupts int64 `json:"interruptions"`
}

// Tuning numbers.
const (
	// Bucket is the histogram's granularity in tokens: thresholds are applied to the bucket's
	// lower end.
	Bucket = 1000
	// maxBuckets caps the histogram (contexts above it share the last bucket).
	maxBuckets = 4000
	// BandStep is the width of a band in the chart, the JSON and the rise search.
	BandStep = 10_000
	// MinCalls is how many tool calls a zone (or each side of a rise) needs before its rates
	// are shown as data rather than "too little data".
	MinCalls = 100
	// RiseFactor is how much higher the rate above a point must be than below it.
	RiseFactor = 1.5
	// RiseZ is the two-proportion z-score the difference must reach (about 95 % one-sided
	// confidence at 1.65; 2 leaves room for the many points tried).
	RiseZ = 2.0
	// LoopTurns: compactions at most this many turns apart are close.
	LoopTurns = 5
	// LoopRun is how many close compactions in a row make a loop.
	LoopRun = 3
	// LittleShare: a compaction that reclaims less than this share of its context reclaimed
	// little.
	LittleShare = 0.10
	// stateSlack is how far apart a transcript's compaction and zoneline's record of it may be.
	stateSlack = 10 * time.Minute
)
