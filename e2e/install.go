//go:build unix

package e2e

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"
)

// DefaultVersion is the Claude Code version the harness installs and drives.
const DefaultVersion = "2.1.332"

// installTimeout bounds the first `npm install` (the native binary is ~400 MB).
const installTimeout = 15 * time.Minute

// Enabled reports whether the end-to-end tests were asked for (ZONELINE_E2E=1).
func Enabled() bool { return os.Getenv("ZONELINE_E2E") == "1" }

// Require skips t unless ZONELINE_E2E=1. When the tests are enabled it fails
// t (never skips) if tmux, python3 or the Claude Code binary is missing, and
// returns the path of the claude binary.
func Require(t testing.TB) string {
	t.Helper()
	if !Enabled() {
		t.Skip("e2e: skipped; set ZONELINE_E2E=1 to run the end-to-end tests (they need tmux, python3 and Claude Code " + DefaultVersion + ")")
	}
	for _, tool := range []string{"tmux", "python3"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("e2e: ZONELINE_E2E=1 but %s is not on PATH: install it (the e2e tests drive Claude Code in tmux against a Python mock)", tool)
		}
	}
	bin, err := ClaudeBinary()
	if err != nil {
		t.Fatalf("e2e: ZONELINE_E2E=1 but the Claude Code binary is not available: %v", err)
	}
	return bin
}

var claudeOnce struct {
	sync.Once
	path string
	err  error
}

// ClaudeBinary returns the native Claude Code binary, installing
// @anthropic-ai/claude-code@VERSION with npm into CACHE/VERSION when it is
// missing. CC_E2E_CLAUDE names a binary to use as is; CC_E2E_VERSION and
// CC_E2E_CACHE (default ~/.cache/cc-e2e) change the version and the cache.
// The result is computed once per process.
func ClaudeBinary() (string, error) {
	claudeOnce.Do(func() { claudeOnce.path, claudeOnce.err = ensureClaude() })
	return claudeOnce.path, claudeOnce.err
}

func ensureClaude() (string, error) {
	if p := os.Getenv("CC_E2E_CLAUDE"); p != "" {
		if fi, err := os.Stat(p); err != nil || fi.IsDir() || fi.Mode()&0o111 == 0 {
			return "", fmt.Errorf("CC_E2E_CLAUDE=%s is not an executable file", p)
		}
		return p, nil
	}
	version := os.Getenv("CC_E2E_VERSION")
	if version == "" {
		version = DefaultVersion
	}
	cache := os.Getenv("CC_E2E_CACHE")
	if cache == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("no home dir for the install cache (set CC_E2E_CACHE): %w", err)
		}
		cache = filepath.Join(home, ".cache", "cc-e2e")
	}
	prefix := filepath.Join(cache, version)
	if p := findClaude(prefix); p != "" {
		return p, nil
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		return "", fmt.Errorf("not installed under %s and npm is not on PATH: install npm, or set CC_E2E_CLAUDE=/path/to/claude", prefix)
	}
	if err := os.MkdirAll(prefix, 0o755); err != nil {
		return "", err
	}
	fmt.Fprintf(os.Stderr, "e2e: installing @anthropic-ai/claude-code@%s into %s\n", version, prefix)
	ctx, cancel := context.WithTimeout(context.Background(), installTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, npm, "install", "--no-audit", "--no-fund", "--prefix", prefix,
		"@anthropic-ai/claude-code@"+version)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("npm install @anthropic-ai/claude-code@%s into %s: %w", version, prefix, err)
	}
	if p := findClaude(prefix); p != "" {
		return p, nil
	}
	return "", fmt.Errorf("claude binary not found under %s after npm install", prefix)
}

// platformPackages lists the npm packages that may hold the native binary,
// best first (the wrapper installs the one matching this machine as an
// optional dependency).
func platformPackages() []string {
	arch := map[string]string{"amd64": "x64", "arm64": "arm64"}[runtime.GOARCH]
	if arch == "" {
		arch = runtime.GOARCH
	}
	base := "claude-code-" + runtime.GOOS + "-" + arch
	if runtime.GOOS != "linux" {
		return []string{base}
	}
	musl := !exists("/lib64/ld-linux-x86-64.so.2") && !exists("/lib/ld-linux-aarch64.so.1")
	if musl {
		return []string{base + "-musl", base}
	}
	return []string{base, base + "-musl"}
}

func findClaude(prefix string) string {
	base := filepath.Join(prefix, "node_modules", "@anthropic-ai")
	for _, name := range platformPackages() {
		p := filepath.Join(base, name, "claude")
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			return p
		}
	}
	p := filepath.Join(base, "claude-code", "bin", "claude.exe")
	if fi, err := os.Stat(p); err == nil && fi.Size() > 1_000_000 {
		return p
	}
	return ""
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
