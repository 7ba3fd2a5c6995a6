package state

import (
	"strconv"
	"time"

	"github.com/zoneline/zoneline/internal/jsonscan"
)

// The registry is read and written on every render, so it is encoded by hand (jsonscan) rather
// than through encoding/json's reflection, whose first use costs a fresh process hundreds of
// microseconds. The file stays ordinary, indented JSON with the same keys as the struct tags.

// (No MarshalJSON/UnmarshalJSON methods: Session is embedded in other types, such as
// sessions.Entry, and a promoted method would replace their whole encoding. encoding/json reads
// and writes the same shape through the struct tags.)

func (s *Session) appendJSON(b []byte) []byte {
	str := func(key, v string, omitEmpty bool) {
		if omitEmpty && v == "" {
			return
		}
		b = append(b, ",\n  \""...)
		b = append(b, key...)
		b = append(b, "\": "...)
		b = jsonscan.AppendString(b, v)
	}
	num := func(key string, v int64) {
		b = append(b, ",\n  \""...)
		b = append(b, key...)
		b = append(b, "\": "...)
		b = strconv.AppendInt(b, v, 10)
	}
	unum := func(key string, v uint64) {
		b = append(b, ",\n  \""...)
		b = append(b, key...)
		b = append(b, "\": "...)
		b = strconv.AppendUint(b, v, 10)
	}
	b = append(b, "{\n  \"session_id\": "...)
	b = jsonscan.AppendString(b, s.ID)
	str("updated", s.Updated.Format(time.RFC3339Nano), false)
	num("tokens", s.Tokens)
	num("window", s.Window)
	num("auto_compact", s.AutoCompact)
	str("zone", s.Zone, false)
	str("model", s.Model, false)
	str("model_id", s.ModelID, false)
	str("cwd", s.Cwd, false)
	str("project", s.Project, false)
	str("claude_version", s.Version, false)
	num("compactions", int64(s.Compactions))
	if s.Reclaimed != 0 {
		num("reclaimed", s.Reclaimed)
	}
	str("transcript", s.Transcript, false)
	num("transcript_offset", s.TranscriptOffset)
	unum("transcript_dev", s.TranscriptDev)
	unum("transcript_ino", s.TranscriptIno)
	unum("transcript_sum", s.TranscriptSum)
	b = append(b, ",\n  \"transcript_counted\": "...)
	b = strconv.AppendBool(b, s.TranscriptCounted)
	str("tmux_pane", s.Pane, true)
	str("tmux_socket", s.TmuxSocket, true)
	num("render_us", s.RenderMicros)
	return append(b, "\n}"...)
}

func (s *Session) decode(data []byte) error {
	var compactions int64
	err := jsonscan.Decode(data, func(sc *jsonscan.Scanner, k []byte) error {
		switch {
		case jsonscan.KeyIs(k, "session_id"):
			return sc.String("session_id", &s.ID)
		case jsonscan.KeyIs(k, "updated"):
			return sc.Time("updated", &s.Updated)
		case jsonscan.KeyIs(k, "tokens"):
			return sc.Int("tokens", &s.Tokens)
		case jsonscan.KeyIs(k, "window"):
			return sc.Int("window", &s.Window)
		case jsonscan.KeyIs(k, "auto_compact"):
			return sc.Int("auto_compact", &s.AutoCompact)
		case jsonscan.KeyIs(k, "zone"):
			return sc.String("zone", &s.Zone)
		case jsonscan.KeyIs(k, "model"):
			return sc.String("model", &s.Model)
		case jsonscan.KeyIs(k, "model_id"):
			return sc.String("model_id", &s.ModelID)
		case jsonscan.KeyIs(k, "cwd"):
			return sc.String("cwd", &s.Cwd)
		case jsonscan.KeyIs(k, "project"):
			return sc.String("project", &s.Project)
		case jsonscan.KeyIs(k, "claude_version"):
			return sc.String("claude_version", &s.Version)
		case jsonscan.KeyIs(k, "compactions"):
			return sc.Int("compactions", &compactions)
		case jsonscan.KeyIs(k, "reclaimed"):
			return sc.Int("reclaimed", &s.Reclaimed)
		case jsonscan.KeyIs(k, "transcript"):
			return sc.String("transcript", &s.Transcript)
		case jsonscan.KeyIs(k, "transcript_offset"):
			return sc.Int("transcript_offset", &s.TranscriptOffset)
		case jsonscan.KeyIs(k, "transcript_dev"):
			return uintField(sc, &s.TranscriptDev)
		case jsonscan.KeyIs(k, "transcript_ino"):
			return uintField(sc, &s.TranscriptIno)
		case jsonscan.KeyIs(k, "transcript_sum"):
			return uintField(sc, &s.TranscriptSum)
		case jsonscan.KeyIs(k, "transcript_counted"):
			var v *bool
			err := sc.BoolPtr("transcript_counted", &v)
			s.TranscriptCounted = v != nil && *v
			return err
		case jsonscan.KeyIs(k, "tmux_pane"):
			return sc.String("tmux_pane", &s.Pane)
		case jsonscan.KeyIs(k, "tmux_socket"):
			return sc.String("tmux_socket", &s.TmuxSocket)
		case jsonscan.KeyIs(k, "render_us"):
			return sc.Int("render_us", &s.RenderMicros)
		}
		return sc.Skip()
	})
	s.Compactions = int(max(0, min(compactions, 1<<31-1)))
	return err
}

// uintField reads a uint64 field exactly (jsonscan's Int goes through a float64); a value that is
// not one leaves it 0, which only costs a rescan of the transcript.
func uintField(sc *jsonscan.Scanner, dst *uint64) error {
	raw, err := sc.Raw()
	if err != nil {
		return err
	}
	if v, perr := strconv.ParseUint(string(raw), 10, 64); perr == nil {
		*dst = v
	}
	return nil
}
