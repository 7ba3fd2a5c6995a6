package state

import (
	"io/fs"
	"os"
	"time"
)

// Session is a session's registry entry, written by the statusline (one small atomic write when
// something changed) and read by `zoneline sessions`, doctor and the hooks.
type Session struct {
	ID      string    `json:"session_id"`
	Updated time.Time `json:"updated"`
	Tokens  int64     `json:"tokens"`
	Window  int64     `json:"window"`
	// WindowGuessed: Window is the Stop hook's assumption (the status line never saw this
	// model), not Claude Code's context_window_size: a render replacing it is no window change.
	WindowGuessed    bool   `json:"window_guessed,omitempty"`
	AutoCompact      int64  `json:"auto_compact"` // tokens; 0 when off
	Zone             string `json:"zone"`
	Model            string `json:"model"`
	ModelID          string `json:"model_id"`
	Cwd              string `json:"cwd"`
	Project          string `json:"project"`
	Version          string `json:"claude_version"`
	Compactions      int    `json:"compactions"`
	Reclaimed        int64  `json:"reclaimed,omitempty"` // tokens the compactions reclaimed (Σ preTokens − postTokens)
	Transcript       string `json:"transcript"`
	TranscriptOffset int64  `json:"transcript_offset"`
	// TranscriptDev, TranscriptIno and TranscriptSum identify the file TranscriptOffset was
	// counted in (transcript.Position): another file at the same path is counted from 0.
	TranscriptDev uint64 `json:"transcript_dev"`
	TranscriptIno uint64 `json:"transcript_ino"`
	TranscriptSum uint64 `json:"transcript_sum"`
	// TranscriptCounted: the compaction count has caught up with the transcript (the last scan
	// reached its end). Until then a growing count is a catch-up, not a new compaction.
	TranscriptCounted bool   `json:"transcript_counted"`
	Pane              string `json:"tmux_pane,omitempty"`
	TmuxSocket        string `json:"tmux_socket,omitempty"`
	RenderMicros      int64  `json:"render_us"`
	// Saved is when the registry was last written ("updated" in the file), whereas Updated is
	// the last render: the later of Saved and the file's time, which a render that only
	// confirms the registry sets (TouchSession). Not part of the file.
	Saved time.Time `json:"-"`
}

// Same reports whether s and o hold the same facts, ignoring the update time and render time.
func (s *Session) Same(o Session) bool {
	a, b := *s, o
	a.Updated, b.Updated = time.Time{}, time.Time{}
	a.Saved, b.Saved = time.Time{}, time.Time{}
	a.RenderMicros, b.RenderMicros = 0, 0
	return a == b
}

// OnlyMoved reports whether s differs from o at most in what moves with every turn of a
// session: the token count and the transcript offset with its check sum (besides the update and
// render times). The statusline saves such a change within seconds rather than at every render.
func (s *Session) OnlyMoved(o Session) bool {
	a, b := *s, o
	a.Tokens, b.Tokens = 0, 0
	a.TranscriptOffset, b.TranscriptOffset = 0, 0
	a.TranscriptSum, b.TranscriptSum = 0, 0
	return a.Same(b)
}

// LoadSession reads a session's registry entry. A missing or corrupt file yields a fresh entry
// (and the error), so the caller can go on.
func (d Dir) LoadSession(id string) (*Session, error) {
	s := &Session{ID: id}
	path, err := d.SessionFile(id, SessionFileName)
	if err != nil {
		return s, err
	}
	data, mtime, err := readPrivate(path, 64<<10)
	if data, err = readErr(path, 64<<10, data, err); err != nil {
		return s, err
	}
	if err := s.decode(data); err != nil {
		return &Session{ID: id}, err
	}
	s.ID = id
	s.Saved = s.Updated
	// A render that only confirms the registry touches it (TouchSession): the file's time (as
	// the read's open found it) is then the last render's.
	if mtime.After(s.Updated) {
		s.Updated = mtime.UTC()
	}
	return s, nil
}

// TouchSession records a render without rewriting the registry: it sets session.json's
// modification time to t, which LoadSession reads as Updated when it is later. (A rewrite is a
// temp file and a rename; a touch is one metadata update.)
func (d Dir) TouchSession(id string, t time.Time) error {
	path, err := d.SessionFile(id, SessionFileName)
	if err != nil {
		return err
	}
	// Only a regular file: Chtimes would follow a symlink planted there.
	fi, err := os.Lstat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return &fs.PathError{Op: "touch", Path: path, Err: fs.ErrNotExist}
	}
	Private(path, fi)
	return os.Chtimes(path, t, t)
}

// SaveSession writes a session's registry entry atomically (Replace: no fsync on the hot path).
func (d Dir) SaveSession(s *Session) error {
	path, err := d.SessionFile(s.ID, SessionFileName)
	if err != nil {
		return err
	}
	return Replace(path, append(s.appendJSON(nil), '\n'))
}
