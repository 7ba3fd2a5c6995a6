// Package notifytest gives tests a private D-Bus session bus (a dbus-daemon with no service
// activation, so nothing installed on the machine is ever auto-started) and a fake desktop
// notification server on it that records every Notify call. Only tests import it.
//
//	bus := notifytest.StartBus(t)           // skips when dbus-daemon is not installed
//	rcv := bus.Receiver(t, notifytest.Answer)
//	cmd.Env = append(cmd.Env, bus.Env())   // DBUS_SESSION_BUS_ADDRESS=…
//	recs := rcv.Wait(t, 1, 10*time.Second)
//
// The daemon is stopped by its PID at cleanup, never by name.
package notifytest

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"
)

// busConf is a session bus without <standard_session_servicedirs/>: no service activation.
const busConf = `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <keep_umask/>
  <listen>unix:tmpdir=/tmp</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
`

// startTimeout bounds the daemon's start.
const startTimeout = 10 * time.Second

// Bus is a private session bus.
type Bus struct {
	Addr string // its address, unix:path=…
	Dir  string // holds bus.conf and the socket
	PID  int
}

// Daemon returns dbus-daemon's path, or "" when it is not installed.
func Daemon() string {
	p, err := exec.LookPath("dbus-daemon")
	if err != nil {
		return ""
	}
	return p
}

// StartBus starts a private bus for tb and stops it (by PID) at cleanup. It skips tb when
// dbus-daemon is not installed.
func StartBus(tb testing.TB) *Bus {
	tb.Helper()
	daemon := Daemon()
	if daemon == "" {
		tb.Skip("dbus-daemon is not installed (Debian: dbus-daemon)")
	}
	// A short dir: a unix socket path must fit in 108 bytes.
	dir, err := os.MkdirTemp("", "zl-bus-")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { os.RemoveAll(dir) })
	conf := filepath.Join(dir, "bus.conf")
	if err := os.WriteFile(conf, []byte(busConf), 0o600); err != nil {
		tb.Fatal(err)
	}
	cmd := exec.Command(daemon, "--config-file="+conf, "--nofork", "--print-address=1",
		"--address=unix:path="+filepath.Join(dir, "bus"))
	out, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		tb.Fatalf("starting dbus-daemon: %v", err)
	}
	tb.Cleanup(func() {
		cmd.Process.Kill() // by PID: the daemon this test started
		cmd.Wait()
	})
	line := make(chan string, 1)
	go func() {
		s, _ := bufio.NewReader(out).ReadString('\n')
		line <- strings.TrimSpace(s)
	}()
	select {
	case addr := <-line:
		if addr == "" {
			tb.Fatal("dbus-daemon printed no address")
		}
		return &Bus{Addr: addr, Dir: dir, PID: cmd.Process.Pid}
	case <-time.After(startTimeout):
		tb.Fatalf("dbus-daemon gave no address within %s", startTimeout)
	}
	return nil
}

// Env returns the environment entry that points a process at the bus.
func (b *Bus) Env() string { return "DBUS_SESSION_BUS_ADDRESS=" + b.Addr }

// Mode is how the fake server answers Notify.
type Mode int

const (
	Answer Mode = iota // answer at once
	Hang               // never answer (until the test ends): a stuck server
)

// Record is one Notify call the server received.
type Record struct {
	Received time.Time
	Sender   string
	AppName  string
	Summary  string
	Body     string
	Hints    map[string]any
	Expire   int32
}

// Receiver is a fake org.freedesktop.Notifications server.
type Receiver struct {
	mu       sync.Mutex
	recs     []Record
	answered int
	mode     Mode
	release  chan struct{}
	arrived  chan struct{}
	conn     *dbus.Conn
}

// Receiver connects to the bus, owns org.freedesktop.Notifications and records every Notify.
func (b *Bus) Receiver(tb testing.TB, mode Mode) *Receiver {
	tb.Helper()
	conn, err := dbus.Connect(b.Addr) // never autolaunches
	if err != nil {
		tb.Fatalf("connecting to the test bus: %v", err)
	}
	r := &Receiver{mode: mode, release: make(chan struct{}), arrived: make(chan struct{}, 1000), conn: conn}
	tb.Cleanup(func() {
		close(r.release)
		conn.Close()
	})
	if err := conn.Export(server{r}, "/org/freedesktop/Notifications", "org.freedesktop.Notifications"); err != nil {
		tb.Fatal(err)
	}
	reply, err := conn.RequestName("org.freedesktop.Notifications", dbus.NameFlagDoNotQueue)
	if err != nil || reply != dbus.RequestNameReplyPrimaryOwner {
		tb.Fatalf("owning org.freedesktop.Notifications: reply %v, %v", reply, err)
	}
	return r
}

// server holds the exported methods (the D-Bus names must be the method names).
type server struct{ r *Receiver }

func (s server) Notify(sender dbus.Sender, appName string, replacesID uint32, appIcon, summary, body string,
	actions []string, hints map[string]dbus.Variant, expire int32) (uint32, *dbus.Error) {
	r := s.r
	rec := Record{Received: time.Now(), Sender: string(sender), AppName: appName, Summary: summary, Body: body,
		Hints: map[string]any{}, Expire: expire}
	for k, v := range hints {
		rec.Hints[k] = v.Value()
	}
	r.mu.Lock()
	r.recs = append(r.recs, rec)
	id := uint32(len(r.recs))
	r.mu.Unlock()
	r.arrived <- struct{}{}
	if r.mode == Hang {
		<-r.release
		return 0, dbus.MakeFailedError(fmt.Errorf("test over"))
	}
	r.mu.Lock()
	r.answered++
	r.mu.Unlock()
	return id, nil
}

func (server) GetCapabilities() ([]string, *dbus.Error) { return []string{"body"}, nil }

func (server) GetServerInformation() (string, string, string, string, *dbus.Error) {
	return "zoneline-notifytest", "zoneline", "1.0", "1.2", nil
}

func (server) CloseNotification(id uint32) *dbus.Error { return nil }

// Records returns the Notify calls received so far.
func (r *Receiver) Records() []Record {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Record(nil), r.recs...)
}

// Answered returns how many Notify calls were answered.
func (r *Receiver) Answered() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.answered
}

// Wait waits until at least n calls have arrived and returns them; it fails tb after timeout.
func (r *Receiver) Wait(tb testing.TB, n int, timeout time.Duration) []Record {
	tb.Helper()
	deadline := time.After(timeout)
	for {
		if recs := r.Records(); len(recs) >= n {
			return recs
		}
		select {
		case <-r.arrived:
		case <-deadline:
			tb.Fatalf("notifytest: %d Notify calls after %s, want %d", len(r.Records()), timeout, n)
		}
	}
}

// DaemonPIDs returns the PIDs of every running dbus-daemon (from /proc), to check that nothing
// started a stray one.
func DaemonPIDs() map[int]bool {
	out := map[int]bool{}
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		var pid int
		if _, err := fmt.Sscanf(e.Name(), "%d", &pid); err != nil {
			continue
		}
		comm, err := os.ReadFile(filepath.Join("/proc", e.Name(), "comm"))
		if err != nil || strings.TrimSpace(string(comm)) != "dbus-daemon" {
			continue
		}
		if st, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat")); err == nil && strings.Contains(string(st), ") Z ") {
			continue // a zombie is gone
		}
		out[pid] = true
	}
	return out
}
