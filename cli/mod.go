package cli

import (
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"strconv"
	"strings"
	"time"

	"github.com/zoneline/zoneline/pipeline"

	"github.com/zoneline/zoneline/checkpoint"
	"github.com/zoneline/zoneline/config"
	"github.com/zoneline/zoneline/hookevent"
	"github.com/zoneline/zoneline/internal/jsonscan"
	"github.com/zoneline/zoneline/internal/safetext"
	"github.com/zoneline/zoneline/skills"
	"github.com/zoneline/zoneline/state"
	"github.com/zoneline/zoneline/statusline"
)

var cmdMod = &Command{
	Name: "mod", UsageLine: "mod status | fork-prompt | save-checkpoint | receipt [flags]",
	Short: "JSON for the Claude Code mod (mod/)",
	Long: `The machine-readable side of the Claude Code mod (mod/, docs/mod.md): every threshold,
window, prep tier, colour and instruction the mod shows or sends comes from here.

  status           the status line's JSON on stdin, one JSON line out (always exit 0); with
                   -width N its "row" is fitted to N cells as the status line is
  fork-prompt      the prompt the mod sends through a fork to have the checkpoint written
  save-checkpoint  the fork's answer on stdin: its checkpoint written to the session's path
  receipt          the last compaction as the hooks recorded it, one JSON line`,
	Parse:    parseMod,
	AnyPaths: true, // status degrades on its own; the others check the paths themselves
}

// modOptions are `zoneline mod` flags and its subcommand.
type modOptions struct {
	Sub string
	checkpointOptions
}

func parseMod(e *Env, fs *flag.FlagSet) func([]string) error {
	var o modOptions
	fs.StringVar(&o.Session, "session", "", "fork-prompt, save-checkpoint, receipt: session id (default: $CLAUDE_CODE_SESSION_ID)")
	return func(args []string) error {
		if len(args) == 0 {
			return usagef("name a mod command")
		}
		o.Sub = args[0]
		switch o.Sub {
		case "status":
			e.runModStatus(args[1:]) // the mod's row: always one JSON line and exit 0
			return nil
		case "fork-prompt", "save-checkpoint", "receipt":
		default:
			return usagef("unknown mod command %q", o.Sub)
		}
		if _, err := parseSub(fs, args, "name a mod command"); err != nil {
			return err
		}
		return e.runMod(o)
	}
}

// runMod is `zoneline mod fork-prompt | save-checkpoint | receipt`.
func (e *Env) runMod(o modOptions) error {
	if !e.Paths.Resolved() {
		return e.noPaths()
	}
	id, err := e.session(o.checkpointOptions)
	if err != nil {
		return err
	}
	switch o.Sub {
	case "fork-prompt":
		return e.modForkPrompt(id)
	case "save-checkpoint":
		return e.modSaveCheckpoint(id)
	}
	return e.modReceipt(id)
}

// runModStatus is `zoneline mod status`: stdin is the status line's JSON (the fields the mod
// has: session_id, transcript_path, cwd, model.id, context_window), stdout one JSON line. It is
// a statusline render (the same code: zone, window, auto-compact point, prep tier) followed by
// the same warning loop (markers, nudge, notification: exactly once per tier, whichever of the
// status line, the hooks and the mod crosses first). Like the statusline it always answers and
// exits 0: a problem is in "problems" and the log.
func (e *Env) runModStatus(args []string) {
	start := time.Now()
	if e.process {
		ignoreSIGPIPE()
	}
	// The statusline's bounds: the whole process within statuslineDeadline (then a fallback
	// answer), stdin read for statuslineStdinWait at most.
	guard := e.processGuard(start, "mod", modProblem)
	defer func() {
		if r := recover(); r != nil {
			e.State.Log("mod", "panic: %v", r)
			if guard == nil || guard.Answer() {
				e.Stdout.Write(modProblem("zoneline: internal error"))
			}
		}
		if guard != nil {
			guard.Stop()
		}
	}()
	width, ok := modRowWidth(args)
	if !ok {
		e.Stdout.Write(modProblem("usage: zoneline mod status [-width N] < status-line JSON"))
		return
	}
	data, readErr := e.readPayload(start, statuslineStdinWait)
	cfg, cfgErr := e.loadConfigCached()
	e.modCall = true
	c := e.pipeline()
	r := c.Render(data, readErr, cfg, cfgErr)
	c.After(r, time.Since(start)) // (before the answer: it names the markers After writes)
	answer := e.modStatusJSON(r, cfg, width)
	if guard != nil && !guard.Answer() {
		guard.Wait() // the deadline printed the fallback answer and ends the process
		return
	}
	e.Stdout.Write(answer)
}

// modProblem is `mod status`'s answer when there is no render: the zone unknown, one problem.
func modProblem(msg string) []byte {
	b := append([]byte(nil), `{"v":1,"zone":"unknown","problems":[`...)
	return append(jsonscan.AppendString(b, safetext.Field(msg, 200)), "]}\n"...)
}

