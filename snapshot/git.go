package snapshot

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/zoneline/zoneline/gitinfo"
)

// gitState reads the branch from .git (no subprocess), then HEAD and the dirty files from
// `git status --porcelain=v2 --branch -z`, after a `git config` that lists the filter drivers to
// null (filterDrivers), both under GitTimeout and run so that no program the repository names
// can start (gitArgs, gitEnv, runGit's process group): a repository is outside input, and its config
// and attributes can name programs (clean/smudge/process filters, an fsmonitor hook, hooks, a
// pager) that `git status` would otherwise run. The argv is fixed; the payload's cwd only picks
// the repository, and git runs in the worktree gitinfo found, not in a folder below it.
func gitState(ctx context.Context, cwd string) *Git {
	info, err := gitinfo.Branch(cwd)
	if err != nil || info.Root == "" {
		return nil
	}
	g := &Git{Branch: info.Branch, Head: info.Head, Root: info.Root, Dirty: []string{}}
	cctx, cancel := context.WithTimeout(ctx, GitTimeout)
	defer cancel()
	// The filter drivers the config defines, from every level git reads: each is nulled below.
	// The same listing says whether the repository is a partial clone (a promisor remote:
	// `git status` would fetch missing objects through the remote's transport, uploadpack,
	// core.sshCommand, credential helpers) and whether this git honours GIT_CONFIG_COUNT (the
	// probe: git < 2.31 ignores it, and the nulled filters with it). Either skips the status.
	// The probe's value is new each time: a repository that sets zoneline.probe itself cannot
	// pass for a git that honours GIT_CONFIG_COUNT.
	nonce := strconv.FormatInt(time.Now().UnixNano(), 36) + "-" + strconv.Itoa(os.Getpid())
	keys, err := runGit(cctx, info.Root, []string{probeKey, nonce}, "config", "--null", "--get-regexp", configQuery)
	if err != nil && !isExit(err, 1) { // 1: no such key
		g.Err = "git config: " + gitErr(cctx, err)
		return g
	}
	cfg := readConfigKeys(keys, nonce)
	switch {
	case !cfg.probe:
		g.Err = "git status skipped: this git ignores GIT_CONFIG_COUNT (older than 2.31), so the repository's filters could not be turned off"
		return g
	case cfg.promisor:
		g.Err = "git status skipped: the repository is a partial clone (a promisor remote), and git would fetch missing objects by running its transport"
		return g
	}
	out, err := runGit(cctx, info.Root, filterDrivers(cfg.drivers), "status", "--porcelain=v2", "--branch", "-z",
		"--untracked-files=normal", "--ignore-submodules=all", "--no-renames")
	if err != nil {
		g.Err = "git status: " + gitErr(cctx, err)
		return g
	}
	parsePorcelain(g, out)
	return g
}

// GitStatus is gitState for the git segment's cache refresher (gitcache): the branch, HEAD,
// dirty files and distance to the upstream, under ctx and GitTimeout, with the same care.
func GitStatus(ctx context.Context, cwd string) *Git { return gitState(ctx, cwd) }

// gitArgs are the options before every git subcommand zoneline runs: command-line config wins
// over every file, so the repository cannot turn these back on.
var gitArgs = []string{
	"--no-pager", "--no-optional-locks",
	"-c", "core.fsmonitor=false", // no fsmonitor hook, no fsmonitor daemon left running
	"-c", "core.hooksPath=/dev/null", // no hook (post-index-change, …)
	"-c", "core.pager=cat", "-c", "pager.status=false", "-c", "pager.config=false",
	"-c", "core.untrackedCache=false",
	"-c", "status.submoduleSummary=false", "-c", "submodule.recurse=false",
	"-c", "safe.bareRepository=explicit", // no bare repository embedded in a worktree
	// No transport at all (a partial clone's lazy fetch, a submodule's), so no uploadpack,
	// sshCommand, askpass or credential helper the repository names, whatever url.*.insteadOf
	// says. Belt and braces: a promisor remote already skips the status.
	"-c", "protocol.allow=never", "-c", "core.sshCommand=false", "-c", "credential.helper=",
	"-c", "core.askPass=",
}

// probeKey is the config pair every git call gets through GIT_CONFIG_COUNT; `git config`
// listing it back proves this git reads GIT_CONFIG_COUNT (2.31 and later).
const probeKey = "zoneline.probe"

// configQuery is the first `git config --get-regexp`: the filter drivers, the partial-clone
// keys and the probe (git lower-cases section and variable names, not subsections).
const configQuery = `^(filter\.|extensions\.partialclone$|remote\..*\.promisor$|zoneline\.probe$)`

// configKeys is what the first `git config` said.
type configKeys struct {
	drivers  []byte // the filter.* names, NUL-separated, for filterDrivers
	promisor bool   // extensions.partialclone or a remote.<name>.promisor is set
	probe    bool   // zoneline.probe came back: GIT_CONFIG_COUNT is honoured
}

