//go:build unix

package hardening

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/zoneline/zoneline/config"
	"github.com/zoneline/zoneline/hookevent"
	"github.com/zoneline/zoneline/state"
)

// hcase is one hostile case: a stdin template (placeholders as in testdata/hostile/README.md)
// and an optional setup of the world that returns extra environment.
type hcase struct {
	name  string
	stdin []byte
	setup func(t *testing.T, w *world) []string
	allow string                       // a second folder below the world's root the case may write to (the state dir moved)
	check func(t *testing.T, w *world) // more to check once every run is over
}

// events returns every hook event to run: the registered ones, plus ones no handler has.
func events() []string {
	evs := hookevent.Events()
	slices.Sort(evs)
	return append(evs, "SessionEnd", "NoSuchEvent", "")
}

// basePayload is a statusline and hook payload at once, every field present.
func basePayload() map[string]any {
	return map[string]any{
		"session_id": "@SESSION@", "transcript_path": "@TRANSCRIPT@", "cwd": "@CWD@", "hook_event_name": "@EVENT@",
		"prompt_id": "204958c3-9a59-4ebc-a835-f696d0e2bd98", "source": "compact", "trigger": "auto", "prompt": "hello",
		"custom_instructions": "keep the ids", "compact_summary": "summary", "reason": "exit", "permission_mode": "default",
		"model":     map[string]any{"id": "claude-opus-5-5", "display_name": "Opus 5.5"},
		"workspace": map[string]any{"current_dir": "@CWD@", "project_dir": "@CWD@"},
		"version":   "2.1.332",
		"context_window": map[string]any{"total_input_tokens": 60000, "context_window_size": 1000000,
			"current_usage": map[string]any{"input_tokens": 500, "output_tokens": 120, "cache_creation_input_tokens": 1500, "cache_read_input_tokens": 58000}},
	}
}

// stringFields are the payload's string fields, as paths into basePayload.
var stringFields = []string{"session_id", "transcript_path", "cwd", "hook_event_name", "prompt_id", "source", "trigger",
	"prompt", "custom_instructions", "compact_summary", "reason", "permission_mode", "version",
	"model.id", "model.display_name", "workspace.current_dir", "workspace.project_dir"}

// withRaw returns basePayload marshalled, with the field at path set to the raw JSON bytes v
// (which may be invalid JSON or invalid UTF-8 on purpose). A nil v deletes the field.
func withRaw(path string, v []byte, edit ...func(map[string]any)) []byte {
	m := basePayload()
	for _, e := range edit {
		e(m)
	}
	const mark = "@@MUT@@"
	obj, key := m, path
	if a, b, ok := strings.Cut(path, "."); ok {
		obj, key = m[a].(map[string]any), b
	}
	if v == nil {
		delete(obj, key)
	} else {
		obj[key] = mark
	}
	b, err := json.Marshal(m)
	if err != nil {
		panic(err)
	}
	return bytes.Replace(b, []byte(`"`+mark+`"`), v, 1)
}

// noUsage makes the statusline fall back to the transcript.
func noUsage(m map[string]any) { delete(m, "context_window") }

// transcriptAt is a setup that points the payload's transcript at path, made by mk.
func transcriptAt(name string, mk func(t *testing.T, w *world, path string)) hcase {
	return hcase{name: name, stdin: withRaw("transcript_path", []byte(`"@ROOT@/hostile-transcript"`), noUsage),
		setup: func(t *testing.T, w *world) []string {
			mk(t, w, filepath.Join(w.root, "hostile-transcript"))
			return nil
		}}
}

// stateSetup is a case with the base payload (no usage, so the transcript is read too) and a
// prepared state dir.
func stateSetup(name string, mk func(t *testing.T, w *world)) hcase {
	return hcase{name: name, stdin: withRaw("session_id", []byte(`"@SESSION@"`)), setup: func(t *testing.T, w *world) []string {
		mk(t, w)
		return nil
	}}
}

// crossing makes a case's payload cross every warning tier of a 200k window (190k tokens), so
// the statusline reads and creates markers and UserPromptSubmit takes the nudge.
func crossing(c hcase) hcase {
	c.stdin = withRaw("context_window", []byte(`{"context_window_size":200000,"current_usage":{"input_tokens":10,"output_tokens":5,"cache_creation_input_tokens":0,"cache_read_input_tokens":189990}}`))
	return c
}

func envCase(name string, env ...string) hcase {
	return hcase{name: name, stdin: withRaw("session_id", []byte(`"@SESSION@"`)), setup: func(*testing.T, *world) []string { return env }}
}