// modStatusJSON is the status answer: hand-written (no encoding/json on the hot path), every
// string through safetext.
func (e *Env) modStatusJSON(r pipeline.Rendered, cfg *config.Config, width int) []byte {
	v := r.View
	f := statusline.FaceOf(v, cfg.Glyphs)
	b := make([]byte, 0, 1024)
	b = append(b, `{"v":1`...)
	id := ""
	if r.Payload != nil && state.ValidSessionID(r.Payload.SessionID) {
		id = strings.ToLower(r.Payload.SessionID)
	}
	b = jsonStr(b, "session", id)
	b = jsonStr(b, "zone", v.Zone.String())
	b = jsonStr(b, "zone_text", f.Zone)
	b = jsonStr(b, "color", f.Color)
	b = jsonBool(b, "bold", f.Bold)
	b = jsonInt(b, "tokens", v.Tokens)
	b = jsonBool(b, "known", r.Warning.Known)
	b = jsonInt(b, "window", v.Window)
	b = jsonStr(b, "tokens_text", f.Tokens)
	b = jsonBool(b, "auto_compact_on", v.Compact.Enabled)
	b = jsonInt(b, "auto_compact", v.Compact.Point)
	toCompact := int64(0)
	if v.Compact.Enabled && v.Compact.Point > 0 && r.Warning.Known {
		toCompact = v.Compact.Point - v.Tokens
	}
	b = jsonInt(b, "to_compact", toCompact)
	b = jsonStr(b, "compact_text", f.Compact)
	b = jsonBool(b, "compact_warn", f.Warn)
	b = jsonBool(b, "compact_urgent", f.Urgent)
	b = jsonInt(b, "prep", r.Prep)
	crossed := r.Warning.Known && r.Prep > 0 && v.Tokens >= r.Prep
	b = jsonBool(b, "prep_crossed", crossed)
	b = jsonStr(b, "tier", r.Warning.Hint())
	b = jsonStr(b, "step", f.Step)
	b = jsonStr(b, "step_color", statusline.HintHex())
	b = jsonInt(b, "compactions", int64(v.Compactions))

	// [mod] compact_at: the point at which the mod compacts an idle session by itself.
	at, atPrep, _ := config.ModCompactAt(cfg.Mod.CompactAt)
	if atPrep {
		at = r.Prep
	}
	b = jsonInt(b, "compact_at", at)
	b = jsonBool(b, "compact_due", at > 0 && r.Warning.Known && v.Tokens >= at)

	// The checkpoint: its path, and whether it is fresh and passes verify.
	ck := modCheckpoint{}
	if id != "" {
		ck = e.modCheckpointState(id, cfg)
	}
	b = jsonStr(b, "checkpoint", ck.path)
	b = jsonBool(b, "checkpoint_fresh", ck.fresh)
	b = jsonBool(b, "checkpoint_verified", ck.verified)

	b = appendModRow(b, v, cfg.Glyphs, width)

	b = append(b, `,"problems":[`...)
	for i, p := range v.Problems {
		if i > 0 {
			b = append(b, ',')
		}
		b = jsonscan.AppendString(b, safetext.Field(p, 0))
	}
	b = append(b, "]}\n"...)
	return b
}

// modCheckpoint is what the mod is told about the session's checkpoint.
type modCheckpoint struct {
	path            string
	fresh, verified bool
}

// modCheckpointState judges the checkpoint by the one freshness rule (checkpoint.Next: written
// after the last recorded compaction and within stale_minutes) and, only when it is fresh, reads
// and verifies it.
func (e *Env) modCheckpointState(id string, cfg *config.Config) modCheckpoint {
	path, err := checkpoint.Path(e.State, id)
	if err != nil {
		return modCheckpoint{}
	}
	f, _ := checkpoint.Next(e.State, id, e.Now(), time.Duration(cfg.Checkpoint.StaleMinutes)*time.Minute)
	return modCheckpoint{path: path, fresh: f.Fresh, verified: f.Fresh && verifies(path, id, cfg)}
}

// verifies reports whether the checkpoint at path reads and passes `zoneline checkpoint verify`
// (the config's budget, the session's header).
func verifies(path, id string, cfg *config.Config) bool {
	text, _, err := checkpoint.Read(path)
	return err == nil && len(checkpoint.Verify(checkpoint.Parse(text), checkpoint.VerifyOptions{Budget: cfg.Checkpoint.Budget, Session: id})) == 0
}

// modForkPrompt prints the prompt the mod sends through $.model.fork to have the checkpoint
// written without adding to the conversation: the compact-prep skill's section rules and the
// template with this session's identity header.
func (e *Env) modForkPrompt(id string) error {
	rules, err := skillSectionRules()
	if err != nil {
		return err
	}
	fmt.Fprint(e.Stdout, safetext.Text(checkpoint.ForkPrompt(rules, checkpoint.Template(e.checkpointHeader(id)))))
	return nil
}

