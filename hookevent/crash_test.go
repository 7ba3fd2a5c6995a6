//go:build unix

package hookevent

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zoneline/zoneline/internal/procbench"
	"github.com/zoneline/zoneline/snapshot"
)

// crashIterations is how many hook runs TestCrashConsistency kills.
const crashIterations = 300

// TestCrashConsistency kills the real zoneline binary with SIGKILL at random points while its
// PreCompact and PostCompact handlers write snapshots and compactions.json. After every kill:
// no snapshot or compactions.json is empty or torn, the previous one survives (the count never
// goes back, the snapshots never vanish), and a full run afterwards removes every temp file.
func TestCrashConsistency(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and kills the binary hundreds of times")
	}
	bin := procbench.Build(t, "./cmd/zoneline")
	f := newFixture(t, "manual-compact-opus-1m")
	pre, post := f.payload("hook-manual-PreCompact-*.json"), f.payload("hook-manual-PostCompact-*.json")
	root := f.c.State.Root
	cfg := filepath.Join(t.TempDir(), "config.toml")
	os.WriteFile(cfg, []byte("[precompact]\nsnapshots = 5\n"), 0o600)
	env := append(os.Environ(), "ZONELINE_STATE_DIR="+root, "ZONELINE_CONFIG="+cfg)
	sdir, _ := f.c.State.Session(f.session)

	start := func(stdin []byte) *exec.Cmd {
		cmd := exec.Command(bin, "hook")
		cmd.Env = env
		cmd.Stdin = bytes.NewReader(stdin)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		return cmd
	}
	// Clean runs of each first, so there is a "previous" to survive; they also time a run, so
	// the kills land inside one whatever the machine's speed.
	// The fastest warm run bounds the window: kills then land inside most runs.
	window := time.Hour
	for range 4 {
		for _, p := range [][]byte{pre, post} {
			t0 := time.Now()
			if err := start(p).Wait(); err != nil {
				t.Fatal(err)
			}
			window = min(window, time.Since(t0))
		}
	}
	temps := func() []string {
		var out []string
		for _, d := range []string{snapshot.Dir(f.c.State), sdir} {
			ents, _ := os.ReadDir(d)
			for _, e := range ents {
				if strings.Contains(e.Name(), ".tmp-") {
					out = append(out, e.Name())
				}
			}
		}
		return out
	}
	lastCount, killed, finished, sawTemps := 1, 0, 0, 0
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range crashIterations {
		p := pre
		if i%2 == 1 {
			p = post
		}
		cmd := start(p)
		time.Sleep(time.Duration(rng.Int64N(int64(window))))
		cmd.Process.Kill()
		if err := cmd.Wait(); err != nil {
			killed++
		} else {
			finished++
		}
		// snapshots: at least one, each whole
		files, err := snapshot.List(f.c.State)
		if err != nil || len(files) == 0 {
			t.Fatalf("iteration %d: snapshots %v, %v", i, files, err)
		}
		for _, s := range files {
			if _, err := snapshot.Load(s); err != nil {
				t.Fatalf("iteration %d: torn snapshot: %v", i, err)
			}
		}
		// compactions.json: whole, and never behind the last count seen
		data, err := os.ReadFile(filepath.Join(sdir, compactionsFile))
		if err != nil || len(data) == 0 {
			t.Fatalf("iteration %d: compactions.json: %d bytes, %v", i, len(data), err)
		}
		var cs compactions
		if err := json.Unmarshal(data, &cs); err != nil {
			t.Fatalf("iteration %d: torn compactions.json: %v\n%s", i, err, data)
		}
		if cs.Count < lastCount {
			t.Fatalf("iteration %d: count went back from %d to %d", i, lastCount, cs.Count)
		}
		lastCount = cs.Count
		sawTemps += len(temps())
	}
	left := temps()
	t.Logf("%d runs killed, %d finished first; temp files seen after kills: %d in all, %d at the end; %d compactions counted", killed, finished, sawTemps, len(left), lastCount)
	if killed < crashIterations/3 {
		t.Errorf("only %d of %d runs were killed mid-way: the kill window is too late to test anything", killed, crashIterations)
	}
	for _, p := range [][]byte{pre, post} {
		if err := start(p).Wait(); err != nil {
			t.Fatal(err)
		}
	}
	if left := temps(); len(left) > 0 {
		t.Errorf("temp files survived a full run: %v", left)
	}
	if files, _ := snapshot.List(f.c.State); len(files) != 5 {
		t.Errorf("%d snapshots kept, want 5", len(files))
	}
}
