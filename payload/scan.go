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

// num reads a lenient count (Num's rules): any value; numbers and numeric strings count.
func num(s *jsonscan.Scanner, dst *Num) error {
	raw, err := s.Raw()
	if err != nil {
		return err
	}
	*dst = Num(parseNum(raw))
	return nil
}

// numPtr reads an optional lenient count: null sets nil.
func numPtr(s *jsonscan.Scanner, dst **Num) error {
	raw, err := s.Raw()
	if err != nil {
		return err
	}
	if string(raw) == "null" {
		*dst = nil
		return nil
	}
	n := Num(parseNum(raw))
	*dst = &n
	return nil
}

// field is one key of a payload struct T and the reader of its value.
type field[T any] struct {
	key  string
	read func(s *jsonscan.Scanner, v *T) error
}

// findField returns the entry of fields that names key k (jsonscan.KeyIs: exactly, or ASCII
// case-insensitively), or nil.
func findField[T any](k []byte, fields []field[T]) *field[T] {
	for i := range fields {
		if jsonscan.KeyIs(k, fields[i].key) {
			return &fields[i]
		}
	}
	return nil
}

// readField reads the value of key k into v through the entry of fields that names it, or
// skips it.
func readField[T any](s *jsonscan.Scanner, k []byte, v *T, fields []field[T]) error {
	if f := findField(k, fields); f != nil {
		return f.read(s, v)
	}
	return s.Skip()
}

// readObject reads the object-valued field name into *dst through fields: a new T when *dst is
// nil, nil for null, and *dst kept when the value is of another kind (ptrIf).
func readObject[T any](s *jsonscan.Scanner, name string, dst **T, fields []field[T]) error {
	v := *dst
	if v == nil {
		v = new(T)
	}
	k, err := s.Object(name, func(k []byte) error { return readField(s, k, v, fields) })
	*dst = ptrIf(k, v, *dst)
	return err
}

// ptrIf returns v when the object was present, nil when it was null, and keeps old when the
// value had the wrong type (encoding/json's behaviour, which leaves the field alone).
func ptrIf[T any](k jsonscan.Kind, v, old *T) *T {
	switch k {
	case jsonscan.Present:
		return v
	case jsonscan.Null:
		return nil
	}
	return old
}

// parseNum is Num's reading of a raw JSON value.
func parseNum(b []byte) int64 {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		if len(b) < 2 || b[len(b)-1] != '"' {
			return 0
		}
		b = []byte(jsonscan.Unquote(b[1 : len(b)-1]))
	}
	if len(b) == 0 || string(b) == "null" {
		return 0
	}
	f, err := strconv.ParseFloat(string(b), 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0
	}
	return clampFloat(f)
}
