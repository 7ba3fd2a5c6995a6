package shellwords

import (
	"reflect"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in                        string
		keep                      bool // ParseKeepBackslash
		words                     [][]string
		ops                       []string
		expands, compound, broken bool
		splits, cut, comment      bool
		redirects                 []Redirect // of the first command
	}{
		{in: "git log --oneline -5", words: [][]string{{"git", "log", "--oneline", "-5"}}},
		{in: `cat 'a b' "c d" e\ f`, words: [][]string{{"cat", "a b", "c d", "e f"}}},
		{in: `echo "a \"q\" \$x"`, words: [][]string{{"echo", `a "q" $x`}}},
		{in: "cd web&&npm test|tail -3", words: [][]string{{"cd", "web"}, {"npm", "test"}, {"tail", "-3"}}, ops: []string{"&&", "|"}},
		{in: "a; b\nc & d || e", words: [][]string{{"a"}, {"b"}, {"c"}, {"d"}, {"e"}}, ops: []string{";", "\n", "&", "||"}},
		{in: "go test 2>&1 >/dev/null", words: [][]string{{"go", "test"}}, redirects: []Redirect{{"2", ">&", "1"}, {"", ">", "/dev/null"}}},
		{in: "ls &>out", words: [][]string{{"ls"}}, redirects: []Redirect{{"", "&>", "out"}}},
		{in: "ls>out", words: [][]string{{"ls"}}, redirects: []Redirect{{"", ">", "out"}}},
		{in: "echo 1&>out", words: [][]string{{"echo", "1"}}, redirects: []Redirect{{"", "&>", "out"}}},
		// A parenthesis ends a simple command: a substitution's or a subshell's commands read
		// as commands of their own.
		{in: "echo $(id)", words: [][]string{{"echo", "$"}, {"id"}}, expands: true, splits: true, compound: true},
		{in: "echo `id`", words: [][]string{{"echo", "`id`"}}, expands: true, splits: true},
		{in: `echo "$HOME"`, words: [][]string{{"echo", "$HOME"}}, expands: true},
		{in: "echo '$HOME'", words: [][]string{{"echo", "$HOME"}}},
		{in: "diff <(a) b", expands: true, compound: true, words: [][]string{{"diff"}, {"a"}, {"b"}}},
		{in: "{ ls; }", words: [][]string{{"{", "ls"}, {"}"}}, ops: []string{";"}, compound: true},
		{in: "cat <<EOF", words: [][]string{{"cat"}}, compound: true, redirects: []Redirect{{"", "<<", "EOF"}}},
		{in: "echo 'open", words: [][]string{{"echo", "open"}}, broken: true},
		{in: `git push\`, words: [][]string{{"git", `push\`}}, broken: true},
		{in: "ls # rm -rf /", words: [][]string{{"ls"}}, comment: true},
		{in: "a#b", words: [][]string{{"a#b"}}},

		// What the transcript's evidence reader splits (commands it recognises as actions).
		{in: `git push -u origin feat/x`, words: [][]string{{"git", "push", "-u", "origin", "feat/x"}}},
		{in: `cd a && git push || echo "no; really"`, words: [][]string{{"cd", "a"}, {"git", "push"}, {"echo", "no; really"}}, ops: []string{"&&", "||"}},
		{in: "git commit -m \"$(cat <<'EOF'\nline; git push\nEOF\n)\" && git push", words: [][]string{{"git", "commit", "-m", "$(cat <<'EOF'\nline; git push\nEOF\n)"}, {"git", "push"}}, ops: []string{"&&"}, expands: true},
		{in: "cat <<EOF > f\ngit push origin x\nEOF\nls", words: [][]string{{"cat"}, {"ls"}}, ops: []string{"\n"}, compound: true, redirects: []Redirect{{"", "<<", "EOF"}, {"", ">", "f"}}},
		{in: "cat <<-'END'\n\tgit push\n\tEND\nls", words: [][]string{{"cat"}, {"ls"}}, ops: []string{"\n"}, compound: true, redirects: []Redirect{{"", "<<-", "END"}}},
		{in: "cat <<A <<B\na\nA\nb\nB\nls", words: [][]string{{"cat"}, {"ls"}}, ops: []string{"\n"}, compound: true},
		{in: "cat <<EOF\ngit push", words: [][]string{{"cat"}}, ops: []string{"\n"}, compound: true},
		{in: `make 2>&1 | tee log; x >/dev/null 2> err`, words: [][]string{{"make"}, {"tee", "log"}, {"x"}}, ops: []string{"|", ";"}},
		{in: `a&>f b`, words: [][]string{{"a", "b"}}},
		{in: `echo 'it''s' "a\"b" c\ d # git push`, words: [][]string{{"echo", "its", `a"b`, "c d"}}, comment: true},
		{in: "git push \\\n  origin main", words: [][]string{{"git", "push", "origin", "main"}}},
		{in: `(cd x; git push) & wait`, words: [][]string{{"cd", "x"}, {"git", "push"}, {"wait"}}, ops: []string{";", "&"}, compound: true},
		{in: `x<<<"git push"`, words: [][]string{{"x"}}, compound: true, redirects: []Redirect{{"", "<<<", "git push"}}},

		// What install reads in settings.json (its own command lines, IsOurs).
		{in: `C:\Users\a\zoneline.EXE hook`, keep: true, words: [][]string{{`C:\Users\a\zoneline.EXE`, "hook"}}},
		{in: `C:\Users\a\zoneline.EXE hook`, words: [][]string{{`C:Usersazoneline.EXE`, "hook"}}},
		{in: `/home/a\ b/bin/zoneline hook`, keep: true, words: [][]string{{"/home/a b/bin/zoneline", "hook"}}},
		{in: `'/home/it'\''s/zoneline' hook`, keep: true, words: [][]string{{"/home/it's/zoneline", "hook"}}},
		{in: `zoneline statusline -wrap "a\qb"`, keep: true, words: [][]string{{"zoneline", "statusline", "-wrap", `a\qb`}}},
		{in: `zoneline statusline -wrap "printf \"%s\\n\" \$HOME"`, keep: true, words: [][]string{{"zoneline", "statusline", "-wrap", `printf "%s\n" $HOME`}}},
		{in: "zoneline statusline -wrap \"long \\\nline\"", keep: true, words: [][]string{{"zoneline", "statusline", "-wrap", "long line"}}},
		{in: `zoneline statusline -wrap 'single \"kept\"'`, keep: true, words: [][]string{{"zoneline", "statusline", "-wrap", `single \"kept\"`}}},
		{in: "zoneline statusline -wrap \"$(x)\"", keep: true, words: [][]string{{"zoneline", "statusline", "-wrap", "$(x)"}}, expands: true},
		{in: "zoneline statusline -wrap $(evil)", keep: true, words: [][]string{{"zoneline", "statusline", "-wrap", "$"}, {"evil"}}, expands: true, splits: true, compound: true},
		{in: "zoneline statusline -segments=zone&&ccstatusline", keep: true, words: [][]string{{"zoneline", "statusline", "-segments=zone"}, {"ccstatusline"}}, ops: []string{"&&"}},

		// Bounds: a pasted script costs bounded work.
		{in: strings.Repeat("a;", MaxCommands+10), words: repeat([]string{"a"}, MaxCommands), ops: strings.Split(strings.Repeat(";", MaxCommands), ""), cut: true},
		{in: "git add" + strings.Repeat(" f", MaxWords) + " && git push", words: [][]string{append([]string{"git", "add"}, strings.Split(strings.Repeat("f", MaxWords-2), "")...), {"git", "push"}}, ops: []string{"&&"}, cut: true},
	} {
		l := Parse(tc.in)
		if tc.keep {
			l = ParseKeepBackslash(tc.in)
		}
		var words [][]string
		for _, c := range l.Commands {
			words = append(words, c.Words)
		}
		if !reflect.DeepEqual(words, tc.words) || !reflect.DeepEqual(l.Ops, tc.ops) || l.Expands != tc.expands || l.Compound != tc.compound || l.Broken != tc.broken || l.Splits != tc.splits || l.Cut != tc.cut || l.Comment != tc.comment {
			t.Errorf("Parse(%q) = words %q ops %q expands %v compound %v broken %v splits %v cut %v comment %v", tc.in, words, l.Ops, l.Expands, l.Compound, l.Broken, l.Splits, l.Cut, l.Comment)
			continue
		}
		if l.Sure() != (!tc.expands && !tc.compound && !tc.broken && !tc.cut) {
			t.Errorf("Parse(%q).Sure() = %v", tc.in, l.Sure())
		}
		if tc.redirects != nil && !reflect.DeepEqual(l.Commands[0].Redirects, tc.redirects) {
			t.Errorf("Parse(%q) redirects %q, want %q", tc.in, l.Commands[0].Redirects, tc.redirects)
		}
	}
}

func repeat(w []string, n int) [][]string {
	out := make([][]string, n)
	for i := range out {
		out[i] = w
	}
	return out
}

// FuzzParse: whatever the line, Parse and ParseKeepBackslash end without a panic and keep
// their bounds.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"git push", "cat <<-E\n\tx\n\tE\nls", "a\\", "echo \"$(x)\" 'y' `z` >&2 | b && (c; d)", strings.Repeat("a b;", 100)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, l := range []Line{Parse(s), ParseKeepBackslash(s)} {
			if len(l.Commands) > MaxCommands || len(l.Ops) > MaxCommands {
				t.Fatalf("%q: %d commands, %d ops", s, len(l.Commands), len(l.Ops))
			}
			for _, c := range l.Commands {
				if len(c.Words) > MaxWords || len(c.Redirects) > MaxWords || len(c.Words) != len(c.Quoted) {
					t.Fatalf("%q: %d words, %d redirections", s, len(c.Words), len(c.Redirects))
				}
			}
		}
	})
}
