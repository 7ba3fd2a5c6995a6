package shellwords

import (
	"reflect"
	"testing"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in                        string
		words                     [][]string
		ops                       []string
		expands, compound, broken bool
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
		{in: "echo $(id)", words: [][]string{{"echo", "$", "id"}}, expands: true, compound: true},
		{in: "echo `id`", words: [][]string{{"echo", "`id`"}}, expands: true},
		{in: `echo "$HOME"`, words: [][]string{{"echo", "$HOME"}}, expands: true},
		{in: "echo '$HOME'", words: [][]string{{"echo", "$HOME"}}},
		{in: "diff <(a) b", expands: true, compound: true, words: [][]string{{"diff", "b"}}, redirects: []Redirect{{"", "<", "a"}}},
		{in: "{ ls; }", words: [][]string{{"{", "ls"}, {"}"}}, ops: []string{";"}, compound: true},
		{in: "cat <<EOF", words: [][]string{{"cat"}}, compound: true, redirects: []Redirect{{"", "<<", "EOF"}}},
		{in: "echo 'open", words: [][]string{{"echo", "open"}}, broken: true},
		{in: "ls # rm -rf /", words: [][]string{{"ls"}}},
		{in: "a#b", words: [][]string{{"a#b"}}},
	} {
		l := Parse(tc.in)
		var words [][]string
		for _, c := range l.Commands {
			words = append(words, c.Words)
		}
		if !reflect.DeepEqual(words, tc.words) || !reflect.DeepEqual(l.Ops, tc.ops) || l.Expands != tc.expands || l.Compound != tc.compound || l.Broken != tc.broken {
			t.Errorf("Parse(%q) = words %q ops %q expands %v compound %v broken %v", tc.in, words, l.Ops, l.Expands, l.Compound, l.Broken)
			continue
		}
		if tc.redirects != nil && !reflect.DeepEqual(l.Commands[0].Redirects, tc.redirects) {
			t.Errorf("Parse(%q) redirects %q, want %q", tc.in, l.Commands[0].Redirects, tc.redirects)
		}
	}
}
