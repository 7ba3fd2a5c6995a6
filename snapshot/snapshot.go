// Package snapshot is the PreCompact mechanical snapshot: what the end of the transcript and the
// session's git checkout say, recorded with no interpretation just before a compaction. It is
// written atomically under <state>/snapshots/<time>-<session-id>.json; the last N are kept.
//
// Writers hold an exclusive lock on <state>/snapshots/.lock while they write and prune, so a
// temp file found while holding it was left by a writer that died (kill -9): it is removed.
package snapshot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/zoneline/zoneline/internal/redact"
	"github.com/zoneline/zoneline/state"
	"github.com/zoneline/zoneline/transcript"
)

// Tuning numbers.
const (
	DirName     = state.SnapshotsDirName // under the state dir
	DefaultKeep = 40                     // snapshots kept when the config says nothing
	Version     = 1                      // the file format's version

	GitTimeout = 1500 * time.Millisecond // `git config` and `git status` together, under PreCompact
	MaxDirty   = 50                      // dirty files recorded
	MaxSize    = 4 << 20                 // largest snapshot file read back
	MaxPrompt  = 2000                    // characters of one prompt kept
	lockWait   = time.Second             // how long a writer waits for the lock
	LockName   = ".lock"                 // the lock file the snapshots folder's writers share
	timeLayout = "20060102T150405.000000000Z"
)

// Snapshot is one PreCompact snapshot.
type Snapshot struct {
	Version       int       `json:"version"`
	SessionID     string    `json:"session_id"`
	Time          time.Time `json:"time"`
	Trigger       string    `json:"trigger"` // manual or auto
	Cwd           string    `json:"cwd"`
	Transcript    string    `json:"transcript"`
	ContextTokens int64     `json:"context_tokens"`      // the latest context from the transcript; 0 when unknown
	Compactions   int       `json:"compactions"`         // compact_boundary records in the part read
	Partial       bool      `json:"partial"`             // the transcript was longer than the part read
	Prompts       []Prompt  `json:"prompts"`             // the user's last prompts, verbatim, oldest first
	Files         []string  `json:"files"`               // written or edited, oldest first
	Commands      []Command `json:"commands"`            // recent Bash commands, oldest first
	Skills        []string  `json:"skills"`              // skills and slash commands used
	Git           *Git      `json:"git"`                 // nil when cwd is not in a git checkout
	Problems      []string  `json:"problems"`            // what could not be read
	InFlight      *InFlight `json:"in_flight,omitempty"` // work in flight (inflight.go); nil in older snapshots
}

// Prompt is one user prompt.
type Prompt struct {
	Text string    `json:"text"`
	Time time.Time `json:"time,omitzero"`
}

// Command is one Bash tool call.
type Command struct {
	Command     string `json:"command"`
	Description string `json:"description,omitempty"`
}

// Git is the checkout's state.
type Git struct {
	Branch    string   `json:"branch,omitempty"` // "" when detached
	Head      string   `json:"head,omitempty"`   // the commit; "" in a repo with no commits
	Root      string   `json:"root"`
	Dirty     []string `json:"dirty"`               // "XY path" lines, as git status --porcelain
	DirtyMore int      `json:"dirty_more,omitzero"` // dirty files beyond MaxDirty
	Upstream  string   `json:"upstream,omitempty"`  // the branch's upstream; "" none
	Ahead     int      `json:"ahead,omitzero"`      // commits ahead of the upstream
	Behind    int      `json:"behind,omitzero"`     // commits behind it
	Err       string   `json:"error,omitempty"`     // git status failed or timed out
}

// Input is what a snapshot is taken from: the PreCompact payload's fields.
type Input struct {
	SessionID  string
	Transcript string
	Cwd        string
	Trigger    string
	Now        time.Time
	State      *state.Dir // for the Stop record and the registry; nil leaves them out
}

