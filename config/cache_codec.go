package config

import (
	"strconv"

	"github.com/zoneline/zoneline/internal/jsonscan"
)

// The cache is read on every render, so it is decoded by hand: the reflection walk it replaced
// cost a fresh process a few hundred microseconds of first-touch page faults and stack growth.
// It reads exactly what appendValue (reflection, run only when the cache is rewritten) writes;
// TestCacheCodecCoversEveryField fills every field of Config and checks the round trip, so a
// field added to Config without a line here fails the tests.

// readConfig reads the "config" object of the cache into c (which holds the defaults).
func readConfig(s *jsonscan.Scanner, c *Config) error {
	return readObject(s, "config", func(k []byte) (bool, error) {
		switch {
		case jsonscan.KeyIs(k, "color"):
			return true, readString(s, &c.Color)
		case jsonscan.KeyIs(k, "glyphs"):
			return true, readString(s, &c.Glyphs)
		case jsonscan.KeyIs(k, "east_asian_width"):
			return true, readBool(s, &c.EastAsianWidth)
		case jsonscan.KeyIs(k, "window"):
			return true, readInt64(s, &c.Window)
		case jsonscan.KeyIs(k, "statusline"):
			return true, readStatusline(s, &c.Statusline)
		case jsonscan.KeyIs(k, "autocompact"):
			a := &c.AutoCompact
			return true, readObject(s, "autocompact", func(k []byte) (bool, error) {
				switch {
				case jsonscan.KeyIs(k, "point"):
					return true, readInt64(s, &a.Point)
				case jsonscan.KeyIs(k, "enabled"):
					return true, readBoolPtr(s, &a.Enabled)
				case jsonscan.KeyIs(k, "max_output"):
					return true, readInt64(s, &a.MaxOutput)
				}
				return false, nil
			})
		case jsonscan.KeyIs(k, "model"):
			return true, readSlice(s, "model", &c.Models, func(m *Model) error { return readModel(s, m) })
		case jsonscan.KeyIs(k, "warning"):
			w := &c.Warning
			return true, readObject(s, "warning", func(k []byte) (bool, error) {
				switch {
				case jsonscan.KeyIs(k, "prep"):
					return true, readAny(s, "warning.prep", &w.Prep)
				case jsonscan.KeyIs(k, "imminent_distance"):
					return true, readInt64(s, &w.ImminentDistance)
				case jsonscan.KeyIs(k, "nudge"):
					return true, readBool(s, &w.Nudge)
				case jsonscan.KeyIs(k, "nudge_text"):
					return true, readString(s, &w.NudgeText)
				case jsonscan.KeyIs(k, "tiers"):
					return true, readStrings(s, "warning.tiers", &w.Tiers)
				}
				return false, nil
			})
		case jsonscan.KeyIs(k, "notify"):
			n := &c.Notify
			return true, readObject(s, "notify", func(k []byte) (bool, error) {
				switch {
				case jsonscan.KeyIs(k, "enabled"):
					return true, readBool(s, &n.Enabled)
				case jsonscan.KeyIs(k, "tiers"):
					return true, readStrings(s, "notify.tiers", &n.Tiers)
				case jsonscan.KeyIs(k, "urgency"):
					return true, readString(s, &n.Urgency)
				case jsonscan.KeyIs(k, "app_name"):
					return true, readString(s, &n.AppName)
				}
				return false, nil
			})
		case jsonscan.KeyIs(k, "checkpoint"):
			p := &c.Checkpoint
			return true, readObject(s, "checkpoint", func(k []byte) (bool, error) {
				switch {
				case jsonscan.KeyIs(k, "budget"):
					return true, readInt(s, &p.Budget)
				case jsonscan.KeyIs(k, "stale_minutes"):
					return true, readInt(s, &p.StaleMinutes)
				}
				return false, nil
			})
		case jsonscan.KeyIs(k, "precompact"):
			p := &c.PreCompact
			return true, readObject(s, "precompact", func(k []byte) (bool, error) {
				switch {
				case jsonscan.KeyIs(k, "hold_once"):
					return true, readBool(s, &p.HoldOnce)
				case jsonscan.KeyIs(k, "snapshots"):
					return true, readInt(s, &p.Snapshots)
				}
				return false, nil
			})
		case jsonscan.KeyIs(k, "state"):
			return true, readObject(s, "state", func(k []byte) (bool, error) {
				if jsonscan.KeyIs(k, "gc_days") {
					return true, readInt(s, &c.State.GCDays)
				}
				return false, nil
			})
		case jsonscan.KeyIs(k, "flow"):
			f := &c.Flow
			return true, readObject(s, "flow", func(k []byte) (bool, error) {
				switch {
				case jsonscan.KeyIs(k, "compact_instructions"):
					return true, readString(s, &f.CompactInstructions)
				case jsonscan.KeyIs(k, "timeouts"):
					t := &f.Timeouts
					return true, readObject(s, "flow.timeouts", func(k []byte) (bool, error) {
						switch {
						case jsonscan.KeyIs(k, "prep"):
							return true, readString(s, &t.Prep)
						case jsonscan.KeyIs(k, "compact"):
							return true, readString(s, &t.Compact)
						case jsonscan.KeyIs(k, "postcompact"):
							return true, readString(s, &t.Postcompact)
						}
						return false, nil
					})
				}
				return false, nil
			})
		case jsonscan.KeyIs(k, "watch"):
			w := &c.Watch
			return true, readObject(s, "watch", func(k []byte) (bool, error) {
				switch {
				case jsonscan.KeyIs(k, "interval"):
					return true, readString(s, &w.Interval)
				case jsonscan.KeyIs(k, "auto"):
					return true, readBool(s, &w.Auto)
				case jsonscan.KeyIs(k, "projects"):
					return true, readStrings(s, "watch.projects", &w.Projects)
				}
				return false, nil
			})
		}
		return false, nil
	})
}

