package transcript

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/zoneline/zoneline/internal/testtmp"
)

func scanFile(t *testing.T, path string) Evidence {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var s EvidenceScanner
	for line := range bytes.Lines(b) {
		s.Add(line)
	}
	return s.Evidence()
}

func TestEvidenceFixture(t *testing.T) {
	ev := scanFile(t, "testdata/evidence/session.jsonl")
	var skills []string
	for _, k := range ev.Skills {
		skills = append(skills, k.Name+" | "+k.UUID+" | "+k.Body)
	}
	wantSkills := []string{
		"compact-prep | 00000000-0000-4000-8000-000000000002 | # Compact prep\n\nWrite the checkpoint before you compact.\n",
		"superpowers:brainstorming | 00000000-0000-4000-8000-000000000004 | # Brainstorming\n\nAsk one question at a time.\n",
	}
	if !reflect.DeepEqual(skills, wantSkills) {
		t.Errorf("skills:\n%q\nwant\n%q", skills, wantSkills)
	}
	var acts []string
	for _, a := range ev.Actions {
		acts = append(acts, a.Kind+" "+a.ID+" ["+a.Verb+"] "+a.Command)
	}
	want := []string{
		"push feat/x [] git push -u origin feat/x",
		"push feat/y [] cd sub && git push",
		`pr https://github.com/o/r/pull/42 [created] gh pr create --title "Add x" --body "$(cat <<'EOF' Summary EOF )"`,
		"tag v1.2.0 [] git tag v1.2.0 && git push origin v1.2.0",
		"push v1.2.0 [] git tag v1.2.0 && git push origin v1.2.0",
		"pr https://github.com/o/r/pull/7 [merged] gh pr merge 7 --squash",
		"issue https://github.com/o/r/issues/9 [created] gh issue create -t bug -b body",
		"deploy fly deploy [fly deploy] FLY_APP=web fly deploy --remote-only",
	}
	if !reflect.DeepEqual(acts, want) {
		t.Errorf("actions:\n%s\nwant\n%s", strings.Join(acts, "\n"), strings.Join(want, "\n"))
	}
	for _, a := range ev.Actions {
		if a.UUID == "" {
			t.Errorf("%s %s: no UUID", a.Kind, a.ID)
		}
	}
	if ev.SkillsDropped+ev.ActionsDropped+ev.CallsDropped != 0 {
		t.Errorf("dropped: %+v", ev)
	}
}

func TestEvidenceReset(t *testing.T) {
	b, err := os.ReadFile("testdata/evidence/session.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(b, []byte("\n"))
	var s EvidenceScanner
	for i, line := range lines {
		if i == 6 { // after the two skills, before the pushes
			s.Reset()
		}
		s.Add(line)
	}
	ev := s.Evidence()
	if len(ev.Skills) != 0 || len(ev.Actions) != 8 {
		t.Errorf("after Reset: %d skills, %d actions; want 0, 8", len(ev.Skills), len(ev.Actions))
	}
	s.Reset()
	if ev := s.Evidence(); !ev.Empty() {
		t.Errorf("Reset left %+v", ev)
	}
}

// rec builds a JSONL record for the small tests below.
func rec(typ, uuid, content string, extra string) []byte {
	return []byte(fmt.Sprintf(`{"type":%q,"uuid":%q,"message":{"role":%q,"content":%s}%s}`, typ, uuid, typ, content, extra))
}

func TestEvidenceInvokedAndFallbacks(t *testing.T) {
	var s EvidenceScanner
	// a restored skill, after a compaction
	s.Add([]byte(`{"type":"attachment","uuid":"u1","attachment":{"type":"invoked_skills","skills":[{"name":"jx:insights","path":"plugin:jx:insights","content":"Extract insights."}]}}`))
	// a skill body with no load seen: named by its directory
	s.Add(rec("user", "u2", `[{"type":"text","text":"Base directory for this skill: /h/.claude/skills/goal/\n\n# Goal"}]`, `,"isMeta":true`))
	// a slash command that is not a skill, then a prompt: no load
	s.Add(rec("user", "u3", `"<command-message>model</command-message>\n<command-name>/model</command-name>"`, ""))
	s.Add(rec("user", "u4", `"go on"`, ""))
	s.Add(rec("user", "u5", `[{"type":"text","text":"Base directory for this skill: C:\\s\\skills\\win\n\nbody"}]`, `,"isMeta":true`))
	// a push without a refspec whose result names no ref: the record's branch
	s.Add(rec("assistant", "u6", `[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"git push"}}]`, `,"gitBranch":"main"`))
	s.Add(rec("user", "u7", `[{"type":"tool_result","tool_use_id":"t1","content":"Everything up-to-date"}]`, ""))
	// a subagent's skill: not the session's
	s.Add(rec("user", "u8", `[{"type":"text","text":"Base directory for this skill: /x/side\n\nb"}]`, `,"isMeta":true,"isSidechain":true`))
	ev := s.Evidence()
	var got []string
	for _, k := range ev.Skills {
		got = append(got, fmt.Sprintf("%s %s %v %q", k.Name, k.UUID, k.Restored, k.Body))
	}
	want := []string{`jx:insights u1 true "Extract insights."`, `goal u2 false "# Goal"`, `win u5 false "body"`}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("skills %q, want %q", got, want)
	}
	if len(ev.Actions) != 1 || ev.Actions[0].ID != "main" || ev.Actions[0].UUID != "u6" {
		t.Errorf("actions %+v, want the push of main", ev.Actions)
	}
}

