package config

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/zoneline/zoneline/internal/testtmp"
)

const fullConfig = `
color = "256"
glyphs = "ascii"
east_asian_width = true
window = 300_000
[statusline]
lines = [["zone", "tokens"], ["model", "dir", "branch"]]
separator = " | "
bar_width = 7
indent = 3
wrap = "ccstatusline --x"
wrap_position = "line"
wrap_timeout = "750ms"
[autocompact]
point = 150_000
enabled = false
max_output = 8_000
[[model]]
match = "claude-opus-*"
warn = 90_000
dumb = 130_000
prep = 110000
[[model]]
window = "1m"
prep = "55%"
[[model]]
match = "x-*"
[warning]
prep = "warn"
imminent_distance = 15_000
nudge = false
nudge_text = "tokens {tokens} \"quoted\" é\n"
tiers = ["imminent"]
[notify]
enabled = false
tiers = []
urgency = "critical"
app_name = "zl"
[checkpoint]
budget = 4000
stale_minutes = 45
[precompact]
hold_once = true
snapshots = 10
[state]
gc_days = 3
[flow]
compact_instructions = "keep the ids"
[flow.timeouts]
prep = "5m"
compact = "2m"
postcompact = "3m"
[watch]
interval = "10s"
auto = true
projects = ["/home/u/a", "/home/u/b*"]
`

func writeFile(path string, data []byte) error {
	os.MkdirAll(filepath.Dir(path), 0o700)
	return os.WriteFile(path, data, 0o600)
}

