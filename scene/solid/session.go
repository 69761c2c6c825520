package solid

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/geom"
	"github.com/cadrun/cadrun/scene/solid/internal/manifold"
)

// Errors of the solid operations; each is wrapped with the details.
var (
	// ErrMixed is returned when an operation on solids is given a 2D shape, or the reverse.
	ErrMixed = errors.New("solids and 2D shapes do not mix")
	// ErrNoKernel is returned when the binary was built without the solids kernel.
	ErrNoKernel = manifold.ErrNoKernel
	// ErrKernel is returned when the kernel fails or refuses its input.
	ErrKernel = manifold.ErrKernel
)

// MaxKernelMemory is the most memory the kernel may take: half of a run's memory by default.
const MaxKernelMemory = manifold.MaxKernelMemory

// Default chord tolerance: an arc's sagitta stays within DefaultRelTolerance of its radius or
// DefaultAbsTolerance (scene units), whichever is larger, so that a small hole is not cut into
// hundreds of facets and a large one stays smooth (docs/decisions.md, "Solids: facets").
const (
	DefaultRelTolerance = 1e-3
	DefaultAbsTolerance = 0.01
	// MaxSegments caps the segments a script may ask a whole circle to have.
	MaxSegments = 10_000
)

// MemoryInUse is the memory of every live kernel in this process, in bytes. It lies outside
// Go's heap where the system can map memory, so a watch on the process's memory adds it.
func MemoryInUse() int64 { return manifold.MemoryInUse() }

// Options configure a Session.
type Options struct {
	// MaxMemory caps the kernel's memory in bytes; 0 means MaxKernelMemory.
	MaxMemory uint64
	// NoInterrupt runs the kernel without checking the context inside a call; see
	// manifold.Options. For a worker process, which is stopped from outside past its time.
	NoInterrupt bool
}

// Session makes and combines the solids of one run. The kernel is started at the first call
// that needs it, so a run that makes no solid never loads it; Close ends it.
type Session struct {
	opts Options
	k    *manifold.Kernel
	// live holds the kernel's copies of recently made or used solids by their scene
	// geometry, least recently used first, so that a solid just made (a hole, a rib, the
	// result of one boolean) is the next boolean's operand without a copy back into the
	// kernel; liveTriangles is their triangles together.
	live          []liveSolid
	liveTriangles int
	// maxLiveTriangles is MaxLiveTriangles (a test sets less).
	maxLiveTriangles int
}

// liveSolid is a kept kernel copy: of a solid in the scene, by its geometry (key is a
// *scene.Solid), or of a primitive about the origin that solids are moved from (a primitive).
type liveSolid struct {
	key       any
	ms        *manifold.Solid
	triangles int
}

// The kernel copies a session keeps for reuse, least recently used freed first: at most
// MaxLiveSolids of them and MaxLiveTriangles triangles together (about 56 MB of the kernel's
// memory at the 210 to 220 bytes a triangle it holds per solid), beside the one solid made
// last, which is kept whatever its size. Copying a solid back costs about as much as making it
// (W5's 200 holes, copied back, were a tenth of its time); keeping them costs the kernel's
// memory, which booleans need too.
const (
	MaxLiveSolids    = 1024
	MaxLiveTriangles = 1 << 18
)

// New returns a session; nothing starts until a solid is made.
func New(opts Options) *Session { return &Session{opts: opts, maxLiveTriangles: MaxLiveTriangles} }

// Close frees the kernel. The session must not be used after.
func (ss *Session) Close(ctx context.Context) {
	if ss.k != nil {
		_ = ss.k.Close(context.WithoutCancel(ctx))
		ss.k = nil
	}
	ss.live, ss.liveTriangles = nil, 0
}

// kernel starts the kernel if it has not started.
func (ss *Session) kernel(ctx context.Context) (*manifold.Kernel, error) {
	if ss.k != nil {
		return ss.k, nil
	}
	k, err := manifold.New(ctx, manifold.Options{MaxMemory: ss.opts.MaxMemory, NoInterrupt: ss.opts.NoInterrupt})
	if err != nil {
		return nil, err
	}
	ss.k = k
	return k, nil
}

// keep records a kernel copy of n triangles under key, freeing the least recently used
// copies past MaxLiveSolids or MaxLiveTriangles (never the one just kept).
func (ss *Session) keep(ctx context.Context, key any, ms *manifold.Solid, n int) {
	ss.live = append(ss.live, liveSolid{key, ms, n})
	ss.liveTriangles += n
	drop := 0
	for len(ss.live)-drop > 1 && (len(ss.live)-drop > MaxLiveSolids || ss.liveTriangles > ss.maxLiveTriangles) {
		ss.live[drop].ms.Free(ctx)
		ss.liveTriangles -= ss.live[drop].triangles
		drop++
	}
	if drop > 0 {
		ss.live = append(ss.live[:0], ss.live[drop:]...)
	}
}

