package render

import (
	"math"

	"github.com/cadrun/cadrun/scene"
)

// PaperMM is how many millimetres of paper one scene unit takes in an output of the format
// whose extension is ext, written with o: a PDF's unit times its scale (the scale its page
// fit gives, when it is fit, which needs the scene s), a DXF's unit at full size. The
// drawing lint reads it to hold texts to a minimum height on that paper. It is false for the
// formats without a paper size (SVG, PNG, JSON), for a fit without its scene, and for options
// the writer refuses.
func PaperMM(s *scene.Scene, ext string, o Options) (float64, bool) {
	mm, ok := paperMM(s, ext, o)
	return mm, ok && mm > 0 && !math.IsInf(mm, 0)
}

// paperMM is PaperMM before its answer is held to a finite length.
func paperMM(s *scene.Scene, ext string, o Options) (float64, bool) {
	switch ext {
	case ".pdf":
		if o.PDF.Scale.Fit {
			if s == nil {
				return 0, false
			}
			l, err := pdfPlace(s, o.PDF)
			if err != nil || !(l.k > 0) {
				return 0, false
			}
			return l.k / ptPerMM, true
		}
		_, mm, err := unitInfo(o.PDF.Unit)
		paper := o.PDF.Scale.Paper
		if paper == 0 {
			paper = 1
		}
		return mm * paper, err == nil && paper > 0
	case ".dxf":
		_, mm, err := unitInfo(o.DXF.Unit)
		return mm, err == nil
	}
	return 0, false
}