func sdir(w *world) string { return filepath.Join(w.state, "sessions", sessionID) }

func mkfifo(t *testing.T, path string) {
	t.Helper()
	os.MkdirAll(filepath.Dir(path), 0o700)
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
}

// mountTmpfs mounts a small tmpfs at dir, or skips the case when the machine refuses.
func mountTmpfs(t *testing.T, dir, opts string) {
	t.Helper()
	os.MkdirAll(dir, 0o700)
	out, err := exec.Command("mount", "-t", "tmpfs", "-o", opts, "tmpfs", dir).CombinedOutput()
	if err != nil {
		t.Skipf("cannot mount a tmpfs (%v: %s): the ENOSPC/EROFS path is not exercised by this case", err, bytes.TrimSpace(out))
	}
	t.Cleanup(func() { exec.Command("umount", "-l", dir).Run() })
}

// generated returns the cases built at test time: the big ones, the per-field ones, and the
// ones that need files, FIFOs, mounts or environment.
func generated() []hcase {
	var cs []hcase
	for _, f := range stringFields {
		cs = append(cs,
			hcase{name: "invalid-utf8-" + f, stdin: withRaw(f, []byte("\"a\xff\xfe\xc0\x80\xed\xa0\x80z\""), noUsage)},
			hcase{name: "lone-surrogate-" + f, stdin: withRaw(f, []byte(`"a\ud800b\udfffc\uDBFF"`), noUsage)},
		)
	}
	big := func(n int, fill byte) []byte {
		b := []byte(`{"session_id":"@SESSION@","hook_event_name":"@EVENT@","cwd":"@CWD@","prompt":"`)
		b = append(b, bytes.Repeat([]byte{fill}, n)...)
		return append(b, `"}`...)
	}
	cs = append(cs,
		hcase{name: "stdin-50MB", stdin: big(50<<20, 'a')},
		hcase{name: "stdin-50MB-whitespace-first", stdin: append(bytes.Repeat([]byte(" "), 50<<20), withRaw("session_id", []byte(`"@SESSION@"`))...)},
		hcase{name: "stdin-just-over-1MiB", stdin: big(1<<20, 'b')},
		hcase{name: "huge-strings", stdin: withRaw("model", []byte(`{"id":"`+strings.Repeat("m", 300_000)+`","display_name":"`+strings.Repeat("D", 300_000)+`"}`))},
		hcase{name: "custom-instructions-huge", stdin: withRaw("custom_instructions", []byte(`"`+strings.Repeat("c", 500_000)+`"`))},
		hcase{name: "deep-nesting-arrays", stdin: bytes.Repeat([]byte("["), 100_000)},
		hcase{name: "deep-nesting-objects", stdin: bytes.Repeat([]byte(`{"a":`), 100_000)},
		hcase{name: "deep-nesting-in-field", stdin: withRaw("context_window", append(append(bytes.Repeat([]byte(`{"a":[`), 20_000), '1'), bytes.Repeat([]byte("]}"), 20_000)...))},
		hcase{name: "deep-nesting-unclosed-in-field", stdin: withRaw("model", bytes.Repeat([]byte(`[`), 200_000))},
		hcase{name: "session-id-10000-chars", stdin: withRaw("session_id", []byte(`"`+strings.Repeat("a", 10_000)+`"`))},
		hcase{name: "session-id-10000-dotdot", stdin: withRaw("session_id", []byte(`"`+strings.Repeat("../", 3334)+`"`))},
		hcase{name: "session-id-missing", stdin: withRaw("session_id", nil)},
		hcase{name: "transcript-missing-field", stdin: withRaw("transcript_path", nil, noUsage)},

		transcriptAt("transcript-directory", func(t *testing.T, w *world, p string) { os.MkdirAll(p, 0o700) }),
		transcriptAt("transcript-fifo", func(t *testing.T, w *world, p string) { mkfifo(t, p) }),
		transcriptAt("transcript-symlink-loop", func(t *testing.T, w *world, p string) {
			os.Symlink(p+"-2", p)
			os.Symlink(p, p+"-2")
		}),
		transcriptAt("transcript-symlink-to-dev-zero", func(t *testing.T, w *world, p string) { os.Symlink("/dev/zero", p) }),
		transcriptAt("transcript-socket", func(t *testing.T, w *world, p string) {
			fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
			if err != nil || len(p) > 100 {
				t.Skip("no unix socket here")
			}
			defer syscall.Close(fd)
			syscall.Bind(fd, &syscall.SockaddrUnix{Name: p})
		}),
		transcriptAt("transcript-10MB-line", func(t *testing.T, w *world, p string) {
			tr, _ := os.ReadFile(w.transcript)
			line := `{"type":"assistant","message":{"model":"m","content":[{"type":"text","text":"` + strings.Repeat("x", 10<<20) +
				`"}],"usage":{"input_tokens":7,"cache_read_input_tokens":70000,"output_tokens":1}}}` + "\n"
			write(t, p, append(tr, line...))
		}),
		transcriptAt("transcript-10MB-garbage-line", func(t *testing.T, w *world, p string) {
			tr, _ := os.ReadFile(w.transcript)
			write(t, p, append(append(tr, bytes.Repeat([]byte("{\xff["), 10<<20/3)...), '\n'))
		}),
		transcriptAt("transcript-half-written-last-line", func(t *testing.T, w *world, p string) {
			tr, _ := os.ReadFile(w.transcript)
			lines := bytes.SplitAfter(bytes.TrimRight(tr, "\n"), []byte("\n"))
			last := lines[len(lines)-1]
			write(t, p, append(tr, last[:len(last)/2]...))
		}),
		transcriptAt("transcript-sparse-1GB-of-nul", func(t *testing.T, w *world, p string) {
			f, err := os.Create(p)
			if err != nil {
				t.Fatal(err)
			}
			f.Truncate(1 << 30)
			f.Close()
		}),
		transcriptAt("transcript-empty", func(t *testing.T, w *world, p string) { write(t, p, nil) }),
		// Work in flight (issue 16): 10,000 background tasks in Stop, hostile ids, a huge task list.
		hcase{name: "stop-10000-background-tasks", stdin: withRaw("background_tasks", hostileTasks(10000))},
		hcase{name: "stop-hostile-crons", stdin: withRaw("session_crons", []byte(`[{"id":"../../../etc/cron\u001b[2J","schedule":"\u001b]0;pwn\u0007* * * * *","recurring":"yes","prompt":"`+strings.Repeat("p\u202e", 5000)+`"},null,5,"x"]`))},
		hcase{name: "stop-background-tasks-wrong-types", stdin: withRaw("background_tasks", []byte(`{"id":"x"}`))},
		transcriptAt("transcript-10000-background-commands", func(t *testing.T, w *world, p string) {
			tr, _ := os.ReadFile(w.transcript)
			write(t, p, append(tr, hostileFlight(10000, 5000)...))
		}),
		// 8 MB of TaskUpdates with 51,043 distinct ids (each unknown, so each adds a task): the
		// snapshot holds the capped task list, or, when the machine is too busy to read 8 MB
		// within the hook's deadline, the log says it gave up (the cap itself is transcript's
		// TestFlight*, in process, with no clock).
		hcase{name: "transcript-51043-task-updates", stdin: withRaw("transcript_path", []byte(`"@ROOT@/hostile-transcript"`), noUsage),
			setup: func(t *testing.T, w *world) []string {
				write(t, filepath.Join(w.root, "hostile-transcript"), hostileTaskUpdates(51043))
				return nil
			},
			check: func(t *testing.T, w *world) {
				snaps, _ := filepath.Glob(filepath.Join(w.state, "snapshots", "*.json"))
				for _, sp := range snaps {
					if b, _ := os.ReadFile(sp); bytes.Contains(b, []byte(`"tasks_dropped":`)) {
						return
					}
				}
				if log := readLog(w); strings.Contains(log, "PreCompact: gave up after") {
					t.Logf("the hook ran out of its deadline on this machine: %s", log)
					return
				}
				t.Errorf("PreCompact wrote no snapshot with the capped task list and logged no deadline (snapshots %v)", snaps)
			}},
		stateSetup("state-inflight-garbage", func(t *testing.T, w *world) {
			write(t, filepath.Join(sdir(w), "inflight-stop.json"), []byte("\x00{\"background\":[[[\xff"))
			write(t, filepath.Join(sdir(w), hookevent.ResumePendingFile), []byte(`{"n":"x","Next":{"Commands":[5]}}`))
			mkfifo(t, filepath.Join(sdir(w), hookevent.ResumeFile))
		}),

		stateSetup("state-read-only-chmod", func(t *testing.T, w *world) {
			if os.Geteuid() == 0 {
				t.Skip("root ignores mode bits: state-read-only covers this with a read-only mount")
			}
			write(t, filepath.Join(sdir(w), "session.json"), []byte(`{"session_id":"`+sessionID+`","compactions":1}`))
			for _, d := range []string{sdir(w), filepath.Dir(sdir(w)), w.state} {
				os.Chmod(d, 0o500)
			}
			t.Cleanup(func() {
				for _, d := range []string{w.state, filepath.Dir(sdir(w)), sdir(w)} {
					os.Chmod(d, 0o700)
				}
			})
		}),
		stateSetup("state-read-only", func(t *testing.T, w *world) {
			mountTmpfs(t, w.state, "size=1m,mode=0700")
			// a previous session's state, then the mount goes read-only
			write(t, filepath.Join(sdir(w), "session.json"), []byte(`{"session_id":"`+sessionID+`","compactions":1}`))
			if out, err := exec.Command("mount", "-o", "remount,ro", w.state).CombinedOutput(); err != nil {
				t.Skipf("cannot remount read-only: %v: %s", err, out)
			}
		}),
		stateSetup("state-full", func(t *testing.T, w *world) {
			mountTmpfs(t, w.state, "size=64k,mode=0700")
			f, _ := os.Create(filepath.Join(w.state, "filler"))
			f.Write(make([]byte, 1<<20)) // fills it: ENOSPC from here on
			f.Close()
		}),
		stateSetup("state-full-after-session", func(t *testing.T, w *world) {
			mountTmpfs(t, w.state, "size=64k,mode=0700")
			write(t, filepath.Join(sdir(w), "session.json"), []byte(`{"session_id":"`+sessionID+`","compactions":2}`))
			f, _ := os.Create(filepath.Join(w.state, "filler"))
			f.Write(make([]byte, 1<<20))
			f.Close()
		}),
		stateSetup("state-root-is-file", func(t *testing.T, w *world) { write(t, w.state, []byte("not a dir")) }),
		stateSetup("state-sessions-is-file", func(t *testing.T, w *world) { write(t, filepath.Join(w.state, "sessions"), []byte("x")) }),
		stateSetup("state-session-dir-is-file", func(t *testing.T, w *world) { write(t, sdir(w), []byte("x")) }),
		stateSetup("state-garbage-session-json", func(t *testing.T, w *world) {
			write(t, filepath.Join(sdir(w), "session.json"), []byte("\x00\xff{\"compactions\":\"many\"]]"))
		}),
		stateSetup("state-session-json-wrong-types", func(t *testing.T, w *world) {
			write(t, filepath.Join(sdir(w), "session.json"), []byte(`{"compactions":-5,"transcript_offset":-99999999999,"transcript":"@x","tokens":"1","updated":"yesterday"}`))
		}),
		stateSetup("state-session-json-offset-past-end", func(t *testing.T, w *world) {
			write(t, filepath.Join(sdir(w), "session.json"), []byte(`{"compactions":3,"transcript_offset":9223372036854775807,"transcript":"`+w.transcript+`"}`))
		}),
		stateSetup("state-session-json-is-dir", func(t *testing.T, w *world) { os.MkdirAll(filepath.Join(sdir(w), "session.json"), 0o700) }),
		stateSetup("state-session-json-is-fifo", func(t *testing.T, w *world) { mkfifo(t, filepath.Join(sdir(w), "session.json")) }),
		stateSetup("state-session-json-10MB", func(t *testing.T, w *world) {
			write(t, filepath.Join(sdir(w), "session.json"), bytes.Repeat([]byte(" "), 10<<20))
		}),
		stateSetup("state-garbage-markers", func(t *testing.T, w *world) {
			for _, n := range []string{"marker-0-warn.json", "marker-0-dumb.json", "marker-0-imminent.json", "marker--1-x.json", "marker-99999999999999999999-warn.json", "epoch-1.json", "pending.json"} {
				write(t, filepath.Join(sdir(w), n), []byte("\xff\x00garbage"))
			}
		}),
		stateSetup("state-marker-fifos", func(t *testing.T, w *world) {
			for _, n := range []string{"marker-0-warn.json", "marker-0-dumb.json", "marker-0-imminent.json", "epoch-1.json", "pending.json", "compactions.json", "checkpoint.md", "prompt.json"} {
				mkfifo(t, filepath.Join(sdir(w), n))
			}
		}),
		crossing(stateSetup("state-marker-fifos-crossing", func(t *testing.T, w *world) {
			for _, n := range []string{"marker-0-warn.json", "marker-0-dumb.json", "marker-0-imminent.json", "epoch-1.json", "nudge-pending.json", "pending.json"} {
				mkfifo(t, filepath.Join(sdir(w), n))
			}
		})),
		crossing(stateSetup("state-garbage-markers-crossing", func(t *testing.T, w *world) {
			for _, n := range []string{"marker-0-warn.json", "marker-0-dumb.json", "epoch-1.json", "nudge-pending.json", "delivered-0-dumb.json"} {
				write(t, filepath.Join(sdir(w), n), []byte("\xff\x00{\"tier\":5"))
			}
		})),
		stateSetup("state-marker-dirs", func(t *testing.T, w *world) {
			for _, n := range []string{"marker-0-warn.json", "marker-0-dumb.json", "marker-0-imminent.json", "compactions.json", "checkpoint.md"} {
				os.MkdirAll(filepath.Join(sdir(w), n), 0o700)
			}
		}),
		stateSetup("state-garbage-compactions", func(t *testing.T, w *world) {
			write(t, filepath.Join(sdir(w), "compactions.json"), []byte(`{"count":-3,"records":[null,5,{"n":"x"}],"pending":1e308`))
		}),
		stateSetup("state-garbage-checkpoint", func(t *testing.T, w *world) {
			write(t, filepath.Join(sdir(w), "checkpoint.md"), bytes.Repeat([]byte("\x00\xff## External state\n|`|"), 20000))
		}),
		stateSetup("state-huge-checkpoint", func(t *testing.T, w *world) {
			write(t, filepath.Join(sdir(w), "checkpoint.md"), bytes.Repeat([]byte("# zoneline checkpoint\n## Goal\n"), 200000))
		}),
		stateSetup("state-garbage-snapshots", func(t *testing.T, w *world) {
			for _, n := range []string{"20261129T221400Z-" + sessionID + ".json", "x.json", ".tmp-1"} {
				write(t, filepath.Join(w.state, "snapshots", n), []byte("\x00garbage"))
			}
			mkfifo(t, filepath.Join(w.state, "snapshots", "20261129T221500Z-"+sessionID+".json"))
		}),
		stateSetup("state-snapshots-is-file", func(t *testing.T, w *world) { write(t, filepath.Join(w.state, "snapshots"), []byte("x")) }),
		stateSetup("state-log-is-dir", func(t *testing.T, w *world) { os.MkdirAll(filepath.Join(w.state, "zoneline.log"), 0o700) }),
		stateSetup("state-log-is-fifo", func(t *testing.T, w *world) { mkfifo(t, filepath.Join(w.state, "zoneline.log")) }),
		stateSetup("state-leftover-temps", func(t *testing.T, w *world) {
			for _, n := range []string{".session.json.tmp-1", ".compactions.json.tmp-2", ".marker-0-warn.json.tmp-3"} {
				write(t, filepath.Join(sdir(w), n), nil)
			}
		}),
		stateSetup("config-binary-garbage", func(t *testing.T, w *world) {
			write(t, w.config, bytes.Repeat([]byte{0x00, 0xff, 0x1b, '[', '=', '\n'}, 1000))
		}),
		stateSetup("config-2MB", func(t *testing.T, w *world) { write(t, w.config, bytes.Repeat([]byte("# comment\n"), 200_000)) }),
		stateSetup("config-is-dir", func(t *testing.T, w *world) { os.MkdirAll(w.config, 0o700) }),
		stateSetup("config-is-fifo", func(t *testing.T, w *world) { mkfifo(t, w.config) }),
		stateSetup("config-symlink-to-dev-zero", func(t *testing.T, w *world) { os.Symlink("/dev/zero", w.config) }),
		stateSetup("config-symlink-loop", func(t *testing.T, w *world) {
			os.Symlink(w.config+"-2", w.config)
			os.Symlink(w.config, w.config+"-2")
		}),
		stateSetup("config-hostile-values", func(t *testing.T, w *world) {
			write(t, w.config, []byte("[statusline]\nbar_width = 1000000000\nlines = [[\"zone\"],[],[\"zone\",\"zone\",\"zone\"]]\n[state]\ngc_days = 1\n[precompact]\nhold_once = true\nsnapshots = 0\n"))
		}),
		stateSetup("config-cache-garbage", func(t *testing.T, w *world) {
			write(t, w.config, []byte(ruleConfig))
			write(t, filepath.Join(w.state, config.CacheFile), []byte("\x00{\"key\":[[[\xff"))
		}),
		stateSetup("config-cache-fifo", func(t *testing.T, w *world) {
			write(t, w.config, []byte(ruleConfig))
			mkfifo(t, filepath.Join(w.state, config.CacheFile))
		}),
		stateSetup("config-cache-dir", func(t *testing.T, w *world) {
			write(t, w.config, []byte(ruleConfig))
			os.MkdirAll(filepath.Join(w.state, config.CacheFile), 0o700)
		}),
		stateSetup("config-cache-tampered", func(t *testing.T, w *world) {
			// a cache with the right key and values that validation would refuse
			write(t, w.config, []byte(ruleConfig))
			cache := filepath.Join(w.state, config.CacheFile)
			if _, err := config.LoadCached(w.config, cache, state.Replace); err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(cache)
			if err != nil {
				t.Skipf("no config cache written (%v): nothing to tamper with", err)
			}
			r := strings.NewReplacer(`match = "claude-sonnet*"`, "match = \"[\"\nwarn = -5\n[statusline]\nbar_width = -2147483648\nindent = -99999\nseparator = \"\\u001b]0;x\\u0007\\n\"\nlines = [[], [\"nope\"]]\n[notify]\nurgency = \"\x1b[2J\"\n")
			write(t, cache, []byte(r.Replace(string(b))))
		}),
		stateSetup("config-cache-problems-forged", func(t *testing.T, w *world) {
			write(t, w.config, []byte("colour = 1\n"))
			cache := filepath.Join(w.state, config.CacheFile)
			config.LoadCached(w.config, cache, state.Replace)
			b, err := os.ReadFile(cache)
			if err != nil {
				t.Skipf("no config cache written (%v)", err)
			}
			write(t, cache, bytes.Replace(b, []byte("unknown key"), []byte("\x1b]0;pwned\x07\x1b[2J\u202e"), 1))
		}),
		stateSetup("config-20000-unknown-tables", func(t *testing.T, w *world) { write(t, w.config, manyTables()) }),
		stateSetup("config-every-value-wrong", func(t *testing.T, w *world) {
			write(t, w.config, []byte("color = 1\nglyphs = []\nwindow = \"x\"\n[statusline]\nlines = \"zone\"\nbar_width = 1.5\n[autocompact]\nenabled = \"no\"\n[warning]\nprep = true\ntiers = [1]\n[[model]]\nmatch = 3\n[flow.timeouts]\nprep = 1979-05-27\n"))
		}),
		stateSetup("claude-settings-garbage", func(t *testing.T, w *world) {
			write(t, filepath.Join(w.claude, "settings.json"), []byte(`{"autoCompactEnabled":"no","autoCompactWindow":1e999`))
		}),
		stateSetup("claude-settings-fifo", func(t *testing.T, w *world) { mkfifo(t, filepath.Join(w.claude, "settings.json")) }),
		envCase("env-hostile-numbers", "COLUMNS=-5", "CLAUDE_CODE_AUTO_COMPACT_WINDOW=-1", "CLAUDE_AUTOCOMPACT_PCT_OVERRIDE=1e308", "DISABLE_AUTO_COMPACT=maybe"),
		envCase("env-columns-huge", "COLUMNS=99999999999999999999", "TMUX=/tmp/$(id),1,2", "TMUX_PANE=%0;id"),
		envCase("env-columns-one", "COLUMNS=1"),
		hostileRepo(),
		hostilePartialClone(),
		homeUnset("env-home-unset", "HOME="),
		homeUnset("env-home-relative", "HOME=.", "XDG_CONFIG_HOME=.config", "XDG_STATE_HOME=.local/state"),
		homeUnset("env-all-relative", "HOME=home", "XDG_CONFIG_HOME=.config", "XDG_STATE_HOME=.local/state",
			"ZONELINE_CONFIG=.config/zoneline/config.toml", "ZONELINE_STATE_DIR=.local/state/zoneline", "CLAUDE_CONFIG_DIR=.claude"),
		func() hcase {
			c := envCase("env-state-dir-relative", "ZONELINE_STATE_DIR=state", "XDG_STATE_HOME=xdg")
			c.allow = "home/.local/state/zoneline" // relative dirs are ignored: the default applies
			return c
		}(),
	)
	return cs
}

