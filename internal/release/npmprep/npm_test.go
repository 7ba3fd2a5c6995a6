package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWrite(t *testing.T) {
	out := t.TempDir()
	if err := Write(out, "1.2.3-rc.1"); err != nil {
		t.Fatal(err)
	}
	var main pkgJSON
	read(t, filepath.Join(out, "zoneline", "package.json"), &main)
	if main.Name != "zoneline" || main.Version != "1.2.3-rc.1" || main.Bin["zoneline"] != "bin/zoneline.js" {
		t.Errorf("main package = %+v", main)
	}
	if len(main.OptionalDependencies) != len(Platforms) {
		t.Errorf("optional dependencies = %v, want one per platform", main.OptionalDependencies)
	}
	// The launcher resolves zoneline-<process.platform>-<process.arch>: each platform package
	// must be named so and restricted to that os and cpu, or npm installs the wrong binary.
	launcher, err := os.ReadFile(filepath.Join("..", "..", "..", "npm", "zoneline", "bin", "zoneline.js"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(launcher), "const pkg = 'zoneline-' + platform;") ||
		!strings.Contains(string(launcher), "const platform = process.platform + '-' + process.arch;") {
		t.Error("bin/zoneline.js no longer resolves zoneline-<platform>-<arch>")
	}
	var list []string
	for _, p := range Platforms {
		list = append(list, "'"+p.OS+"-"+p.CPU+"'")
	}
	if want := "const platforms = [" + strings.Join(list, ", ") + "];"; !strings.Contains(string(launcher), want) {
		t.Errorf("bin/zoneline.js's platform list is not the release's: want %s", want)
	}
	for _, p := range Platforms {
		var pp pkgJSON
		read(t, filepath.Join(out, p.Dir(), "package.json"), &pp)
		if pp.Name != "zoneline-"+p.OS+"-"+p.CPU || main.OptionalDependencies[pp.Name] != "1.2.3-rc.1" {
			t.Errorf("%s: name %q, main depends on %q", p.Dir(), pp.Name, main.OptionalDependencies[pp.Name])
		}
		if len(pp.OS) != 1 || pp.OS[0] != p.OS || len(pp.CPU) != 1 || pp.CPU[0] != p.CPU {
			t.Errorf("%s: os %v cpu %v", p.Dir(), pp.OS, pp.CPU)
		}
		if len(pp.Bin) != 0 {
			t.Errorf("%s: a platform package must not claim the zoneline bin name: %v", p.Dir(), pp.Bin)
		}
	}
}

func TestVersion(t *testing.T) {
	for _, v := range []string{"0.0.0", "1.2.3", "1.2.3-SNAPSHOT-abc1234", "10.20.30+build.1"} {
		if err := validVersion(v); err != nil {
			t.Errorf("%q: %v", v, err)
		}
	}
	for _, v := range []string{"", "v1.2.3", "1.2", "1.02.3", "1.2.x", "dev"} {
		if err := validVersion(v); err == nil {
			t.Errorf("%q accepted", v)
		}
	}
	if code := run([]string{"-version", "v1", "-out", t.TempDir()}, new(strings.Builder)); code != 1 {
		t.Errorf("exit %d for a bad version, want 1", code)
	}
}

func read(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}
