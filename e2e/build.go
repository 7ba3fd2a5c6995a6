//go:build unix

package e2e

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// ModulePath is the module the binaries under test come from.
const ModulePath = "github.com/zoneline/zoneline"

const buildTimeout = 5 * time.Minute

// Binaries are the zoneline binaries built for this test process.
type Binaries struct {
	Dir      string // the temp dir holding the built binaries; "" with ZONELINE_E2E_BIN_DIR
	Zoneline string // <Dir>/zoneline
	Notify   string // <Dir>/zoneline-notify, "" when cmd/zoneline-notify does not exist or did not build
	// NotifyErr is why Notify is empty although cmd/zoneline-notify exists.
	NotifyErr error
}

var builds struct {
	sync.Once
	bins   Binaries
	err    error
	warned atomic.Bool // NotifyErr logged
}

// Build builds ./cmd/zoneline (and ./cmd/zoneline-notify when that directory
// exists) from the module root, once per test process, and returns the
// paths. It fails t if zoneline does not build. ZONELINE_E2E_BIN_DIR=dir
// uses the binaries in dir instead (e.g. a release build). Call
// CleanupBuilds from TestMain to remove the binaries built.
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

// CleanupBuilds removes the binaries Build made. Call it from TestMain after m.Run.
func CleanupBuilds() {
	if builds.bins.Dir != "" {
		os.RemoveAll(builds.bins.Dir)
	}
}

func build() (Binaries, error) {
	if dir := os.Getenv("ZONELINE_E2E_BIN_DIR"); dir != "" {
		return prebuilt(dir)
	}
	root, err := ModuleRoot()
	if err != nil {
		return Binaries{}, err
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		if p := filepath.Join(os.Getenv("GOROOT"), "bin", "go"); os.Getenv("GOROOT") != "" && exists(p) {
			goBin = p
		} else {
			return Binaries{}, errors.New("the go command is not on PATH")
		}
	}
	dir, err := os.MkdirTemp("", "zoneline-e2e-bin-")
	if err != nil {
		return Binaries{}, err
	}
	b := Binaries{Dir: dir, Zoneline: filepath.Join(dir, "zoneline")}
	if err := goBuild(goBin, root, b.Zoneline, "./cmd/zoneline"); err != nil {
		return b, err
	}
	if fi, err := os.Stat(filepath.Join(root, "cmd", "zoneline-notify")); err == nil && fi.IsDir() {
		p := filepath.Join(dir, "zoneline-notify")
		if err := goBuild(goBin, root, p, "./cmd/zoneline-notify"); err != nil {
			b.NotifyErr = err
		} else {
			b.Notify = p
		}
	}
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

func goBuild(goBin, root, out, pkg string) error {
	ctx, cancel := context.WithTimeout(context.Background(), buildTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, goBin, "build", "-o", out, pkg)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	var buf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go build -o %s %s (in %s): %w\n%s", out, pkg, root, err, strings.TrimSpace(buf.String()))
	}
	return nil
}

// ModuleRoot walks up from the working directory (a test runs in its
// package's directory) to the go.mod that declares ModulePath.
func ModuleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if mod := readModulePath(filepath.Join(dir, "go.mod")); mod == ModulePath {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no go.mod declaring module %s above the working directory", ModulePath)
		}
		dir = parent
	}
}

func readModulePath(gomod string) string {
	f, err := os.Open(gomod)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if rest, ok := strings.CutPrefix(line, "module"); ok && (rest == "" || rest[0] == ' ' || rest[0] == '\t') {
			return strings.Trim(strings.TrimSpace(rest), `"`)
		}
	}
	return ""
}