// Take collects a snapshot: transcript.Facts over the transcript's tail and the checkout's
// branch, HEAD and dirty files. What fails is named in Problems; Take itself never fails.
func Take(ctx context.Context, in Input) *Snapshot {
	s := &Snapshot{Version: Version, SessionID: in.SessionID, Time: in.Now.UTC(), Trigger: in.Trigger,
		Cwd: in.Cwd, Transcript: in.Transcript}
	if in.Transcript != "" {
		fs, err := transcript.Facts(in.Transcript, 0, transcript.FactLimits{})
		if err != nil {
			s.problem("transcript: %v", err)
		}
		for _, p := range fs.Prompts {
			s.Prompts = append(s.Prompts, Prompt{Text: p.Text, Time: p.Time})
		}
		for _, c := range fs.Commands {
			s.Commands = append(s.Commands, Command{Command: c.Command, Description: c.Description})
		}
		s.Files, s.Skills = fs.Files, fs.Skills
		s.Redact()
		s.Compactions, s.Partial = fs.Compactions, fs.Partial
		if fs.Context.Found {
			s.ContextTokens = fs.Context.Tokens
		}
		s.InFlight = inFlight(in, fs.Flight)
	} else {
		s.problem("no transcript_path in the payload")
		s.InFlight = inFlight(in, transcript.Flight{})
	}
	if in.Cwd != "" && filepath.IsAbs(in.Cwd) {
		s.Git = gitState(ctx, in.Cwd)
	}
	s.Redact() // last: git's error and the problems quote outside text too
	return s
}

// Redact replaces the credentials in the snapshot's free text (prompts, commands and their
// descriptions, git's error, the problems) with "[REDACTED: kind]" (internal/redact) and cuts each to MaxPrompt characters
// (after redacting, so that no cut can split a key and let its head through). Take calls it;
// the restore calls it again on snapshots written before it existed.
func (s *Snapshot) Redact() {
	for i := range s.Prompts {
		s.Prompts[i].Text = cut(redact.String(s.Prompts[i].Text), MaxPrompt)
	}
	for i := range s.Commands {
		c := &s.Commands[i]
		c.Command, c.Description = cut(redact.String(c.Command), MaxPrompt), redact.String(c.Description)
	}
	for i := range s.Skills { // "/deploy --token …": a skill's arguments are free text too
		s.Skills[i] = redact.String(s.Skills[i])
	}
	for i := range s.Files {
		s.Files[i] = redact.String(s.Files[i])
	}
	s.InFlight.redact() // inflight.go
	if s.Git != nil {
		s.Git.Err = redact.String(s.Git.Err) // git quotes its config and remote URLs
	}
	for i := range s.Problems {
		s.Problems[i] = redact.String(s.Problems[i])
	}
}

func (s *Snapshot) problem(format string, args ...any) {
	s.Problems = append(s.Problems, fmt.Sprintf(format, args...))
}

// parsePorcelain folds `git status --porcelain=v2 --branch -z` output into g.
func parsePorcelain(g *Git, out []byte) {
	fields := strings.Split(string(out), "\x00")
	for i := 0; i < len(fields); i++ {
		f := fields[i]
		var xy, path string
		switch {
		case strings.HasPrefix(f, "# branch.oid "):
			if oid := strings.TrimPrefix(f, "# branch.oid "); oid != "(initial)" {
				g.Head = oid
			}
			continue
		case strings.HasPrefix(f, "# branch.upstream "):
			g.Upstream = strings.TrimPrefix(f, "# branch.upstream ")
			continue
		case strings.HasPrefix(f, "# branch.ab "):
			a, b, _ := strings.Cut(strings.TrimPrefix(f, "# branch.ab "), " ")
			g.Ahead, _ = strconv.Atoi(strings.TrimPrefix(a, "+"))
			g.Behind, _ = strconv.Atoi(strings.TrimPrefix(b, "-"))
			g.Ahead, g.Behind = max(g.Ahead, 0), max(g.Behind, 0)
			continue
		case strings.HasPrefix(f, "# branch.head "):
			if h := strings.TrimPrefix(f, "# branch.head "); h != "(detached)" {
				g.Branch = h
			}
			continue
		case strings.HasPrefix(f, "1 "):
			p := strings.SplitN(f, " ", 9)
			if len(p) == 9 {
				xy, path = p[1], p[8]
			}
		case strings.HasPrefix(f, "2 "):
			p := strings.SplitN(f, " ", 10)
			if len(p) == 10 {
				xy, path = p[1], p[9]
			}
			i++ // the original path follows
		case strings.HasPrefix(f, "u "):
			p := strings.SplitN(f, " ", 11)
			if len(p) == 11 {
				xy, path = p[1], p[10]
			}
		case strings.HasPrefix(f, "? "):
			xy, path = "??", f[2:]
		default:
			continue
		}
		if path == "" {
			continue
		}
		if len(g.Dirty) >= MaxDirty {
			g.DirtyMore++
			continue
		}
		g.Dirty = append(g.Dirty, strings.ReplaceAll(xy, ".", " ")+" "+path)
	}
}

