package tools

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/cadrun/cadrun/runtime"
	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/solid"
)

// The measure tool on solids. Volumes and areas are read from the recipe or the mesh in Go;
// gaps and shared volumes need the kernel, which runs here in the server on the last good
// scene, one measure at a time (solidMeasures), within a run's time and the kernel's memory
// cap (docs/limits.md, "Inside the server").
var solidMeasures = make(chan struct{}, 1)

// measureSolids answers the measure ops on solids; done is false when name is not a solid
// (or, for distance, neither name nor to is), so that the 2D measure answers.
func measureSolids(ctx context.Context, sc *scene.Scene, in MeasureIn, limit int, len1 func(float64) float64, out *MeasureOut) (done bool, err error) {
	if in.Name == "" {
		return false, nil
	}
	me, ok, err := solid.Lookup(sc, []string{in.Name})
	if err != nil {
		return true, err
	}
	if !ok {
		if in.Op == "volume" || in.Op == "surfaceArea" {
			return true, fmt.Errorf("%w: %q is not a solid and holds none; %s measures solids (area measures a 2D shape)", ErrBadInput, in.Name, in.Op)
		}
		if in.Op == "distance" && in.To != "" {
			if _, okTo, _ := solid.Lookup(sc, []string{in.To}); okTo {
				return true, fmt.Errorf("%w: distance measures between two solids or two 2D shapes; %q is a 2D shape and %q a solid", solid.ErrMixed, in.Name, in.To)
			}
		}
		return false, nil
	}
	switch in.Op {
	case "volume", "surfaceArea":
		m := solid.MeasureAll(me)
		v, exact := m.Volume, m.VolumeExact
		if in.Op == "surfaceArea" {
			v, exact = m.Surface, m.SurfaceExact
		}
		v = roundSignificant(v)
		if in.Op == "volume" {
			out.Volume = &v
		} else {
			out.SurfaceArea = &v
		}
		if !exact {
			out.Note = "measured on the mesh (a 3D boolean's result, or a placement that is not a similarity): the facets' " + in.Op + ", not the curved solid's"
		}
		return true, nil
	case "distance", "clearance", "overlaps":
		if in.Boundary || in.From != "" {
			return true, fmt.Errorf("%w: %q is a solid; boundary and from measure 2D outlines, and a distance between solids takes neither", ErrBadInput, in.Name)
		}
		return true, withKernel(ctx, func(ctx context.Context, ss *solid.Session) error {
			return measureSolidPairs(ctx, ss, sc, in, me, limit, len1, out)
		})
	case "area", "perimeter", "centroid":
		return true, fmt.Errorf("%w: %q is a solid; measure volume, surfaceArea or bounds", ErrBadInput, in.Name)
	}
	return false, nil
}

// withKernel runs f with a solids session of its own, one at a time in this process, under a
// run's time.
func withKernel(ctx context.Context, f func(context.Context, *solid.Session) error) error {
	select {
	case solidMeasures <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-solidMeasures }()
	ctx, cancel := context.WithTimeout(ctx, runtime.DefaultLimits.Timeout)
	defer cancel()
	ss := solid.New(solid.Options{})
	defer ss.Close(ctx)
	if err := f(ctx, ss); err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("%w: measuring between solids took longer than %v (Limits.Timeout); measure fewer or simpler solids", scene.ErrLimit, runtime.DefaultLimits.Timeout)
		}
		return err
	}
	return nil
}

func measureSolidPairs(ctx context.Context, ss *solid.Session, sc *scene.Scene, in MeasureIn, me []solid.Placed, limit int, len1 func(float64) float64, out *MeasureOut) error {
	gapTo := func(ps []solid.Placed) (float64, error) { return ss.GapBetween(ctx, me, ps) }
	lookup := func(name string) ([]solid.Placed, error) {
		ps, ok, err := solid.Lookup(sc, []string{name})
		if err == nil && !ok {
			err = fmt.Errorf("%w: %q is a solid and %q is not; solids are measured against solids", solid.ErrMixed, in.Name, name)
		}
		return ps, err
	}
	switch in.Op {
	case "distance":
		if in.To == "" {
			return fmt.Errorf("%w: measure distance from a solid takes to, another solid", ErrBadInput)
		}
		ps, err := lookup(in.To)
		if err != nil {
			return err
		}
		n, err := ss.NearestBetween(ctx, me, ps)
		if err != nil {
			return err
		}
		out.Gap = &MeasureGap{Distance: len1(n.Gap)}
		if n.Points {
			for i := range 3 {
				out.Gap.A, out.Gap.B = append(out.Gap.A, len1(n.A[i])), append(out.Gap.B, len1(n.B[i]))
			}
		} else if n.Gap == 0 {
			out.Note = "the solids touch or overlap: no one pair of points is the closest (overlaps gives the shared volume)"
		} else {
			out.Note = fmt.Sprintf("the closest points were not looked for: they would take over %d pairs of triangles (MaxClosestPairs)", solid.MaxClosestPairs)
		}
	case "clearance":
		others := in.Others
		if others == nil {
			others = sc.OtherSolids(in.Name)
		}
		for _, o := range others {
			ps, err := lookup(o)
			if err != nil {
				return err
			}
			g, err := gapTo(ps)
			if err != nil {
				return err
			}
			out.Gaps = append(out.Gaps, MeasureGap{Name: o, Distance: len1(g)})
		}
		slices.SortStableFunc(out.Gaps, func(a, b MeasureGap) int { return cmp.Compare(a.Distance, b.Distance) })
		n := len(out.Gaps)
		out.Count = &n
		out.Gaps = out.Gaps[:min(limit, n)]
		if out.Gaps == nil {
			out.Gaps = []MeasureGap{}
		}
	case "overlaps":
		out.Overlaps = []MeasureOverlap{}
		for _, o := range sc.OtherSolids(in.Name) {
			ps, err := lookup(o)
			if err != nil {
				return err
			}
			v, err := ss.OverlapBetween(ctx, me, ps)
			if err != nil {
				return err
			}
			if v > 0 {
				out.Overlaps = append(out.Overlaps, MeasureOverlap{Name: o, Volume: roundSignificant(v)})
			}
		}
		slices.SortStableFunc(out.Overlaps, func(a, b MeasureOverlap) int { return cmp.Compare(b.Volume, a.Volume) })
		n := len(out.Overlaps)
		out.Count = &n
		out.Overlaps = out.Overlaps[:min(limit, n)]
	}
	return nil
}
