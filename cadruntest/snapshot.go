package cadruntest

// Snapshots. A test passes when what it drew matches the files in __snapshots__/; the scene
// is the reference (it says what changed in words), the SVG and PNG catch a change in how it
// is drawn even when the scene is the same (a renderer change).

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/draw"
	"image/png"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/cadrun/cadrun/modules"
	"github.com/cadrun/cadrun/render"
	"github.com/cadrun/cadrun/scene/text"
)

// Status is a test's outcome, as `cadrun test` prints it.
type Status string

// Outcomes.
const (
	StatusOK   Status = "ok"
	StatusFail Status = "FAIL"
	StatusNew  Status = "new" // snapshots were missing and have been written
)

// Report is a comparison with snapshots.
type Report struct {
	Status  Status
	Changes []string // what differs, one sentence each
	Written int      // snapshot files written (new or rewritten by Update)
	Images  []string // old, new and diff pictures left in Options.DiffDir
}

// Message is the changes, one per line.
func (r Report) Message() string { return strings.Join(r.Changes, "\n") }

// Compare compares out with the snapshot files snapDir/base.json, .svg and .png of the
// workspace ws (snapDir is a slash path in it: __snapshots__ or tests/__snapshots__), read and
// written through the workspace (confined, no-follow, capped: modules.Workspace.ReadSnapshot).
// Files missing from a snapshot that has its .json are not compared (delete the .png to stop
// comparing pictures); with no .json at all the snapshot is written, as new. Update
// rewrites all three.
func Compare(ws *modules.Workspace, snapDir, base string, out *Output, opt Options) (Report, error) {
	rels := snapshotPaths(snapDir, base)
	var paths [3]string // as messages show them
	for i, r := range rels {
		paths[i] = filepath.Join(ws.Dir(), filepath.FromSlash(r))
	}
	oldJSON, err := ws.ReadSnapshot(rels[0])
	missing := errors.Is(err, fs.ErrNotExist)
	if err != nil && !missing && !opt.Update {
		// Refused at the open (not a regular file, too large): the test fails saying so.
		return Report{Status: StatusFail, Changes: []string{err.Error()}}, nil
	}
	switch {
	case opt.Update:
		n, err := writeSnapshot(ws, rels, out)
		st := StatusOK
		if missing {
			st = StatusNew
		}
		return Report{Status: st, Written: n}, err
	case missing && opt.CI:
		return Report{Status: StatusFail, Changes: []string{fmt.Sprintf(
			"no snapshot: %s is missing, and CI=true does not write one; run `cadrun test -update` where the drawing is right and commit %s", paths[0], filepath.Dir(paths[0]))}}, nil
	case missing:
		n, err := writeSnapshot(ws, rels, out)
		return Report{Status: StatusNew, Written: n}, err
	}
	var rep Report
	var fonts map[string]*text.Font // the workspace fonts its texts use, to read the snapshot
	if out.Scene != nil {
		fonts = out.Scene.Fonts()
	}
	changes, err := diffScenes(oldJSON, out.JSON, opt.Tolerance, fonts)
	if err != nil {
		changes = []string{fmt.Sprintf("%s: %v; rewrite it with -update", paths[0], err)}
	}
	rep.Changes = changes
	if old, err := ws.ReadSnapshot(rels[1]); err == nil {
		if s := diffText(old, out.SVG); s != "" {
			rep.Changes = append(rep.Changes, filepath.Base(paths[1])+": "+s)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		rep.Changes = append(rep.Changes, err.Error())
	}
	if old, err := ws.ReadSnapshot(rels[2]); err == nil {
		s, images, err := diffPNG(old, out, paths[2], opt)
		if err != nil {
			return Report{}, err
		}
		if s != "" {
			rep.Changes = append(rep.Changes, filepath.Base(paths[2])+": "+s)
			rep.Images = images
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		rep.Changes = append(rep.Changes, err.Error())
	}
	rep.Status = StatusOK
	if len(rep.Changes) > 0 {
		rep.Status = StatusFail
	}
	return rep, nil
}

// snapshotPaths are the slash paths of a snapshot's three files in its workspace.
func snapshotPaths(dir, base string) [3]string {
	p := path.Join(dir, base)
	return [3]string{p + ".json", p + ".svg", p + ".png"}
}

// writeSnapshot writes the three files through the workspace, and counts those whose bytes
// changed. An empty scene has no pictures: its old .svg and .png are removed.
func writeSnapshot(ws *modules.Workspace, paths [3]string, out *Output) (int, error) {
	var pngData []byte
	if out.Image != nil {
		var err error
		if pngData, err = out.PNG(); err != nil {
			return 0, err
		}
	}
	n := 0
	for i, data := range [][]byte{out.JSON, out.SVG, pngData} {
		// A file that cannot be read (not there, or not a regular file) is replaced: the
		// write puts a regular file in its place.
		old, err := ws.ReadSnapshot(paths[i])
		exists := err == nil
		if data == nil {
			if exists {
				n++
				if err := ws.RemoveSnapshot(paths[i]); err != nil {
					return n, err
				}
			}
			continue
		}
		if exists && bytes.Equal(old, data) {
			continue
		}
		if err := ws.WriteSnapshot(paths[i], data); err != nil {
			return n, fmt.Errorf("writing the snapshot: %w", err)
		}
		n++
	}
	return n, nil
}

// diffText names the first line where two texts differ, or "".
func diffText(old, cur []byte) string {
	if bytes.Equal(old, cur) {
		return ""
	}
	if cur == nil {
		return "nothing is drawn any more"
	}
	a, b := strings.Split(string(old), "\n"), strings.Split(string(cur), "\n")
	for i := 0; ; i++ {
		switch {
		case i >= len(a):
			return fmt.Sprintf("%d lines added after line %d", len(b)-len(a), len(a))
		case i >= len(b):
			return fmt.Sprintf("%d lines removed after line %d", len(a)-len(b), len(b))
		case a[i] != b[i]:
			col := 0
			for col < len(a[i]) && col < len(b[i]) && a[i][col] == b[i][col] {
				col++
			}
			return fmt.Sprintf("differs from line %d, byte %d: was %s, now %s", i+1, col+1, clip(a[i], col), clip(b[i], col))
		}
	}
}

// clip shows the part of a line around byte col, at most 60 bytes.
func clip(s string, col int) string {
	start := max(0, col-20)
	end := min(len(s), start+60)
	out := s[start:end]
	if start > 0 {
		out = "..." + out
	}
	if end < len(s) {
		out += "..."
	}
	return "`" + out + "`"
}

// diffPNG compares the snapshot picture with the new one and, when they differ and
// DiffDir is set, leaves the old, new and difference pictures there.
func diffPNG(old []byte, out *Output, path string, opt Options) (string, []string, error) {
	if out.Image == nil {
		return "nothing is drawn any more", nil, nil
	}
	// The declared size first: a small file can declare a picture of gigabytes.
	cfg, err := png.DecodeConfig(bytes.NewReader(old))
	if err != nil {
		return fmt.Sprintf("the snapshot cannot be read (%v); rewrite it with -update", err), nil, nil
	}
	if cfg.Width > render.MaxPNGSide || cfg.Height > render.MaxPNGSide {
		return fmt.Sprintf("the snapshot declares a picture of %dx%d pixels, over %d a side (MaxPNGSide); it was not decoded: rewrite it with -update",
			cfg.Width, cfg.Height, render.MaxPNGSide), nil, nil
	}
	img, err := png.Decode(bytes.NewReader(old))
	if err != nil {
		return fmt.Sprintf("the snapshot cannot be read (%v); rewrite it with -update", err), nil, nil
	}
	a, b := img, image.Image(out.Image)
	resized := a.Bounds().Size() != b.Bounds().Size()
	if resized {
		// Compare what can be compared: both pictures on white, top-left aligned.
		a, b = padWhite(a, b), padWhite(b, a)
	}
	d, err := render.PixelDiff(a, b, render.DiffOptions{Threshold: opt.Threshold, Image: opt.DiffDir != ""})
	if err != nil {
		return "", nil, err
	}
	total := b.Bounds().Dx() * b.Bounds().Dy()
	msg := fmt.Sprintf("%d pixels differ (%.2f%%)", d.Different, 100*float64(d.Different)/float64(total))
	switch {
	case resized:
		msg = fmt.Sprintf("the picture changed size from %dx%d to %dx%d; %s", img.Bounds().Dx(), img.Bounds().Dy(), out.Image.Rect.Dx(), out.Image.Rect.Dy(), msg)
	case d.Different == 0:
		return "", nil, nil
	}
	if opt.DiffDir == "" {
		return msg, nil, nil
	}
	images, err := writeDiffImages(opt.DiffDir, diffName(path), old, out, d.Image)
	return msg, images, err
}

// padWhite returns img on a white canvas as large as both pictures.
func padWhite(img, other image.Image) image.Image {
	w := max(img.Bounds().Dx(), other.Bounds().Dx())
	h := max(img.Bounds().Dy(), other.Bounds().Dy())
	out := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(out, out.Rect, image.White, image.Point{}, draw.Src)
	draw.Draw(out, img.Bounds().Sub(img.Bounds().Min), img, img.Bounds().Min, draw.Over)
	return out
}

// diffName names a snapshot's pictures in DiffDir after its path:
// examples/plate/__snapshots__/scene.png gives examples_plate_scene.
func diffName(path string) string {
	p := strings.TrimSuffix(filepath.ToSlash(path), ".png")
	p = strings.Replace(p, "/__snapshots__/", "/", 1)
	p = strings.TrimPrefix(p, "./")
	p = strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '.' {
			return r
		}
		return '_'
	}, p)
	return strings.Trim(p, "_.")
}

func writeDiffImages(dir, name string, old []byte, out *Output, diff *image.RGBA) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("writing the difference pictures: %w", err)
	}
	cur, err := out.PNG()
	if err != nil {
		return nil, err
	}
	var images []string
	write := func(suffix string, data []byte) error {
		p := filepath.Join(dir, name+suffix)
		images = append(images, p)
		if err := ReplaceFile(p, data); err != nil {
			return fmt.Errorf("writing the difference pictures: %w", err)
		}
		return nil
	}
	if err := write(".old.png", old); err != nil {
		return nil, err
	}
	if err := write(".new.png", cur); err != nil {
		return nil, err
	}
	if diff != nil {
		var buf bytes.Buffer
		if err := (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&buf, diff); err != nil {
			return nil, err
		}
		if err := write(".diff.png", buf.Bytes()); err != nil {
			return nil, err
		}
	}
	return images, nil
}