// cut shortens s to n runes with a mark.
func cut(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "… [cut]"
}

// Dir returns the snapshots folder.
func Dir(d state.Dir) string { return filepath.Join(d.Root, DirName) }

// FileName returns the snapshot's file name: its UTC time (sortable) and session id.
func FileName(t time.Time, sessionID string) string {
	return t.UTC().Format(timeLayout) + "-" + strings.ToLower(sessionID) + ".json"
}

// Write stores s atomically in the snapshots folder and removes the oldest snapshots beyond
// keep (DefaultKeep when <= 0) and any temp file a dead writer left. It returns the path. The
// snapshot itself needs no lock (a new name, written atomically), but pruning and cleaning do:
// when the lock cannot be had they are skipped, and the path comes with the lock's error.
func Write(d state.Dir, s *Snapshot, keep int) (string, error) {
	if !state.ValidSessionID(s.SessionID) {
		return "", state.ErrBadSession
	}
	if !d.Usable() {
		return "", state.ErrNoStateDir
	}
	if keep <= 0 {
		keep = DefaultKeep
	}
	dir := Dir(d)
	if err := state.MkdirPrivate(dir); err != nil {
		return "", err
	}
	unlock, lockErr := state.Lock(filepath.Join(dir, LockName), lockWait)
	defer unlock()
	if lockErr == nil {
		cleanTemps(dir)
	}
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, FileName(s.Time, s.SessionID))
	if err := state.WriteFile(path, append(data, '\n')); err != nil {
		return "", err
	}
	if lockErr != nil {
		return path, fmt.Errorf("%w (old snapshots not pruned)", lockErr)
	}
	prune(dir, keep)
	return path, nil
}

// List returns the snapshot files, oldest first. Temp files and other names are ignored.
func List(d state.Dir) ([]string, error) {
	if !d.Usable() {
		return nil, state.ErrNoStateDir
	}
	dir := Dir(d)
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range ents {
		if isSnapshotName(e.Name()) && e.Type().IsRegular() {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	slices.Sort(out)
	return out, nil
}

func isSnapshotName(name string) bool {
	// 20060102T150405.000000000Z-<36>.json
	return len(name) == len(timeLayout)+1+36+len(".json") && strings.HasSuffix(name, ".json") &&
		!strings.HasPrefix(name, ".") && state.ValidSessionID(name[len(timeLayout)+1:len(name)-len(".json")])
}

// Latest returns the newest snapshot of a session, or os.ErrNotExist.
func Latest(d state.Dir, sessionID string) (string, *Snapshot, error) {
	if !state.ValidSessionID(sessionID) {
		return "", nil, state.ErrBadSession
	}
	files, err := List(d)
	if err != nil {
		return "", nil, err
	}
	suffix := "-" + strings.ToLower(sessionID) + ".json"
	for i := len(files) - 1; i >= 0; i-- {
		if !strings.HasSuffix(files[i], suffix) {
			continue
		}
		s, err := Load(files[i])
		if err != nil {
			continue // a foreign or damaged file: try the one before
		}
		return files[i], s, nil
	}
	return "", nil, os.ErrNotExist
}

// Load reads one snapshot file.
func Load(path string) (*Snapshot, error) {
	data, err := state.ReadPrivate(path, MaxSize)
	if err != nil {
		return nil, err
	}
	s := &Snapshot{}
	if err := json.Unmarshal(data, s); err != nil {
		return nil, fmt.Errorf("zoneline: snapshot %s: %w", path, err)
	}
	if s.Version != Version || !state.ValidSessionID(s.SessionID) {
		return nil, errors.New("zoneline: snapshot " + path + ": not a version-1 snapshot")
	}
	return s, nil
}

// prune removes the oldest snapshots beyond keep.
func prune(dir string, keep int) {
	files, err := List(state.Dir{Root: filepath.Dir(dir)})
	if err != nil || len(files) <= keep {
		return
	}
	for _, f := range files[:len(files)-keep] {
		os.Remove(f)
	}
}

// cleanTemps removes temp files left by writers that died. Only called with the lock held, so
// no live writer owns one.
func cleanTemps(dir string) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		if n := e.Name(); strings.HasPrefix(n, ".") && strings.Contains(n, ".json.tmp-") {
			os.Remove(filepath.Join(dir, n))
		}
	}
}
