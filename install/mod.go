package install

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/zoneline/zoneline/state"
)

// The mod is installed as a plugin folder under Claude Code's skills folder,
// <claude>/skills/zoneline-mod, which Claude Code 2.1.332 auto-loads in every session as
// zoneline-mod@skills-dir (its hooks module included; see docs/mod.md). ModPathFile beside the
// manifest names the zoneline binary the mod runs.
const (
	ModName     = "zoneline-mod"
	ModPathFile = "zoneline.path"
	modManifest = ".claude-plugin/plugin.json"
)

// ModDir returns the folder the mod is installed to.
func ModDir(claudeDir string) string { return filepath.Join(claudeDir, "skills", ModName) }

// IsModDir reports whether dir holds zoneline's mod (its manifest names zoneline and the binary
// file is there): only such a folder is replaced or removed.
func IsModDir(dir string) bool {
	data, err := readLimited(filepath.Join(dir, modManifest), recordLimit)
	if err != nil {
		return false
	}
	if _, err := os.Lstat(filepath.Join(dir, ModPathFile)); err != nil {
		return false
	}
	return bytes.Contains(data, []byte(`"name": "`+ModName+`"`))
}

// CheckModDir returns an error when ModDir(claudeDir) exists and is not zoneline's mod (so
// InstallMod would refuse it): install -mod checks it before it writes anything.
func CheckModDir(claudeDir string) error {
	dir := ModDir(claudeDir)
	if _, err := os.Lstat(dir); err == nil && !IsModDir(dir) {
		return fmt.Errorf("zoneline: %s exists and is not zoneline's mod: move it away, then run 'zoneline install -mod' again", dir)
	}
	return nil
}

// InstallMod writes the mod from src (rooted at root) into ModDir(claudeDir) with bin in its
// ModPathFile. A folder there that is not zoneline's is left alone (an error). It returns the
// folder and whether anything changed.
func InstallMod(claudeDir, bin string, src fs.FS, root string, dryRun bool) (string, bool, error) {
	dir := ModDir(claudeDir)
	if !filepath.IsAbs(dir) {
		return "", false, errors.New("zoneline: Claude Code's folder is not an absolute path")
	}
	if err := CheckModDir(claudeDir); err != nil {
		return dir, false, err
	}
	files, err := readTree(src, root)
	if err != nil {
		return dir, false, err
	}
	files = append(files, skillFile{rel: ModPathFile, data: []byte(bin + "\n")})
	changed := false
	for _, f := range files {
		target := filepath.Join(dir, filepath.FromSlash(f.rel))
		if old, err := readLimited(target, settingsMax); err == nil && bytes.Equal(old, f.data) {
			continue
		}
		changed = true
		if dryRun {
			continue
		}
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return dir, changed, err
		}
		if err := state.WriteFileMode(target, f.data, 0o644); err != nil {
			return dir, changed, err
		}
	}
	return dir, changed, nil
}

// UninstallMod removes the mod's folder when it is zoneline's; removed says whether there was one.
// A symlink there (a checkout of the mod linked in) is the user's and stays.
func UninstallMod(claudeDir string, dryRun bool) (bool, error) {
	dir := ModDir(claudeDir)
	if fi, err := os.Lstat(dir); err != nil || !fi.IsDir() || !filepath.IsAbs(dir) || !IsModDir(dir) {
		return false, nil
	}
	if dryRun {
		return true, nil
	}
	return true, os.RemoveAll(dir)
}

// ModBinary returns the binary an installed mod runs, "" when none is named.
func ModBinary(dir string) string {
	data, err := readLimited(filepath.Join(dir, ModPathFile), recordLimit)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(data))
}