// hostileRepo is the project as the hostile git repository of testdata/hostile/git-repo: its
// config, attributes and hooks name programs (filters, a slow filter, fsmonitor, hooks, pagers,
// textconv, diff.external) that each create a PWNED-* file, which the tree check catches, and
// the slow ones would still be sleeping after the hook exits.
func hostileRepo() hcase {
	return hcase{name: "git-hostile-repo", stdin: withRaw("session_id", []byte(`"@SESSION@"`)),
		setup: func(t *testing.T, w *world) []string {
			if _, err := exec.LookPath("git"); err != nil {
				t.Skip("no git")
			}
			if out, err := exec.Command("sh", "../testdata/hostile/git-repo/make.sh", w.project).CombinedOutput(); err != nil {
				t.Fatalf("make.sh: %v: %s", err, out)
			}
			return nil
		},
		check: func(t *testing.T, w *world) {
			if m, _ := filepath.Glob(filepath.Join(w.project, "PWNED*")); len(m) > 0 {
				t.Errorf("the repository's programs ran: %v", m)
			}
			procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
			for _, p := range procs {
				cwd, err := os.Readlink(filepath.Join(filepath.Dir(p), "cwd"))
				if err != nil || !strings.HasPrefix(cwd, w.root+"/") {
					continue
				}
				if b, _ := os.ReadFile(p); bytes.Contains(b, []byte("31.4159")) {
					t.Errorf("left running after the hooks exited: %s", bytes.ReplaceAll(b, []byte{0}, []byte(" ")))
				}
			}
			// PreCompact did take the git state, without running anything.
			snaps, _ := filepath.Glob(filepath.Join(w.state, "snapshots", "*.json"))
			found := false
			for _, sp := range snaps {
				if b, _ := os.ReadFile(sp); bytes.Contains(b, []byte(`"?? new.txt"`)) {
					found = true
				}
			}
			if !found {
				t.Errorf("no snapshot with the repository's dirty files among %v", snaps)
			}
		}}
}

