//go:build unix

package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/zoneline/zoneline/internal/procbench"
)

// Binaries are the zoneline binaries built for this test process.
type Binaries struct {
	Zoneline  string // the zoneline binary
	Notify    string // zoneline-notify, beside zoneline; "" when it is not available
	NotifyErr error  // why Notify is ""
}

var builds struct {
	sync.Once
	bins   Binaries
	err    error
	warned atomic.Bool // NotifyErr logged
}

// Build builds ./cmd/zoneline and ./cmd/zoneline-notify (procbench.Built, the
// repo's one builder), once per test process, and returns the paths. It fails
// t if zoneline does not build. ZONELINE_E2E_BIN_DIR=dir uses the binaries in
// dir instead (e.g. a release build). Call procbench.Cleanup from TestMain to
// remove the binaries built.
func Build(t testing.TB) Binaries {
	t.Helper()
	builds.Do(func() { builds.bins, builds.err = build() })
	if builds.err != nil {
		t.Fatalf("e2e: building the binaries under test: %v", builds.err)
	}
	if builds.bins.NotifyErr != nil && builds.warned.CompareAndSwap(false, true) {
		t.Logf("e2e: cmd/zoneline-notify did not build (tests needing it will fail): %v", builds.bins.NotifyErr)
	}
	return builds.bins
}

// RequireNotify fails t unless the zoneline-notify binary was built.
func (b Binaries) RequireNotify(t testing.TB) string {
	t.Helper()
	if b.Notify == "" {
		t.Fatalf("e2e: zoneline-notify is not available: %v", b.NotifyErr)
	}
	return b.Notify
}

func build() (Binaries, error) {
	if dir := os.Getenv("ZONELINE_E2E_BIN_DIR"); dir != "" {
		return prebuilt(dir)
	}
	zl, err := procbench.Built("./cmd/zoneline")
	if err != nil {
		return Binaries{}, err
	}
	b := Binaries{Zoneline: zl}
	b.Notify, b.NotifyErr = procbench.Built("./cmd/zoneline-notify")
	return b, nil
}

// prebuilt uses binaries already built into dir (ZONELINE_E2E_BIN_DIR), e.g.
// a release build, instead of building them.
func prebuilt(dir string) (Binaries, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return Binaries{}, err
	}
	b := Binaries{Zoneline: filepath.Join(dir, "zoneline")}
	if fi, err := os.Stat(b.Zoneline); err != nil || fi.IsDir() || fi.Mode()&0o111 == 0 {
		return b, fmt.Errorf("ZONELINE_E2E_BIN_DIR=%s holds no executable zoneline", dir)
	}
	if p := filepath.Join(dir, "zoneline-notify"); exists(p) {
		b.Notify = p
	} else {
		b.NotifyErr = fmt.Errorf("ZONELINE_E2E_BIN_DIR=%s holds no zoneline-notify", dir)
	}
	return b, nil
}
