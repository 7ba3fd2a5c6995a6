package cli

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain lets the script tests run zoneline as a real process: `exec zoneline …`.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"zoneline": func() { os.Exit(Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
	})
}

// TestScripts runs testdata/script/*.txtar with config, state and Claude's folder in $WORK.
// Update the golden output in place with: go test ./cli -run TestScripts -update
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 filepath.Join("testdata", "script"),
		RequireExplicitExec: true,
		UpdateScripts:       *update,
		Setup: func(env *testscript.Env) error {
			work := env.Getenv("WORK")
			env.Setenv("HOME", filepath.Join(work, "home"))
			env.Setenv("ZONELINE_CONFIG", filepath.Join(work, "config.toml"))
			env.Setenv("ZONELINE_STATE_DIR", filepath.Join(work, "state"))
			env.Setenv("CLAUDE_CONFIG_DIR", filepath.Join(work, "claude"))
			// Run as Claude Code runs zoneline (a hand render keeps no state, see
			// pipeline.Context.Live); a script about hand renders unsets it.
			env.Setenv("CLAUDECODE", "1")
			env.Setenv("NO_COLOR", "1")
			env.Setenv("COLUMNS", "200")
			return nil
		},
	})
}
