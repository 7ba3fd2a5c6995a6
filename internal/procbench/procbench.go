// Package procbench measures whole processes: it builds the repo's binaries as install.sh does
// (static, stripped) and runs them with a given stdin, reporting wall time and peak RSS. The
// whole-process benchmarks in bench/ compare zoneline against the floor program with it.
package procbench

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// How a binary is built: as install.sh builds it (static, stripped, copied into place), as the
// linker wrote it (BenchmarkControl), or with its symbols (for `go tool nm`).
type buildMode int

const (
	installed buildMode = iota
	linked
	withSymbols
)

// buildTimeout bounds one `go build`.
const buildTimeout = 5 * time.Minute

var (
	buildOnce sync.Map // package path and mode -> *built
	binDir    struct {
		sync.Once
		path string
		err  error
	}
)

type built struct {
	once sync.Once
	path string
	err  error
}

// Root returns the module root, found by walking up from the working directory to go.mod.
func Root() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("procbench: no go.mod above the working directory")
		}
		dir = parent
	}
}

// Build builds the package (e.g. "./cmd/zoneline") once per test process, statically and
// stripped, and copies it into place, as install.sh does; it returns the binary's path. Every
// binary a test process builds lands in one folder, so zoneline-notify is beside zoneline, where
// zoneline looks for it. This is the one builder of the repo's binaries for tests, benchmarks and
// the e2e harness; Cleanup removes the folder.
func Build(tb testing.TB, pkg string) string {
	return mustBuild(tb, pkg, installed)
}

// BuildAsLinked is Build without the copy: the binary as the linker wrote it (for
// BenchmarkControl, which shows why Build copies).
func BuildAsLinked(tb testing.TB, pkg string) string {
	return mustBuild(tb, pkg, linked)
}

// BuildWithSymbols is Build keeping the symbol table (for `go tool nm`).
func BuildWithSymbols(tb testing.TB, pkg string) string {
	return mustBuild(tb, pkg, withSymbols)
}