func TestCacheRoundTrip(t *testing.T) {
	for name, text := range map[string]string{"template": Template, "full": fullConfig, "empty": "", "comment": "# nothing\n",
		"defaults set explicitly": "[statusline]\nbar_width = 10\n", "partly broken": "glyphs = \"ascii\"\ncolour = 1\n[statusline]\nindent = 99\n"} {
		t.Run(name, func(t *testing.T) {
			dir := testtmp.Dir(t)
			path, cache := filepath.Join(dir, "config.toml"), filepath.Join(dir, "state", CacheFile)
			os.WriteFile(path, []byte(text), 0o600)
			want, wantErr := Load(path)
			first, err := LoadCached(path, cache, writeFile)
			if !reflect.DeepEqual(first, want) || errText(err) != errText(wantErr) {
				t.Fatalf("first load %+v, %v; want %v", first, err, wantErr)
			}
			data, err := os.ReadFile(cache)
			if err != nil {
				t.Fatalf("no cache written: %v", err)
			}
			c, _, ok := decodeCache(data, cacheKey(t, path), path)
			if !ok {
				t.Fatalf("cache does not decode:\n%s", data)
			}
			if !reflect.DeepEqual(c, want) {
				t.Fatalf("from cache:\n%+v\nwant\n%+v\n%s", c, want, data)
			}
			second, err := LoadCached(path, cache, writeFile)
			if !reflect.DeepEqual(second, want) || errText(err) != errText(wantErr) {
				t.Fatalf("second load %+v, %v", second, err)
			}
		})
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	var es Errors
	if errors.As(err, &es) {
		var b strings.Builder
		for _, e := range es {
			b.WriteString(e.Error() + "\n")
		}
		return b.String()
	}
	return err.Error()
}

// schemaHash names the schema's keys and wants: what schemaKey must be.
func schemaHash() string {
	h := uint64(14695981039346656037)
	mix := func(s string) {
		for i := 0; i < len(s); i++ {
			h ^= uint64(s[i])
			h *= 1099511628211
		}
		h ^= 0xff
		h *= 1099511628211
	}
	for i := range schema {
		mix(schema[i].key)
		mix(schema[i].want)
	}
	for i := range modelSchema {
		mix(modelSchema[i].key)
		mix(modelSchema[i].want)
	}
	return strconv.FormatUint(h, 16)
}

// TestSchemaKeyCurrent holds the cache's schemaKey to the schema: a schema with another key or
// want must not read a cache written by this one.
func TestSchemaKeyCurrent(t *testing.T) {
	if got := schemaHash(); got != schemaKey {
		t.Errorf("the config schema changed: set schemaKey in config/cache.go to %q", got)
	}
}

func cacheKey(t *testing.T, path string) string {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return path + "|" + strconv.FormatInt(fi.Size(), 10) + "|" + strconv.FormatInt(fi.ModTime().UnixNano(), 10) + "|" + schemaKey
}

func TestCacheFollowsTheFile(t *testing.T) {
	dir := testtmp.Dir(t)
	path, cache := filepath.Join(dir, "config.toml"), filepath.Join(dir, CacheFile)
	os.WriteFile(path, []byte("color = \"none\"\n"), 0o600)
	if c, _ := LoadCached(path, cache, writeFile); c.Color != "none" {
		t.Fatalf("color %q", c.Color)
	}
	// Same size, new content and time: the cache must not answer.
	os.WriteFile(path, []byte("color = \"256\" \n"), 0o600)
	later := time.Now().Add(2 * time.Second)
	os.Chtimes(path, later, later)
	if c, _ := LoadCached(path, cache, writeFile); c.Color != "256" {
		t.Fatalf("stale cache answered: color %q", c.Color)
	}
	// A corrupt cache is ignored and replaced.
	os.WriteFile(path, []byte("glyphs = \"nerd\"\n"), 0o600)
	os.WriteFile(cache, []byte("\x00garbage{"), 0o600)
	if c, err := LoadCached(path, cache, writeFile); err != nil || c.Glyphs != "nerd" {
		t.Fatalf("corrupt cache: %+v, %v", c, err)
	}
	// No config file: the defaults, and no cache needed.
	if c, err := LoadCached(filepath.Join(dir, "none.toml"), cache, writeFile); err != nil || !reflect.DeepEqual(c, Default()) {
		t.Fatalf("missing config: %+v, %v", c, err)
	}
}

// TestBrokenConfigParsedOnce: a broken config is parsed once per change of the file; later
// loads answer from the cache, problems included (the test marks the cached problem and sees
// the mark come back), until the file changes.
func TestBrokenConfigParsedOnce(t *testing.T) {
	dir := testtmp.Dir(t)
	path, cache := filepath.Join(dir, "config.toml"), filepath.Join(dir, CacheFile)
	os.WriteFile(path, []byte("glyphs = \"ascii\"\ncolour = 1\n"), 0o600)
	c, err := LoadCached(path, cache, writeFile)
	if err == nil || c.Glyphs != "ascii" {
		t.Fatalf("first load: %+v, %v", c, err)
	}
	data, _ := os.ReadFile(cache)
	marked := strings.Replace(string(data), "unknown key 'colour'", "unknown key 'colour' [from the cache]", 1)
	if marked == string(data) {
		t.Fatalf("no problem in the cache:\n%s", data)
	}
	os.WriteFile(cache, []byte(marked), 0o600)
	c, err = LoadCached(path, cache, writeFile)
	if err == nil || !strings.Contains(err.Error(), "[from the cache]") || c.Glyphs != "ascii" {
		t.Fatalf("second load did not come from the cache: %+v, %v", c, err)
	}
	if got := err.(Errors).Summary(); got != "config.toml:2:1: unknown key 'colour' [from the cache] (did you mean 'color'?)" {
		t.Fatalf("summary %q", got)
	}
	// A change of the file is parsed again.
	os.WriteFile(path, []byte("glyphs = \"nerd\"\ncolour = 2\n"), 0o600)
	later := time.Now().Add(2 * time.Second)
	os.Chtimes(path, later, later)
	if c, err = LoadCached(path, cache, writeFile); err == nil || strings.Contains(err.Error(), "[from the cache]") || c.Glyphs != "nerd" {
		t.Fatalf("changed file: %+v, %v", c, err)
	}
}

// TestManyProblemsCached: 20,000 unknown tables cost one parse; the cache keeps the first
// problems and the count, and stays small.
func TestManyProblemsCached(t *testing.T) {
	dir := testtmp.Dir(t)
	path, cache := filepath.Join(dir, "config.toml"), filepath.Join(dir, CacheFile)
	var b strings.Builder
	b.WriteString("glyphs = \"ascii\"\n")
	for i := range 20_000 {
		b.WriteString("[t" + strconv.Itoa(i) + "]\nx=1\n")
	}
	os.WriteFile(path, []byte(b.String()), 0o600)
	for range 2 {
		c, err := LoadCached(path, cache, writeFile)
		es, _ := err.(Errors)
		if c.Glyphs != "ascii" || es.Count() != 20_000 || len(es) != cacheProblems+1 {
			t.Fatalf("glyphs %q, %d problems in %d entries", c.Glyphs, es.Count(), len(es))
		}
		if !strings.HasPrefix(es.Summary(), "config.toml:2:1: unknown table [t0]; its keys are ignored (+19999 more)") {
			t.Fatalf("summary %q", es.Summary())
		}
	}
	if fi, err := os.Stat(cache); err != nil || fi.Size() > 4096 {
		t.Fatalf("cache: %v, %d bytes", err, fi.Size())
	}
}

// TestCacheIsValidated: a cache with the right key but values the schema refuses is not used.
func TestCacheIsValidated(t *testing.T) {
	dir := testtmp.Dir(t)
	path, cache := filepath.Join(dir, "config.toml"), filepath.Join(dir, CacheFile)
	os.WriteFile(path, []byte("glyphs = \"ascii\"\n"), 0o600)
	if _, err := LoadCached(path, cache, writeFile); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(cache)
	for _, tamper := range []string{`glyphs = "evil"`, "glyphs = \"ascii\"\n[statusline]\nbar_width = -5", "glyphs = \"ascii\"\nbogus = 1", "glyphs = \"\x1b[2J\""} {
		tampered := strings.Replace(string(data), `glyphs = "ascii"`, tamper, 1)
		if tampered == string(data) {
			t.Fatalf("cache shape changed: %s", data)
		}
		os.WriteFile(cache, []byte(tampered), 0o600)
		c, err := LoadCached(path, cache, writeFile)
		if err != nil || c.Glyphs != "ascii" || c.Statusline.BarWidth != 10 {
			t.Fatalf("tampered cache used: %+v, %v", c, err)
		}
	}
}

// TestCacheKeepsWhatTheFileSet: the cache holds the keys the file set, so a value equal to
// today's default stays the file's own.
func TestCacheKeepsWhatTheFileSet(t *testing.T) {
	c, set, es := parse("c.toml", []byte("[statusline]\nbar_width = 10\nindnt = 3\n"), false)
	data := encodeCache(c, set, es, "k")
	if !strings.Contains(string(data), "[statusline]\nbar_width = 10\n") || !strings.Contains(string(data), "# problem 3 1 0 unknown key 'statusline.indnt'") {
		t.Fatalf("cache:\n%s", data)
	}
}

// fillDistinct sets every field reachable from v to a value distinct from the defaults and from
// every other field, with two elements per slice.
func fillDistinct(v reflect.Value, n *int) {
	*n++
	switch v.Kind() {
	case reflect.Struct:
		for i := range v.NumField() {
			fillDistinct(v.Field(i), n)
		}
	case reflect.String:
		v.SetString("s\"" + strconv.Itoa(*n) + "\u2028✓")
	case reflect.Int, reflect.Int64:
		v.SetInt(int64(1000 + *n))
	case reflect.Bool:
		v.SetBool(*n%2 == 0)
	case reflect.Pointer:
		p := reflect.New(v.Type().Elem())
		fillDistinct(p.Elem(), n)
		v.Set(p)
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), 2, 2)
		for i := range 2 {
			fillDistinct(s.Index(i), n)
		}
		v.Set(s)
	case reflect.Interface:
		if *n%2 == 0 {
			v.Set(reflect.ValueOf(int64(*n)))
		} else {
			v.Set(reflect.ValueOf("p" + strconv.Itoa(*n)))
		}
	default:
		panic("fillDistinct: " + v.Kind().String())
	}
}

