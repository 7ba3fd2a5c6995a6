package config

import (
	"errors"
	"fmt"
	"os"
	"reflect"
	"strconv"
	"strings"
	"sync"

	"github.com/zoneline/zoneline/internal/jsonscan"
	"github.com/zoneline/zoneline/state"
)

// The statusline and the hooks load the config in a fresh process after every turn, and
// decoding TOML (go-toml's reflection on first use) costs more than the rest of a render. So
// LoadCached keeps the parsed config in a cache file in the state dir, keyed by the config
// file's path, size and modification time and by the shape of Config, written atomically and
// read with jsonscan. The cache is a plain JSON rendering of the effective config; deleting it
// is always safe.

// CacheFile is the cache's name in the state dir.
const CacheFile = "config-cache.json"

// LoadCached is Load through the cache at cachePath. A missing config file needs no cache (the
// defaults); a config with errors is never cached, so its errors are reported every time.
func LoadCached(path, cachePath string) (*Config, error) {
	fi, err := os.Stat(path)
	if errors.Is(err, os.ErrNotExist) {
		return Default(), nil
	}
	if err != nil || cachePath == "" {
		return Load(path)
	}
	key := fmt.Sprintf("%s|%d|%d|%s", path, fi.Size(), fi.ModTime().UnixNano(), shape())
	if data, err := state.ReadFile(cachePath, MaxSize); err == nil {
		if c, ok := decodeCache(data, key); ok {
			return c, nil
		}
	}
	c, err := Load(path)
	if err == nil {
		// Best effort: a cache that cannot be written only costs the next load a parse.
		state.Replace(cachePath, encodeCache(c, key))
	}
	return c, err
}

// shape describes Config's fields and kinds, so a cache written by another version of zoneline
// is not read into a different struct.
var shape = sync.OnceValue(func() string {
	var b strings.Builder
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		b.WriteString(t.Kind().String())
		switch t.Kind() {
		case reflect.Struct:
			b.WriteByte('{')
			for i := range t.NumField() {
				f := t.Field(i)
				b.WriteString(f.Tag.Get("toml"))
				b.WriteByte(':')
				walk(f.Type)
				b.WriteByte(',')
			}
			b.WriteByte('}')
		case reflect.Slice, reflect.Pointer:
			walk(t.Elem())
		}
	}
	walk(reflect.TypeOf(Config{}))
	return strconv.FormatUint(fnv64(b.String()), 16)
})

func fnv64(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}

func encodeCache(c *Config, key string) []byte {
	b := []byte(`{"key":`)
	b = jsonscan.AppendString(b, key)
	b = append(b, `,"config":`...)
	b = appendValue(b, reflect.ValueOf(c).Elem())
	return append(b, "}\n"...)
}

func decodeCache(data []byte, key string) (*Config, bool) {
	c := Default()
	var gotKey string
	found := false
	err := jsonscan.Decode(data, func(s *jsonscan.Scanner, k []byte) error {
		switch {
		case jsonscan.KeyIs(k, "key"):
			return s.String("key", &gotKey)
		case jsonscan.KeyIs(k, "config"):
			if gotKey != key {
				return errStale
			}
			found = true
			return readValue(s, "config", reflect.ValueOf(c).Elem())
		}
		return s.Skip()
	})
	if err != nil || !found || gotKey != key {
		return nil, false
	}
	// The cache is a file like any other: what it holds is validated as the TOML was.
	if errs := c.validate(CacheFile, nil); len(errs) > 0 {
		return nil, false
	}
	return c, true
}

var errStale = errors.New("stale cache")