// hostilePartialClone is the hostile repository as a partial clone (make.sh partial-clone):
// its promisor remote's uploadpack, credential helper and insteadOf target write PWNED-*, and
// an object of HEAD and the index are gone, so a `git status` would fetch through them.
// PreCompact records the git state without a status, and says why.
func hostilePartialClone() hcase {
	return hcase{name: "git-hostile-partial-clone", stdin: withRaw("session_id", []byte(`"@SESSION@"`)),
		setup: func(t *testing.T, w *world) []string {
			if _, err := exec.LookPath("git"); err != nil {
				t.Skip("no git")
			}
			if out, err := exec.Command("sh", "../testdata/hostile/git-repo/make.sh", w.project, "partial-clone").CombinedOutput(); err != nil {
				t.Fatalf("make.sh: %v: %s", err, out)
			}
			return nil
		},
		check: func(t *testing.T, w *world) {
			if m, _ := filepath.Glob(filepath.Join(w.project, "PWNED*")); len(m) > 0 {
				t.Errorf("the repository's programs ran: %v", m)
			}
			snaps, _ := filepath.Glob(filepath.Join(w.state, "snapshots", "*.json"))
			found := false
			for _, sp := range snaps {
				if b, _ := os.ReadFile(sp); bytes.Contains(b, []byte(`partial clone`)) {
					found = true
				}
			}
			if !found {
				t.Errorf("no snapshot saying the status was skipped for the partial clone among %v", snaps)
			}
		}}
}

