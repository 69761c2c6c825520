package importer

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/cadrun/cadrun/tools/importer/dxf"
	"github.com/cadrun/cadrun/tools/importer/svg"
)

// panicFormat is a format this test binary's workers read by panicking, as the importer did on
// a HATCH boundary of -5 vertices: the worker runs in this binary, whose variables are set
// before any init function serves.
const panicFormat = "panic"

var _ = func() bool {
	convert = func(format string, data []byte, opt Options) (string, *Report, error) {
		if format == panicFormat {
			var n int
			fmt.Sscan(string(data), &n)
			_ = make([]float64, 0, n)
		}
		return Import(format, data, opt)
	}
	return true
}()

// bigDXF is a valid drawing of n lines.
func bigDXF(n int) []byte {
	var b strings.Builder
	b.WriteString("0\nSECTION\n2\nENTITIES\n")
	for i := range n {
		fmt.Fprintf(&b, "0\nLINE\n8\nL%d\n10\n%d\n20\n0\n11\n%d\n21\n1\n", i%50, i, i+1)
	}
	b.WriteString("0\nENDSEC\n0\nEOF\n")
	return []byte(b.String())
}

const smaller = "import a few layers at a time (-layers) or simplify the drawing"

// TestPoolStopsAtLimits: an import past its time or memory is stopped and refused with an
// error naming the limit and what to do, and the Pool's next import runs in a fresh worker.
// Each case sets the other limit far out of reach, so that the one under test is met first; a
// panic in the importer is refused naming it as the importer's failure on the file.
func TestPoolStopsAtLimits(t *testing.T) {
	t.Parallel()
	big := bigDXF(90_000)
	for _, tc := range []struct {
		name   string
		opt    PoolOptions
		format string
		data   []byte
		want   string
	}{
		{"memory", PoolOptions{Time: time.Minute, Memory: 16 << 20}, "dxf", big,
			"cannot import: converting the drawing needed more than 16 MB of memory (MaxImportMemory) and was stopped; " + smaller},
		{"time", PoolOptions{Time: 200 * time.Millisecond}, "dxf", big,
			"cannot import: converting the drawing took longer than 200ms (MaxImportTime) and was stopped; " + smaller},
		{"panic", PoolOptions{}, panicFormat, []byte("-5"),
			"cannot import: the importer failed on this file (panic: runtime error: makeslice: cap out of range), a fault of cadrun's; " +
				"import a few layers at a time (-layers) to get past the entity it fails on"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p := NewPool(tc.opt)
			defer p.Close()
			_, _, err := p.Import(context.Background(), tc.format, tc.data, Options{})
			if !errors.Is(err, ErrRefused) {
				t.Fatalf("got %v, want ErrRefused", err)
			}
			if diff := cmp.Diff(tc.want, err.Error()); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
			code, _, err := p.Import(context.Background(), "dxf", bigDXF(3), Options{})
			if err != nil || !strings.Contains(code, "drawLine(") {
				t.Errorf("the import after the refusal: %v\n%s", err, code)
			}
		})
	}
}

