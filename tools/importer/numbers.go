package importer

// Every number the importers write into a module must be one the module can hold: finite
// (strconv writes +Inf and NaN, which JavaScript reads as names) and, where it is a
// coordinate, a size or a scale, within the scene's range, ±scene.MaxCoord, since the run
// would refuse it there anyway, further from the file. A number out of range refuses the
// file, naming the value, what it is, the line and the limit.

import (
	"errors"
	"fmt"
	"strconv"

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
