package cli

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// helpScript is testdata/script/help.txtar, written from the command table: for every command,
// -h, --help and `zoneline help <cmd>` print the same usage on stdout (its synopsis and each of
// its flags), nothing on stderr, and exit 0, with a config that does not parse (so nothing is
// loaded before the command line is answered).
func helpScript() string {
	var b strings.Builder
	b.WriteString("# Written by TestHelpScriptCoversTable from the command table (cli.go): do not edit,\n")
	b.WriteString("# run 'go test ./cli -run TestHelpScriptCoversTable -update' after adding a command.\n")
	b.WriteString("# Every command answers -h, --help and 'zoneline help <cmd>' with its usage on stdout\n")
	b.WriteString("# and exit 0, before it loads anything: the config here does not parse.\n\n")
	for _, c := range commands {
		n := c.Name
		b.WriteString("# " + n + "\n")
		b.WriteString("exec zoneline " + n + " -h\n")
		b.WriteString("stdout '^usage: zoneline " + n + "'\n")
		b.WriteString("! stderr .\n")
		b.WriteString("! stdout 'FlagSet|parse[A-Z]'\n") // no developer's note in the help
		fs := flag.NewFlagSet(n, flag.ContinueOnError)
		c.Parse(&Env{Getenv: func(string) string { return "" }}, fs)
		fs.VisitAll(func(f *flag.Flag) {
			// Each flag in the synopsis (generated from the flag set) and in the flag list.
			b.WriteString("stdout '^usage: zoneline " + n + " .*-" + f.Name + "\\b'\n")
			b.WriteString("stdout '^  -" + f.Name + "\\b'\n")
		})
		b.WriteString("cp stdout help-" + n + ".txt\n")
		b.WriteString("exec zoneline " + n + " --help\n")
		b.WriteString("cmp stdout help-" + n + ".txt\n")
		b.WriteString("! stderr .\n")
		b.WriteString("exec zoneline help " + n + "\n")
		b.WriteString("cmp stdout help-" + n + ".txt\n")
		b.WriteString("! stderr .\n\n")
	}
	b.WriteString(`# The list itself, with every command's synopsis, and what is not a command.
exec zoneline help
stdout '^usage: zoneline <command>'
stdout '^ +zoneline install .*\[-bin BIN\].*\[-mod\]'
# -v, -version and --version are the version command.
exec zoneline version
stdout '^zoneline '
cp stdout version.txt
exec zoneline -v
cmp stdout version.txt
exec zoneline --version
cmp stdout version.txt
exec zoneline -version
cmp stdout version.txt
! exec zoneline help nosuch
stderr 'unknown command "nosuch"'
! exec zoneline
stderr '^usage: zoneline <command>'

-- config.toml --
this is = = not toml
`)
	return b.String()
}

// TestHelpScriptCoversTable holds help.txtar to the command table, so a new command cannot
// skip it. Rewrite it with: go test ./cli -run TestHelpScriptCoversTable -update
func TestHelpScriptCoversTable(t *testing.T) {
	path := filepath.Join("testdata", "script", "help.txtar")
	want := helpScript()
	if *update {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(path)
	if err != nil || string(got) != want {
		t.Errorf("%s is not the command table's (err %v): run go test ./cli -run TestHelpScriptCoversTable -update", path, err)
	}
}

// TestFlagNames: a flag's text names its argument with backquotes only on purpose (flag's
// UnquoteUsage takes a `quoted` word for the argument's name): one word, not a phrase such as
// "zoneline sessions" (compact-flow's -pane showed "-pane zoneline sessions").
func TestFlagNames(t *testing.T) {
	for _, c := range commands {
		fs := flag.NewFlagSet(c.Name, flag.ContinueOnError)
		c.Parse(&Env{Getenv: func(string) string { return "" }}, fs)
		fs.VisitAll(func(f *flag.Flag) {
			name, _ := flag.UnquoteUsage(f)
			if strings.ContainsAny(name, " \t'") {
				t.Errorf("%s -%s: its usage names the argument %q", c.Name, f.Name, name)
			}
		})
	}
}

// TestUsageLinesFromFlags: a synopsis lists every flag of its command and no other (issue 25:
// "zoneline help" omitted install's -mod and -bin), and the list's lines name no flag: a flag
// is in one place, its flag set.
func TestUsageLinesFromFlags(t *testing.T) {
	e := &Env{Getenv: func(string) string { return "" }}
	for _, c := range commands {
		fs := e.flagSet(c)
		var flags []string
		fs.VisitAll(func(f *flag.Flag) { flags = append(flags, f.Name) })
		for _, n := range namedFlags(c.UsageLine) {
			if fs.Lookup(n) == nil {
				t.Errorf("%s: UsageLine %q names -%s, not one of its flags %v", c.Name, c.UsageLine, n, flags)
			}
		}
		line := usageLine(c, fs)
		got := namedFlags(line)
		if !slices.Equal(slices.Sorted(slices.Values(got)), flags) || strings.Contains(line, "[flags]") {
			t.Errorf("%s: synopsis %q lists %v, its flags are %v", c.Name, line, got, flags)
		}
		if n := namedFlags(c.Short); len(n) > 0 {
			t.Errorf("%s: Short %q names flags %v: they belong to the synopsis", c.Name, c.Short, n)
		}
	}
	install := usageLine(cmdInstall, e.flagSet(cmdInstall))
	if !strings.Contains(install, "[-mod]") || !strings.Contains(install, "[-bin BIN]") {
		t.Errorf("install's synopsis %q", install)
	}
}

// TestHelpTable: every command has its synopsis, starting with its name, and a line for the list.
func TestHelpTable(t *testing.T) {
	for _, c := range commands {
		if !strings.HasPrefix(c.UsageLine, c.Name) || c.Short == "" || c.Parse == nil {
			t.Errorf("%s: UsageLine %q, Short %q, Parse set %v", c.Name, c.UsageLine, c.Short, c.Parse != nil)
		}
	}
}

// TestUsageErrors: a wrong command line exits 2 with the command's usage on stderr and nothing
// on stdout, for the person-run commands; the statusline renders whatever its arguments.
func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"config"}, {"config", "nosuch"}, {"config", "check", "-force"}, {"checkpoint"},
		{"checkpoint", "show", "-timeout", "1s"}, {"checkpoint", "nosuch"}, {"sessions", "extra"},
		{"sessions", "-since", "0s"}, {"watch", "-interval", "0s"}, {"compact-flow"}, {"notify"},
		{"tune", "-lead", "0"}, {"doctor", "extra"}, {"version", "extra"}, {"install", "-nosuch"},
		{"uninstall", "-project", "-purge"},
	} {
		e, out, errb := testEnv(t, nil, nil)
		if code := e.Run(args); code != exitUsage {
			t.Errorf("%q: exit %d, want %d (stderr %q)", args, code, exitUsage, errb)
		}
		if !strings.Contains(errb.String(), "usage: zoneline "+args[0]) {
			t.Errorf("%q: no usage on stderr: %q", args, errb)
		}
		if out.Len() != 0 {
			t.Errorf("%q: stdout %q", args, out)
		}
	}
}

// TestHelpBeforePaths: -h answers even where the environment gives no config or state path.
func TestHelpBeforePaths(t *testing.T) {
	e, out, _ := testEnv(t, nil, nil)
	e.Paths.Config, e.Paths.StateDir = "", ""
	if code := e.Run([]string{"sessions", "-h"}); code != exitOK || !bytes.HasPrefix(out.Bytes(), []byte("usage: zoneline sessions")) {
		t.Errorf("sessions -h without paths: exit %d, %q", code, out)
	}
}
