package bench

import (
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"
)

// BenchmarkProcessCPU is BenchmarkProcess with the CPU time of every process a run starts
// (cadrun and its worker, user and system), as cpu-ms/op: on a shared machine other people's
// work stretches the wall time of a run far more than the CPU time it needs. A one-shot
// cadrun does not wait for its worker to end, so this process becomes the subreaper of what
// it starts and collects the worker itself.
func BenchmarkProcessCPU(b *testing.B) {
	bin := cadrun(b)
	if err := becomeSubreaper(); err != nil {
		b.Fatal(err)
	}
	for _, w := range workloads {
		b.Run(w.name, func(b *testing.B) {
			out := filepath.Join(b.TempDir(), "out.svg")
			var wall, cpu time.Duration
			for b.Loop() {
				before := childrenCPU()
				start := time.Now()
				cmd := exec.Command(bin, "run", w.script, "-o", out)
				if o, err := cmd.CombinedOutput(); err != nil {
					b.Fatalf("cadrun run %s: %v\n%s", w.script, err, o)
				}
				wall += time.Since(start)
				reapOrphans()
				cpu += childrenCPU() - before
			}
			// ms/op is spawn to cadrun's exit, what BenchmarkProcess measures; ns/op also
			// holds the wait for the worker's end.
			b.ReportMetric(float64(wall.Nanoseconds())/1e6/float64(b.N), "ms/op")
			b.ReportMetric(float64(cpu.Nanoseconds())/1e6/float64(b.N), "cpu-ms/op")
		})
	}
}

var subreaper = sync.OnceValue(func() error {
	const prSetChildSubreaper = 36 // PR_SET_CHILD_SUBREAPER, linux/prctl.h
	if _, _, e := syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0); e != 0 {
		return e
	}
	return nil
})

// becomeSubreaper makes processes orphaned below this one its children rather than init's.
func becomeSubreaper() error { return subreaper() }

// reapOrphans waits for every child left, the workers their parents left behind.
func reapOrphans() {
	for {
		var ws syscall.WaitStatus
		if _, err := syscall.Wait4(-1, &ws, 0, nil); err != nil {
			return // ECHILD: none left
		}
	}
}

// childrenCPU is the user and system time of the children waited for so far.
func childrenCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
