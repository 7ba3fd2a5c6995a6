package payload

import (
	"bytes"
	"errors"
	"strconv"

	"github.com/zoneline/zoneline/internal/jsonscan"
)

// The payloads are decoded by jsonscan, not encoding/json: the statusline runs as a fresh process
// after every turn and must not pay encoding/json's first-use reflection (several hundred
// microseconds, measured). FuzzScanMatchesEncodingJSON holds the result to encoding/json's.
//
// Each struct's shape is one key table (jsonscan.Field: the keys of its json tags, which the
// strict schema-drift test and TestFieldTablesMatchTags hold them to); a type error is named by
// the path of keys that led to it.

type (
	scanner      = jsonscan.Scanner
	field[T any] = jsonscan.Field[T]
)

// decodeErr turns a jsonscan error into the payload's error; syntax reports whether nothing of
// the input can be trusted.
func decodeErr(err error) (wrapped error, syntax bool) {
	var te *jsonscan.TypeError
	switch {
	case err == nil:
		return nil, false
	case errors.Is(err, jsonscan.ErrEmpty):
		return errors.New("zoneline: empty payload"), true
	case errors.Is(err, jsonscan.ErrNotObject):
		return errors.New("zoneline: payload is not a JSON object"), true
	case errors.As(err, &te):
		return errors.New("zoneline: payload field \"" + te.Field + "\" has the wrong type"), false
	}
	return errors.New("zoneline: payload is not valid JSON: " + err.Error()), true
}

// lenient reads any value as a lenient number (parse: Num's or Float's rules) into *dst; into
// **dst when ptr is set, where null sets nil.
func lenient[N any](s *scanner, parse func([]byte) N, dst *N, ptr **N) error {
	raw, err := s.Raw()
	if err != nil {
		return err
	}
	if ptr == nil {
		*dst = parse(raw)
	} else if string(raw) == "null" {
		*ptr = nil
	} else {
		v := parse(raw)
		*ptr = &v
	}
	return nil
}

func num(s *scanner, dst *Num) error         { return lenient(s, parseNum, dst, nil) }
func numPtr(s *scanner, dst **Num) error     { return lenient(s, parseNum, nil, dst) }
func float(s *scanner, dst *Float) error     { return lenient(s, parseFloat, dst, nil) }
func floatPtr(s *scanner, dst **Float) error { return lenient(s, parseFloat, nil, dst) }

// unquoted returns a raw JSON value with a string's quotes and escapes undone; ok is false for a
// string cut short.
func unquoted(b []byte) (v []byte, ok bool) {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		if len(b) < 2 || b[len(b)-1] != '"' {
			return nil, false
		}
		b = []byte(jsonscan.Unquote(b[1 : len(b)-1]))
	}
	return b, true
}

// parseNum is Num's reading of a raw JSON value.
func parseNum(b []byte) Num {
	b, ok := unquoted(b)
	if !ok || len(b) == 0 || string(b) == "null" {
		return 0
	}
	f, err := strconv.ParseFloat(string(b), 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0
	}
	return Num(clampFloat(f))
}