// TestEncodeCoversEveryField: every field, set to a distinct value, comes back through the
// encoder and the decoder unchanged (the decoder's checks are what the schema says; this test
// bypasses them to see the codec alone).
func TestEncodeCoversEveryField(t *testing.T) {
	want := &Config{}
	n := 0
	fillDistinct(reflect.ValueOf(want).Elem(), &n)
	for i := range want.Models {
		want.Models[i].Prep = "p" + strconv.Itoa(i)
	}
	out := every(want)
	// Decode without the value checks: read and store only.
	saved, savedModel := slices.Clone(schema), slices.Clone(modelSchema)
	t.Cleanup(func() { copy(schema, saved); copy(modelSchema, savedModel) })
	for _, fs := range [][]field{schema, modelSchema} {
		for i := range fs {
			fs[i].val, fs[i].lo, fs[i].hi = unchecked(t, fs[i].val), 0, 0
		}
	}
	c, probs, _ := decode(out)
	if len(probs) > 0 {
		t.Fatalf("problems: %v\n%s", finish("x", out, probs, false), out)
	}
	if !reflect.DeepEqual(c, want) {
		t.Fatalf("round trip differs:\n got %#v\nwant %#v\n%s", c, want, out)
	}
}

// unchecked returns v without its check.
func unchecked(t *testing.T, v value) value {
	switch o := v.(type) {
	case of[string]:
		o.check = nil
		return o
	case of[any]:
		o.check = nil
		return o
	case of[[]string]:
		o.check = nil
		return o
	case of[[][]string]:
		o.check = nil
		return o
	case of[bool], of[*bool], of[int], of[int64]:
		return o
	}
	t.Fatalf("unchecked: a value of kind %T", v)
	return nil
}

// every encodes c with every key that has a value.
func every(c *Config) []byte {
	return c.encode(func(_, v string) (string, string, bool) { return v, "", true })
}
