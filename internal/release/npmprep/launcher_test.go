//go:build unix

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestLauncherFindsOnlyItsOwnPackage: the npm launcher runs the platform package npm put beside
// it, and never one an environment offers through NODE_PATH or node's global folders
// ($HOME/.node_modules), which require.resolve would search when the optional dependency is
// missing.
func TestLauncherFindsOnlyItsOwnPackage(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not on PATH")
	}
	arch := map[string]string{"amd64": "x64", "arm64": "arm64"}[runtime.GOARCH]
	if arch == "" {
		t.Skip("no npm platform package for " + runtime.GOARCH)
	}
	plat := "zoneline-" + runtime.GOOS + "-" + arch
	root := t.TempDir()
	launcher, err := os.ReadFile(filepath.Join("..", "..", "..", "npm", "zoneline", "bin", "zoneline.js"))
	if err != nil {
		t.Fatal(err)
	}
	mods := filepath.Join(root, "prefix", "lib", "node_modules")
	put := func(p, body string, mode os.FileMode) {
		t.Helper()
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), mode); err != nil {
			t.Fatal(err)
		}
	}
	put(filepath.Join(mods, "zoneline", "bin", "zoneline.js"), string(launcher), 0o755)
	put(filepath.Join(mods, "zoneline", "package.json"), `{"name":"zoneline","version":"1.0.0"}`, 0o644)
	marker := filepath.Join(root, "planted-ran")
	planted := func(dir string) {
		put(filepath.Join(dir, plat, "package.json"), `{"name":"`+plat+`","version":"1.0.0"}`, 0o644)
		put(filepath.Join(dir, plat, "zoneline"), "#!/bin/sh\ntouch "+marker+"\necho planted\n", 0o755)
	}
	home := filepath.Join(root, "home")
	planted(filepath.Join(root, "evil"))
	planted(filepath.Join(home, ".node_modules"))
	run := func() (string, error) {
		cmd := exec.Command(node, filepath.Join(mods, "zoneline", "bin", "zoneline.js"), "version")
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "NODE_PATH=" + filepath.Join(root, "evil")}
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	out, err := run()
	if _, statErr := os.Stat(marker); statErr == nil || err == nil || !strings.Contains(out, "no binary for") {
		t.Errorf("without its platform package the launcher ran %q (err %v; a planted package ran: %v)", out, err, statErr == nil)
	}
	// npm's own layout (hoisted beside it): that one runs.
	put(filepath.Join(mods, plat, "package.json"), `{"name":"`+plat+`","version":"1.0.0"}`, 0o644)
	put(filepath.Join(mods, plat, "zoneline"), "#!/bin/sh\necho real \"$@\"\n", 0o755)
	if out, err := run(); err != nil || strings.TrimSpace(out) != "real version" {
		t.Errorf("with its platform package: %q, %v", out, err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("a planted package ran")
	}
}