func mustBuild(tb testing.TB, pkg string, mode buildMode) string {
	tb.Helper()
	p, err := build(pkg, mode)
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

// Built is Build returning the error instead of failing a test (for a TestMain).
func Built(pkg string) (string, error) {
	return build(pkg, installed)
}

// Cleanup removes the binaries built. Call it from TestMain after m.Run.
func Cleanup() {
	if binDir.path != "" {
		os.RemoveAll(binDir.path)
	}
}

func build(pkg string, mode buildMode) (string, error) {
	v, _ := buildOnce.LoadOrStore(fmt.Sprint(pkg, mode), &built{})
	b := v.(*built)
	b.once.Do(func() { b.path, b.err = goBuild(pkg, mode) })
	return b.path, b.err
}

func goBuild(pkg string, mode buildMode) (string, error) {
	root, err := Root()
	if err != nil {
		return "", err
	}
	binDir.Do(func() { binDir.path, binDir.err = os.MkdirTemp("", "zoneline-bin-") })
	if binDir.err != nil {
		return "", binDir.err
	}
	goBin, err := exec.LookPath("go")
	if err != nil && os.Getenv("GOROOT") != "" {
		goBin, err = exec.LookPath(filepath.Join(os.Getenv("GOROOT"), "bin", "go"))
	}
	if err != nil {
		return "", errors.New("procbench: the go command is not on PATH")
	}
	path := filepath.Join(binDir.path, filepath.Base(pkg))
	flags := []string{"-trimpath", "-ldflags", "-s -w"}
	out := path + ".build" // copied to path
	switch mode {
	case linked:
		path += ".linked"
		out = path
	case withSymbols:
		path += ".symbols"
		out, flags = path, nil
	}
	args := append(append([]string{"build"}, flags...), "-o", out, pkg)
	ctx, cancel := context.WithTimeout(context.Background(), buildTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, goBin, args...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if msg, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build %s (in %s): %v\n%s", pkg, root, err, bytes.TrimSpace(msg))
	}
	if mode != installed {
		return path, nil
	}
	// Copied into place, as install.sh does: the linker writes its output through a memory
	// map, and a binary run straight from there starts measurably slower than a copy of it
	// (BenchmarkControl/linked), which is not how an installed binary runs.
	data, err := os.ReadFile(out)
	if err == nil {
		err = os.WriteFile(path, data, 0o755)
	}
	os.Remove(out)
	return path, err
}

// Result is one run of a process.
type Result struct {
	Wall   time.Duration
	Stdout []byte
	Stderr []byte
	Code   int
}

// Run runs bin with args, stdin and env (added to a minimal environment) and waits for it.
func Run(bin string, args []string, stdin []byte, env []string) (Result, error) {
	cmd := exec.Command(bin, args...)
	cmd.Stdin = bytes.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME")}, env...)
	start := time.Now()
	err := cmd.Run()
	r := Result{Wall: time.Since(start), Stdout: out.Bytes(), Stderr: errb.Bytes()}
	if cmd.ProcessState != nil {
		r.Code = cmd.ProcessState.ExitCode()
	}
	if _, ok := err.(*exec.ExitError); ok {
		err = nil
	}
	return r, err
}

// Compare runs a and b alternately b.N times each, each first in turn, and reports each one's
// mean wall time and the ratio a/b ("x-floor" when b is the floor). Alternating keeps drift in
// the machine's load from favouring either side. (Peak RSS is measured apart: ReportPeakRSS.)
func Compare(b *testing.B, a, floor func() (Result, error)) {
	compare(b, a, floor, true)
}

// CompareInOrder is Compare with floor always run first (for BenchmarkControl, which shows why
// Compare swaps).
func CompareInOrder(b *testing.B, a, floor func() (Result, error)) {
	compare(b, a, floor, false)
}

func compare(b *testing.B, a, floor func() (Result, error), swap bool) {
	b.Helper()
	var ta, tf time.Duration
	for i := 0; i < b.N; i++ {
		// Swap which runs first at every iteration, so that an order effect cannot favour either
		// side (BenchmarkControl/order measures one; none showed here).
		var ra, rf Result
		var errA, errF error
		if !swap || i%2 == 0 {
			rf, errF = floor()
			ra, errA = a()
		} else {
			ra, errA = a()
			rf, errF = floor()
		}
		if err := errors.Join(errA, errF); err != nil {
			b.Fatal(err)
		}
		if ra.Code != 0 {
			b.Fatalf("exit %d: %s", ra.Code, strings.TrimSpace(string(ra.Stderr)))
		}
		ta += ra.Wall
		tf += rf.Wall
	}
	b.ReportMetric(float64(ta.Microseconds())/float64(b.N), "us/run")
	b.ReportMetric(float64(tf.Microseconds())/float64(b.N), "floor-us/run")
	b.ReportMetric(float64(ta)/float64(tf), "x-floor")
}

// PeakRSS returns the peak resident set of one run of bin, in kilobytes, measured by GNU time
// (/usr/bin/time -f %M). The rusage a Go parent gets from wait4 is no good here: Go starts
// children with vfork, so the child's high-water mark starts at the parent's (the test binary's)
// RSS. GNU time forks a small copy of itself instead. ok is false when /usr/bin/time is missing.
func PeakRSS(bin string, args []string, stdin []byte, env []string) (kb int64, ok bool, err error) {
	if _, err := os.Stat("/usr/bin/time"); err != nil {
		return 0, false, nil
	}
	f, err := os.CreateTemp("", "procbench-rss-")
	if err != nil {
		return 0, false, err
	}
	f.Close()
	defer os.Remove(f.Name())
	r, err := Run("/usr/bin/time", append([]string{"-f", "%M", "-o", f.Name(), bin}, args...), stdin, env)
	if err != nil {
		return 0, false, err
	}
	if r.Code != 0 {
		return 0, false, fmt.Errorf("%s exited %d: %s", bin, r.Code, r.Stderr)
	}
	out, err := os.ReadFile(f.Name())
	if err != nil {
		return 0, false, err
	}
	_, err = fmt.Sscan(strings.TrimSpace(string(out)), &kb)
	return kb, err == nil, err
}

// ReportPeakRSS reports the peak RSS of one run of bin ("peak-RSS-MB"), and of the floor
// ("floor-RSS-MB") when floor is not "".
func ReportPeakRSS(b *testing.B, bin string, args []string, stdin []byte, env []string, floor string) {
	b.Helper()
	kb, ok, err := PeakRSS(bin, args, stdin, env)
	if err != nil {
		b.Fatal(err)
	}
	if !ok {
		b.Log("no /usr/bin/time: peak RSS not measured")
		return
	}
	b.ReportMetric(float64(kb)/1024, "peak-RSS-MB")
	if floor != "" {
		if fkb, ok, err := PeakRSS(floor, nil, stdin, env); err == nil && ok {
			b.ReportMetric(float64(fkb)/1024, "floor-RSS-MB")
		}
	}
}