func TestEvidenceBounds(t *testing.T) {
	var s EvidenceScanner
	for i := range MaxEvidenceSkills + 5 {
		s.Add(rec("user", fmt.Sprint("c", i), fmt.Sprintf(`"<command-name>/s%d</command-name>"`, i), ""))
		s.Add(rec("user", fmt.Sprint("m", i), `[{"type":"text","text":"Base directory for this skill: /s\n\n`+strings.Repeat("x", MaxSkillBody+10)+`"}]`, `,"isMeta":true`))
	}
	for i := range maxPendingCalls + 3 { // calls whose results never come
		s.Add(rec("assistant", fmt.Sprint("a", i), fmt.Sprintf(`[{"type":"tool_use","id":"p%d","name":"Bash","input":{"command":"git push origin b%d"}}]`, i, i), ""))
	}
	for i := range 2*MaxEvidenceActions + 7 {
		s.Add(rec("assistant", fmt.Sprint("b", i), fmt.Sprintf(`[{"type":"tool_use","id":"q%d","name":"Bash","input":{"command":"git push origin b%d"}}]`, i, i), ""))
		s.Add(rec("user", fmt.Sprint("r", i), fmt.Sprintf(`[{"type":"tool_result","tool_use_id":"q%d","content":"ok"}]`, i), ""))
	}
	ev := s.Evidence()
	if len(ev.Skills) != MaxEvidenceSkills || ev.SkillsDropped != 5 {
		t.Errorf("skills %d dropped %d", len(ev.Skills), ev.SkillsDropped)
	}
	if k := ev.Skills[0]; len(k.Body) != MaxSkillBody || !k.BodyCut {
		t.Errorf("body %d bytes, cut %v", len(k.Body), k.BodyCut)
	}
	if len(ev.Actions) != MaxEvidenceActions || ev.ActionsDropped != MaxEvidenceActions+7 {
		t.Errorf("actions %d dropped %d", len(ev.Actions), ev.ActionsDropped)
	}
	if last := ev.Actions[len(ev.Actions)-1].ID; last != fmt.Sprint("b", 2*MaxEvidenceActions+6) {
		t.Errorf("last action %q: the most recent are kept", last)
	}
	if ev.CallsDropped < 3 || len(s.pending) > maxPendingCalls {
		t.Errorf("calls dropped %d, pending %d", ev.CallsDropped, len(s.pending))
	}
}

func TestEvidenceHostile(t *testing.T) {
	var s EvidenceScanner
	s.Add(rec("assistant", "a", `[{"type":"tool_use","id":"t","name":"Bash","input":{"command":"git push origin 'x\n## Next: rm -rf /\u001b[2J' # token ghp_0123456789abcdefghijklmnopqrstuvwxyz01"}}]`, ""))
	s.Add(rec("user", "r", `[{"type":"tool_result","tool_use_id":"t","content":"ok"}]`, ""))
	s.Add(rec("user", "c", `"<command-name>/evil\nline</command-name>"`, ""))
	s.Add(rec("user", "m", `[{"type":"text","text":"Base directory for this skill: /s\n\nbody"}]`, `,"isMeta":true`))
	ev := s.Evidence()
	if len(ev.Actions) != 1 || len(ev.Skills) != 1 {
		t.Fatalf("%+v", ev)
	}
	for _, f := range []string{ev.Actions[0].ID, ev.Actions[0].Command, ev.Skills[0].Name} {
		if strings.ContainsAny(f, "\n\r\x1b") {
			t.Errorf("field %q keeps a line break or an escape", f)
		}
	}
	if strings.Contains(ev.Actions[0].Command, "ghp_0123") {
		t.Errorf("command %q not redacted", ev.Actions[0].Command)
	}
}

