package cli

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/zoneline/zoneline/config"
	"github.com/zoneline/zoneline/internal/safetext"
	"github.com/zoneline/zoneline/pipeline"
	"github.com/zoneline/zoneline/state"
	"github.com/zoneline/zoneline/statusline"
)

// A render under Claude Code never waits for the wrapped command: it prints the command's kept
// output at once (wrapLive) and leaves the run to `zoneline wrap-refresh`, started detached
// after the line is printed, as the git segment's refresher is. Per session, private (0600 in
// the session's 0700 folder), written atomically:
//
//	wrap-job          the newest render's run: a sequence number (renders whose payload,
//	                  command, folder or deadline changed), the command, the folder, the
//	                  deadline and the payload for its stdin
//	wrapped-last.txt  the refresher's result: the job it last ran, the job of its last good
//	                  output, that run's problem, and the last good output's lines
//	.wrap.lock        held by the one refresher running (a render probes it, never waits)
//
// The first render shows wrapPending where the output goes; an output kept after a failed run
// (a ⚠ names the problem), or wrapStaleRenders jobs behind the newest while no run has ended
// within the job's deadline (no refresher is getting anywhere), is marked staleMark. A refresher
// that keeps up, however slowly, never makes it stale (Claude Code's refreshInterval renders
// every few seconds with a new payload each time).
const (
	wrapJobName      = state.WrapJobName
	wrapLockName     = state.WrapLockName
	wrapStaleRenders = 3   // jobs behind the newest from which the kept output is marked stale
	wrapPending      = "…" // the first render's stand-in for an output not there yet
	wrapJobLimit     = 2 << 20
)

// wrapJob is a run of the wrapped command asked for by a render.
type wrapJob struct {
	seq     int64
	cmd     string // the user's own command: from -wrap or [statusline] wrap, never the payload
	dir     string // the render's working directory (Claude Code's session cwd)
	timeout time.Duration
	stdin   []byte // the payload, as the render read it
}

const (
	wrapJobHead    = "zoneline wrap job 1\n"
	wrapResultHead = "zoneline wrap result 1\n"
)

func (j wrapJob) encode() []byte {
	b := make([]byte, 0, len(wrapJobHead)+len(j.cmd)+len(j.dir)+len(j.stdin)+64)
	b = append(b, wrapJobHead...)
	b = strconv.AppendInt(append(b, "seq "...), j.seq, 10)
	b = strconv.AppendInt(append(b, "\ntimeout "...), int64(j.timeout), 10)
	b = strconv.AppendQuote(append(b, "\ndir "...), j.dir)
	b = strconv.AppendQuote(append(b, "\ncmd "...), j.cmd)
	b = append(b, "\n\n"...)
	return append(b, j.stdin...)
}

// same reports whether o asks for the same run as j.
func (j wrapJob) same(o wrapJob) bool {
	return j.cmd == o.cmd && j.dir == o.dir && j.timeout == o.timeout && bytes.Equal(j.stdin, o.stdin)
}

func decodeWrapJob(b []byte) (j wrapJob, ok bool) {
	f, body, ok := wrapFields(b, wrapJobHead, "seq", "timeout", "dir", "cmd")
	if !ok {
		return j, false
	}
	t, err1 := strconv.ParseInt(f[1], 10, 64)
	j.dir, _ = strconv.Unquote(f[2])
	cmd, err2 := strconv.Unquote(f[3])
	j.seq, ok = wrapSeq(f[0])
	if !ok || err1 != nil || err2 != nil || cmd == "" || t <= 0 || time.Duration(t) > wrapMaxTimeout {
		return wrapJob{}, false
	}
	j.cmd, j.timeout, j.stdin = cmd, time.Duration(t), body
	return j, true
}

// wrapKept is the refresher's result for a session.
type wrapKept struct {
	seq     int64     // the job last run
	good    int64     // the job of the kept output (0: none yet)
	problem string    // the last run's problem ("" when it gave the kept output)
	at      time.Time // when the last run ended
	out     []byte    // the last good output's lines, cleaned
}

func (k wrapKept) encode() []byte {
	b := append([]byte(wrapResultHead), "seq "...)
	b = strconv.AppendInt(b, k.seq, 10)
	b = strconv.AppendInt(append(b, "\ngood "...), k.good, 10)
	b = strconv.AppendQuote(append(b, "\nproblem "...), k.problem)
	b = strconv.AppendInt(append(b, "\nat "...), k.at.UnixNano(), 10)
	b = append(b, "\n\n"...)
	return append(b, k.out...)
}

func decodeWrapKept(b []byte) (k wrapKept, ok bool) {
	f, body, ok := wrapFields(b, wrapResultHead, "seq", "good", "problem", "at")
	if !ok {
		return k, false
	}
	var ok1, ok2, ok3 bool
	var at int64
	k.seq, ok1 = wrapSeq(f[0])
	k.good, ok2 = wrapSeq(f[1])
	at, ok3 = wrapSeq(f[3])
	p, err := strconv.Unquote(f[2])
	if !ok1 || !ok2 || !ok3 || err != nil || k.good > k.seq {
		return wrapKept{}, false
	}
	k.problem, k.at, k.out = safetext.Cut(p, 80), time.Unix(0, at), body
	return k, true
}

