package config

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/zoneline/zoneline/internal/jsonscan"
	"github.com/zoneline/zoneline/internal/rawfs"
)

// The statusline and the hooks load the config in a fresh process after every turn. LoadCached
// keeps the result of the last parse in a cache file in the state dir, keyed by the config
// file's path, size and modification time and by the schema: a config, valid or not, is parsed
// once per change of the file, and a broken one (say 20,000 unknown tables) costs each later
// render a small read, not a parse of the whole file.
//
// The cache is TOML, read by the same schema as the config itself (there is no second codec):
//
//	# zoneline config cache (safe to delete)
//	# key "<path>|<size>|<mtime ns>|<schema hash>"
//	# problem <line> <col> <more> <message>      (the first cacheProblems, in line order)
//	<the keys the file set validly, as TOML>
//
// A cache whose TOML does not decode cleanly is ignored and rewritten.

// CacheFile is the cache's name in the state dir.
const CacheFile = "config-cache.toml"

// cacheProblems is how many problems the cache keeps (the statusline shows one, and the count).
const cacheProblems = 20

const cacheHead = "# zoneline config cache (safe to delete)\n# key "

// LoadCached is Load through the cache at cachePath, written with write (an atomic write in the
// state dir; nil or a failing write only costs the next load a parse). A missing config file
// needs no cache (the defaults). The problems it returns are the first cacheProblems, without
// caret diagrams; `config check` (Load) reports them all.
func LoadCached(path, cachePath string, write func(path string, data []byte) error) (*Config, error) {
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
		return shortLoad(path)
	}
	key := path + "|" + strconv.FormatInt(fi.Size(), 10) + "|" + strconv.FormatInt(fi.ModTime().UnixNano(), 10) + "|" + schemaKey
	if data, err := rawfs.ReadFile(cachePath, MaxSize, true); err == nil {
		if c, es, ok := decodeCache(data, key, path); ok {
			return c, errOrNil(es)
		}
	}
	data, err := readFile(path)
	if err != nil {
		return shortLoad(path)
	}
	c, set, es := parse(path, data, false)
	es = es.shorten(cacheProblems)
	if write != nil {
		// Best effort: a cache that cannot be written only costs the next load a parse.
		write(cachePath, encodeCache(c, set, es, key))
	}
	return c, errOrNil(es)
}

func shortLoad(path string) (*Config, error) {
	c, err := Load(path)
	if es, ok := err.(Errors); ok {
		es = es.shorten(cacheProblems)
		for _, e := range es {
			e.Context = ""
		}
		return c, es
	}
	return c, err
}

func errOrNil(es Errors) error {
	if len(es) == 0 {
		return nil
	}
	return es
}

// schemaKey names the schema's keys and wants (their hash, schemaHash in the tests), so that a
// cache written by a zoneline with another schema is never read. A constant, not hashed at each
// render: TestSchemaKeyCurrent fails, naming the new value, when the schema changes and this
// does not.
const schemaKey = "d7fd9febaddc8a62"

func encodeCache(c *Config, set map[string]bool, es Errors, key string) []byte {
	b := append([]byte(cacheHead), jsonscan.AppendString(nil, key)...)
	b = append(b, '\n')
	for _, e := range es {
		b = fmt.Appendf(b, "# problem %d %d %d %s\n", e.Line, e.Col, e.more, cacheLine(e.Msg))
	}
	body := c.encode(func(key, value string) (string, string, bool) { return value, "", set[key] })
	return append(b, body...)
}

// cacheLine keeps a message on its line of the cache: a codec detail (each control byte one
// space, nothing folded or trimmed, so the message reads back as it was written), not the
// sanitizer of outside text (safetext.Field is, when the message is shown).
func cacheLine(s string) string {
	return string(bytes.Map(func(r rune) rune {
		if r == '\n' || r == '\r' || r < 0x20 {
			return ' '
		}
		return r
	}, []byte(s)))
}

// decodeCache reads a cache written for key; ok is false when it is for another key or does
// not decode cleanly.
func decodeCache(data []byte, key, file string) (*Config, Errors, bool) {
	want := append([]byte(cacheHead), jsonscan.AppendString(nil, key)...)
	want = append(want, '\n')
	if !bytes.HasPrefix(data, want) {
		return nil, nil, false
	}
	rest := data[len(want):]
	var es Errors
	for bytes.HasPrefix(rest, []byte("# problem ")) {
		nl := bytes.IndexByte(rest, '\n')
		if nl < 0 {
			return nil, nil, false
		}
		e, ok := cachedProblem(rest[len("# problem "):nl], file)
		if !ok {
			return nil, nil, false
		}
		es = append(es, e)
		rest = rest[nl+1:]
	}
	// The cache is a file like any other: what it holds is decoded and validated as the config.
	c, probs, _ := decode(rest)
	if len(probs) > 0 {
		return nil, nil, false
	}
	return c, es, true
}

func cachedProblem(line []byte, file string) (*Error, bool) {
	var nums [3]int
	for i := range nums {
		sp := bytes.IndexByte(line, ' ')
		if sp < 0 {
			return nil, false
		}
		n, err := strconv.Atoi(string(line[:sp]))
		if err != nil || n < 0 {
			return nil, false
		}
		nums[i], line = n, line[sp+1:]
	}
	return &Error{File: file, Line: nums[0], Col: nums[1], more: nums[2], Msg: string(line)}, true
}
