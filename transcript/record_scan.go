package transcript

import (
	"errors"
	"strconv"

	"github.com/zoneline/zoneline/internal/jsonscan"
)

// The statusline reads the transcript's tail (the tokens right after a compaction, or from an
// older Claude Code) and its compaction records on its hot path, where encoding/json's
// reflection costs a fresh process hundreds of microseconds on first use. So ParseRecord decodes
// the fields it needs with jsonscan; parseRecord with content (Facts) keeps encoding/json.
// FuzzParseRecordScan holds the two equal.

// errWire is a value of the wrong JSON type for its field: encoding/json fails the record then.
var errWire = errors.New("transcript: wrong type")

// scanRecord decodes line into w as json.Unmarshal(line, w) does, for every field but
// message.content (skipped, though validated).
func scanRecord(line []byte, w *wireRecord) bool {
	err := jsonscan.Decode(line, func(s *jsonscan.Scanner, k []byte) error {
		switch {
		case jsonscan.KeyIs(k, "type"):
			return wireString(s, &w.Type)
		case jsonscan.KeyIs(k, "subtype"):
			return wireString(s, &w.Subtype)
		case jsonscan.KeyIs(k, "isSidechain"):
			return wireBool(s, &w.IsSidechain)
		case jsonscan.KeyIs(k, "isMeta"):
			return wireBool(s, &w.IsMeta)
		case jsonscan.KeyIs(k, "isCompactSummary"):
			return wireBool(s, &w.IsCompactSummary)
		case jsonscan.KeyIs(k, "uuid"):
			return wireString(s, &w.UUID)
		case jsonscan.KeyIs(k, "parentUuid"):
			return wireString(s, &w.ParentUUID)
		case jsonscan.KeyIs(k, "sessionId"):
			return wireString(s, &w.SessionID)
		case jsonscan.KeyIs(k, "session_id"):
			return wireString(s, &w.SessionIDSnake)
		case jsonscan.KeyIs(k, "timestamp"):
			return wireString(s, &w.Timestamp)
		case jsonscan.KeyIs(k, "message"):
			m := &w.Message
			return wireObject(s, "message", func(k []byte) (bool, error) {
				switch {
				case jsonscan.KeyIs(k, "id"):
					return true, wireString(s, &m.ID)
				case jsonscan.KeyIs(k, "model"):
					return true, wireString(s, &m.Model)
				case jsonscan.KeyIs(k, "usage"):
					return true, wirePtr(s, "usage", &m.Usage, func(u *wireUsage, k []byte) (bool, error) {
						switch {
						case jsonscan.KeyIs(k, "input_tokens"):
							return true, wireFloat(s, &u.Input)
						case jsonscan.KeyIs(k, "cache_creation_input_tokens"):
							return true, wireFloat(s, &u.CacheCreation)
						case jsonscan.KeyIs(k, "cache_read_input_tokens"):
							return true, wireFloat(s, &u.CacheRead)
						case jsonscan.KeyIs(k, "output_tokens"):
							return true, wireFloat(s, &u.Output)
						}
						return false, nil
					})
				}
				return false, nil // content and the rest: skipped
			})
		case jsonscan.KeyIs(k, "compactMetadata"):
			return wirePtr(s, "compactMetadata", &w.CompactMetadata, func(c *wireCompact, k []byte) (bool, error) {
				switch {
				case jsonscan.KeyIs(k, "trigger"):
					return true, wireString(s, &c.Trigger)
				case jsonscan.KeyIs(k, "preTokens"):
					return true, wireFloat(s, &c.PreTokens)
				case jsonscan.KeyIs(k, "postTokens"):
					return true, wireFloatPtr(s, &c.PostTokens)
				}
				return false, nil
			})
		}
		return s.Skip()
	})
	return err == nil
}

// wireObject reads an object through field (null leaves it; another kind is errWire).
func wireObject(s *jsonscan.Scanner, name string, field func(k []byte) (bool, error)) error {
	kind, err := s.Object(name, func(k []byte) error {
		done, err := field(k)
		if !done {
			return s.Skip()
		}
		return err
	})
	if err == nil && kind == jsonscan.Wrong {
		return errWire
	}
	return err
}

// wirePtr reads an object into *dst as encoding/json does into a pointer: null sets nil, an
// object decodes into the existing value (or a new one), another kind is errWire.
func wirePtr[T any](s *jsonscan.Scanner, name string, dst **T, field func(v *T, k []byte) (bool, error)) error {
	v := *dst
	if v == nil {
		v = new(T)
	}
	kind, err := s.Object(name, func(k []byte) error {
		done, err := field(v, k)
		if !done {
			return s.Skip()
		}
		return err
	})
	switch {
	case err != nil:
		return err
	case kind == jsonscan.Null:
		*dst = nil
	case kind == jsonscan.Wrong:
		return errWire
	default:
		*dst = v
	}
	return nil
}

func wireString(s *jsonscan.Scanner, dst *string) error {
	raw, err := s.Raw()
	switch {
	case err != nil:
		return err
	case raw[0] == '"':
		*dst = jsonscan.Unquote(raw[1 : len(raw)-1])
		return nil
	case string(raw) == "null":
		return nil
	}
	return errWire
}

func wireBool(s *jsonscan.Scanner, dst *bool) error {
	raw, err := s.Raw()
	switch {
	case err != nil:
		return err
	case string(raw) == "true", string(raw) == "false":
		*dst = string(raw) == "true"
		return nil
	case string(raw) == "null":
		return nil
	}
	return errWire
}

func wireFloat(s *jsonscan.Scanner, dst *float64) error {
	raw, err := s.Raw()
	switch {
	case err != nil:
		return err
	case string(raw) == "null":
		return nil
	case raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9':
		f, err := strconv.ParseFloat(string(raw), 64)
		if err != nil {
			return errWire // out of range, as encoding/json fails it
		}
		*dst = f
		return nil
	}
	return errWire
}

// wireFloatPtr is wireFloat into a pointer, as encoding/json decodes one: null sets nil, a
// number sets a new value.
func wireFloatPtr(s *jsonscan.Scanner, dst **float64) error {
	raw, err := s.Raw()
	switch {
	case err != nil:
		return err
	case string(raw) == "null":
		*dst = nil
		return nil
	case raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9':
		f, err := strconv.ParseFloat(string(raw), 64)
		if err != nil {
			return errWire
		}
		*dst = &f
		return nil
	}
	return errWire
}
