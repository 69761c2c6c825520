package geom

// The kernel's words as JSON: a point is [x, y], a box {"min": [x, y], "max": [x, y]} (or
// null when empty), a map its six numbers in SVG's matrix order. Numbers are written as
// encoding/json writes them (AppendFloat), so that hand-written and reflected documents agree
// byte for byte.

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
)

// MarshalJSON writes a point as [x, y].
func (v Vec) MarshalJSON() ([]byte, error) {
	b := make([]byte, 0, 32)
	b = append(b, '[')
	b = AppendFloat(b, v.X)
	b = append(b, ',')
	b = AppendFloat(b, v.Y)
	return append(b, ']'), nil
}

// AppendFloat formats f exactly as encoding/json does (shortest round-trip form, exponent
// only for very small or large magnitudes), so hand-written and reflected numbers agree.
func AppendFloat(b []byte, f float64) []byte {
	// Integers below 2^53 are most coordinates; their shortest form is their decimal digits
	// (a float's neighbours there are at most 1 apart), so strconv's digit search is skipped.
	if f == math.Trunc(f) && math.Abs(f) < 1<<53 {
		if f == 0 && math.Signbit(f) {
			return append(b, '-', '0')
		}
		return strconv.AppendInt(b, int64(f), 10)
	}
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// Clean up e-09 to e-9, as encoding/json does.
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

// UnmarshalJSON reads a point written as [x, y].
func (v *Vec) UnmarshalJSON(b []byte) error {
	var a [2]float64
	if err := json.Unmarshal(b, &a); err != nil {
		return fmt.Errorf("a point is [x, y]: %w", err)
	}
	*v = Vec{a[0], a[1]}
	return nil
}

// MarshalJSON writes a box as {"min":[x,y],"max":[x,y]}, or null when it is empty.
func (b Box) MarshalJSON() ([]byte, error) {
	if !b.NonEmpty {
		return []byte("null"), nil
	}
	return json.Marshal(struct {
		Min Vec `json:"min"`
		Max Vec `json:"max"`
	}{b.Min, b.Max})
}

// UnmarshalJSON reads what MarshalJSON writes: null is the empty box.
func (b *Box) UnmarshalJSON(data []byte) error {
	var v *struct {
		Min Vec `json:"min"`
		Max Vec `json:"max"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	*b = Box{}
	if v != nil {
		*b = Box{Min: v.Min, Max: v.Max, NonEmpty: true}
	}
	return nil
}

// MarshalJSON writes the map as [a, b, c, d, e, f] (SVG's matrix order).
func (m Affine) MarshalJSON() ([]byte, error) {
	return json.Marshal([6]float64{m.A, m.B, m.C, m.D, m.E, m.F})
}

// FlatBox is a box written flat, {min_x, min_y, max_x, max_y}, as the documentation of the
// engine scene.UpstreamGeometry answers for writes it.
type FlatBox struct {
	MinX float64 `json:"min_x"`
	MinY float64 `json:"min_y"`
	MaxX float64 `json:"max_x"`
	MaxY float64 `json:"max_y"`
}

// Flat is b as min_x..max_y.
func (b Box) Flat() FlatBox { return FlatBox{b.Min.X, b.Min.Y, b.Max.X, b.Max.Y} }
