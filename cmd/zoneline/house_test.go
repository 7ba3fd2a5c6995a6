package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/zoneline/zoneline/internal/procbench"
)

// The house's size limits (CONTRIBUTING.md): a production function a reader takes in at once,
// and a file named for one concern.
const (
	maxFuncLines = 120
	maxFileLines = 700
)

// productionFiles parses every non-test Go file of the module (e2e and bench are test harnesses,
// testdata is data) and calls fn for each.
func productionFiles(t *testing.T, fn func(path string, fset *token.FileSet, f *ast.File, lines int)) int {
	t.Helper()
	root := filepath.Join("..", "..")
	n := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch name := d.Name(); {
			case path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "e2e" || name == "bench" || name == "node_modules"):
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, data, 0)
		if err != nil {
			return err
		}
		n++
		fn(strings.TrimPrefix(filepath.ToSlash(path), "../../"), fset, f, strings.Count(string(data), "\n"))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 50 {
		t.Fatalf("only %d files read: the walk no longer sees the module", n)
	}
	return n
}

// TestHouseSizes: no production function over maxFuncLines lines and no production file over
// maxFileLines: a longer one is split by concern (one function per section, one file per idea).
func TestHouseSizes(t *testing.T) {
	productionFiles(t, func(path string, fset *token.FileSet, f *ast.File, lines int) {
		if lines > maxFileLines {
			t.Errorf("%s has %d lines (at most %d): split it by concern", path, lines, maxFileLines)
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			if n := fset.Position(fd.End()).Line - fset.Position(fd.Pos()).Line + 1; n > maxFuncLines {
				t.Errorf("%s: %s has %d lines (at most %d)", path, fd.Name.Name, n, maxFuncLines)
			}
		}
	})
}

// hotRooms are the packages on the statusline's and the hooks' path (ARCHITECTURE.md, "Rooms"),
// and what none of them may import.
var (
	hotRooms  = []string{"pipeline", "hookevent", "statusline"}
	hotBanned = map[string]string{
		"flag":                             "flags are cli's",
		"os/exec":                          "no program is started from the hot path (notify and gitcache start theirs detached)",
		"github.com/zoneline/zoneline/cli": "cli imports the hot rooms, not the other way",
		"regexp":                           "the hot path links no regexp",
		"text/template":                    "the hot path links no text/template",
		"encoding/json":                    "the hot path decodes and encodes with internal/jsonscan",
	}
)

// TestHotRoomImports: the hot rooms import none of hotBanned and read no environment of their
// own (it comes in their Context).
func TestHotRoomImports(t *testing.T) {
	seen := map[string]bool{}
	productionFiles(t, func(path string, fset *token.FileSet, f *ast.File, lines int) {
		room := filepath.Dir(path)
		hot := false
		for _, r := range hotRooms {
			hot = hot || room == r
		}
		if !hot {
			return
		}
		seen[room] = true
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			if why, bad := hotBanned[p]; bad {
				t.Errorf("%s imports %s: %s", path, p, why)
			}
		}
		ast.Inspect(f, func(x ast.Node) bool {
			if sel, ok := x.(*ast.SelectorExpr); ok {
				if id, ok := sel.X.(*ast.Ident); ok && id.Name == "os" {
					switch sel.Sel.Name {
					case "Getenv", "LookupEnv", "Environ", "Args":
						t.Errorf("%s reads os.%s: the environment comes in the Context", path, sel.Sel.Name)
					}
				}
			}
			return true
		})
	})
	for _, r := range hotRooms {
		if !seen[r] {
			t.Errorf("no file of %s read", r)
		}
	}
}

// TestNoMapsAtInit: no zoneline package builds a map when the process starts (a map literal at
// package level is built by a generated init, map.init.N, in every render): tables are slices
// or switches. Read from the linked binary's symbols.
func TestNoMapsAtInit(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := procbench.BuildWithSymbols(t, "./cmd/zoneline")
	out, err := exec.Command("go", "tool", "nm", bin).Output()
	if err != nil {
		t.Fatalf("go tool nm: %v", err)
	}
	for _, line := range strings.Split(string(out), "\n") {
		if strings.Contains(line, "github.com/zoneline/zoneline/") && strings.Contains(line, ".map.init.") {
			t.Errorf("a map built at init: %s", strings.TrimSpace(line))
		}
	}
}
