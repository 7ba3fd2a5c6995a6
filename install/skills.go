package install

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/zoneline/zoneline/skills"
)

// installSkills plans the skill files: a missing or unedited one is written, one edited since
// install is left alone (and reported) unless Force.
func (p *plan) installSkills() error {
	skills, err := p.o.listSkills()
	if err != nil {
		return err
	}
	for _, sk := range skills {
		item := "skill /" + sk.name
		dir := filepath.Join(p.o.ClaudeDir, "skills", sk.name)
		var actions []string
		for _, f := range sk.files {
			dst := filepath.Join(dir, filepath.FromSlash(f.rel))
			have, err := readLimited(dst, settingsMax)
			switch {
			case errors.Is(err, fs.ErrNotExist):
				p.writes = append(p.writes, fileWrite{dst, f.data})
				p.rec.Skills[dst] = hash(f.data)
				actions = append(actions, Added)
			case err != nil:
				return fmt.Errorf("zoneline: %v", err)
			case bytes.Equal(have, f.data):
				p.rec.Skills[dst] = hash(f.data)
				actions = append(actions, Present)
			case p.rec.Skills[dst] == hash(have) || p.o.Force:
				p.writes = append(p.writes, fileWrite{dst, f.data})
				p.rec.Skills[dst] = hash(f.data)
				actions = append(actions, Updated)
			default:
				actions = append(actions, Skipped)
			}
		}
		switch {
		case slices.Contains(actions, Skipped):
			p.res.add(item, Skipped, "%s differs from zoneline's and was not written by this install (or was edited since): `zoneline install --force` overwrites it", dir)
		case slices.Contains(actions, Updated):
			p.res.add(item, Updated, "%s", dir)
		case slices.Contains(actions, Added):
			p.res.add(item, Added, "%s", dir)
		default:
			p.res.add(item, Present, "%s", dir)
		}
	}
	return nil
}

// inSkills reports whether path is a folder inside the skills folder install writes to
// (<ClaudeDir>/skills/<name>/…). Uninstall touches nothing else a record names: with -project
// the record is a file of the repository's, which may name any path.
func (p *plan) inSkills(path string) bool {
	rel, err := filepath.Rel(filepath.Join(p.o.ClaudeDir, "skills"), path)
	return err == nil && filepath.IsLocal(rel) && rel != "."
}

// skillState counts a skill folder's files by what uninstall does with them.
type skillState struct{ removed, kept, missing int }

// uninstallSkills plans the removal of the skill files unchanged since install (with no
// record: those identical to ours); an edited one stays and is reported.
func (p *plan) uninstallSkills() error {
	sums := map[string]string{} // file → the hash that makes it ours
	if p.rec != nil {
		sums = p.rec.Skills
	} else if skills, err := p.o.listSkills(); err == nil {
		for _, sk := range skills { // no record: the files identical to ours
			for _, f := range sk.files {
				sums[filepath.Join(p.o.ClaudeDir, "skills", sk.name, filepath.FromSlash(f.rel))] = hash(f.data)
			}
		}
	}
	skillDirs := map[string]*skillState{}
	for path, sum := range sums {
		if !p.inSkills(filepath.Dir(path)) {
			continue // not where install writes skills: a record a repository wrote
		}
		st := skillDirs[filepath.Dir(path)]
		if st == nil {
			st = &skillState{}
			skillDirs[filepath.Dir(path)] = st
		}
		have, err := readLimited(path, settingsMax)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			st.missing++
		case err == nil && hash(have) == sum:
			p.removeFiles = append(p.removeFiles, path)
			st.removed++
		default:
			st.kept++
		}
	}
	for d := range skillDirs {
		p.skillDirs = append(p.skillDirs, d)
	}
	slices.Sort(p.skillDirs)
	for _, d := range p.skillDirs {
		st := skillDirs[d]
		item := "skill /" + filepath.Base(d)
		switch {
		case st.kept > 0:
			p.res.add(item, Kept, "%s was edited since install: remove it yourself if you no longer want it", d)
		case st.removed > 0:
			p.res.add(item, Removed, "%s", d)
		default:
			p.res.add(item, NotFound, "%s", d)
		}
	}
	return nil
}

type skillFile struct {
	rel  string
	data []byte
}

type skill struct {
	name  string
	files []skillFile
}

// listSkills returns the skills to install, each file as it is written: naming o.Bin (see
// skills.ForBinary), so that the installed skills run this binary whatever PATH says.
func (o Options) listSkills() ([]skill, error) {
	sks, err := listSkills(o.Skills)
	if err != nil || o.Bin == "" {
		return sks, err
	}
	word := skills.Word(o.Bin, o.GOOS == "windows")
	for i := range sks {
		for j := range sks[i].files {
			sks[i].files[j].data = skills.ForBinary(sks[i].files[j].data, word)
		}
	}
	return sks, nil
}

// listSkills returns every top-level dir of fsys that holds SKILL.md, with all its files.
func listSkills(fsys fs.FS) ([]skill, error) {
	if fsys == nil {
		return nil, nil
	}
	ents, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, fmt.Errorf("zoneline: reading the embedded skills: %v", err)
	}
	var out []skill
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		if _, err := fs.Stat(fsys, path.Join(e.Name(), skillMarker)); err != nil {
			continue
		}
		files, err := readTree(fsys, e.Name())
		if err != nil {
			return nil, fmt.Errorf("zoneline: reading the embedded skill %s: %v", e.Name(), err)
		}
		out = append(out, skill{name: e.Name(), files: files})
	}
	return out, nil
}

// readTree returns every file below root in fsys, named relative to root.
func readTree(fsys fs.FS, root string) ([]skillFile, error) {
	var files []skillFile
	err := fs.WalkDir(fsys, root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(fsys, p)
		files = append(files, skillFile{rel: strings.TrimPrefix(p, root+"/"), data: data})
		return err
	})
	return files, err
}

func hash(b []byte) string {
	// Only "did the user edit it since?", not security: FNV keeps crypto (and its package
	// inits) out of the one zoneline binary that also runs the statusline.
	h := fnv.New128a()
	h.Write(b)
	return "fnv128a:" + hex.EncodeToString(h.Sum(nil))
}