// homeUnset is the project of testdata/hostile/home-unset (a planted .config/zoneline/config.toml
// and .claude/settings.json) run with env: no absolute home or XDG/ZONELINE path. Nothing may
// be written anywhere (the tree check, with the state dir counted too), and the planted config
// must not be read (its nudge text would come back from UserPromptSubmit: checked by the tree
// staying unchanged, as a delivered nudge writes state).
func homeUnset(name string, env ...string) hcase {
	// the world's own paths emptied first: later entries win
	env = append([]string{"ZONELINE_STATE_DIR=", "ZONELINE_CONFIG=", "CLAUDE_CONFIG_DIR=", "XDG_CONFIG_HOME=", "XDG_STATE_HOME="}, env...)
	return crossing(hcase{name: name, stdin: withRaw("session_id", []byte(`"@SESSION@"`)),
		setup: func(t *testing.T, w *world) []string {
			src := "../testdata/hostile/home-unset"
			filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
				if err != nil || d.IsDir() {
					return nil
				}
				b, _ := os.ReadFile(p)
				rel, _ := filepath.Rel(src, p)
				write(t, filepath.Join(w.project, rel), b)
				return nil
			})
			return env
		},
		check: func(t *testing.T, w *world) {
			if _, err := os.Lstat(w.state); err == nil {
				t.Errorf("a state dir was created at %s", w.state)
			}
		}})
}