// readConfigKeys sorts `git config --null --get-regexp configQuery` output (each entry the key,
// a newline and the value; the key alone when it has no value). The probe counts only with
// the value zoneline gave it, nonce.
func readConfigKeys(out []byte, nonce string) configKeys {
	var c configKeys
	for _, entry := range bytes.Split(out, []byte{0}) {
		key, val, _ := bytes.Cut(entry, []byte{'\n'})
		k := string(bytes.TrimSpace(key))
		switch {
		case k == probeKey:
			c.probe = c.probe || string(val) == nonce
		case strings.HasPrefix(k, "filter."):
			c.drivers = append(append(c.drivers, k...), 0)
		case k == "extensions.partialclone", strings.HasPrefix(k, "remote.") && strings.HasSuffix(k, ".promisor"):
			c.promisor = true
		}
	}
	return c
}

// filterDrivers turns `git config --null --name-only --get-regexp ^filter\.` output into the
// config that nulls each driver: an empty clean, smudge and process command is no command
// (git's convert.c runs a filter only when its command is non-empty), and a driver that is not
// required does not fail git when it runs nothing. A driver's subsection may hold any byte but
// a newline or NUL, so the values go through GIT_CONFIG_KEY_n (git 2.31), never re-parsed.
func filterDrivers(out []byte) []string {
	seen := map[string]bool{}
	var names []string
	for _, key := range bytes.Split(out, []byte{0}) {
		k := string(bytes.TrimSpace(key))
		rest, ok := strings.CutPrefix(k, "filter.")
		if !ok {
			continue
		}
		i := strings.LastIndexByte(rest, '.')
		if i <= 0 {
			continue // filter.<var> with no driver: git ignores it
		}
		if d := rest[:i]; !seen[d] {
			seen[d] = true
			names = append(names, d)
		}
	}
	var kv []string
	for _, d := range names {
		for _, v := range [...][2]string{{"clean", ""}, {"smudge", ""}, {"process", ""}, {"required", "false"}} {
			kv = append(kv, "filter."+d+"."+v[0], v[1])
		}
	}
	return kv
}

// runGit runs git with gitArgs and args in dir, in a scrubbed environment (gitEnv) with the
// extra config pairs kv, and returns its stdout. git runs in a process group of its own that
// is killed whole when ctx ends and after git exits, so nothing it started outlives the call.
func runGit(ctx context.Context, dir string, kv []string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", append(append([]string{}, gitArgs...), args...)...)
	cmd.Dir = dir
	cmd.Env = gitEnv(os.Environ(), kv)
	cmd.Stdin = nil
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	ownGroup(cmd)
	cmd.WaitDelay = 200 * time.Millisecond
	err := cmd.Start()
	if err != nil {
		return nil, err
	}
	err = cmd.Wait()
	killGroup(cmd)
	if err != nil {
		if msg := strings.TrimSpace(errb.String()); msg != "" {
			return out.Bytes(), fmt.Errorf("%w: %s", err, cut(msg, 200))
		}
		return out.Bytes(), err
	}
	return out.Bytes(), nil
}

// gitEnv is environ without any GIT_* variable (GIT_DIR, GIT_EXTERNAL_DIFF, GIT_PAGER,
// GIT_CONFIG_PARAMETERS, … would redirect git or name a program) and without PAGER, plus what
// zoneline sets: no system config or attributes, no optional locks, no prompt, and the config
// pairs kv as GIT_CONFIG_COUNT entries. The user's own global config stays (its filter drivers
// are nulled like the repository's).
func gitEnv(environ []string, kv []string) []string {
	env := make([]string, 0, len(environ)+8+len(kv))
	for _, e := range environ {
		name, _, _ := strings.Cut(e, "=")
		if strings.HasPrefix(strings.ToUpper(name), "GIT_") || name == "PAGER" {
			continue
		}
		env = append(env, e)
	}
	env = append(env, "GIT_CONFIG_NOSYSTEM=1", "GIT_ATTR_NOSYSTEM=1", "GIT_OPTIONAL_LOCKS=0",
		"GIT_TERMINAL_PROMPT=0", "GIT_PAGER=cat", "PAGER=cat", "GIT_NO_REPLACE_OBJECTS=1",
		"GIT_NO_LAZY_FETCH=1", "GIT_PROTOCOL_FROM_USER=0")
	if len(kv) > 0 {
		n := len(kv) / 2
		env = append(env, "GIT_CONFIG_COUNT="+strconv.Itoa(n))
		for i := 0; i < n; i++ {
			env = append(env, "GIT_CONFIG_KEY_"+strconv.Itoa(i)+"="+kv[2*i], "GIT_CONFIG_VALUE_"+strconv.Itoa(i)+"="+kv[2*i+1])
		}
	}
	return env
}

func isExit(err error, code int) bool {
	ee, ok := err.(*exec.ExitError)
	return ok && ee.ExitCode() == code
}

func gitErr(ctx context.Context, err error) string {
	if ctx.Err() != nil {
		return fmt.Sprintf("timed out after %s", GitTimeout)
	}
	return err.Error()
}
