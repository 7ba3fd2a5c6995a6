package install

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/zoneline/zoneline/internal/rawfs"
	"github.com/zoneline/zoneline/state"
)

// applyInstall writes what the plan holds: the backup before the first change, the settings
// (checked unchanged since they were read), the skill files and the config, then the record.
func (p *plan) applyInstall() error {
	o, sf := p.o, p.sf
	if p.changed {
		if sf.exists {
			b := sf.path + BackupSuffix
			if _, err := os.Lstat(b); errors.Is(err, fs.ErrNotExist) {
				if err := writeAtomic(b, sf.data, sf.mode); err != nil {
					return err
				}
				p.res.Backup = b
			}
		}
		if err := commitSettings(sf, p.newData, o.beforeCommit); err != nil {
			return err
		}
	}
	for _, w := range p.writes {
		// The config's folder is created 0700 (it was made 0755 first, then asked for 0700, which
		// MkdirAll leaves on a folder that exists); the skills' folders are Claude Code's, 0755.
		mode, dirMode := fs.FileMode(skillMode), fs.FileMode(0o755)
		if w.path == o.Config {
			mode, dirMode = 0o600, 0o700
		}
		p.createdDirs(filepath.Dir(w.path))
		if err := os.MkdirAll(filepath.Dir(w.path), dirMode); err != nil {
			return fmt.Errorf("zoneline: %v", err)
		}
		if err := writeAtomic(w.path, w.data, mode); err != nil {
			return err
		}
	}
	rec := p.rec
	rec.Version, rec.Binary, rec.Settings, rec.Installed = recordFormat, o.Bin, o.Settings, o.Now().UTC().Truncate(time.Second)
	data, _ := json.MarshalIndent(rec, "", "  ")
	return writeAtomic(p.res.Record, append(data, '\n'), 0o600)
}

// applyUninstall carries out an uninstall plan: the settings (checked unchanged since they
// were read), the skill files and their emptied folders, with Purge the config and the state,
// the backup when the file is back to it, and the record.
func (p *plan) applyUninstall() error {
	o, sf, res := p.o, p.sf, p.res
	if p.changed {
		if p.newData == nil {
			if err := sf.unchanged(); err != nil {
				return err
			}
			if err := os.Remove(sf.path); err != nil {
				return fmt.Errorf("zoneline: %v", err)
			}
		} else if err := commitSettings(sf, p.newData, o.beforeCommit); err != nil {
			return err
		}
	}
	for _, f := range p.removeFiles {
		if fi, err := os.Lstat(f); err == nil && fi.Mode().IsRegular() {
			os.Remove(f)
		}
	}
	for _, d := range p.skillDirs {
		p.removeDir(d)
	}
	if len(p.skillDirs) > 0 {
		p.removeDir(filepath.Join(o.ClaudeDir, "skills"))
	}
	if o.Purge {
		if o.Config != "" {
			os.Remove(o.Config)
			p.removeDir(filepath.Dir(o.Config))
		}
		if o.StateDir != "" {
			if left := purgeState(o.StateDir); len(left) > 0 {
				res.set("state", Kept, "%s: zoneline's files removed; it also holds %s, which zoneline did not write", o.StateDir, strings.Join(left, ", "))
			}
		}
	}
	// The backup goes when the file is back to what it was; otherwise it stays and is named.
	b := sf.path + BackupSuffix
	if old, err := readLimited(b, settingsMax); err == nil {
		if now, err := readLimited(sf.path, settingsMax); (err == nil && bytes.Equal(old, now)) || errors.Is(err, fs.ErrNotExist) {
			os.Remove(b)
		} else {
			res.add("backup", Kept, "%s holds settings.json as it was before the first install", b)
		}
	}
	os.Remove(res.Record)
	return nil
}

// createdDirs records in the install record each folder of dir's path that does not exist yet,
// which the write about to happen creates: the folders uninstall may remove again.
func (p *plan) createdDirs(dir string) {
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(d); err == nil || filepath.Dir(d) == d {
			return
		}
		if !slices.Contains(p.rec.Dirs, d) {
			p.rec.Dirs = append(p.rec.Dirs, d)
		}
	}
}