// reuse is the copy kept under key, marked used now, or nil. A copy from a kernel instance
// that has ended since (a failure restarts the kernel) is dropped, so that the caller makes
// or copies the solid again instead of answering ErrStale.
func (ss *Session) reuse(key any) *manifold.Solid {
	for i := len(ss.live) - 1; i >= 0; i-- {
		if l := ss.live[i]; l.key == key {
			copy(ss.live[i:], ss.live[i+1:])
			if l.ms.Stale() {
				ss.live = ss.live[:len(ss.live)-1]
				ss.liveTriangles -= l.triangles
				return nil
			}
			ss.live[len(ss.live)-1] = l
			return l.ms
		}
	}
	return nil
}

// finish reads a kernel solid back as scene geometry (identity placement), with its recipe,
// keeping the kernel's copy for reuse.
func (ss *Session) finish(ctx context.Context, ms *manifold.Solid, r scene.Recipe, form *scene.Form) (*scene.Solid, error) {
	m, err := ms.Mesh(ctx)
	if err != nil {
		ms.Free(ctx)
		return nil, kernelError(err)
	}
	if n := len(m.Triangles) / 3; n > scene.MaxSolidTriangles {
		ms.Free(ctx)
		return nil, fmt.Errorf("%w: the solid has %d triangles, over %d (MaxSolidTriangles); use fewer segments or a coarser tolerance", scene.ErrLimit, n, scene.MaxSolidTriangles)
	}
	if len(m.Triangles) == 0 {
		ms.Free(ctx)
		return nil, fmt.Errorf("%w: the %s is empty", scene.ErrEmptyResult, r.Op)
	}
	sd := &scene.Solid{Mesh: &scene.Mesh{Vertices: m.Vertices, Triangles: m.Triangles}, Place: scene.Identity3, Recipe: r, Form: form}
	ss.keep(ctx, sd, ms, len(m.Triangles)/3)
	return sd, nil
}

// operand is the kernel's copy of a solid placed in the world by w: the one kept when it is
// there and w changes nothing, else its mesh placed and copied in. owned reports a copy the
// caller frees.
func (ss *Session) operand(ctx context.Context, sd *scene.Solid, w scene.Affine3) (ms *manifold.Solid, owned bool, err error) {
	if w == scene.Identity3 {
		if ms := ss.reuse(sd); ms != nil {
			return ms, false, nil
		}
	}
	k, err := ss.kernel(ctx)
	if err != nil {
		return nil, false, err
	}
	m := sd.Mesh
	out := manifold.Mesh{Vertices: make([]float32, len(m.Vertices)), Triangles: m.Triangles}
	for i := range uint32(m.NumVertices()) {
		p := w.Apply(m.Vertex(i))
		out.Vertices[3*i], out.Vertices[3*i+1], out.Vertices[3*i+2] = float32(p[0]), float32(p[1]), float32(p[2])
	}
	if w.Det() < 0 { // a mirror turns the triangles inside out: turn them back
		out.Triangles = make([]uint32, len(m.Triangles))
		for t := 0; t < len(m.Triangles); t += 3 {
			out.Triangles[t], out.Triangles[t+1], out.Triangles[t+2] = m.Triangles[t], m.Triangles[t+2], m.Triangles[t+1]
		}
	}
	ms, err = k.FromMesh(ctx, out)
	if err != nil {
		return nil, false, kernelError(err)
	}
	return ms, true, nil
}

// kernelError says what a kernel failure means to a script.
func kernelError(err error) error {
	switch {
	case errors.Is(err, manifold.ErrMemoryLimit):
		return fmt.Errorf("%w: the solids needed more memory than the kernel's %d MB (MaxKernelMemory); use fewer segments or fewer solids", scene.ErrLimit, MaxKernelMemory>>20)
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled):
		return err
	}
	return err
}

// chords is the chord rule of a tolerance and a segment count a script gave (0: none).
func chords(tolerance float64, segments int) (scene.Chords, error) {
	if segments < 0 || segments > MaxSegments {
		return scene.Chords{}, fmt.Errorf("%w: segments must be 3 to %d (MaxSegments), got %d", scene.ErrLimit, MaxSegments, segments)
	}
	if segments > 0 && segments < 3 {
		return scene.Chords{}, fmt.Errorf("%w: segments must be 3 to %d, got %d", scene.ErrBadGeometry, MaxSegments, segments)
	}
	if tolerance < 0 || math.IsNaN(tolerance) || math.IsInf(tolerance, 0) {
		return scene.Chords{}, fmt.Errorf("%w: tolerance must be a number > 0, got %v", scene.ErrBadGeometry, tolerance)
	}
	if segments > 0 {
		return scene.Chords{Segments: segments}, nil
	}
	if tolerance > 0 {
		return scene.Chords{Abs: tolerance}, nil
	}
	return scene.Chords{Rel: DefaultRelTolerance, Abs: DefaultAbsTolerance}, nil
}

// circleSegments is the segment count of a whole circle of radius r under ch, at least 3.
func circleSegments(r float64, ch scene.Chords) int {
	if ch.Segments > 0 {
		return ch.Segments
	}
	return max(3, geom.ArcSegments(r, 2*math.Pi, math.Max(ch.Rel*r, ch.Abs)))
}
