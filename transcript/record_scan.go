package transcript

import "github.com/zoneline/zoneline/internal/jsonscan"

// The statusline reads the transcript's tail (the tokens right after a compaction, or from an
// older Claude Code) and its compaction records on its hot path, where encoding/json's
// reflection costs a fresh process hundreds of microseconds on first use. So a user, assistant
// or system record is decoded by jsonscan through the key tables below (the keys of wireRecord's
// json tags, as encoding/json would decode it: FuzzParseRecordScan holds the two equal). A value
// of the wrong type fails the record, as it fails encoding/json's Unmarshal.

type scanner = jsonscan.Scanner

var (
	recordFields = [...]jsonscan.Field[wireRecord]{
		{Key: "type", Read: func(s *scanner, w *wireRecord) error { return s.String(&w.Type) }},
		{Key: "subtype", Read: func(s *scanner, w *wireRecord) error { return s.String(&w.Subtype) }},
		{Key: "isSidechain", Read: func(s *scanner, w *wireRecord) error { return s.Bool(&w.IsSidechain) }},
		{Key: "isMeta", Read: func(s *scanner, w *wireRecord) error { return s.Bool(&w.IsMeta) }},
		{Key: "isCompactSummary", Read: func(s *scanner, w *wireRecord) error { return s.Bool(&w.IsCompactSummary) }},
		{Key: "uuid", Read: func(s *scanner, w *wireRecord) error { return s.String(&w.UUID) }},
		{Key: "parentUuid", Read: func(s *scanner, w *wireRecord) error { return s.String(&w.ParentUUID) }},
		{Key: "sessionId", Read: func(s *scanner, w *wireRecord) error { return s.String(&w.SessionID) }},
		{Key: "session_id", Read: func(s *scanner, w *wireRecord) error { return s.String(&w.SessionIDSnake) }},
		{Key: "timestamp", Read: func(s *scanner, w *wireRecord) error { return s.String(&w.Timestamp) }},
		{Key: "message", Read: func(s *scanner, w *wireRecord) error {
			_, err := jsonscan.ReadObject(s, &w.Message, messageFields[:])
			return err
		}},
		{Key: "compactMetadata", Read: func(s *scanner, w *wireRecord) error {
			return jsonscan.ReadPtr(s, &w.CompactMetadata, compactFields[:])
		}},
	}
	messageFields = [...]jsonscan.Field[wireMessage]{
		{Key: "id", Read: func(s *scanner, m *wireMessage) error { return s.String(&m.ID) }},
		{Key: "model", Read: func(s *scanner, m *wireMessage) error { return s.String(&m.Model) }},
		{Key: "usage", Read: func(s *scanner, m *wireMessage) error { return jsonscan.ReadPtr(s, &m.Usage, usageFields[:]) }},
		{Key: "content", Read: func(s *scanner, m *wireMessage) error {
			if m.Content == nil {
				return s.Skip() // validated, not kept
			}
			raw, err := s.Raw()
			*m.Content = append((*m.Content)[:0], raw...)
			return err
		}},
	}
	usageFields = [...]jsonscan.Field[wireUsage]{
		{Key: "input_tokens", Read: func(s *scanner, u *wireUsage) error { return s.Float(&u.Input) }},
		{Key: "cache_creation_input_tokens", Read: func(s *scanner, u *wireUsage) error { return s.Float(&u.CacheCreation) }},
		{Key: "cache_read_input_tokens", Read: func(s *scanner, u *wireUsage) error { return s.Float(&u.CacheRead) }},
		{Key: "output_tokens", Read: func(s *scanner, u *wireUsage) error { return s.Float(&u.Output) }},
	}
	compactFields = [...]jsonscan.Field[wireCompact]{
		{Key: "trigger", Read: func(s *scanner, c *wireCompact) error { return s.String(&c.Trigger) }},
		{Key: "preTokens", Read: func(s *scanner, c *wireCompact) error { return s.Float(&c.PreTokens) }},
		{Key: "postTokens", Read: func(s *scanner, c *wireCompact) error { return s.FloatPtr(&c.PostTokens) }},
	}
)

// scanRecord decodes line into w as json.Unmarshal(line, w) does; message.content is validated,
// and copied into *w.Message.Content when that is set.
func scanRecord(line []byte, w *wireRecord) bool {
	return jsonscan.DecodeFields(line, w, recordFields[:]) == nil
}