// corpus returns the checked-in cases of testdata/hostile.
func corpus(t *testing.T) []hcase {
	ents, err := os.ReadDir("../testdata/hostile")
	if err != nil {
		t.Fatal(err)
	}
	var cs []hcase
	for _, e := range ents {
		if e.IsDir() || e.Name() == "README.md" { // folders are worlds (git-repo), built by generated cases
			continue
		}
		b, err := os.ReadFile(filepath.Join("../testdata/hostile", e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		cs = append(cs, hcase{name: e.Name(), stdin: b})
	}
	return cs
}

// ruleConfig is a valid config with a model rule, so the parsed-config cache has content.
// manyTables is a config of 20,000 unknown tables (about 240 KB) after two valid keys: the
// problems must cost linear time, and the cache must spare later renders the parse.
func manyTables() []byte {
	var b bytes.Buffer
	b.WriteString("color = \"none\"\nglyphs = \"ascii\"\n")
	for i := range 20_000 {
		fmt.Fprintf(&b, "[t%d]\nx=1\n", i)
	}
	return b.Bytes()
}

const ruleConfig = "[[model]]\nmatch = \"claude-sonnet*\"\nwarn = 100000\ndumb = 150000\n"

// minCases is the floor for the corpus.
const minCases = 60

// TestHostileInput runs every case against `zoneline statusline` and `zoneline hook` with every
// event. Each case gets its own world; the tree outside the state dir must come out unchanged.
func TestHostileInput(t *testing.T) {
	bin := zoneline(t)
	cases := append(corpus(t), generated()...)
	if len(cases) < minCases {
		t.Fatalf("%d hostile cases, want at least %d", len(cases), minCases)
	}
	t.Logf("%d hostile cases × (statusline + %d hook events)", len(cases), len(events()))
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel() // processes wait on I/O: running a few cases at once halves the wall time
			w := newWorld(t)
			var env []string
			if c.setup != nil {
				env = c.setup(t, w)
			}
			skip := []string{w.state}
			if c.allow != "" {
				skip = append(skip, filepath.Join(w.root, c.allow))
				os.MkdirAll(filepath.Dir(skip[1]), 0o700)
			}
			before := snapshot(t, w.root, skip...)
			r := w.run(t, bin, w.subst(c.stdin, ""), []string{"statusline"}, env...)
			checkStatusline(t, "statusline", r)
			checkModStatus(t, w.run(t, bin, w.subst(c.stdin, ""), []string{"mod", "status"}, env...))
			evs := events()
			if !bytes.Contains(c.stdin, []byte("@EVENT@")) {
				evs = evs[:1] // the event cannot vary: one run is enough
			}
			for _, ev := range evs {
				r := w.run(t, bin, w.subst(c.stdin, ev), []string{"hook"}, env...)
				checkHook(t, "hook "+ev, r)
			}
			if d := diffTrees(before, snapshot(t, w.root, skip...)); len(d) > 0 {
				t.Errorf("wrote outside the state dir:\n%s", strings.Join(d, "\n"))
			}
			if c.check != nil {
				c.check(t, w)
			}
		})
	}
}