// removeDir removes the folder d when install created it (a record from before install kept
// that list: any folder of ours) and it is empty: never a folder the user made or linked, and
// never a symlink, whatever it points at (os.Remove would unlink it, empty or not).
func (p *plan) removeDir(d string) {
	if p.rec != nil && p.rec.Version >= 2 && !slices.Contains(p.rec.Dirs, d) {
		return
	}
	skills := filepath.Join(p.o.ClaudeDir, "skills")
	if d != skills && !p.inSkills(d) && (p.o.Config == "" || d != filepath.Dir(p.o.Config)) {
		return // only the folders install writes into (a record may come from a repository)
	}
	if fi, err := os.Lstat(d); err == nil && fi.IsDir() {
		os.Remove(d) // fails unless empty
	}
}

// purgeState removes what zoneline writes in the state dir (the names of state/layout.go: the
// log, gc.stamp, config-cache.toml, and in sessions/, snapshots/ and git/ the entries named as
// zoneline names them), then each of those folders and the dir when that empties them. Nothing
// is followed: a symlink in there is removed as a link, and a symlinked state dir stays a link.
// It returns what it left, relative to dir.
func purgeState(dir string) []string {
	top := map[string]func(string) bool{
		state.SessionsDirName:  state.ValidSessionID,
		state.SnapshotsDirName: func(n string) bool { return strings.HasSuffix(n, ".json") },
		state.GitDirName: func(n string) bool {
			return strings.HasSuffix(n, ".json") || strings.HasSuffix(n, ".refresh") || strings.HasSuffix(n, ".lock")
		},
	}
	var left []string
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		name, p := e.Name(), filepath.Join(dir, e.Name())
		switch ours, sub := top[name]; {
		case sub && e.IsDir():
			kids, _ := os.ReadDir(p)
			for _, k := range kids {
				if ours(k.Name()) || state.IsTemp(k.Name()) {
					os.RemoveAll(filepath.Join(p, k.Name()))
				} else {
					left = append(left, filepath.Join(name, k.Name()))
				}
			}
			os.Remove(p) // when empty
		case name == state.LogName, name == state.LogRotatedName, name == state.GCStampName,
			name == state.ConfigCacheName, state.IsTemp(name):
			os.Remove(p)
		default:
			left = append(left, name)
		}
	}
	if fi, err := os.Lstat(dir); len(left) == 0 && err == nil && fi.IsDir() {
		os.Remove(dir)
	}
	return left
}

// writeAtomic writes data to p through a temp file in the same dir, fsync and rename, with
// mode perm (state.WriteFileMode). The dir must exist or is created 0755 (settings dirs are not
// zoneline's to lock).
func writeAtomic(p string, data []byte, perm fs.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return fmt.Errorf("zoneline: %v", err)
	}
	return state.WriteFileMode(p, data, perm)
}

// commitSettings writes data over the settings file sf was read from: a temp file in the same
// folder, fsync, then, right before the rename, a check that the file is still the one read
// (the same file, size, time and bytes; or still absent). When another program rewrote it
// meanwhile, the temp file is removed and the error wraps ErrChanged: the caller reads and
// merges again. (The check and the rename are two steps; what remains is the window between
// them, microseconds, against the whole read-merge-write before.)
func commitSettings(sf *settingsFile, data []byte, beforeCommit func()) error {
	dir := filepath.Dir(sf.path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("zoneline: %v", err)
	}
	tmp, err := rawfs.WriteTemp(dir, "."+filepath.Base(sf.path)+".tmp-", data, sf.mode, true)
	if err != nil {
		return fmt.Errorf("zoneline: writing %s: %v", sf.path, err)
	}
	if beforeCommit != nil {
		beforeCommit()
	}
	if err := sf.unchanged(); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, sf.path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("zoneline: writing %s: %v", sf.path, err)
	}
	return nil
}

// unchanged reports (as an error wrapping ErrChanged) whether the settings file is no longer
// what sf read: created, removed or replaced since, or different in size, time or bytes.
func (sf *settingsFile) unchanged() error {
	changed := fmt.Errorf("zoneline: %s %w", sf.path, ErrChanged)
	if sf.exists {
		// the bytes first, the identity last: the stat is the cheap step nearest the rename
		if now, err := readLimited(sf.path, settingsMax); err != nil || !bytes.Equal(now, sf.data) {
			return changed
		}
	}
	fi, err := os.Stat(sf.path)
	switch {
	case !sf.exists && errors.Is(err, fs.ErrNotExist):
		return nil
	case !sf.exists, errors.Is(err, fs.ErrNotExist):
		return changed
	case err != nil:
		return fmt.Errorf("zoneline: %v", err)
	case !os.SameFile(fi, sf.info), fi.Size() != sf.info.Size(), !fi.ModTime().Equal(sf.info.ModTime()):
		return changed
	}
	return nil
}
