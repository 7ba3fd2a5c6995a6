//go:build unix

package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/zoneline/zoneline/internal/termcolor"
)

// rulerScript is a status line command that prints one ruler per reserve r in rulerReserves:
// a line of exactly COLUMNS − r characters, "r=<r>:" then dots, ending in '#'. The widths
// it was given are appended to <Work>/ruler.log.
const rulerScript = `#!/bin/sh
cat >/dev/null
printf '%s\n' "$COLUMNS" >> "$RULER_LOG"
for r in 2 3 4 5 6; do
  n=$((COLUMNS - r))
  line="r=$r:"
  while [ ${#line} -lt $((n - 1)) ]; do line="$line."; done
  printf '%s#\n' "$line"
done
`

// rulerReserves are the reserves the ruler tries, smallest first.
var rulerReserves = []int{2, 3, 4, 5, 6}

// TestStatuslineReserve measures how many columns of a status line row Claude Code really
// shows: a ruler command prints lines of COLUMNS − r characters for r = 2…6, and at each pane
// width the smallest r whose ruler shows whole (ending in '#', no '…') is the reserve. The
// test fails unless it is the same at every width and equals statuslineReserve, the default
// zoneline fits to (config [statusline] indent).
func TestStatuslineReserve(t *testing.T) {
	Require(t)
	s := Start(t, Options{
		Model: "claude-sonnet-4-5-20250929",
		Cols:  80,
		Settings: map[string]any{
			"statusLine": map[string]any{"type": "command", "command": "sh {{WORK}}/ruler.sh"},
		},
		Env: map[string]string{"RULER_LOG": "{{WORK}}/ruler.log"},
		BeforeLaunch: func(s *Session) {
			if err := os.WriteFile(filepath.Join(s.Work, "ruler.sh"), []byte(rulerScript), 0o755); err != nil {
				t.Fatal(err)
			}
		},
	})
	measured := map[int]int{}
	for i, cols := range []int{80, 57, 64, 75, 120, 200} {
		if cols != 80 {
			s.Resize(cols)
		}
		s.MockUsage(Context(20_000 + 1000*i))
		s.Prompt(fmt.Sprintf("ruler at %d columns", cols))
		var rows map[int]string
		sc, ok := s.Poll(statusWait, false, func(sc string) bool {
			rows = rulerRows(sc)
			return len(rows) == len(rulerReserves) && rulerCols(s.Work) == cols
		})
		s.Capture(fmt.Sprintf("ruler-%d", cols))
		if !ok {
			t.Errorf("%d columns: the ruler never showed its %d rows for COLUMNS=%d (last COLUMNS %d):\n%s", cols, len(rulerReserves), cols, rulerCols(s.Work), sc)
			continue
		}
		reserve := -1
		for _, r := range rulerReserves {
			row := rows[r]
			whole := strings.HasSuffix(row, "#") && !strings.Contains(row, "…") && len([]rune(row)) == cols-r
			t.Logf("%d columns: r=%d shown as %d chars %q…%q whole=%v", cols, r, len([]rune(row)), head(row, 6), tail(row, 4), whole)
			if whole && reserve < 0 {
				reserve = r
			}
			if !whole && reserve >= 0 {
				t.Errorf("%d columns: the ruler of reserve %d is cut but %d showed whole: %q", cols, r, reserve, row)
			}
		}
		measured[cols] = reserve
	}
	t.Logf("measured reserve by width: %v", measured)
	for cols, r := range measured {
		if r != statuslineReserve {
			t.Errorf("%d columns: Claude Code shows COLUMNS − %d columns, zoneline reserves %d", cols, r, statuslineReserve)
		}
	}
}

// statuslineReserve is zoneline's default reserve ([statusline] indent in the config).
const statuslineReserve = 4

// rulerRows finds the ruler rows in the plain screen, by their reserve.
func rulerRows(screen string) map[int]string {
	rows := map[int]string{}
	for _, l := range strings.Split(screen, "\n") {
		l = strings.TrimSpace(l)
		if !strings.HasPrefix(l, "r=") || len(l) < 4 || l[3] != ':' {
			continue
		}
		if r, err := strconv.Atoi(l[2:3]); err == nil {
			rows[r] = l
		}
	}
	return rows
}

// rulerCols is the last COLUMNS the ruler was run with.
func rulerCols(work string) int {
	b, _ := os.ReadFile(filepath.Join(work, "ruler.log"))
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return 0
	}
	n, _ := strconv.Atoi(f[len(f)-1])
	return n
}

func head(s string, n int) string {
	r := []rune(s)
	return string(r[:min(n, len(r))])
}

func tail(s string, n int) string {
	r := []rune(s)
	return string(r[max(0, len(r)-n):])
}

