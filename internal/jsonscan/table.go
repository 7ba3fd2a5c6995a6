package jsonscan

import (
	"bytes"
	"strconv"
	"time"
)

// Field is one key of a record type T: the reader of its value and, for a record zoneline
// writes, its writer. A record's shape is one table of Fields, a package-level array of func
// literals (static data: nothing is built at init), which decoding walks by key and encoding in
// order. A type error is named by the path of table keys that led to it ("cost.total_cost_usd").
type Field[T any] struct {
	Key  string
	Read func(s *Scanner, v *T) error
	// Write appends the value; appending nothing leaves the key out (omitempty). nil: the
	// record is only read.
	Write func(b []byte, v *T) []byte
}

// DecodeFields reads the top-level object of data into v through fields, with Decode's errors.
func DecodeFields[T any](data []byte, v *T, fields []Field[T]) error {
	return Decode(data, func(s *Scanner, k []byte) error { return ReadField(s, k, v, fields) })
}

// ReadField reads the value of key k into v through the entry of fields that names it (KeyIs:
// exactly, or ASCII case-insensitively), or skips it.
func ReadField[T any](s *Scanner, k []byte, v *T, fields []Field[T]) error {
	// An ASCII key without escapes names only a field of its length (case folding keeps it):
	// the others are passed over without KeyIs, decided once per key.
	plain := bytes.IndexByte(k, '\\') < 0 && isASCII(k)
	for i := range fields {
		if f := &fields[i]; (!plain || len(k) == len(f.Key)) && KeyIs(k, f.Key) {
			s.push(f.Key)
			err := f.Read(s, v)
			s.pop()
			return err
		}
	}
	return s.Skip()
}

// ReadObject reads an object value into v through fields, in place, reporting what it found as
// Object does.
func ReadObject[T any](s *Scanner, v *T, fields []Field[T]) (Kind, error) {
	return s.Object("", func(k []byte) error { return ReadField(s, k, v, fields) })
}

// ReadPtr reads an optional object value into *dst through fields: into a new T when *dst is
// nil, nil for null, and *dst kept when the value is of another kind (as encoding/json leaves
// the field alone).
func ReadPtr[T any](s *Scanner, dst **T, fields []Field[T]) error {
	v := *dst
	if v == nil {
		v = new(T)
	}
	k, err := ReadObject(s, v, fields)
	switch k {
	case Present:
		*dst = v
	case Null:
		*dst = nil
	}
	return err
}

// ReadList reads an array of objects through fields, appending each to *dst while it holds
// fewer than limit (dropped, when not nil, counts the others); a null or another kind of value
// leaves it.
func ReadList[T any](s *Scanner, dst *[]T, limit int, dropped *int, fields []Field[T]) error {
	_, err := s.Array(func() error {
		var v T
		_, err := ReadObject(s, &v, fields)
		if len(*dst) < limit {
			*dst = append(*dst, v)
		} else if dropped != nil {
			*dropped++
		}
		return err
	})
	return err
}

// AppendObject appends v as a JSON object of the fields that have a writer, in table order:
// compact when indent is "", else as encoding/json's MarshalIndent(v, "", indent) writes a flat
// record.
func AppendObject[T any](b []byte, v *T, fields []Field[T], indent string) []byte {
	sep, colon := "{", ":"
	if indent != "" {
		colon = ": "
	}
	for i := range fields {
		f := &fields[i]
		if f.Write == nil {
			continue
		}
		mark := len(b)
		b = append(b, sep...)
		if indent != "" {
			b = append(append(b, '\n'), indent...)
		}
		b = append(AppendString(b, f.Key), colon...)
		n := len(b)
		if b = f.Write(b, v); len(b) == n {
			b = b[:mark] // nothing written: the key is left out
			continue
		}
		sep = ","
	}
	if sep == "{" {
		return append(b, "{}"...)
	}
	if indent != "" {
		b = append(b, '\n')
	}
	return append(b, '}')
}

// AppendTime appends t as encoding/json writes a time.Time: an RFC 3339 string with nanoseconds.
func AppendTime(b []byte, t time.Time) []byte { return AppendString(b, t.Format(time.RFC3339Nano)) }

// AppendInt appends n; with omitZero, nothing when it is 0 (a Field's omitempty).
func AppendInt(b []byte, n int64, omitZero bool) []byte {
	if omitZero && n == 0 {
		return b
	}
	return strconv.AppendInt(b, n, 10)
}

// AppendList appends vs as a JSON array of compact objects through fields ([] when empty): the
// writer of a list ReadList reads.
func AppendList[T any](b []byte, vs []T, fields []Field[T]) []byte {
	b = append(b, '[')
	for i := range vs {
		if i > 0 {
			b = append(b, ',')
		}
		b = AppendObject(b, &vs[i], fields, "")
	}
	return append(b, ']')
}
