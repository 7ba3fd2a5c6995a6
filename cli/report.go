package cli

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/zoneline/zoneline/checkpoint"
	"github.com/zoneline/zoneline/config"
	"github.com/zoneline/zoneline/hookevent"
	"github.com/zoneline/zoneline/report"
	"github.com/zoneline/zoneline/state"
)

// reportOptions is `zoneline report`'s command line.
type reportOptions struct {
	Since   string
	Project string
	Model   string
	JSON    bool
	SVG     string
	Verbose bool
}

var cmdReport = &Command{
	Name: "report", UsageLine: "report [-since 30d] [-project DIR] [-model M] [-json] [-svg FILE] [-v]",
	Short: "what compaction cost you, measured on your own transcripts",
	Long: `Read your transcripts (projects/**/*.jsonl in Claude Code's folder) and zoneline's state, and
report: the compactions (auto and manual per model; prepared, restored and resumed on plan where
zoneline's state knows, else unknown; tokens reclaimed; compaction loops), what the summaries
lost (the skills loaded before each compaction: named in the summary? how many of their 5-word
phrases it kept; the pushes, PRs, tags, releases and deploys: is each one's id kept?), and the
zones as lived (per model, turns, tool errors and interruptions per 100 tool calls in the smart,
warn and dumb zones of your thresholds). -since takes a duration (30d, 2w, 12h), a date
(2026-11-01) or "all". -json prints every figure with the session and compaction behind it.
No transcript found is one message and exit 1. docs/report.md explains every figure.`,
	Parse:  parseReport,
	NoArgs: true,
}

func parseReport(e *Env, fs *flag.FlagSet) func([]string) error {
	var o reportOptions
	fs.StringVar(&o.Since, "since", "30d", "only records from this `age` on: 30d, 2w, 12h, a date (2026-11-01) or all")
	fs.StringVar(&o.Project, "project", "", "only the transcripts of the project in `DIR`")
	fs.StringVar(&o.Model, "model", "", "only models whose id contains `M`")
	fs.BoolVar(&o.JSON, "json", false, "print the report as JSON")
	fs.StringVar(&o.SVG, "svg", "", "also write the charts as an SVG `file`")
	fs.BoolVar(&o.Verbose, "v", false, "every compaction, skill, action and context band")
	return func([]string) error {
		since, err := parseSince(o.Since, e.Now())
		if err != nil {
			return usagef("-since %s", err)
		}
		return e.runReport(o, since)
	}
}

// parseSince reads -since: "all", a duration in days, weeks or Go units, or a date.
func parseSince(s string, now time.Time) (time.Time, error) {
	s = strings.TrimSpace(s)
	switch {
	case s == "all" || s == "0":
		return time.Time{}, nil
	case strings.HasSuffix(s, "d") || strings.HasSuffix(s, "w"):
		n, err := strconv.Atoi(s[:len(s)-1])
		if err != nil || n < 0 {
			break
		}
		days := n
		if strings.HasSuffix(s, "w") {
			days = 7 * n
		}
		return now.AddDate(0, 0, -days), nil
	}
	if d, err := time.ParseDuration(s); err == nil && d >= 0 {
		return now.Add(-d), nil
	}
	if t, err := time.ParseInLocation("2006-01-02", s, time.Local); err == nil {
		return t, nil
	}
	return time.Time{}, fmt.Errorf("%q: want a duration (30d, 2w, 12h), a date (2026-11-01) or all", s)
}

// projectFolder is the folder Claude Code keeps a project's transcripts in: its path with every
// character but letters and digits made '-'.
func projectFolder(claudeDir, dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("zoneline: -project %s: %v", dir, err)
	}
	b := []byte(abs)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			b[i] = '-'
		}
	}
	return filepath.Join(claudeDir, "projects", string(b)), nil
}

// runReport is `zoneline report`.
func (e *Env) runReport(o reportOptions, since time.Time) error {
	cfg, err := config.Load(e.Paths.Config)
	if err != nil {
		return fmt.Errorf("%w\nzoneline: fix the config first ('zoneline config check' shows where)", err)
	}
	if e.Paths.ClaudeDir == "" {
		return errors.New("zoneline: no Claude Code folder (HOME and CLAUDE_CONFIG_DIR give no absolute path)")
	}
	dir := filepath.Join(e.Paths.ClaudeDir, "projects")
	if o.Project != "" {
		if dir, err = projectFolder(e.Paths.ClaudeDir, o.Project); err != nil {
			return err
		}
	}
	if _, err := os.Stat(dir); err != nil {
		return errors.New(noTranscripts(dir)) // exitNoTranscripts
	}
	bar := e.progressBar()
	rep, err := report.Run(report.Options{
		Paths:    []string{dir},
		Since:    since,
		Model:    o.Model,
		Config:   cfg,
		Windows:  e.registryWindows(),
		State:    e.reportState(time.Duration(cfg.Checkpoint.StaleMinutes) * time.Minute),
		Progress: bar.update,
	})
	bar.done()
	if err != nil {
		return err
	}
	if rep.Totals.Files == 0 {
		return errors.New(noTranscripts(dir)) // exitNoTranscripts
	}
	e.readSpeed(rep.Totals.Bytes, rep.Totals.ElapsedMS)
	if o.JSON {
		if err := e.printJSON(rep); err != nil {
			return err
		}
	} else {
		report.Render(e.Stdout, rep, report.RenderOptions{Profile: e.personProfile(cfg.Color), Verbose: o.Verbose})
	}
	if o.SVG != "" {
		var b strings.Builder
		report.SVG(&b, rep)
		if err := state.WritePublic(o.SVG, []byte(b.String())); err != nil {
			return err
		}
		fmt.Fprintf(e.Stderr, "zoneline: wrote %s\n", o.SVG)
	}
	return nil
}

// reportState reads zoneline's state of one session for the report: its recorded compactions,
// its checkpoint's time and the resume verdicts still held. No state dir: nil (all unknown).
func (e *Env) reportState(limit time.Duration) func(string) (report.SessionState, bool) {
	if !e.State.Usable() {
		return nil
	}
	return func(session string) (report.SessionState, bool) {
		if !state.ValidSessionID(session) {
			return report.SessionState{}, false
		}
		recs, ok, err := hookevent.Records(e.State, session)
		if !ok || err != nil {
			return report.SessionState{}, false
		}
		st := report.SessionState{Verdicts: hookevent.Verdicts(e.State, session), Limit: limit}
		for _, r := range recs {
			st.Records = append(st.Records, report.StateRecord{N: r.N, Time: r.Time, Trigger: r.Trigger, Restore: r.Restore})
		}
		if path, err := checkpoint.Path(e.State, session); err == nil {
			if fi, err := os.Lstat(path); err == nil && fi.Mode().IsRegular() {
				st.Checkpoint = fi.ModTime()
			}
		}
		return st, true
	}
}
