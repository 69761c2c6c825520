package examples

import (
	"fmt"
	"math"

	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/geom"
)

// W1Scene builds the reference workload W1, many shapes:
// a 100×100 grid with pitch 10; cell k = 100j+i holds a circle of radius 4 at (10i, 10j) when k
// is even, else a 6×4 rectangle rotated by (k mod 90) degrees and moved to (10i, 10j).
func W1Scene() (*scene.Scene, error) {
	s := scene.New()
	for j := range 100 {
		for i := range 100 {
			k := 100*j + i
			at := geom.Vec{X: float64(10 * i), Y: float64(10 * j)}
			name := fmt.Sprintf("e%d", k)
			if k%2 == 0 {
				if _, err := s.Put(name, scene.Circle{Center: at, Radius: 4}); err != nil {
					return nil, err
				}
				continue
			}
			if _, err := s.Put(name, scene.Rect{Width: 6, Height: 4}); err != nil {
				return nil, err
			}
			if err := s.Rotate(name, float64(k%90)*math.Pi/180, scene.SpaceLocal); err != nil {
				return nil, err
			}
			if err := s.Translate(name, at, scene.SpaceLocal); err != nil {
				return nil, err
			}
		}
	}
	return s, nil
}
