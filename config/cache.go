package config

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strconv"

	"github.com/zoneline/zoneline/internal/jsonscan"
	"github.com/zoneline/zoneline/internal/rawfs"
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
	if !filepath.IsAbs(path) {
		return Default(), notAbsolute(path)
	}
	if !filepath.IsAbs(cachePath) {
		cachePath = ""
	}
	fi, err := os.Stat(path)
	if rawfs.IsNotExist(err) {
		return Default(), nil
	}
	if err != nil || cachePath == "" {
		return Load(path)
	}
	key := path + "|" + strconv.FormatInt(fi.Size(), 10) + "|" + strconv.FormatInt(fi.ModTime().UnixNano(), 10) + "|" + cacheShape
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

// cacheShape describes Config's fields and kinds (shapeOf in the tests: a hash of the field
// tags and kinds), so that a cache written by another version of zoneline is never read into a
// different struct. TestCacheShape fails, naming the new value, when Config changes. (A
// constant: computing it by reflection cost every render.)
const cacheShape = "bf239d49affd4101"

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
			return readConfig(s, c)
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
