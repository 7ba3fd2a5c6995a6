package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Main is the name of the npm package users install.
const Main = "zoneline"

// Platform is one GOOS/GOARCH the release builds, with npm's names for them.
type Platform struct {
	GOOS, GOARCH string
	OS, CPU      string // npm's process.platform and process.arch
}

// Platforms are the release targets; each has its own npm package.
var Platforms = []Platform{
	{"linux", "amd64", "linux", "x64"},
	{"linux", "arm64", "linux", "arm64"},
	{"darwin", "amd64", "darwin", "x64"},
	{"darwin", "arm64", "darwin", "arm64"},
	{"windows", "amd64", "win32", "x64"},
	{"windows", "arm64", "win32", "arm64"},
}

// Package is the npm package name of a platform: zoneline-<os>-<cpu>, what the launcher
// require.resolve()s from process.platform and process.arch.
func (p Platform) Package() string { return Main + "-" + p.OS + "-" + p.CPU }

// Dir is the folder under -out holding the platform's package.json (GoReleaser's archive file
// templates name it from .Os and .Arch).
func (p Platform) Dir() string { return p.GOOS + "-" + p.GOARCH }

const (
	description = "Context zones, warnings before auto-compact, and state that survives compaction, for long Claude Code sessions"
	repository  = "https://github.com/zoneline/zoneline"
	license     = "MIT"
)

type pkgJSON struct {
	Name                 string            `json:"name"`
	Version              string            `json:"version"`
	Description          string            `json:"description"`
	License              string            `json:"license"`
	Repository           string            `json:"repository"`
	Keywords             []string          `json:"keywords,omitempty"`
	OS                   []string          `json:"os,omitempty"`
	CPU                  []string          `json:"cpu,omitempty"`
	Bin                  map[string]string `json:"bin,omitempty"`
	Files                []string          `json:"files,omitempty"`
	OptionalDependencies map[string]string `json:"optionalDependencies,omitempty"`
	PreferUnplugged      bool              `json:"preferUnplugged,omitempty"`
}

// Write writes out/<dir>/package.json for the main package (dir "zoneline") and each platform.
func Write(out, version string) error {
	if err := validVersion(version); err != nil {
		return err
	}
	main := pkgJSON{
		Name: Main, Version: version, Description: description, License: license, Repository: repository,
		Keywords: []string{"claude-code", "statusline", "context", "compaction", "hooks"},
		Bin:      map[string]string{"zoneline": "bin/zoneline.js"},
		Files:    []string{"bin/", "README.md", "LICENSE"},

		OptionalDependencies: map[string]string{},
	}
	for _, p := range Platforms {
		main.OptionalDependencies[p.Package()] = version // exact: the launcher and the binary move together
		exe := ""
		if p.GOOS == "windows" {
			exe = ".exe"
		}
		pp := pkgJSON{
			Name: p.Package(), Version: version, License: license, Repository: repository,
			Description:     "The " + p.GOOS + "/" + p.GOARCH + " binaries of zoneline (installed by the zoneline package)",
			OS:              []string{p.OS},
			CPU:             []string{p.CPU},
			Files:           []string{"zoneline" + exe, "zoneline-notify" + exe},
			PreferUnplugged: true,
		}
		if err := writeJSON(filepath.Join(out, p.Dir(), "package.json"), pp); err != nil {
			return err
		}
	}
	return writeJSON(filepath.Join(out, Main, "package.json"), main)
}

// validVersion accepts what npm accepts as a version: semver without a leading v.
func validVersion(v string) error {
	core, _, _ := strings.Cut(v, "-")
	core, _, _ = strings.Cut(core, "+")
	parts := strings.Split(core, ".")
	ok := len(parts) == 3
	for _, p := range parts {
		if p == "" || strings.Trim(p, "0123456789") != "" || (len(p) > 1 && p[0] == '0') {
			ok = false
		}
	}
	if !ok {
		return fmt.Errorf("-version %q is not a semver version (1.2.3, 1.2.3-rc.1)", v)
	}
	return nil
}

func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}
