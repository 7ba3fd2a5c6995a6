package install

import (
	"os"
	"path/filepath"
	"strings"
)

// PluginHomeBins are where the plugin's hooks/run looks for zoneline after PATH, in this
// order, each under HOME: install.sh's and npx's ~/.local/bin, go install's ~/go/bin. hooks/run
// spells the same list (TestPluginRunnerList holds them equal); doctor asks PluginBinary.
var PluginHomeBins = []string{".local/bin/zoneline", "go/bin/zoneline"}

// BinaryHint says how to get the zoneline binary, one route a line: hooks/run prints it when it
// finds none (TestPluginRunnerList holds its copy equal), doctor and install name it.
const BinaryHint = `  npm i -g zoneline                      (or: npx -y zoneline install)
  a release archive (zoneline_<version>_<os>_<arch>.tar.gz): put zoneline and zoneline-notify on PATH
  go install github.com/zoneline/zoneline/cmd/zoneline@latest github.com/zoneline/zoneline/cmd/zoneline-notify@latest
  ./install.sh --no-register              (from a clone)`

// PluginBinary returns the zoneline the plugin's hooks/run runs, "" when it finds none: the
// first executable file named zoneline in an absolute PATH entry, then in PluginHomeBins under
// an absolute HOME. An empty, "." or relative entry names the directory Claude Code runs in,
// the project, and never counts (nor does a relative HOME). getenv reads PATH and HOME.
func PluginBinary(getenv func(string) string) string {
	for _, d := range strings.Split(getenv("PATH"), string(os.PathListSeparator)) {
		if filepath.IsAbs(d) && isExecutableFile(filepath.Join(d, binaryName)) {
			return filepath.Join(d, binaryName)
		}
	}
	if home := getenv("HOME"); filepath.IsAbs(home) {
		for _, rel := range PluginHomeBins {
			if p := filepath.Join(home, filepath.FromSlash(rel)); isExecutableFile(p) {
				return p
			}
		}
	}
	return ""
}

func isExecutableFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0
}
