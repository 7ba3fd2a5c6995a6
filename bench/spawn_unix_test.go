//go:build unix

package bench

import (
	"os"
	"sort"
	"syscall"
	"testing"
	"time"

	"github.com/zoneline/zoneline/internal/procbench"
)

// BenchmarkSpawnCompanion measures what a render that notifies cannot avoid: forking the
// companion as notify does (syscall.ForkExec, own session, stdio on /dev/null), which returns
// once the child has called exec. Here from this test process, with no session bus (the child
// exits at once); each spawn is reaped and the machine left to settle, untimed. It reports
// the median and the 10th percentile ("p10-us"), the floor under BenchmarkStatuslineNotify.
func BenchmarkSpawnCompanion(b *testing.B) {
	bin := procbench.Build(b, "./cmd/zoneline-notify")
	null, err := syscall.Open(os.DevNull, syscall.O_RDWR|syscall.O_CLOEXEC, 0)
	if err != nil {
		b.Fatal(err)
	}
	defer syscall.Close(null)
	fd := uintptr(null)
	attr := &syscall.ProcAttr{Dir: "/", Env: []string{"PATH=/usr/bin:/bin", "DBUS_SESSION_BUS_ADDRESS=unix:path=/nonexistent"},
		Files: []uintptr{fd, fd, fd}, Sys: &syscall.SysProcAttr{Setsid: true}}
	argv := []string{bin, "-deadline", "1s", "--", "title", "body"}
	ds := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for range b.N {
		start := time.Now()
		pid, err := syscall.ForkExec(bin, argv, attr)
		ds = append(ds, time.Since(start))
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		var ws syscall.WaitStatus
		syscall.Wait4(pid, &ws, 0, nil)
		time.Sleep(5 * time.Millisecond)
		b.StartTimer()
	}
	b.StopTimer()
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	b.ReportMetric(float64(ds[len(ds)/2].Microseconds()), "median-us")
	b.ReportMetric(float64(ds[len(ds)/10].Microseconds()), "p10-us")
}