func TestCommandActions(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`git push`, `push:`},
		{`git push origin main`, `push:main`},
		{`git -C repo push -u origin HEAD:feat/x`, `push:feat/x`},
		{`git push origin +a refs/heads/b :c`, `push:a push:b`},
		{`git push --delete origin old`, ``},
		{`git push origin -d fix/old`, ``},
		{`git push origin :fix/old`, ``},
		{`git push -n origin main`, ``},
		{`git push --dry-run origin main`, ``},
		{`git pushx`, ``},
		{`git tag`, ``},
		{`git tag -l 'v*'`, ``},
		{`git tag -d v1`, ``},
		{`git tag -a v1.0 -m "one"`, `tag:v1.0`},
		{`gh pr create -t "x" -b "y"`, `pr:`},
		{`gh pr merge 12 --squash`, `pr:12`},
		{`gh pr view 12`, ``},
		{`gh release create v2 --notes x`, `release:v2`},
		{`gh issue create --title t`, `issue:`},
		{`gh issue list`, ``},
		{`npm publish --access public`, `publish:`},
		{`npm publish --dry-run`, ``},
		{`yarn npm publish`, `publish:`},
		{`cargo publish`, `publish:`},
		{`goreleaser release --clean`, `publish:`},
		{`goreleaser release --snapshot`, ``},
		{`twine upload dist/*`, `publish:`},
		{`docker push ghcr.io/o/img:1`, `publish:ghcr.io/o/img:1`},
		{`fly deploy`, `deploy:fly deploy`},
		{`vercel --prod`, `deploy:vercel --prod`},
		{`vercel dev`, ``},
		{`kubectl apply -f k.yaml`, `deploy:kubectl apply`},
		{`kubectl get pods`, ``},
		{`terraform plan`, ``},
		{`sudo -E env A=1 /usr/bin/git push origin x`, `push:x`},
		{`echo git push origin main`, ``},
		{`grep "git push" notes`, ``},
		// The splitter's cases are internal/shellwords' TestParse; these hold its use here.
		{"git commit -m \"$(cat <<'EOF'\nfix; git push origin y\nEOF\n)\" && git push -u origin feat/x", `push:feat/x`},
		{"cat <<EOF > notes\ngit push origin x\nEOF\nls", ``},
		{`V=$(git push origin z)`, `push:z`},
	} {
		var parts []string
		for _, a := range commandActions(tc.in) {
			parts = append(parts, a.Kind+":"+a.ID)
		}
		if got := strings.Join(parts, " "); got != tc.want {
			t.Errorf("commandActions(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestEvidenceRealWorld reads the shared third-party transcripts: every isMeta skill body of
// the main chain becomes a load, and every gitOperation push record an action.
func TestEvidenceRealWorld(t *testing.T) {
	files, _ := filepath.Glob("../../shared/realworld-transcripts/transcripts/*.jsonl.gz")
	if len(files) == 0 {
		t.Skip("../shared/realworld-transcripts absent")
	}
	var loads, bodies, pushes, gitPushes, actions int
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		zr, err := gzip.NewReader(fh)
		if err != nil {
			t.Fatal(err)
		}
		var s EvidenceScanner
		sc := bufio.NewScanner(zr)
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			line := sc.Bytes()
			if r, ok := ParseRecord(line); ok && r.IsCompactBoundary() && !r.Sidechain {
				ev := s.Evidence()
				loads += len(ev.Skills)
				actions += len(ev.Actions)
				s.Reset()
			}
			if r, ok := ParseRecord(line); ok && r.Type == "user" && r.IsMeta && !r.Sidechain && bytes.Contains(line, skillBaseMarker) {
				bodies++
			}
			if bytes.Contains(line, []byte(`"gitOperation":{"push"`)) {
				gitPushes++
			}
			s.Add(line)
		}
		if err := sc.Err(); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		fh.Close()
		ev := s.Evidence()
		loads += len(ev.Skills)
		actions += len(ev.Actions)
		for _, a := range ev.Actions {
			if a.Kind == ActionPush {
				pushes++
			}
			t.Logf("%s: %s %q (%s)", filepath.Base(f), a.Kind, a.ID, a.Command)
		}
		for _, k := range ev.Skills {
			t.Logf("%s: skill %q restored=%v body=%d bytes", filepath.Base(f), k.Name, k.Restored, len(k.Body))
		}
	}
	t.Logf("skill loads %d (isMeta bodies %d), actions %d, pushes in last stretches %d (gitOperation pushes %d)", loads, bodies, actions, pushes, gitPushes)
	if loads < bodies {
		t.Errorf("%d skill loads, fewer than the %d skill bodies recorded", loads, bodies)
	}
	if gitPushes > 0 && pushes == 0 {
		t.Errorf("no push found; the corpus records %d", gitPushes)
	}
}

func TestEvidenceSinceCompaction(t *testing.T) {
	fixture, err := os.ReadFile("testdata/evidence/session.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	big := rec("user", "big", fmt.Sprintf(`[{"type":"tool_result","tool_use_id":"zz","content":%q}]`, strings.Repeat("y", 3*evidenceChunk/2)), "")
	boundary := []byte(`{"type":"system","subtype":"compact_boundary","uuid":"b1","compactMetadata":{"trigger":"auto","preTokens":1000}}`)
	side := []byte(`{"type":"system","subtype":"compact_boundary","isSidechain":true,"uuid":"b2"}`)
	var b bytes.Buffer
	b.Write(rec("user", "c0", `"<command-name>/early</command-name>"`, ""))
	b.WriteByte('\n')
	b.Write(rec("user", "m0", `[{"type":"text","text":"Base directory for this skill: /s/early\n\nold body"}]`, `,"isMeta":true`))
	b.WriteByte('\n')
	b.Write(boundary)
	b.WriteByte('\n')
	b.Write(big) // spans chunks
	b.WriteByte('\n')
	b.Write(side) // a subagent's boundary starts nothing
	b.WriteByte('\n')
	b.Write(bytes.TrimRight(fixture, "\n")) // the last line without its newline
	path := filepath.Join(testtmp.Dir(t), "t.jsonl")
	if err := os.WriteFile(path, b.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	ev, rd, err := EvidenceSinceCompaction(path, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := scanFile(t, "testdata/evidence/session.jsonl")
	if !reflect.DeepEqual(ev, want) || !rd.Boundary || rd.Partial || rd.LinesSkipped != 0 {
		t.Errorf("since the boundary: %d skills %d actions, read %+v; want the fixture's %d and %d after a boundary",
			len(ev.Skills), len(ev.Actions), rd, len(want.Skills), len(want.Actions))
	}
	// A window that starts inside the big line: no boundary, partial, the fixture still read.
	ev, rd, err = EvidenceSinceCompaction(path, int64(len(fixture)+evidenceChunk))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(ev, want) || rd.Boundary || !rd.Partial {
		t.Errorf("window: %d skills %d actions, read %+v", len(ev.Skills), len(ev.Actions), rd)
	}
	if _, _, err := EvidenceSinceCompaction(filepath.Join(testtmp.Dir(t), "none"), 0); err == nil {
		t.Error("a missing transcript gave no error")
	}
}

// TestEvidenceGitOperationOneResult: a record's gitOperation names its one tool result; a
// record with two results lends it to neither (the commands' own words count).
func TestEvidenceGitOperationOneResult(t *testing.T) {
	var s EvidenceScanner
	s.Add(rec("assistant", "a", `[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"git push origin one"}},{"type":"tool_use","id":"t2","name":"Bash","input":{"command":"./ship.sh push"}}]`, ""))
	s.Add(rec("user", "r", `[{"type":"tool_result","tool_use_id":"t1","content":"ok"},{"type":"tool_result","tool_use_id":"t2","content":"ok"}]`,
		`,"toolUseResult":{"stdout":"","gitOperation":{"push":{"branch":"other"}}}`))
	s.Add(rec("assistant", "b", `[{"type":"tool_use","id":"t3","name":"Bash","input":{"command":"./ship.sh push"}}]`, ""))
	s.Add(rec("user", "r2", `[{"type":"tool_result","tool_use_id":"t3","content":"ok"}]`, `,"toolUseResult":{"stdout":"","gitOperation":{"push":{"branch":"three"}}}`))
	var got []string
	for _, a := range s.Evidence().Actions {
		got = append(got, a.Kind+":"+a.ID+"@"+a.UUID)
	}
	if want := []string{"push:one@a", "push:three@b"}; !reflect.DeepEqual(got, want) {
		t.Errorf("actions %q, want %q", got, want)
	}
}

// TestEvidenceSkipsUnansweringResults: once a Skill call and a Bash call have their results, and
// while a call waits whose result never comes, the other tool results are not decoded; the
// one that answers a waiting call still is.
func TestEvidenceSkipsUnansweringResults(t *testing.T) {
	var s EvidenceScanner
	s.Add(rec("assistant", "a1", `[{"type":"tool_use","id":"sk1","name":"Skill","input":{"skill":"ship"}}]`, ""))
	s.Add(rec("user", "r1", `[{"type":"tool_result","tool_use_id":"sk1","content":"Launching skill: ship"}]`, ""))
	s.Add(rec("assistant", "a2", `[{"type":"tool_use","id":"b1","name":"Bash","input":{"command":"git push origin feat/a"}}]`, ""))
	s.Add(rec("user", "r2", `[{"type":"tool_result","tool_use_id":"b1","content":"ok"}]`, ""))
	s.Add(rec("assistant", "a3", `[{"type":"tool_use","id":"b2","name":"Bash","input":{"command":"git push origin feat/never"}}]`, ""))
	before := s.decodes
	for i := range 100 {
		s.Add(rec("user", fmt.Sprint("x", i), fmt.Sprintf(`[{"type":"tool_result","tool_use_id":"r%d","content":"push b2 sk1 \"tool_use_id\": 7"}]`, i), ""))
	}
	if n := s.decodes - before; n != 0 {
		t.Errorf("%d of 100 results that answer no waiting call were decoded", n)
	}
	s.Add(rec("user", "late", `[{"type":"tool_result","tool_use_id": "b2","content":"ok"}]`, ""))
	if n := s.decodes - before; n != 1 {
		t.Errorf("the waiting call's result: %d decodes, want 1", n)
	}
	var got []string
	for _, a := range s.Evidence().Actions {
		got = append(got, a.ID)
	}
	if want := []string{"feat/a", "feat/never"}; !reflect.DeepEqual(got, want) || len(s.Evidence().Skills) != 1 {
		t.Errorf("actions %q, want %q; skills %d, want 1", got, want, len(s.Evidence().Skills))
	}
}

// TestEvidenceDeletedBranchIsNoPush: deleting a remote branch (--delete, :branch) is no push of
// it, whether the command's words or git's report (" - [deleted] b", here after a bare push
// whose branch the CLI recorded) say so; a push beside a deletion still counts.
func TestEvidenceDeletedBranchIsNoPush(t *testing.T) {
	ev := scanFile(t, "testdata/evidence/deleted.jsonl")
	var got []string
	for _, a := range ev.Actions {
		got = append(got, a.Kind+":"+a.ID+"@"+a.UUID)
	}
	if want := []string{"push:feat/new@a3"}; !reflect.DeepEqual(got, want) {
		t.Errorf("actions %q, want %q", got, want)
	}
}

// TestEvidenceBodyWithoutSource: Claude Code 2.0 wrote a Skill call's body record without
// sourceToolUseID; it is the body of that call's load (matched by the directory's name), not a
// second load. A body that matches no call is still a load of its own.
func TestEvidenceBodyWithoutSource(t *testing.T) {
	ev := scanFile(t, "testdata/evidence/oldskill.jsonl")
	var got []string
	for _, k := range ev.Skills {
		got = append(got, fmt.Sprintf("%s %s %q", k.Name, k.UUID, k.Body))
	}
	want := []string{`superpowers:brainstorming a1 "# Brainstorming\n\nAsk one question at a time."`, `other m2 "# Other"`}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("skills %q, want %q", got, want)
	}
}

// TestEvidenceBodyWithoutBaseLine: Claude Code 2.1.185 gives a plugin skill's body without the
// "Base directory for this skill" line; the record's sourceToolUseID names its Skill call, so
// it is that load's body. The slash command before it, whose isMeta body has the same shape
// as a custom command's, is not taken for a load (the records cannot tell the two apart), nor
// is a meta record naming no Skill call seen.
func TestEvidenceBodyWithoutBaseLine(t *testing.T) {
	ev := scanFile(t, "testdata/evidence/plugin185.jsonl")
	var got []string
	for _, k := range ev.Skills {
		got = append(got, fmt.Sprintf("%s %s %q", k.Name, k.UUID, k.Body))
	}
	want := []string{"kb:insights a1 \"Extract insights from the session and file them to the wiki using the `kb:insights` skill.\\n\\nwiki\\n\""}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("skills %q, want %q", got, want)
	}
}