func readStatusline(s *jsonscan.Scanner, l *Statusline) error {
	return readObject(s, "statusline", func(k []byte) (bool, error) {
		switch {
		case jsonscan.KeyIs(k, "lines"):
			return true, readSlice(s, "statusline.lines", &l.Lines, func(line *[]string) error {
				return readStrings(s, "statusline.lines[]", line)
			})
		case jsonscan.KeyIs(k, "separator"):
			return true, readString(s, &l.Separator)
		case jsonscan.KeyIs(k, "bar_width"):
			return true, readInt(s, &l.BarWidth)
		case jsonscan.KeyIs(k, "indent"):
			return true, readInt(s, &l.Indent)
		}
		return false, nil
	})
}

func readModel(s *jsonscan.Scanner, m *Model) error {
	return readObject(s, "model[]", func(k []byte) (bool, error) {
		switch {
		case jsonscan.KeyIs(k, "match"):
			return true, readString(s, &m.Match)
		case jsonscan.KeyIs(k, "window"):
			return true, readString(s, &m.Window)
		case jsonscan.KeyIs(k, "warn"):
			return true, readInt64(s, &m.Warn)
		case jsonscan.KeyIs(k, "dumb"):
			return true, readInt64(s, &m.Dumb)
		case jsonscan.KeyIs(k, "prep"):
			return true, readAny(s, "model[].prep", &m.Prep)
		}
		return false, nil
	})
}

// readObject reads an object through field, which reports whether it read the key's value;
// other keys are skipped.
func readObject(s *jsonscan.Scanner, name string, field func(k []byte) (bool, error)) error {
	_, err := s.Object(name, func(k []byte) error {
		done, err := field(k)
		if !done {
			return s.Skip()
		}
		return err
	})
	return err
}

// readSlice reads an array into *dst (null: nil; [] an empty, non-nil slice), each element
// through elem.
func readSlice[T any](s *jsonscan.Scanner, name string, dst *[]T, elem func(*T) error) error {
	*dst = nil
	kind, err := s.Array(name, func() error {
		var e T
		if err := elem(&e); err != nil {
			return err
		}
		*dst = append(*dst, e)
		return nil
	})
	if err == nil && kind == jsonscan.Present && *dst == nil {
		*dst = []T{}
	}
	return err
}

func readStrings(s *jsonscan.Scanner, name string, dst *[]string) error {
	return readSlice(s, name, dst, func(e *string) error { return readString(s, e) })
}

func readString(s *jsonscan.Scanner, dst *string) error {
	raw, err := s.Raw()
	if err != nil {
		return err
	}
	if len(raw) < 2 || raw[0] != '"' {
		return errStale
	}
	*dst = jsonscan.Unquote(raw[1 : len(raw)-1])
	return nil
}

func readInt64(s *jsonscan.Scanner, dst *int64) error {
	raw, err := s.Raw()
	if err != nil {
		return err
	}
	n, err := strconv.ParseInt(string(raw), 10, 64)
	if err != nil {
		return errStale
	}
	*dst = n
	return nil
}

func readInt(s *jsonscan.Scanner, dst *int) error {
	var n int64
	if err := readInt64(s, &n); err != nil {
		return err
	}
	*dst = int(n)
	return nil
}

func readBool(s *jsonscan.Scanner, dst *bool) error {
	raw, err := s.Raw()
	*dst = string(raw) == "true"
	return err
}

func readBoolPtr(s *jsonscan.Scanner, dst **bool) error {
	raw, err := s.Raw()
	if err != nil || string(raw) == "null" {
		*dst = nil
		return err
	}
	v := string(raw) == "true"
	*dst = &v
	return nil
}

// readAny reads what go-toml decoded into an any, as appendValue tagged it: {"s": string},
// {"i": int64}, {"f": float64} or {"b": bool}; null is nil.
func readAny(s *jsonscan.Scanner, name string, dst *any) error {
	*dst = nil
	return readObject(s, name, func(k []byte) (bool, error) {
		switch {
		case jsonscan.KeyIs(k, "s"):
			var v string
			err := readString(s, &v)
			*dst = v
			return true, err
		case jsonscan.KeyIs(k, "i"):
			var v int64
			err := readInt64(s, &v)
			*dst = v
			return true, err
		case jsonscan.KeyIs(k, "f"):
			raw, err := s.Raw()
			if err != nil {
				return true, err
			}
			f, err := strconv.ParseFloat(string(raw), 64)
			if err != nil {
				return true, err
			}
			*dst = f
			return true, nil
		case jsonscan.KeyIs(k, "b"):
			var v bool
			err := readBool(s, &v)
			*dst = v
			return true, err
		}
		return false, nil
	})
}