// TestPoolAnswersAsImport: in its worker an import answers what Import answers in process,
// the module and the report, or the error word for word and wrapping the same sentinels.
func TestPoolAnswersAsImport(t *testing.T) {
	t.Parallel()
	// The answers are under test, not the time limit: a drawing of 100,001 entities takes
	// over MaxImportTime to convert under the race detector.
	p := NewPool(PoolOptions{Time: 2 * time.Minute})
	defer p.Close()
	for _, tc := range []struct {
		name   string
		format string
		data   string
		opt    Options
	}{
		{"dxf", "dxf", "0\nSECTION\n2\nENTITIES\n0\nCIRCLE\n8\nholes\n10\n5\n20\n5\n40\n2\n0\nPOINT\n8\nholes\n10\n0\n20\n0\n0\nENDSEC\n0\nEOF\n", Options{Source: "a.dxf"}},
		{"svg", "svg", `<svg xmlns="http://www.w3.org/2000/svg" width="10mm" height="10mm"><rect width="5" height="5"/></svg>`, Options{}},
		{"layers", "dxf", string(bigDXF(100)), Options{Layers: []string{"L1", "L7"}}},
		// Report.Data crosses the pipe beside the report. Time enough for the conversion
		// under the race detector on a busy machine, in process as in the worker.
		{"data files", "dxf", string(largeDXF(1<<20, 1)), Options{Source: "big.dxf", Limits: dxf.Limits{MaxTime: 2 * time.Minute}}},
		{"syntax", "dxf", "0\nSECTION\n2\nENTITIES\n0\nCIRCLE\n10\nabc\n0\nENDSEC\n0\nEOF\n", Options{}},
		{"binary", "dxf", "AutoCAD Binary DXF\r\n\x1a\x00", Options{}},
		{"over a limit", "dxf", string(bigDXF(10)), Options{Limits: dxf.Limits{MaxEntities: 3}}},
		// Time enough for the reading under the race detector on a busy machine: the
		// refusal under test is MaxDrawnEntities', not MaxTime's.
		{"refused", "dxf", string(bigDXF(MaxDrawnEntities + 1)), Options{Limits: dxf.Limits{MaxTime: 2 * time.Minute}}},
		{"units", "dxf", string(bigDXF(1)), Options{Units: "furlong"}},
		{"format", "dwg", "", Options{}},
		{"gzip", "svg", "\x1f\x8b\x08", Options{}},
		{"svg syntax", "svg", "<svg><g></svg>", Options{}},
		{"svg entities", "svg", `<!DOCTYPE svg [<!ENTITY a "b">]><svg/>`, Options{}},
		{"svg over a limit", "svg", `<svg><g><g/></g></svg>`, Options{SVGLimits: svg.Limits{MaxDepth: 1}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantCode, wantRep, wantErr := Import(tc.format, []byte(tc.data), tc.opt)
			code, rep, err := p.Import(context.Background(), tc.format, []byte(tc.data), tc.opt)
			if diff := cmp.Diff(fmt.Sprint(wantErr), fmt.Sprint(err)); diff != "" {
				t.Errorf("error mismatch (-in process +in the worker):\n%s", diff)
			}
			for _, s := range wireErrors {
				if errors.Is(wantErr, s) != errors.Is(err, s) {
					t.Errorf("in process %v, in the worker %v: errors.Is(%v) differs", wantErr, err, s)
				}
			}
			if diff := cmp.Diff(wantCode, code); diff != "" {
				t.Errorf("module mismatch (-in process +in the worker):\n%s", diff)
			}
			if diff := cmp.Diff(wantRep, rep, cmp.Transformer("empty", func(m map[string]int) map[string]int {
				if len(m) == 0 {
					return nil
				}
				return m
			})); diff != "" {
				t.Errorf("report mismatch (-in process +in the worker):\n%s", diff)
			}
		})
	}
}

// TestPoolCancelled: a cancelled import ends with the context's error.
func TestPoolCancelled(t *testing.T) {
	t.Parallel()
	p := NewPool(PoolOptions{Time: time.Minute})
	defer p.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := p.Import(ctx, "dxf", bigDXF(90_000), Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("got %v, want context.Canceled", err)
	}
}

// TestPoolRefusesUnreadFirst: a file over its format's size limit, or gzip-compressed, is
// refused in the caller's process, as Import refuses it, before any byte goes to a worker:
// with a time limit no worker could meet, the answer is still the file's own.
func TestPoolRefusesUnreadFirst(t *testing.T) {
	t.Parallel()
	p := NewPool(PoolOptions{Time: time.Nanosecond, KeepNone: true})
	defer p.Close()
	big := bytes.Repeat([]byte("0\n"), 64)
	for _, c := range []struct {
		format string
		data   []byte
		opt    Options
	}{
		{"dxf", big, Options{Limits: dxf.Limits{MaxBytes: 100}}},
		{"svg", big, Options{SVGLimits: svg.Limits{MaxBytes: 100}}},
		{"svg", []byte{0x1f, 0x8b, 8, 0}, Options{}},
	} {
		_, _, want := Import(c.format, c.data, c.opt)
		_, _, got := p.Import(context.Background(), c.format, c.data, c.opt)
		if want == nil || got == nil || got.Error() != want.Error() {
			t.Errorf("%s of %d bytes: pool %v; want Import's %v", c.format, len(c.data), got, want)
		}
	}
}
