package state

import (
	"strconv"

	"github.com/zoneline/zoneline/internal/jsonscan"
)

// The registry is read and written on every render, so it is encoded by hand (jsonscan) rather
// than through encoding/json's reflection, whose first use costs a fresh process hundreds of
// microseconds. The file stays ordinary, indented JSON with the same keys as the struct tags:
// sessionFields lists them once, in file order, with each key's reader and writer
// (session_codec_test.go holds the list to the tags and the file to encoding/json's).

// (No MarshalJSON/UnmarshalJSON methods: Session is embedded in other types, such as
// sessions.Entry, and a promoted method would replace their whole encoding. encoding/json reads
// and writes the same shape through the struct tags.)

type scanner = jsonscan.Scanner

// sessionFields is the registry file's shape, in file order.
var sessionFields = [...]jsonscan.Field[Session]{
	{Key: "session_id", Read: func(sc *scanner, s *Session) error { return sc.String(&s.ID) }, Write: func(b []byte, s *Session) []byte { return str(b, s.ID, false) }},
	{Key: "updated", Read: func(sc *scanner, s *Session) error { return sc.Time(&s.Updated) }, Write: func(b []byte, s *Session) []byte { return jsonscan.AppendTime(b, s.Updated) }},
	{Key: "tokens", Read: func(sc *scanner, s *Session) error { return sc.Int(&s.Tokens) }, Write: func(b []byte, s *Session) []byte { return jsonscan.AppendInt(b, s.Tokens, false) }},
	{Key: "window", Read: func(sc *scanner, s *Session) error { return sc.Int(&s.Window) }, Write: func(b []byte, s *Session) []byte { return jsonscan.AppendInt(b, s.Window, false) }},
	{Key: "window_guessed", Read: func(sc *scanner, s *Session) error { return sc.Bool(&s.WindowGuessed) }, Write: func(b []byte, s *Session) []byte { return flag(b, s.WindowGuessed, true) }},
	{Key: "auto_compact", Read: func(sc *scanner, s *Session) error { return sc.Int(&s.AutoCompact) }, Write: func(b []byte, s *Session) []byte { return jsonscan.AppendInt(b, s.AutoCompact, false) }},
	{Key: "zone", Read: func(sc *scanner, s *Session) error { return sc.String(&s.Zone) }, Write: func(b []byte, s *Session) []byte { return str(b, s.Zone, false) }},
	{Key: "model", Read: func(sc *scanner, s *Session) error { return sc.String(&s.Model) }, Write: func(b []byte, s *Session) []byte { return str(b, s.Model, false) }},
	{Key: "model_id", Read: func(sc *scanner, s *Session) error { return sc.String(&s.ModelID) }, Write: func(b []byte, s *Session) []byte { return str(b, s.ModelID, false) }},
	{Key: "cwd", Read: func(sc *scanner, s *Session) error { return sc.String(&s.Cwd) }, Write: func(b []byte, s *Session) []byte { return str(b, s.Cwd, false) }},
	{Key: "project", Read: func(sc *scanner, s *Session) error { return sc.String(&s.Project) }, Write: func(b []byte, s *Session) []byte { return str(b, s.Project, false) }},
	{Key: "claude_version", Read: func(sc *scanner, s *Session) error { return sc.String(&s.Version) }, Write: func(b []byte, s *Session) []byte { return str(b, s.Version, false) }},
	{Key: "compactions", Read: func(sc *scanner, s *Session) error { return sc.Count(&s.Compactions, 1<<31-1) }, Write: func(b []byte, s *Session) []byte {
		return jsonscan.AppendInt(b, int64(s.Compactions), false)
	}},
	{Key: "reclaimed", Read: func(sc *scanner, s *Session) error { return sc.Int(&s.Reclaimed) }, Write: func(b []byte, s *Session) []byte { return jsonscan.AppendInt(b, s.Reclaimed, true) }},
	{Key: "transcript", Read: func(sc *scanner, s *Session) error { return sc.String(&s.Transcript) }, Write: func(b []byte, s *Session) []byte { return str(b, s.Transcript, false) }},
	{Key: "transcript_offset", Read: func(sc *scanner, s *Session) error { return sc.Int(&s.TranscriptOffset) }, Write: func(b []byte, s *Session) []byte {
		return jsonscan.AppendInt(b, s.TranscriptOffset, false)
	}},
	{Key: "transcript_dev", Read: func(sc *scanner, s *Session) error { return uintField(sc, &s.TranscriptDev) }, Write: func(b []byte, s *Session) []byte { return strconv.AppendUint(b, s.TranscriptDev, 10) }},
	{Key: "transcript_ino", Read: func(sc *scanner, s *Session) error { return uintField(sc, &s.TranscriptIno) }, Write: func(b []byte, s *Session) []byte { return strconv.AppendUint(b, s.TranscriptIno, 10) }},
	{Key: "transcript_sum", Read: func(sc *scanner, s *Session) error { return uintField(sc, &s.TranscriptSum) }, Write: func(b []byte, s *Session) []byte { return strconv.AppendUint(b, s.TranscriptSum, 10) }},
	{Key: "transcript_counted", Read: func(sc *scanner, s *Session) error { return sc.Bool(&s.TranscriptCounted) }, Write: func(b []byte, s *Session) []byte { return flag(b, s.TranscriptCounted, false) }},
	{Key: "tmux_pane", Read: func(sc *scanner, s *Session) error { return sc.String(&s.Pane) }, Write: func(b []byte, s *Session) []byte { return str(b, s.Pane, true) }},
	{Key: "tmux_socket", Read: func(sc *scanner, s *Session) error { return sc.String(&s.TmuxSocket) }, Write: func(b []byte, s *Session) []byte { return str(b, s.TmuxSocket, true) }},
	{Key: "render_us", Read: func(sc *scanner, s *Session) error { return sc.Int(&s.RenderMicros) }, Write: func(b []byte, s *Session) []byte { return jsonscan.AppendInt(b, s.RenderMicros, false) }},
}

// appendJSON appends s as encoding/json's MarshalIndent(s, "", "  ") writes it.
func (s *Session) appendJSON(b []byte) []byte {
	return jsonscan.AppendObject(b, s, sessionFields[:], "  ")
}

// decode reads a registry file into s: the keys of sessionFields, the others skipped.
func (s *Session) decode(data []byte) error { return jsonscan.DecodeFields(data, s, sessionFields[:]) }

// str and flag are the writers of a string and a bool; omit leaves out "" and false.
func str(b []byte, v string, omit bool) []byte {
	if omit && v == "" {
		return b
	}
	return jsonscan.AppendString(b, v)
}

func flag(b []byte, v, omit bool) []byte {
	if omit && !v {
		return b
	}
	return strconv.AppendBool(b, v)
}

// uintField reads a uint64 field exactly (jsonscan's Int goes through a float64); a value that is
// not one leaves it 0, which only costs a rescan of the transcript.
func uintField(sc *scanner, dst *uint64) error {
	raw, err := sc.Raw()
	if err != nil {
		return err
	}
	if v, perr := strconv.ParseUint(string(raw), 10, 64); perr == nil {
		*dst = v
	}
	return nil
}
