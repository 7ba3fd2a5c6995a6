//go:build unix

package detach

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/zoneline/zoneline/internal/testtmp"
)

// TestStart: the child runs in its own session (not the caller's), in /, with stdio on the
// null device, and Start does not wait for it.
func TestStart(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	out := filepath.Join(testtmp.Dir(t), "out")
	// The child waits for a file the test writes only after Start returned: a Start that
	// waited for its child would never return (bounded by events, not by the clock: the 10 s
	// fail-safe below only turns a hang into a failure).
	gate := out + ".go"
	script := `while [ ! -e ` + gate + ` ]; do sleep 0.01; done; { echo "$(pwd)"; echo "$$ $(ps -o sid= -p $$ 2>/dev/null || echo nops)"; ls -l /proc/self/fd/0 2>/dev/null || echo noproc; } > ` + out + `.tmp; mv ` + out + `.tmp ` + out
	started := make(chan error, 1)
	go func() { started <- Start(sh, []string{"-c", script}) }()
	select {
	case err := <-started:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		os.WriteFile(gate, nil, 0o600)
		t.Fatal("Start waited for the child")
	}
	if err := os.WriteFile(gate, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	var data []byte
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if data, err = os.ReadFile(out); err == nil || time.Now().After(deadline) {
			break
		}
	}
	if err != nil {
		t.Fatalf("the child wrote nothing: %v", err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) < 3 || lines[0] != "/" {
		t.Fatalf("child: %q", data)
	}
	// A session leader: its session id is its own pid (Setsid), not the test's session.
	if f := strings.Fields(lines[1]); len(f) == 2 && f[1] != "nops" {
		if pid, _ := strconv.Atoi(f[0]); strconv.Itoa(pid) != f[1] {
			t.Errorf("child pid %s in session %s: not its own session", f[0], f[1])
		}
	}
	if l := lines[2]; l != "noproc" && !strings.HasSuffix(l, os.DevNull) {
		t.Errorf("child stdin: %q, want %s", l, os.DevNull)
	}
}
