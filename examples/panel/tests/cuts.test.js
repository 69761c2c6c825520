// The panel's cut-outs, checked against closed forms: a fillet of radius r takes (4 − π)·r²/4
// from a right-angled corner, a chamfer of c takes c²/2.
import {mountingHoles, window, vents} from 'cuts'

test('a filleted window keeps exact arcs at its corners', () => {
  window('w', 0, 0, 70, 34, 6)
  assertClose(getArea('w'), 70 * 34 - (4 - Math.PI) * 36, 1e-9, 'window area')
  assertClose(perimeter('w'), 2 * (70 + 34) - 8 * 6 + 2 * Math.PI * 6, 1e-9, 'window perimeter')
})

test('a chamfered vent slot loses a triangle at each corner', () => {
  const [v] = vents('v', 0, 0, 1, 14, 8, 16, 2)
  assertClose(getArea(v), 8 * 16 - 4 * 2, 1e-12, 'slot area')
})

test('the mounting holes sit inset from the corners', () => {
  const holes = mountingHoles('h', 0, 0, 160, 90, 9, 6)
  assertEqual(holes.length, 4, 'hole count')
  const b = getWorldBounds(holes[0])
  assertClose(b.min[0], -80 + 9 - 3, 1e-12, 'first hole, left edge')
  assertClose(b.min[1], -45 + 9 - 3, 1e-12, 'first hole, bottom edge')
})
