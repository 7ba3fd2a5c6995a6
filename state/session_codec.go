package state

import (
	"strconv"
	"time"

	"github.com/zoneline/zoneline/internal/jsonscan"
)

// The registry is read and written on every render, so it is encoded by hand (jsonscan) rather
// than through encoding/json's reflection, whose first use costs a fresh process hundreds of
// microseconds. The file stays ordinary, indented JSON with the same keys as the struct tags:
// sessionKeys lists them once, in file order, and both appendJSON and decode walk that list
// (session_codec_test.go holds the list to the tags and the file to encoding/json's).

// (No MarshalJSON/UnmarshalJSON methods: Session is embedded in other types, such as
// sessions.Entry, and a promoted method would replace their whole encoding. encoding/json reads
// and writes the same shape through the struct tags.)

// sessionKey is one key of the registry file and the field it holds: exactly one accessor is
// set, which gives the value's kind.
type sessionKey struct {
	key       string
	omitEmpty bool // left out when "", 0 or false
	str       func(*Session) *string
	num       func(*Session) *int64
	unum      func(*Session) *uint64 // read exactly (uintField)
	count     func(*Session) *int    // read clamped to 0..2³¹-1
	flag      func(*Session) *bool
	time      func(*Session) *time.Time // RFC 3339 with nanoseconds
}

// sessionKeys is the registry file's shape, in file order.
var sessionKeys = [...]sessionKey{
	{key: "session_id", str: func(s *Session) *string { return &s.ID }},
	{key: "updated", time: func(s *Session) *time.Time { return &s.Updated }},
	{key: "tokens", num: func(s *Session) *int64 { return &s.Tokens }},
	{key: "window", num: func(s *Session) *int64 { return &s.Window }},
	{key: "window_guessed", omitEmpty: true, flag: func(s *Session) *bool { return &s.WindowGuessed }},
	{key: "auto_compact", num: func(s *Session) *int64 { return &s.AutoCompact }},
	{key: "zone", str: func(s *Session) *string { return &s.Zone }},
	{key: "model", str: func(s *Session) *string { return &s.Model }},
	{key: "model_id", str: func(s *Session) *string { return &s.ModelID }},
	{key: "cwd", str: func(s *Session) *string { return &s.Cwd }},
	{key: "project", str: func(s *Session) *string { return &s.Project }},
	{key: "claude_version", str: func(s *Session) *string { return &s.Version }},
	{key: "compactions", count: func(s *Session) *int { return &s.Compactions }},
	{key: "reclaimed", omitEmpty: true, num: func(s *Session) *int64 { return &s.Reclaimed }},
	{key: "transcript", str: func(s *Session) *string { return &s.Transcript }},
	{key: "transcript_offset", num: func(s *Session) *int64 { return &s.TranscriptOffset }},
	{key: "transcript_dev", unum: func(s *Session) *uint64 { return &s.TranscriptDev }},
	{key: "transcript_ino", unum: func(s *Session) *uint64 { return &s.TranscriptIno }},
	{key: "transcript_sum", unum: func(s *Session) *uint64 { return &s.TranscriptSum }},
	{key: "transcript_counted", flag: func(s *Session) *bool { return &s.TranscriptCounted }},
	{key: "tmux_pane", omitEmpty: true, str: func(s *Session) *string { return &s.Pane }},
	{key: "tmux_socket", omitEmpty: true, str: func(s *Session) *string { return &s.TmuxSocket }},
	{key: "render_us", num: func(s *Session) *int64 { return &s.RenderMicros }},
}

// appendJSON appends s as encoding/json's MarshalIndent(s, "", "  ") writes it.
func (s *Session) appendJSON(b []byte) []byte {
	sep := "{\n  \""
	for i := range sessionKeys {
		k := &sessionKeys[i]
		if k.omitEmpty && k.empty(s) {
			continue
		}
		b = append(b, sep...)
		sep = ",\n  \""
		b = append(b, k.key...)
		b = append(b, "\": "...)
		switch {
		case k.str != nil:
			b = jsonscan.AppendString(b, *k.str(s))
		case k.num != nil:
			b = strconv.AppendInt(b, *k.num(s), 10)
		case k.unum != nil:
			b = strconv.AppendUint(b, *k.unum(s), 10)
		case k.count != nil:
			b = strconv.AppendInt(b, int64(*k.count(s)), 10)
		case k.flag != nil:
			b = strconv.AppendBool(b, *k.flag(s))
		case k.time != nil:
			b = jsonscan.AppendString(b, k.time(s).Format(time.RFC3339Nano))
		}
	}
	return append(b, "\n}"...)
}

// empty reports whether the key's value in s is a string's or a number's zero value.
func (k *sessionKey) empty(s *Session) bool {
	switch {
	case k.str != nil:
		return *k.str(s) == ""
	case k.num != nil:
		return *k.num(s) == 0
	case k.flag != nil:
		return !*k.flag(s)
	}
	return false
}

// decode reads a registry file into s: the keys of sessionKeys, the others skipped.
func (s *Session) decode(data []byte) error {
	return jsonscan.Decode(data, func(sc *jsonscan.Scanner, raw []byte) error {
		for i := range sessionKeys {
			if k := &sessionKeys[i]; jsonscan.KeyIs(raw, k.key) {
				return k.read(sc, s)
			}
		}
		return sc.Skip()
	})
}

// read reads the key's value into s.
func (k *sessionKey) read(sc *jsonscan.Scanner, s *Session) error {
	switch {
	case k.str != nil:
		return sc.String(k.key, k.str(s))
	case k.num != nil:
		return sc.Int(k.key, k.num(s))
	case k.unum != nil:
		return uintField(sc, k.unum(s))
	case k.count != nil:
		n := int64(*k.count(s))
		err := sc.Int(k.key, &n)
		*k.count(s) = int(max(0, min(n, 1<<31-1)))
		return err
	case k.flag != nil:
		var v *bool
		err := sc.BoolPtr(k.key, &v)
		*k.flag(s) = v != nil && *v
		return err
	case k.time != nil:
		return sc.Time(k.key, k.time(s))
	}
	return sc.Skip()
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
