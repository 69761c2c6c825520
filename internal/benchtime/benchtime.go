// Package benchtime reports the median time of a benchmark's iterations beside the mean
// that ns/op shows: the targets that speak of a typical call (p50) are read from it, as
// a few slow iterations (an fsync that waits for the disk, a GC) move the mean a long way.
package benchtime

import (
	"slices"
	"testing"
	"time"
)

// Median collects iteration times for one benchmark.
type Median struct {
	b *testing.B
	d []time.Duration
}

// New starts collecting for b.
func New(b *testing.B) *Median { return &Median{b: b} }

// Add records one iteration that began at start.
func (m *Median) Add(start time.Time) { m.d = append(m.d, time.Since(start)) }

// Report adds the median as the metric p50-ms.
func (m *Median) Report() {
	if len(m.d) == 0 {
		return
	}
	slices.Sort(m.d)
	m.b.ReportMetric(float64(m.d[len(m.d)/2].Microseconds())/1000, "p50-ms")
}
