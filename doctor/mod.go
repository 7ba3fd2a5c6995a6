package doctor

import (
	"cmp"
	"os"

	"github.com/zoneline/zoneline/install"
)

// Mod reports zoneline's Claude Code mod: installed (and the binary it runs), or not (Info:
// the mod is optional).
func Mod(claudeDir, self string) Result {
	dir := install.ModDir(claudeDir)
	if !install.IsModDir(dir) {
		return Result{Name: "mod", Status: Info, Detail: "not installed (optional: a zone row above the prompt, zoneline's keep-list on every compaction)", Fix: "run: zoneline install -mod"}
	}
	bin := install.ModBinary(dir)
	if fi, err := os.Stat(bin); bin == "" || err != nil || fi.IsDir() {
		return Result{Name: "mod", Status: Fail, Detail: "installed in " + dir + ", but the binary it runs (" + cmp.Or(bin, "unknown") + ") is missing", Fix: "run: zoneline install -mod"}
	}
	if self != "" && !sameFile(bin, self) {
		return Result{Name: "mod", Status: Warn, Detail: "installed in " + dir + ", running " + bin + ", not this zoneline (" + self + ")", Fix: "run: zoneline install -mod"}
	}
	return Result{Name: "mod", Status: OK, Detail: "installed in " + dir + " (loads as zoneline-mod@skills-dir)"}
}
