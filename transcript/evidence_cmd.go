package transcript

import (
	"slices"
	"strings"

	"github.com/zoneline/zoneline/internal/shellwords"
)

// Kinds of Action.
const (
	ActionPush    = "push"
	ActionPR      = "pr"
	ActionTag     = "tag"
	ActionRelease = "release"
	ActionPublish = "publish"
	ActionDeploy  = "deploy"
	ActionIssue   = "issue"
)

// commandActions returns the external actions a Bash command would do, read from the words of
// its simple commands (internal/shellwords: a subshell's or substitution's commands among them,
// a quoted $(…) inside its word, a here-document's body skipped; at most shellwords.MaxCommands
// of shellwords.MaxWords words): git push (one per refspec; "" when the command names none: the branch then
// comes from the CLI's record or the session's branch), gh pr create / merge, git tag, gh
// release create, publish and deploy commands, gh issue create. A dry run is no action. IDs
// the result gives (a PR's URL, a package's version) are filled in by fromResult.
func commandActions(cmd string) []Action {
	var out []Action
	for _, c := range shellwords.Parse(cmd).Commands {
		w := commandWords(c.Words)
		if len(w) == 0 || slices.ContainsFunc(w, isDryRun) {
			continue
		}
		switch base(w[0]) {
		case "git":
			out = append(out, gitActions(w[1:])...)
		case "gh":
			out = append(out, ghActions(w[1:])...)
		default:
			if a, ok := publishOrDeploy(w); ok {
				out = append(out, a)
			}
		}
	}
	return out
}

// commandWords drops what runs a command without being it: variable assignments, and
// env, sudo, time, nohup, command, exec with their own options.
func commandWords(w []string) []string {
	for len(w) > 0 {
		switch {
		case isAssignment(w[0]):
			w = w[1:]
		case w[0] == "env" || w[0] == "sudo" || w[0] == "time" || w[0] == "nohup" || w[0] == "command" || w[0] == "exec":
			w = w[1:]
			for len(w) > 0 && strings.HasPrefix(w[0], "-") {
				w = w[1:]
			}
		default:
			return w
		}
	}
	return nil
}

