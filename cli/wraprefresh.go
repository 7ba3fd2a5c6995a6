package cli

import (
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/zoneline/zoneline/internal/safetext"
	"github.com/zoneline/zoneline/state"
)

var cmdWrapRefresh = &Command{
	Name: "wrap-refresh", UsageLine: "wrap-refresh -session ID -wrap CMD [-wait]",
	Short: "run the wrapped status line command for a session (the statusline starts it)",
	Long: `Run the wrapped status line command CMD (statusline -wrap, [statusline] wrap) for the session
ID with the newest render's payload, and keep its output for the next render. The status line
starts it detached after its line is printed, so the wrapped command never delays zoneline's
line. One runs per session at a time (a lock); it runs again while renders asked for newer
payloads, at most three times. Each run is killed with everything it started at wrap_timeout.`,
	Parse: parseWrapRefresh,
}

// wrapMaxRuns bounds one refresher: it runs the newest job again while renders keep asking,
// at most this many times (the next render starts another).
const wrapMaxRuns = 3

func parseWrapRefresh(e *Env, fs *flag.FlagSet) func([]string) error {
	id := fs.String("session", "", "the session whose wrapped status line to refresh")
	cmd := fs.String("wrap", "", "the wrapped command `CMD` (the render's: a job kept for another command is left to its own refresher)")
	wait := fs.Bool("wait", false, "wait for a refresher already running, then refresh (for scripts)")
	return func(args []string) error {
		if !state.ValidSessionID(*id) || *cmd == "" || len(args) > 0 {
			return usagef("wrap-refresh takes -session, a session id, and -wrap, the wrapped command")
		}
		var w time.Duration
		if *wait {
			w = wrapMaxRuns*(wrapMaxTimeout+2*wrapGrace) + time.Second
		}
		return e.runWrapRefresh(*id, *cmd, w)
	}
}

// runWrapRefresh runs the session's job with cmd under its lock (wait: how long to wait for
// another refresher) until the kept output is the newest job's, at most wrapMaxRuns times;
// after letting the lock go it looks at the job once more, so a render that found the lock
// held (and so started nothing) is not left behind. The command is the render's (its command
// line): never read from the state dir, so a file planted there chooses no program; a job kept
// for another command (the config changed) is left to the refresher its render starts.
func (e *Env) runWrapRefresh(id, cmd string, wait time.Duration) error {
	dir, err := e.State.Session(id)
	if err != nil {
		return fmt.Errorf("zoneline: wrap-refresh: %v", err)
	}
	jobPath, keptPath := filepath.Join(dir, wrapJobName), filepath.Join(dir, wrapCacheName)
	if e.process {
		markWrapping() // a zoneline under the wrapped command sees it and never wraps (insideWrap)
	}
	// pending reads the job and the kept output: ok when the job is cmd's and newer.
	pending := func() (job wrapJob, kept wrapKept, ok bool) {
		job, ok = readWrapJob(jobPath)
		kept, have := readWrapKept(keptPath)
		return job, kept, ok && job.cmd == cmd && !(have && kept.seq >= job.seq)
	}
	for runs := 0; runs < wrapMaxRuns; {
		unlock, err := state.Lock(filepath.Join(dir, wrapLockName), wait)
		if err != nil {
			return nil // a refresher runs: it reads the job again before it lets go
		}
		for ; runs < wrapMaxRuns; runs++ {
			job, kept, ok := pending()
			if !ok {
				break
			}
			lines, problem := runWrap(cmd, job, e.process)
			if problem != "" {
				e.State.Log("wrap-refresh", "wrapped status line %q: %s", safetext.Cut(cmd, 80), problem)
			}
			if err := state.Replace(keptPath, kept.next(job.seq, e.Now(), lines, problem).encode()); err != nil {
				unlock()
				return fmt.Errorf("zoneline: wrap-refresh: %v", err)
			}
		}
		unlock()
		if _, _, ok := pending(); !ok {
			return nil
		}
		wait = 0
	}
	return nil
}

// runWrap runs cmd once for job: in its own process group, in the job's folder, its payload on
// stdin, killed with everything it started at its deadline or, when this process is the
// wrapping one (whole: not cli run in-process by a test), when it is told to stop (SIGTERM,
// SIGINT, SIGHUP: onCancel). It returns the output's lines and a problem.
func runWrap(cmd string, job wrapJob, whole bool) (lines []string, problem string) {
	done, kill := startWrapped(cmd, job.dir, job.stdin, wrapLimit, job.timeout)
	return awaitWrap(done, kill, time.Now().Add(job.timeout+wrapGrace), whole)
}

// awaitWrap waits for a wrapped command's result until deadline; then, or when the process is
// cancelled, it ends the command's group (kill) and, as the wrapping process (whole), every
// process the command started (sweepDescendants).
func awaitWrap(done <-chan wrapResult, kill func(), deadline time.Time, whole bool) (lines []string, problem string) {
	sweep := func() {}
	if whole {
		sweep = sweepDescendants
		defer onCancel(kill)()
	}
	t := time.NewTimer(time.Until(deadline))
	defer t.Stop()
	select {
	case res := <-done:
		sweep()
		return outcome(res)
	case <-t.C:
		kill()
		sweep()
		return nil, "timed out"
	}
}

// onCancel makes SIGTERM, SIGINT and SIGHUP end the wrapped command's group and whatever the
// command started (kill, sweepDescendants) before this process exits: a cancelled zoneline
// leaves nothing of its wrap running. The returned stop undoes it.
func onCancel(kill func()) (stop func()) {
	sig := make(chan os.Signal, 1)
	quit := make(chan struct{})
	signal.Notify(sig, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	go func() {
		select {
		case <-sig:
			kill()
			sweepDescendants()
			os.Exit(1)
		case <-quit:
		}
	}()
	return func() {
		signal.Stop(sig)
		close(quit)
	}
}