// sweepScript runs zoneline as the status line and appends "COLUMNS<TAB>line" to
// $SWEEP_LOG for each render, so a test can compare the pane with what zoneline printed.
const sweepScript = `#!/bin/sh
out=$("$ZL_BIN" statusline)
printf '%s\t%s\n' "${COLUMNS:-}" "$out" >> "$SWEEP_LOG"
printf '%s\n' "$out"
`

// TestStatuslineWidthSweep resizes a real Claude Code pane through the widths where a line
// fitted to COLUMNS − 2 was cut mid-segment (56/57, 63/64, 74/75, 80 with ↻1) and more, with
// the longest line zoneline draws (DUMB, the nudge, the compact distance, model, dir, branch,
// ↻1 after a /compact): at each width the row Claude Code shows must be exactly the line
// zoneline printed for that COLUMNS (nothing cut by Claude Code), hold no "…" (nothing cut by
// zoneline) and be at most COLUMNS − 4 wide.
func TestStatuslineWidthSweep(t *testing.T) {
	Require(t)
	bins := Build(t)
	s := Start(t, Options{
		Model: "claude-sonnet-4-5-20250929",
		Settings: map[string]any{
			"statusLine": map[string]any{"type": "command", "command": "sh {{WORK}}/sweep.sh"},
		},
		Env: map[string]string{
			"ZL_BIN":             bins.Zoneline,
			"SWEEP_LOG":          "{{WORK}}/sweep.log",
			"ZONELINE_STATE_DIR": "{{WORK}}/state",
			"ZONELINE_CONFIG":    "{{WORK}}/no-such-dir/config.toml",
			"XDG_RUNTIME_DIR":    "{{WORK}}/xdg/run",
		},
		BeforeLaunch: func(s *Session) {
			if err := os.WriteFile(filepath.Join(s.Work, "sweep.sh"), []byte(sweepScript), 0o755); err != nil {
				t.Fatal(err)
			}
			// A git branch in the project, so the branch segment shows.
			if err := os.MkdirAll(filepath.Join(s.Proj, ".git"), 0o755); err != nil {
				t.Fatal(err)
			}
			os.WriteFile(filepath.Join(s.Proj, ".git", "HEAD"), []byte("ref: refs/heads/main\n"), 0o644)
		},
	})
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("e2e diagnostics:\n%s%s", s.Diagnostics(), zonelineLogTail(s))
		}
	})
	s.MockUsage(Context(30_000))
	s.Prompt("before the compaction")
	s.Command("/compact")

	widths := []int{50, 56, 57, 63, 64, 74, 75, 80, 90, 100, 110, 120, 160}
	for i, cols := range widths {
		s.Resize(cols)
		s.MockUsage(Context(125_000 + 1000*i))
		s.Prompt(fmt.Sprintf("sweep at %d columns", cols))
		var printed, shown string
		_, ok := s.Poll(statusWait, false, func(sc string) bool {
			printed = lastPrinted(s.Work, cols)
			area := StatusArea(sc)
			if len(area) != 1 {
				shown = strings.Join(area, " | ")
				return false
			}
			shown = strings.TrimSpace(area[0])
			return printed != "" && shown == printed
		})
		s.Capture(fmt.Sprintf("sweep-%d", cols))
		t.Logf("%3d columns: %q", cols, shown)
		if !ok {
			t.Errorf("%d columns: the pane shows %q, zoneline printed %q", cols, shown, printed)
			continue
		}
		if strings.Contains(shown, "…") {
			t.Errorf("%d columns: the line is cut: %q", cols, shown)
		}
		if w := len([]rune(shown)); w > cols-statuslineReserve {
			t.Errorf("%d columns: the line is %d wide, more than COLUMNS − %d: %q", cols, w, statuslineReserve, shown)
		}
		if !strings.Contains(shown, "DUMB") {
			t.Errorf("%d columns: the zone is not shown: %q", cols, shown)
		}
		// Room enough for every segment of this line, ↻1 (the first to go) included; below
		// that, the cache hint on the pending step (a droppable tail) outranks it.
		if cols >= 160 && !strings.Contains(shown, "↻1") {
			t.Errorf("%d columns: the compaction count ↻1 is not shown: %q", cols, shown)
		}
	}
}

// lastPrinted is the plain text of the last line zoneline printed for COLUMNS=cols.
func lastPrinted(work string, cols int) string {
	b, _ := os.ReadFile(filepath.Join(work, "sweep.log"))
	last := ""
	for _, l := range strings.Split(string(b), "\n") {
		c, line, ok := strings.Cut(l, "\t")
		if ok && c == strconv.Itoa(cols) {
			last = strings.TrimSpace(termcolor.Strip(line))
		}
	}
	return last
}
