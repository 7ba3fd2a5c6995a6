package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/zoneline/zoneline/notify"
	"github.com/zoneline/zoneline/state"
)

// How zoneline came to be on this machine decides which path `install` registers and how to
// get the companion when it is missing.

// throwaway reports whether bin lives where a package runner keeps it only for a while, or
// under a versioned path the next upgrade removes: npx's cache (~/.npm/_npx/<hash>/…), pnpm's
// store layout (node_modules/.pnpm/<name>@<version>/… — pnpm dlx and pnpm add -g both land
// there), bunx's (…/bunx-<uid>-<spec>/…) and yarn dlx's (…/dlx-<n>/…) temp folders.
// Registering such a path would break the status line later.
func throwaway(bin string) bool {
	for _, part := range strings.FieldsFunc(filepath.ToSlash(bin), func(r rune) bool { return r == '/' }) {
		switch {
		case part == "_npx", part == ".pnpm",
			strings.HasPrefix(part, "bunx-"),
			strings.HasPrefix(part, "dlx-") && strings.Trim(part[len("dlx-"):], "0123456789") == "" && len(part) > len("dlx-"):
			return true
		}
	}
	return false
}

// stableBinDir is where a throwaway binary is copied: ~/.local/bin, as install.sh, or on Windows
// %LOCALAPPDATA%\Programs\zoneline, where per-user programs go. A symlinked folder (dotfiles)
// is followed to the folder it names.
func (e *Env) stableBinDir() (string, error) {
	dir := ""
	if runtime.GOOS == "windows" {
		if la := e.Getenv("LOCALAPPDATA"); filepath.IsAbs(la) {
			dir = filepath.Join(la, "Programs", "zoneline")
		} else if filepath.IsAbs(e.Home) {
			dir = filepath.Join(e.Home, "AppData", "Local", "Programs", "zoneline")
		}
	} else if filepath.IsAbs(e.Home) {
		dir = filepath.Join(e.Home, ".local", "bin")
	}
	if dir == "" {
		return "", fmt.Errorf("zoneline: no absolute home directory to copy the binaries into")
	}
	if r, err := filepath.EvalSymlinks(dir); err == nil {
		dir = r
	}
	return dir, nil
}

// stableBin returns the zoneline path to register. A throwaway binary (npx, pnpm, bunx, yarn
// dlx) is copied, with its companion, into stableBinDir first (unless dryRun), and that copy is
// registered; any other binary (npm i -g, a release archive, go install, install.sh) is
// registered where it is: npm i -g and go install upgrade it in place.
func (e *Env) stableBin(bin string, dryRun bool, w io.Writer) (string, error) {
	if !throwaway(bin) {
		return bin, nil
	}
	dir, err := e.stableBinDir()
	if err != nil {
		return "", err
	}
	exe := ""
	if runtime.GOOS == "windows" {
		exe = ".exe"
	}
	dst := filepath.Join(dir, "zoneline"+exe)
	if dryRun {
		fmt.Fprintf(w, "would copy %s and %s into %s and register that (%s is a package runner's cache, not kept)\n", filepath.Base(bin), notify.Companion+exe, dir, filepath.Dir(bin))
		return dst, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("zoneline: %v", err)
	}
	for _, name := range []string{"zoneline" + exe, notify.Companion + exe} {
		src := filepath.Join(filepath.Dir(bin), name)
		b, err := os.ReadFile(src)
		if err != nil {
			if name != "zoneline"+exe && os.IsNotExist(err) {
				continue // the companion is optional; doctor says what it costs
			}
			return "", fmt.Errorf("zoneline: copying out of the package runner's cache: %v", err)
		}
		if err := state.WriteFileMode(filepath.Join(dir, name), b, 0o755); err != nil {
			return "", fmt.Errorf("zoneline: copying out of the package runner's cache: %v", err)
		}
	}
	fmt.Fprintf(w, "npx: copied zoneline and %s into %s (npx's cache is not kept); registering that copy\n", notify.Companion, dir)
	return dst, nil
}

// companionNote says how to get zoneline-notify when it is not beside bin nor on PATH, for the
// way zoneline was installed; "" when it is there.
func companionNote(bin string) string {
	if _, err := (notify.Spawner{Getenv: os.Getenv, Exe: bin}).FindCompanion(); err == nil {
		return ""
	}
	how := notify.CompanionHint
	if goInstalled() {
		how = "go install github.com/zoneline/zoneline/cmd/" + notify.Companion + "@" + installVersion()
	}
	return notify.Companion + " is not beside " + bin + " nor on PATH, so there are no desktop notifications (the status line and the nudge still warn): " + how
}

// goInstalled reports whether this binary was built by the go command alone (go install, go
// build): install.sh and the release stamp Version, so an unstamped one came from go.
func goInstalled() bool { return Version == "dev" }

// installVersion is the version to ask go install for: ours when it is a release, else latest.
func installVersion() string {
	if v := version(); strings.HasPrefix(v, "v") && !strings.Contains(v, "-0.") && !strings.HasSuffix(v, "+dirty") {
		return v
	}
	return "latest"
}