// skillSectionRules is the compact-prep skill's list of sections (its step 3), so the fork and
// the skill never drift apart.
func skillSectionRules() (string, error) {
	data, err := fs.ReadFile(skills.FS, "compact-prep/SKILL.md")
	if err != nil {
		return "", err
	}
	text := string(data)
	from := strings.Index(text, "- `## Goal`")
	to := strings.Index(text, "4. Run `zoneline checkpoint verify`")
	if from < 0 || to < from {
		return "", errors.New("zoneline: the compact-prep skill has no section list")
	}
	return strings.TrimSpace(text[from:to]), nil
}

// modSaveCheckpoint reads the fork's answer on stdin, takes the checkpoint out of it (from its
// title line; a code fence around it and any chatter after it dropped), checks it as `zoneline
// checkpoint verify` does (the budget, this session's header) and against the size a read
// accepts, and only then writes it to the session's checkpoint path (private, atomic). A
// checkpoint that fails a check is not written: the one there (say, a verified /compact-prep
// checkpoint) is kept, and the problems are on stderr, exit 1. It prints the path.
func (e *Env) modSaveCheckpoint(id string) error {
	// The mod pipes the answer and closes stdin: one left open ends the read at
	// answerStdinWait with an error, and nothing is written.
	data, err := e.readPayload(time.Now(), answerStdinWait)
	if err != nil {
		return fmt.Errorf("%w: nothing written", err)
	}
	text, ok := checkpoint.Extract(string(data))
	if !ok {
		return fmt.Errorf("zoneline: the answer holds no checkpoint (no %q line): nothing written", checkpoint.Title)
	}
	if len(text) > checkpoint.MaxSize {
		return fmt.Errorf("zoneline: the answer's checkpoint is %d bytes, over the %d a checkpoint may have: nothing written", len(text), checkpoint.MaxSize)
	}
	cfg, err := e.loadConfig()
	if err != nil {
		return err
	}
	if ps := checkpoint.Verify(checkpoint.Parse(text), checkpoint.VerifyOptions{Budget: cfg.Checkpoint.Budget, Session: id}); len(ps) > 0 {
		for _, p := range ps {
			fmt.Fprintf(e.Stderr, "answer:%d: %s\n", p.Line, safetext.Line(p.Msg)) // quotes the answer
		}
		return fmt.Errorf("zoneline: %d problem(s) in the answer's checkpoint: nothing written", len(ps))
	}
	path, err := checkpoint.Path(e.State, id)
	if err != nil {
		return err
	}
	if err := state.MkdirPrivate(dirOf(path)); err != nil {
		return err
	}
	if err := state.Replace(path, []byte(text)); err != nil {
		return err
	}
	e.State.InfoLine("mod", "session "+id+": checkpoint written from a fork ("+strconv.Itoa(len(text))+" bytes)")
	fmt.Fprintln(e.Stdout, path)
	return nil
}

// modReceipt prints the last compaction as the hooks recorded it, for the receipt on the row:
// one JSON line (count, trigger, how the restore went, whether a verified checkpoint was there).
func (e *Env) modReceipt(id string) error {
	cfg, _ := e.loadConfigCached()
	rs, err := hookevent.LastRestore(e.State, id)
	if err != nil {
		e.State.Log("mod", "receipt %s: %v", id, err)
	}
	b := append([]byte(nil), `{"v":1`...)
	b = jsonInt(b, "compactions", int64(rs.Count))
	b = jsonStr(b, "trigger", rs.Trigger)
	b = jsonStr(b, "restore", rs.Restore)
	b = jsonBool(b, "pending", rs.Pending)
	// Restored: the hooks delivered the restore, and the checkpoint was fresh for that compaction
	// (checkpoint.Current, the rule the restore applies) and passes verify.
	restored := false
	if rs.Restore != "" {
		f, _ := checkpoint.Current(e.State, id, e.Now(), time.Duration(cfg.Checkpoint.StaleMinutes)*time.Minute)
		if path, err := checkpoint.Path(e.State, id); err == nil && f.Fresh {
			restored = verifies(path, id, cfg)
		}
	}
	b = jsonBool(b, "checkpoint_restored", restored)
	b = append(b, "}\n"...)
	e.Stdout.Write(b)
	return nil
}

// jsonStr, jsonInt and jsonBool append one member ,"key":value to a JSON object.
func jsonStr(b []byte, key, v string) []byte {
	return jsonscan.AppendString(jsonKey(b, key), safetext.Field(v, 0)) // every value is one line of the mod's row
}

func jsonInt(b []byte, key string, v int64) []byte { return strconv.AppendInt(jsonKey(b, key), v, 10) }

func jsonBool(b []byte, key string, v bool) []byte { return strconv.AppendBool(jsonKey(b, key), v) }

func jsonKey(b []byte, key string) []byte {
	b = append(b, ',', '"')
	b = append(b, key...)
	return append(b, '"', ':')
}
