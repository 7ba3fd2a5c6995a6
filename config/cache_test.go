package config

import (
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/zoneline/zoneline/internal/jsonscan"
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

func TestCacheRoundTrip(t *testing.T) {
	for name, text := range map[string]string{"template": Template, "full": fullConfig, "empty": "", "comment": "# nothing\n"} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			path, cache := filepath.Join(dir, "config.toml"), filepath.Join(dir, "state", CacheFile)
			os.WriteFile(path, []byte(text), 0o600)
			want, err := Load(path)
			if err != nil {
				t.Fatal(err)
			}
			first, err := LoadCached(path, cache)
			if err != nil || !reflect.DeepEqual(first, want) {
				t.Fatalf("first load %+v, %v", first, err)
			}
			data, err := os.ReadFile(cache)
			if err != nil {
				t.Fatalf("no cache written: %v", err)
			}
			c, ok := decodeCache(data, cacheKey(t, path))
			if !ok {
				t.Fatalf("cache does not decode:\n%s", data)
			}
			if !reflect.DeepEqual(c, want) {
				t.Fatalf("from cache:\n%+v\nwant\n%+v", c, want)
			}
			second, err := LoadCached(path, cache)
			if err != nil || !reflect.DeepEqual(second, want) {
				t.Fatalf("second load %+v, %v", second, err)
			}
		})
	}
}

func cacheKey(t *testing.T, path string) string {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return path + "|" + itoa(fi.Size()) + "|" + itoa(fi.ModTime().UnixNano()) + "|" + cacheShape
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func TestCacheFollowsTheFile(t *testing.T) {
	dir := t.TempDir()
	path, cache := filepath.Join(dir, "config.toml"), filepath.Join(dir, CacheFile)
	os.WriteFile(path, []byte("color = \"none\"\n"), 0o600)
	if c, _ := LoadCached(path, cache); c.Color != "none" {
		t.Fatalf("color %q", c.Color)
	}
	// Same size, new content and time: the cache must not answer.
	os.WriteFile(path, []byte("color = \"256\" \n"), 0o600)
	later := time.Now().Add(2 * time.Second)
	os.Chtimes(path, later, later)
	if c, _ := LoadCached(path, cache); c.Color != "256" {
		t.Fatalf("stale cache answered: color %q", c.Color)
	}
	// A broken config is reported every time, never cached.
	os.WriteFile(path, []byte("colour = 1\n"), 0o600)
	for range 2 {
		if _, err := LoadCached(path, cache); err == nil {
			t.Fatal("broken config: no error")
		}
	}
	// A corrupt cache is ignored and replaced.
	os.WriteFile(path, []byte("glyphs = \"nerd\"\n"), 0o600)
	os.WriteFile(cache, []byte("\x00garbage{"), 0o600)
	if c, err := LoadCached(path, cache); err != nil || c.Glyphs != "nerd" {
		t.Fatalf("corrupt cache: %+v, %v", c, err)
	}
	// No config file: the defaults, and no cache needed.
	if c, err := LoadCached(filepath.Join(dir, "none.toml"), cache); err != nil || !reflect.DeepEqual(c, Default()) {
		t.Fatalf("missing config: %+v, %v", c, err)
	}
}

// TestCacheIsValidated: a cache with the right key but values validation refuses is not used.
func TestCacheIsValidated(t *testing.T) {
	dir := t.TempDir()
	path, cache := filepath.Join(dir, "config.toml"), filepath.Join(dir, CacheFile)
	os.WriteFile(path, []byte("glyphs = \"ascii\"\n"), 0o600)
	if _, err := LoadCached(path, cache); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(cache)
	tampered := strings.Replace(string(data), `"glyphs":"ascii"`, `"glyphs":"evil"`, 1)
	if tampered == string(data) {
		t.Fatalf("cache shape changed: %s", data)
	}
	os.WriteFile(cache, []byte(tampered), 0o600)
	c, err := LoadCached(path, cache)
	if err != nil || c.Glyphs != "ascii" {
		t.Fatalf("tampered cache used: %+v, %v", c, err)
	}
}

// shapeOf computes cacheShape: Config's field tags and kinds, hashed.
func shapeOf() string {
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
}

func TestCacheShape(t *testing.T) {
	if got := shapeOf(); got != cacheShape {
		t.Fatalf("Config changed: set cacheShape to %q (config/cache.go), and check that readConfig (cache_codec.go) reads every new field", got)
	}
}

// fillDistinct sets every field reachable from v to a value distinct from the defaults and from
// every other field, with two elements per slice and both kinds of any.
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

// The hand decoder reads back every field the reflection encoder writes: a field added to
// Config and not to readConfig fails here.
func TestCacheCodecCoversEveryField(t *testing.T) {
	for _, tt := range []struct {
		name string
		c    func() *Config
	}{
		{"defaults", Default},
		{"every field set", func() *Config {
			c := &Config{}
			n := 0
			fillDistinct(reflect.ValueOf(c).Elem(), &n)
			return c
		}},
		{"nil and empty slices, float and bool prep", func() *Config {
			c := Default()
			c.Statusline.Lines = [][]string{{}, nil}
			c.Models = []Model{{Match: "a", Prep: 0.7}, {Window: "1m", Prep: true}}
			c.Warning.Tiers = []string{}
			c.Notify.Tiers = nil
			c.Watch.Projects = nil
			c.Warning.Prep = nil
			return c
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			want := tt.c()
			data := encodeCache(want, "k")
			got := &Config{}
			err := jsonscan.Decode(data, func(s *jsonscan.Scanner, k []byte) error {
				if jsonscan.KeyIs(k, "config") {
					return readConfig(s, got)
				}
				return s.Skip()
			})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("round trip differs:\n got %#v\nwant %#v", got, want)
			}
		})
	}
}
