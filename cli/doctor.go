package cli

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/zoneline/zoneline/config"
	"github.com/zoneline/zoneline/doctor"
	"github.com/zoneline/zoneline/internal/safetext"
	"github.com/zoneline/zoneline/notify"
	"github.com/zoneline/zoneline/zones"
)

// doctorOptions are the flags of `zoneline doctor`.
type doctorOptions struct {
	notify  bool // send a test notification
	project bool // check .claude/settings.json of the current repository
}

var cmdDoctor = &Command{
	Name: "doctor", UsageLine: "doctor [flags]",
	Short: "check that everything works and say what to fix",
	Long: `Check that everything works and say what to fix: the binary and PATH, Claude Code's
settings and the skills, the paths, the config, the state dir, the payloads the status line
last saw, notifications, auto-compact and the log. Exit 1 when a check fails.`,
	Parse:    parseDoctor,
	AnyPaths: true,
	NoArgs:   true,
}

func parseDoctor(e *Env, fs *flag.FlagSet) func([]string) error {
	var o doctorOptions
	fs.BoolVar(&o.notify, "notify", false, "send a test desktop notification through zoneline-notify")
	fs.BoolVar(&o.project, "project", false, "check .claude/settings.json of the current repository instead of the user's")
	return func([]string) error {
		rs := e.doctor(o)
		fmt.Fprintf(e.Stdout, "zoneline doctor (%s)\n\n", version())
		doctor.Render(e.Stdout, rs)
		if doctor.Failed(rs) {
			return errReported
		}
		return nil
	}
}

// doctor runs every check.
func (e *Env) doctor(o doctorOptions) []doctor.Result {
	var rs []doctor.Result
	self, err := executable()
	if err != nil {
		self = "zoneline"
	}
	onPath, lookErr := lookPath("zoneline", e.Getenv("PATH"))
	rs = append(rs, doctor.Binary(self, version(), onPath, lookErr))

	settings, claudeDir, err := e.installTarget(o.project)
	if err != nil {
		rs = append(rs, doctor.Result{Name: "settings", Status: doctor.Fail, Detail: safetext.Field(err.Error(), 0)})
	} else {
		rs = append(rs, doctor.Settings(settings, self)...)
		rs = append(rs, doctor.Skills(claudeDir, self, doctor.Plugin(settings))...)
	}
	if len(e.Paths.Problems) > 0 {
		r := doctor.Result{Name: "paths", Status: doctor.Warn, Detail: strings.Join(e.Paths.Problems, "; ")}
		if !e.Paths.Resolved() {
			r.Status = doctor.Fail
			r.Fix = "set HOME to your home folder (or ZONELINE_CONFIG and ZONELINE_STATE_DIR to absolute paths): without them the status line keeps no state and the hooks do nothing"
		} else {
			r.Fix = "give these variables absolute paths, or unset them"
		}
		rs = append(rs, r)
	}
	if e.Paths.Config != "" {
		rs = append(rs, doctor.Config(e.Paths.Config))
	}
	if e.Paths.StateDir != "" {
		rs = append(rs, doctor.StateDir(e.Paths.StateDir))
	}

	last := doctor.LastSession(e.State)
	rs = append(rs, doctor.Payloads(last, e.Now())...)

	cfg, cfgErr := config.Load(e.Paths.Config)
	if cfgErr != nil {
		cfg = config.Default()
	}
	sp := notify.Spawner{Getenv: e.Getenv, StateDir: e.Paths.StateDir, Exe: self}
	companion, findErr := sp.FindCompanion()
	bus := notify.HaveBus(e.Getenv)
	var sent error
	if o.notify && cfg.Notify.Enabled && findErr == nil && bus {
		sent = sendTest(companion, notify.Notification{
			Title: "zoneline: test notification", Body: "zoneline doctor -notify: notifications work.",
			AppName: cfg.Notify.AppName, Urgency: cfg.Notify.Urgency,
		}, e.Paths.StateDir)
	}
	rs = append(rs, doctor.Notify(cfg.Notify.Enabled, companion, findErr, bus, o.notify && findErr == nil && bus, sent))

	window := int64(zones.DefaultWindow)
	modelID := ""
	if last != nil {
		modelID = last.ModelID
		if last.Window > 0 {
			window = last.Window
		}
	}
	window = zones.Window(window, modelID, cfg.Window)
	wd, _ := os.Getwd() // the working directory's .claude settings also count
	rs = append(rs, doctor.AutoCompact(zones.AutoCompact(e.pipeline().CompactInput(cfg, window, wd)), window))
	rs = append(rs, doctor.Mod(e.Paths.ClaudeDir, self))
	rs = append(rs, doctor.Log(e.State.LogPath(), e.Now()))
	return rs
}

// lookPath finds name in the PATH value given (not the process's own, so tests can set it).
// Only absolute entries count: an empty, "." or relative one names the folder zoneline runs in,
// a project's, as it does for the plugin's hooks/run (install.PluginBinary).
func lookPath(name, path string) (string, error) {
	for _, d := range filepath.SplitList(path) {
		if !filepath.IsAbs(d) {
			continue
		}
		p := filepath.Join(d, name)
		if lp, err := exec.LookPath(p); err == nil {
			return lp, nil
		}
	}
	return "", exec.ErrNotFound
}
