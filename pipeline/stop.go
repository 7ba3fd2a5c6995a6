package pipeline

import (
	"cmp"
	"errors"
	"os"
	"strings"
	"time"

	"github.com/zoneline/zoneline/config"
	"github.com/zoneline/zoneline/internal/rawfs"
	"github.com/zoneline/zoneline/internal/safetext"
	"github.com/zoneline/zoneline/payload"
	"github.com/zoneline/zoneline/state"
	"github.com/zoneline/zoneline/statusline"
	"github.com/zoneline/zoneline/transcript"
	"github.com/zoneline/zoneline/zones"
)

// The warning loop has two routes that run the same code: a statusline render (Render, After)
// and the Stop hook (StopWarning, below), which Claude Code runs after every turn whatever
// draws the status line, or when none is drawn. Both resolve the session's model with Resolve,
// update the registry the same way (notePrevious, countCompactions, After) and run
// checkWarning; the markers are the same O_EXCL files, so with both routes in place every tier
// still fires exactly once.

// errNoTranscript is the Stop hook's log line for a payload without transcript_path.
var errNoTranscript = errors.New("no transcript_path in the payload: no warning check this turn")

// StopWarning is the Stop hook's warning loop: the token count from the transcript's tail
// (bounded, as the statusline's fallback), the model from the transcript and the registry,
// then the statusline's registry update and checkWarning. It prints nothing; problems are
// returned for the hook's log line.
//
// Window: the registry's, when the status line last saw this model (it has Claude Code's
// context_window_size); else what the config's rules assume for the model (zones.Window with
// no size: a [1m] id, the config's window, 200k). The Stop hook never overwrites a window or a
// model name the status line recorded, and never re-arms on a window change: only the status
// line knows the window for sure.
func (c *Context) StopWarning(cfg *config.Config, h *payload.Hook) error {
	if !state.ValidSessionID(h.SessionID) {
		if h.SessionID == "" {
			return errors.New("no session_id in the payload")
		}
		return errors.New("session id " + safetext.Cut(h.SessionID, 80) + " is not a UUID: no state kept")
	}
	if h.TranscriptPath == "" {
		return errNoTranscript
	}
	needle := replyNeedle(h.LastAssistantMessage)
	t, has, err := c.tailWithReply(h.TranscriptPath, needle)
	if err != nil {
		if rawfs.IsNotExist(err) {
			return errors.New("transcript " + h.TranscriptPath + " does not exist (yet)")
		}
		return errors.New("transcript: " + safetext.Field(err.Error(), 0))
	}
	var problem error
	if needle != nil && !has {
		problem = errors.New("the turn's reply was not in the transcript (it stopped growing, or " + ReplyWait.String() + " passed); the last reply there was used")
	}
	if t.Torn {
		problem = errors.New("transcript " + h.TranscriptPath + " ends in a half-written line; the last whole record was used")
	}
	s, loadErr := c.State.LoadSession(h.SessionID)
	before := *s
	r := Rendered{route: "hook"}
	r.notePrevious(s, loadErr, h.TranscriptPath)
	r.prevWindow = 0 // see above: the Stop hook does not re-arm on a window it may have guessed
	c.countCompactions(s, h.TranscriptPath)

	modelID := t.Model
	seen := s.ModelID != "" && (modelID == "" || sameModel(s.ModelID, modelID))
	var size int64
	if seen {
		modelID, size = s.ModelID, s.Window // what the status line last saw (window 0: never)
	}
	project := cmp.Or(s.Project, h.Cwd)
	var tokens int64
	if t.Found {
		tokens = t.Tokens
	}
	rs := c.Resolve(cfg, modelID, size, tokens, project)
	v := statusline.View{Window: rs.Window, Thresholds: rs.Thresholds, Compact: rs.Compact}
	known := t.Found
	if known {
		v.Tokens = t.Tokens
		v.Zone = zones.Classify(t.Tokens, rs.Thresholds)
	}
	r.Warning = Warning{Levels: rs.Levels, Policy: rs.Policy, Known: known, Tokens: v.Tokens}
	v.Tier = c.hintTier(rs, h.SessionID, r.Warning) // the step the notification names
	r.View = v

	if known {
		s.Tokens, s.Zone = v.Tokens, v.Zone.String()
	}
	if !seen || s.Window == 0 {
		s.Window, s.WindowGuessed, s.ModelID = rs.Window, true, modelID
		if s.Model == "" || !seen {
			s.Model = displayName(modelID)
		}
	}
	s.Cwd, s.Project = cmp.Or(s.Cwd, h.Cwd), cmp.Or(s.Project, h.Cwd)
	s.AutoCompact = rs.Compact.Point
	r.session, r.saved, r.loaded, r.changed = s, before, loadErr == nil, !s.Same(before)
	c.After(r, -1)
	if !known && problem == nil {
		problem = errors.New("no reply with a token count in the transcript's tail yet")
	}
	return problem
}

