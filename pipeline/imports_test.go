package pipeline

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestImports holds the pipeline to its room (ARCHITECTURE.md, "Rooms"): it is handed its
// Context and never reads flags or the process's environment (os.Getenv and the like), never
// starts a program (the git refresher and the notifier are started by cli and notify), and
// knows nothing of the command line.
func TestImports(t *testing.T) {
	files, _ := filepath.Glob("*.go")
	banned := map[string]string{
		"flag":                             "flags are cli's",
		"os/exec":                          "no program is started from a render",
		"github.com/zoneline/zoneline/cli": "cli imports the pipeline, not the other way",
		"regexp":                           "the hot path links no regexp",
		"text/template":                    "the hot path links no text/template",
		"encoding/json":                    "the hot path decodes with internal/jsonscan",
	}
	n := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(token.NewFileSet(), f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		n++
		ast.Inspect(af, func(x ast.Node) bool {
			if sel, ok := x.(*ast.SelectorExpr); ok {
				if id, ok := sel.X.(*ast.Ident); ok && id.Name == "os" {
					switch sel.Sel.Name {
					case "Getenv", "LookupEnv", "Environ", "Args":
						t.Errorf("%s reads os.%s: the environment comes in the Context", f, sel.Sel.Name)
					}
				}
			}
			return true
		})
		for _, im := range af.Imports {
			path, _ := strconv.Unquote(im.Path.Value)
			if why, bad := banned[path]; bad {
				t.Errorf("%s imports %s: %s", f, path, why)
			}
		}
	}
	if n == 0 {
		t.Fatal("no files read")
	}
}
