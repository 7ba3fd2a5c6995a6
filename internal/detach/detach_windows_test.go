//go:build windows

package detach

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/zoneline/zoneline/internal/testtmp"
)

func TestFlags(t *testing.T) {
	if got := flags(true); got != 0x08000000|0x01000000|0x00000200|0x00000008 {
		t.Errorf("flags(true) = %#x", got)
	}
	if got := flags(false); got&createBreakawayFromJob != 0 || got&detachedProcess == 0 || got&createNoWindow == 0 || got&createNewProcessGroup == 0 {
		t.Errorf("flags(false) = %#x", got)
	}
}

// TestStart: Windows accepts the detached start (with the breakaway, or without it inside a
// job that forbids it), the child runs with the caller's environment, and Start does not wait.
func TestStart(t *testing.T) {
	if out := os.Getenv("ZONELINE_DETACH_CHILD"); out != "" {
		return // the child: see TestMain
	}
	out := filepath.Join(testtmp.Dir(t), "out")
	t.Setenv("ZONELINE_DETACH_CHILD", out)
	if err := Start(os.Args[0], []string{"-test.run=^TestStart$"}); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if _, err := os.Stat(out); err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the detached child wrote nothing in 30 s")
		}
	}
}

func TestMain(m *testing.M) {
	if out := os.Getenv("ZONELINE_DETACH_CHILD"); out != "" {
		wd, _ := os.Getwd()
		os.WriteFile(out+".tmp", []byte(wd), 0o600)
		os.Rename(out+".tmp", out)
		os.Exit(0)
	}
	os.Exit(m.Run())
}