// appendValue writes v as JSON: structs by their toml tags.
func appendValue(b []byte, v reflect.Value) []byte {
	switch v.Kind() {
	case reflect.Struct:
		b = append(b, '{')
		t := v.Type()
		for i := range t.NumField() {
			if i > 0 {
				b = append(b, ',')
			}
			b = jsonscan.AppendString(b, t.Field(i).Tag.Get("toml"))
			b = append(b, ':')
			b = appendValue(b, v.Field(i))
		}
		return append(b, '}')
	case reflect.Slice:
		if v.IsNil() {
			return append(b, "null"...)
		}
		b = append(b, '[')
		for i := range v.Len() {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendValue(b, v.Index(i))
		}
		return append(b, ']')
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return append(b, "null"...)
		}
		if v.Kind() == reflect.Interface {
			// any holds what go-toml decodes a scalar to; tag the kind so it comes back the same.
			e := v.Elem()
			switch e.Kind() {
			case reflect.String:
				return append(jsonscan.AppendString(append(b, `{"s":`...), e.String()), '}')
			case reflect.Int64:
				return append(strconv.AppendInt(append(b, `{"i":`...), e.Int(), 10), '}')
			case reflect.Float64:
				return append(strconv.AppendFloat(append(b, `{"f":`...), e.Float(), 'g', -1, 64), '}')
			case reflect.Bool:
				return append(strconv.AppendBool(append(b, `{"b":`...), e.Bool()), '}')
			}
			return append(b, "null"...)
		}
		return appendValue(b, v.Elem())
	case reflect.String:
		return jsonscan.AppendString(b, v.String())
	case reflect.Bool:
		return strconv.AppendBool(b, v.Bool())
	case reflect.Int, reflect.Int64:
		return strconv.AppendInt(b, v.Int(), 10)
	}
	panic("config: cannot cache a " + v.Kind().String())
}

// readValue reads what appendValue wrote into v.
func readValue(s *jsonscan.Scanner, name string, v reflect.Value) error {
	switch v.Kind() {
	case reflect.Struct:
		t := v.Type()
		_, err := s.Object(name, func(k []byte) error {
			for i := range t.NumField() {
				if jsonscan.KeyIs(k, t.Field(i).Tag.Get("toml")) {
					return readValue(s, name+"."+t.Field(i).Name, v.Field(i))
				}
			}
			return s.Skip()
		})
		return err
	case reflect.Slice:
		v.Set(reflect.Zero(v.Type()))
		kind, err := s.Array(name, func() error {
			e := reflect.New(v.Type().Elem()).Elem()
			if err := readValue(s, name+"[]", e); err != nil {
				return err
			}
			v.Set(reflect.Append(v, e))
			return nil
		})
		if err == nil && kind == jsonscan.Present && v.IsNil() {
			v.Set(reflect.MakeSlice(v.Type(), 0, 0))
		}
		return err
	case reflect.Pointer:
		raw, err := s.Raw()
		if err != nil || string(raw) == "null" {
			v.Set(reflect.Zero(v.Type()))
			return err
		}
		p := reflect.New(v.Type().Elem())
		if err := readRaw(raw, p.Elem()); err != nil {
			return err
		}
		v.Set(p)
		return nil
	case reflect.Interface:
		v.Set(reflect.Zero(v.Type()))
		_, err := s.Object(name, func(k []byte) error {
			var x any
			switch {
			case jsonscan.KeyIs(k, "s"):
				var str string
				if err := s.String(name, &str); err != nil {
					return err
				}
				x = str
			case jsonscan.KeyIs(k, "i"):
				var n int64
				if err := s.Int(name, &n); err != nil {
					return err
				}
				x = n
			case jsonscan.KeyIs(k, "f"):
				raw, err := s.Raw()
				if err != nil {
					return err
				}
				f, err := strconv.ParseFloat(string(raw), 64)
				if err != nil {
					return err
				}
				x = f
			case jsonscan.KeyIs(k, "b"):
				raw, err := s.Raw()
				if err != nil {
					return err
				}
				x = string(raw) == "true"
			default:
				return s.Skip()
			}
			v.Set(reflect.ValueOf(x))
			return nil
		})
		return err
	}
	raw, err := s.Raw()
	if err != nil {
		return err
	}
	return readRaw(raw, v)
}

// readRaw reads a scalar.
func readRaw(raw []byte, v reflect.Value) error {
	switch v.Kind() {
	case reflect.String:
		if len(raw) < 2 || raw[0] != '"' {
			return errStale
		}
		v.SetString(jsonscan.Unquote(raw[1 : len(raw)-1]))
	case reflect.Bool:
		v.SetBool(string(raw) == "true")
	case reflect.Int, reflect.Int64:
		n, err := strconv.ParseInt(string(raw), 10, 64)
		if err != nil {
			return errStale
		}
		v.SetInt(n)
	default:
		return errStale
	}
	return nil
}
