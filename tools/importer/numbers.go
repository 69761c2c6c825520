package importer

// Every number the importers write into a module must be one the module can hold: finite
// (strconv writes +Inf and NaN, which JavaScript reads as names) and, where it is a
// coordinate, a size or a scale, within the scene's range, ±scene.MaxCoord, since the run
// would refuse it there anyway, further from the file. A number out of range refuses the
// file, naming the value, what it is, the line and the limit.

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/cadrun/cadrun/scene"
)

// outsideMaxCoord ends the message of a number out of range.
var outsideMaxCoord = fmt.Sprintf("is outside the scene's range -%g..%g (MaxCoord); save the drawing in larger units, or nearer the origin", scene.MaxCoord, scene.MaxCoord)

// entityError is why one entity cannot be imported; the caller that knows the entity's kind
// and line refuses the file with it (refuseEntity).
type entityError string

func (e entityError) Error() string { return string(e) }

// inCoordRange reports whether v is finite and within ±MaxCoord (NaN is not).
func inCoordRange(v float64) bool { return v >= -scene.MaxCoord && v <= scene.MaxCoord }

// fmtNum writes a number for a message, +Inf and NaN as such.
func fmtNum(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// checkNums refuses the first of vs that is not in range, calling it what ("a coordinate",
// "a radius", "a scale").
func checkNums(what string, vs ...float64) error {
	for _, v := range vs {
		if !inCoordRange(v) {
			return entityError(fmt.Sprintf("%s of %s %s", what, fmtNum(v), outsideMaxCoord))
		}
	}
	return nil
}

// refuseEntity names the entity (its kind and line) in an entityError; other errors (a
// malformed group, a refusal that names its own line) pass as they are.
func refuseEntity(kind string, line int, err error) error {
	var ee entityError
	if errors.As(err, &ee) {
		return fmt.Errorf("%w: line %d: %s: %v", ErrRefused, line, kind, ee)
	}
	return err
}

// atPrecision is v, a number worked out from the file's numbers of, rounded to the most
// decimals any of them has, and at least places: 3.2064 - 2.5 is 0.7064 as the file would
// write it, not 0.7063999999999999.
func atPrecision(v float64, places int, of ...float64) float64 {
	for _, o := range of {
		s := strconv.FormatFloat(o, 'f', -1, 64)
		if i := strings.IndexByte(s, '.'); i >= 0 {
			places = max(places, len(s)-i-1)
		}
	}
	r, err := strconv.ParseFloat(strconv.FormatFloat(v, 'f', min(places, 17), 64), 64)
	if err != nil || places > 17 {
		return v
	}
	return r
}

// bulgeRadius writes the radius of the arc a bulge makes between two vertices to the precision
// the file gives it: as many significant digits as the most any of its numbers has (the
// vertices' coordinates and the bulge), at least 6 and at most derived's 12. A CAD program
// writes a bulge to some 8 to 10 digits, so a fillet of radius 6 comes out 6, not
// 6.00000000382: the digits past the bulge's are its rounding, not the drawing.
func bulgeRadius(r float64, p, q vertex) string {
	digits := 0
	for _, v := range []float64{p.x, p.y, q.x, q.y, p.bulge} {
		digits = max(digits, significant(v))
	}
	s := strconv.FormatFloat(r, 'g', min(max(digits, 6), 12), 64)
	f, _ := strconv.ParseFloat(s, 64)
	return num(f)
}

// significant is how many significant digits the shortest decimal of v has.
func significant(v float64) int {
	s := strconv.FormatFloat(math.Abs(v), 'e', -1, 64) // d.ddde±x
	mant, _, _ := strings.Cut(s, "e")
	return len(strings.Replace(mant, ".", "", 1))
}