func isAssignment(s string) bool {
	name, _, ok := strings.Cut(s, "=")
	if !ok || name == "" {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

func isDryRun(s string) bool {
	return s == "--dry-run" || strings.HasPrefix(s, "--dry-run=") || s == "--snapshot" || s == "--what-if"
}

// base returns a program's name without its directory ("/usr/bin/git" → "git").
func base(p string) string {
	if i := strings.LastIndexAny(p, `/\`); i >= 0 {
		p = p[i+1:]
	}
	return strings.TrimSuffix(p, ".exe")
}

// gitActions reads git's words after "git": push and tag.
func gitActions(w []string) []Action {
	for len(w) > 0 && strings.HasPrefix(w[0], "-") { // global options
		if w[0] == "-C" || w[0] == "-c" || w[0] == "--git-dir" || w[0] == "--work-tree" || w[0] == "--namespace" {
			w = w[1:]
		}
		w = w[min(1, len(w)):]
	}
	if len(w) == 0 {
		return nil
	}
	switch w[0] {
	case "push":
		return gitPush(w[1:])
	case "tag":
		if name, ok := gitTagName(w[1:]); ok {
			return []Action{{Kind: ActionTag, ID: name}}
		}
	}
	return nil
}

// gitPush reads "git push" arguments: an Action per refspec, its ID the branch (or tag) pushed
// to ("HEAD:feat/x" → "feat/x", "+main" → "main", "refs/heads/x" → "x"), or one Action with ID
// "" when no refspec is named. A deletion (":x", --delete x) is no push: it has no Action.
func gitPush(args []string) []Action {
	var pos []string
	del := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-n":
			return nil // --dry-run's short form
		case a == "-d" || a == "--delete":
			del = true
		case a == "--repo" || a == "-o" || a == "--push-option" || a == "--receive-pack" || a == "--exec":
			i++
		case a == "--":
			pos = append(pos, args[i+1:]...)
			i = len(args)
		case strings.HasPrefix(a, "-"):
		default:
			pos = append(pos, a)
		}
	}
	if len(pos) <= 1 {
		if del {
			return nil
		}
		return []Action{{Kind: ActionPush}}
	}
	var out []Action
	for _, ref := range pos[1:] {
		src, dst, colon := strings.Cut(strings.TrimPrefix(ref, "+"), ":")
		if !colon {
			dst = src
		}
		if del || colon && src == "" {
			continue // a deletion pushes nothing
		}
		dst = strings.TrimPrefix(strings.TrimPrefix(dst, "refs/heads/"), "refs/tags/")
		if dst == "HEAD" {
			dst = ""
		}
		out = append(out, Action{Kind: ActionPush, ID: dst})
	}
	return out
}

// gitTagName returns the tag a "git tag" command creates; false for listing, deleting and
// verifying.
func gitTagName(args []string) (string, bool) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-l" || a == "--list" || a == "-d" || a == "--delete" || a == "-v" || a == "--verify" ||
			strings.HasPrefix(a, "--contains") || strings.HasPrefix(a, "--points-at") || strings.HasPrefix(a, "--merged") ||
			strings.HasPrefix(a, "--no-merged") || a == "-n" || strings.HasPrefix(a, "--sort") || strings.HasPrefix(a, "--format"):
			return "", false
		case a == "-m" || a == "-F" || a == "-u" || a == "--local-user" || a == "--message" || a == "--file" || a == "--cleanup":
			i++
		case strings.HasPrefix(a, "-"):
		default:
			return a, true
		}
	}
	return "", false
}

// ghActions reads gh's words after "gh": pr create / merge, release create, issue create.
func ghActions(w []string) []Action {
	var pos []string
	for i := 0; i < len(w) && len(pos) < 3; i++ {
		switch a := w[i]; {
		case a == "-R" || a == "--repo" || a == "-t" || a == "--title" || a == "-b" || a == "--body" || a == "-B" ||
			a == "--base" || a == "-H" || a == "--head" || a == "-F" || a == "--body-file" || a == "-n" || a == "--notes" ||
			a == "-l" || a == "--label" || a == "-a" || a == "--assignee" || a == "-r" || a == "--reviewer" || a == "--target":
			i++
		case strings.HasPrefix(a, "-"):
		default:
			pos = append(pos, a)
		}
	}
	if len(pos) < 2 {
		return nil
	}
	id := "" // what a merge or a release names
	if len(pos) > 2 {
		id = pos[2]
	}
	switch pos[0] + " " + pos[1] {
	case "pr create", "pr new":
		return []Action{{Kind: ActionPR, Verb: "created"}}
	case "pr merge":
		return []Action{{Kind: ActionPR, ID: id, Verb: "merged"}}
	case "release create", "release new":
		return []Action{{Kind: ActionRelease, ID: id}}
	case "issue create", "issue new":
		return []Action{{Kind: ActionIssue, Verb: "created"}}
	}
	return nil
}

// publishOrDeploy recognises package publishing and deployment commands.
func publishOrDeploy(w []string) (Action, bool) {
	prog := base(w[0])
	sub := ""
	if len(w) > 1 {
		sub = w[1]
	}
	has := func(flag string) bool { return slices.Contains(w[1:], flag) }
	head := strings.Join(w[:min(len(w), 2)], " ")
	switch {
	case (prog == "npm" || prog == "pnpm" || prog == "yarn" || prog == "bun") && (sub == "publish" || sub == "npm" && len(w) > 2 && w[2] == "publish"),
		prog == "cargo" && sub == "publish",
		prog == "goreleaser" && (sub == "release" || sub == ""),
		prog == "twine" && sub == "upload",
		(prog == "poetry" || prog == "uv" || prog == "flit" || prog == "hatch") && sub == "publish",
		prog == "gem" && sub == "push",
		prog == "docker" && sub == "push":
		id := ""
		if prog == "docker" && len(w) > 2 {
			id = w[len(w)-1]
		}
		return Action{Kind: ActionPublish, ID: id, Verb: head}, true
	case (prog == "fly" || prog == "flyctl") && sub == "deploy",
		prog == "vercel" && (has("--prod") || sub == "deploy"),
		prog == "netlify" && sub == "deploy" && has("--prod"),
		prog == "kubectl" && (sub == "apply" || sub == "rollout" || sub == "set" || sub == "create" || sub == "replace"),
		prog == "helm" && (sub == "install" || sub == "upgrade"),
		prog == "terraform" && sub == "apply", prog == "tofu" && sub == "apply",
		prog == "wrangler" && (sub == "deploy" || sub == "publish"),
		prog == "firebase" && sub == "deploy",
		(prog == "serverless" || prog == "sls") && sub == "deploy",
		prog == "cdk" && sub == "deploy", prog == "pulumi" && sub == "up",
		prog == "railway" && sub == "up",
		prog == "gcloud" && slices.Contains(w, "deploy"):
		return Action{Kind: ActionDeploy, ID: head, Verb: head}, true
	}
	return Action{}, false
}