// tailWithReply reads the transcript's tail; has reports whether it holds the reply needle
// names. Claude Code writes the transcript behind its hooks: the turn's reply may reach the
// file after Stop started, so a tail without it is read again while the file grows, up to
// ReplyWait, and given up once it stays quiet for ReplyQuiet.
func (c *Context) tailWithReply(path string, needle []byte) (t transcript.Context, has bool, err error) {
	t, has, err = transcript.TailWith(path, tailBytes, needle)
	if err != nil || needle == nil || has {
		return t, has, err
	}
	sleep := c.Sleep
	if sleep == nil {
		sleep = time.Sleep
	}
	size, quietSince := fileSize(path), c.Now()
	// A clock's end, not a count of polls: each poll's tail read takes time too (a large
	// transcript's 4 MiB).
	for end := quietSince.Add(ReplyWait); c.Now().Before(end) && c.Now().Sub(quietSince) < ReplyQuiet; {
		sleep(replyPoll)
		if n := fileSize(path); n != size {
			size, quietSince = n, c.Now()
		}
		if t, has, err = transcript.TailWith(path, tailBytes, needle); err != nil || has {
			break
		}
	}
	return t, has, err
}

// How long the Stop hook waits for the turn's reply to reach the transcript, and how often it
// looks. Measured with Claude Code 2.1.332 (e2e, TestPeerStatuslineWarnings): the reply landed
// 90–130 ms after the Stop hook started; a transcript quiet for ReplyQuiet is not being written.
const (
	ReplyWait  = 1500 * time.Millisecond
	replyPoll  = 25 * time.Millisecond
	ReplyQuiet = 600 * time.Millisecond // a transcript that did not grow for this long gets no reply: stop waiting
)

// fileSize returns path's size, -1 when it cannot be read.
func fileSize(path string) int64 {
	fi, err := os.Stat(path)
	if err != nil {
		return -1
	}
	return fi.Size()
}

// replyNeedle returns the bytes the transcript line of a reply with text msg contains for
// sure: msg's start up to its first byte JSON escapes (a quote, a backslash, a control
// character), at most 64 bytes, cut on a rune boundary. nil when that is too short to tell
// replies apart.
func replyNeedle(msg string) []byte {
	n := 0
	for n < len(msg) && n < 64 {
		if c := msg[n]; c == '"' || c == '\\' || c < 0x20 {
			break
		}
		n++
	}
	if needle, _ := safetext.CutBytes(msg, n); len(needle) >= 8 {
		return []byte(needle)
	}
	return nil
}

// displayName names a model the way Claude Code's model.display_name does, from its id, for a
// session no status line reported: "claude-sonnet-4-5-20250929" → "Sonnet 4.5". An id of
// another shape is returned as it is.
func displayName(id string) string {
	parts := strings.Split(strings.TrimSuffix(strings.TrimPrefix(id, "claude-"), "[1m]"), "-")
	if len(parts) > 1 && len(parts[len(parts)-1]) == 8 && isDigits(parts[len(parts)-1]) {
		parts = parts[:len(parts)-1] // the date
	}
	if len(parts) < 2 || parts[0] == "" || isDigits(parts[0]) {
		return id
	}
	for _, p := range parts[1:] {
		if !isDigits(p) || len(p) > 2 {
			return id
		}
	}
	return strings.ToUpper(parts[0][:1]) + parts[0][1:] + " " + strings.Join(parts[1:], ".")
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// sameModel reports whether the registry's model id (the status line's, maybe with a "[1m]"
// suffix) names the model a transcript records.
func sameModel(registry, fromTranscript string) bool {
	r := strings.ToLower(strings.TrimSuffix(registry, "[1m]"))
	return r == strings.ToLower(fromTranscript) || strings.HasPrefix(r, strings.ToLower(fromTranscript)+"[")
}