// hostileTasks is a background_tasks array of n entries with ids that hold escape sequences
// and ../ (an id must never become a path).
func hostileTasks(n int) []byte {
	var b strings.Builder
	b.WriteString("[")
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"id":"../../x%d\u001b[31m","type":"shell","status":"running","description":"\u001b]0;t\u0007d%d","command":"rm -rf / #%d"}`, i, i, i)
	}
	b.WriteString("]")
	return []byte(b.String())
}

// hostileFlight is transcript records: n run_in_background Bash calls whose results name
// hostile ids and output paths, then one TodoWrite of todos items.
func hostileFlight(n, todos int) []byte {
	var b bytes.Buffer
	for i := range n {
		fmt.Fprintf(&b, `{"type":"assistant","uuid":"fa%d","message":{"id":"fm%d","content":[{"type":"tool_use","id":"ft%d","name":"Bash","input":{"command":"sleep %d","run_in_background":true}}]}}`+"\n", i, i, i, i)
		fmt.Fprintf(&b, `{"type":"user","uuid":"fr%d","message":{"content":[{"type":"tool_result","tool_use_id":"ft%d","content":"Command running in background with ID: ../../../tmp/\u001b[2J%d. Output is being written to: ../../\u001b]0;x\u0007%d.output."}]}}`+"\n", i, i, i, i)
	}
	b.WriteString(`{"type":"assistant","uuid":"ftodo","message":{"id":"fmt","content":[{"type":"tool_use","id":"ftt","name":"TodoWrite","input":{"todos":[`)
	for i := range todos {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"content":"item %d \u202e\u001b[1m","status":"pending"}`, i)
	}
	b.WriteString("]}}]}}\n")
	return b.Bytes()
}

// hostileTaskUpdates is transcript records: n TaskUpdate calls, each naming a task id never
// created (their results not in the part read, so all apply at the end), about 8 MB for 51,043.
func hostileTaskUpdates(n int) []byte {
	var b bytes.Buffer
	for i := range n {
		fmt.Fprintf(&b, `{"type":"assistant","uuid":"u%d","message":{"id":"m%d","content":[{"type":"tool_use","id":"toolu_%d","name":"TaskUpdate","input":{"taskId":"%d"}}]}}`+"\n", i, i, i, i)
	}
	return b.Bytes()
}
