package tools

// The scene tool's views of the scene: newView checks a call's paging, budget and picture
// parameters as the tool takes them; package sceneview answers the lists, an entity, the SVG
// and the JSON within the budget, and package picture draws the png.

import (
	"context"
	"fmt"

	"github.com/cadrun/cadrun/render"
	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/tools/engine"
	"github.com/cadrun/cadrun/tools/picture"
	"github.com/cadrun/cadrun/tools/sceneview"
)

// Answer budgets, in bytes (package picture's, which draws within them).
const (
	DefaultTextBudget  = picture.DefaultTextBudget
	DefaultImageBudget = picture.DefaultImageBudget
	MaxAnswerBudget    = picture.MaxAnswerBudget
)

// The answers of tree and groups are package sceneview's.
type (
	TreeNode  = sceneview.TreeNode
	GroupView = sceneview.GroupView
)

// view holds what every view of one call needs: the page of the scene asked for, and the
// call's parameters as given.
type view struct {
	sceneview.Page
	in SceneIn
}

// newView checks the paging and budget parameters of in.
func newView(sc *scene.Scene, in SceneIn) (*view, error) {
	if in.Offset < 0 || in.Depth < 0 {
		return nil, fmt.Errorf("%w: offset %d, depth %d: give 0 or more", ErrBadInput, in.Offset, in.Depth)
	}
	budget := DefaultTextBudget
	if in.Command == "png" {
		budget = DefaultImageBudget
	}
	switch {
	case in.MaxBytes < 0 || in.MaxBytes > MaxAnswerBudget:
		return nil, fmt.Errorf("%w: max_bytes %d: give 1..%d (MaxAnswerBudget), or leave it out for the default %d",
			ErrBadInput, in.MaxBytes, MaxAnswerBudget, budget)
	case in.MaxBytes > 0:
		budget = in.MaxBytes
	}
	if in.Height < 0 || in.Height > render.MaxPNGSide || in.Height > 0 && in.Command != "png" {
		return nil, fmt.Errorf("%w: height %d: give 1..%d pixels (MaxPNGSide) for png, or leave it out for the width's proportion", ErrBadInput, in.Height, render.MaxPNGSide)
	}
	if in.Command != "png" && (!in.Focus.IsZero() || in.Highlight != nil || in.Grid) {
		return nil, fmt.Errorf("%w: focus, highlight and grid are for png (and for view with a change); %s draws no picture", ErrBadInput, in.Command)
	}
	if !in.Focus.IsZero() && in.Region != nil {
		return nil, fmt.Errorf("%w: give focus or region, not both: region shows only the shapes reaching into it, focus frames one place with everything around it", ErrBadInput)
	}
	if in.Region != nil {
		r := in.Region
		if len(r) != 4 || !engine.Finite(r...) || !(r[0] < r[2] && r[1] < r[3]) {
			return nil, fmt.Errorf("%w: region %v: give [minX, minY, maxX, maxY] in world units, finite, min below max", ErrBadInput, r)
		}
	}
	return &view{Page: sceneview.Page{Scene: sc, Name: in.Name, Group: in.Group, Offset: in.Offset, Depth: in.Depth,
		Region: in.Region, Geometry: in.Geometry, Budget: budget}, in: in}, nil
}

// png draws the selection as a picture of the asked width (default: the longer side
// DefaultPNGSide), framed on focus and marked with highlight and grid; a picture over the
// budget is drawn narrower until it fits.
func (v *view) png(ctx context.Context, last func() picture.Change) ([]byte, *ImageInfo, *Omitted, error) {
	base := v.Scene
	if v.in.Name != "" {
		base = v.Scene.Subset(func(e *scene.Entity) bool { return sceneview.Under(v.Scene, e, v.in.Name) })
	}
	sc, win, err := v.Selection()
	if err != nil {
		return nil, nil, nil, err
	}
	p := &picture.Picture{Base: base, Shown: sc, Window: win, Width: v.in.Width, Height: v.in.Height, Auto: v.in.Width == 0 && v.in.Height == 0,
		Grid: v.in.Grid, Rings: v.in.Rings, Budget: v.Budget, Camera: v.in.View.From}
	if err := p.Frame(v.Scene, v.in.Focus, "focus"); err != nil {
		return nil, nil, nil, err
	}
	if err := p.Mark(v.Scene, v.in.Highlight, last, "highlight"); err != nil {
		return nil, nil, nil, err
	}
	return p.Draw(ctx)
}