// next is k after a run of job seq, ended at, that gave lines, or problem.
func (k wrapKept) next(seq int64, at time.Time, lines []string, problem string) wrapKept {
	k.seq, k.at, k.problem = seq, at, problem
	if lines != nil {
		k.good, k.out = seq, []byte(strings.Join(lines, "\n")+"\n")
	}
	return k
}

// show is what a render of job j shows of k at now (have: there is a result): the kept
// output's lines (marked stale when a run failed since, or when it is wrapStaleRenders jobs
// behind and no run ended within j's deadline; wrapPending before the first result) and the
// last run's problem.
func (k wrapKept) show(have bool, j wrapJob, now time.Time) (lines []string, problem string) {
	if !have {
		return []string{wrapPending}, ""
	}
	lines = splitOutput(k.out)
	if k.good < k.seq || j.seq-k.good >= wrapStaleRenders && now.Sub(k.at) > j.timeout+wrapGrace {
		for i, l := range lines {
			lines[i] = staleMark + l
		}
	}
	return lines, k.problem
}

// wrapFields reads the header lines "name value" after head, in names' order, up to the blank
// line before the body.
func wrapFields(b []byte, head string, names ...string) (vals []string, body []byte, ok bool) {
	rest, ok := bytes.CutPrefix(b, []byte(head))
	if !ok {
		return nil, nil, false
	}
	for _, n := range names {
		line, after, found := bytes.Cut(rest, []byte{'\n'})
		v, isName := bytes.CutPrefix(line, []byte(n+" "))
		if !found || !isName {
			return nil, nil, false
		}
		vals, rest = append(vals, string(v)), after
	}
	body, ok = bytes.CutPrefix(rest, []byte{'\n'})
	return vals, body, ok
}

func wrapSeq(s string) (int64, bool) {
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil && n >= 0
}

func readWrapJob(path string) (wrapJob, bool) {
	b, err := state.ReadFile(path, wrapJobLimit)
	if err != nil {
		return wrapJob{}, false
	}
	return decodeWrapJob(b)
}

func readWrapKept(path string) (wrapKept, bool) {
	b, err := state.ReadFile(path, 2*wrapLimit)
	if err != nil {
		return wrapKept{}, false
	}
	return decodeWrapKept(b)
}

// wrapLive finishes a render under Claude Code with its wrapped command's kept output, without
// waiting for the command: the line costs what zoneline's own costs. It returns the rows and
// what to do once they are printed (nil: nothing): keep the job when it changed, and start the
// refresher when the kept output is behind it.
func (e *Env) wrapLive(r pipeline.Rendered, cfg *config.Config, stdin []byte) (string, func()) {
	id := r.SessionID()
	jobPath, err := e.State.SessionFile(id, wrapJobName)
	if err != nil {
		r.View.Problems = append(r.View.Problems, "wrapped: no session")
		return statusline.Render(r.View, r.Options), nil
	}
	dir := filepath.Dir(jobPath)
	want := wrapJob{cmd: cfg.Statusline.Wrap, timeout: wrapTimeout(cfg), stdin: stdin}
	want.dir, _ = os.Getwd()
	old, haveJob := readWrapJob(jobPath)
	changed := !haveJob || !old.same(want)
	want.seq = old.seq
	if changed {
		want.seq++
	}
	kept, have := readWrapKept(filepath.Join(dir, wrapCacheName))
	theirs, problem := kept.show(have, want, e.Now())
	if problem != "" {
		r.View.Problems = append(r.View.Problems, "wrapped: "+problem)
		r.Line = statusline.Render(r.View, r.Options)
	}
	line := composeWrap(r, theirs, cfg.Statusline.WrapPosition, r.Options.Width)
	if !changed && have && kept.seq >= want.seq {
		return line, nil
	}
	return line, func() {
		if changed {
			if err := state.Replace(jobPath, want.encode()); err != nil {
				e.State.Log("statusline", "keeping the wrapped status line's job: %v", err)
				return
			}
		}
		e.startWrapRefresh(id, want.cmd, filepath.Join(dir, wrapLockName))
	}
}

// startWrapRefresh starts `zoneline wrap-refresh -session id -wrap=cmd`, detached, unless a
// refresher holds the session's lock: that one reads the job again before it lets go (the job
// is written before this probe), so no job is left unrun.
func (e *Env) startWrapRefresh(id, cmd, lock string) {
	unlock, err := state.Lock(lock, 0)
	unlock()
	if err != nil {
		if !errors.Is(err, state.ErrLockBusy) {
			e.State.Log("statusline", "wrap refresh: %v", err)
		}
		return
	}
	e.startDetached("wrap refresh", "wrap-refresh", "-session", id, "-wrap="+cmd)
}
