// The hole patterns the plate is cut with: counts and positions, checked with numbers; what
// the patterns draw is compared with tests/__snapshots__/holes.*.
import {polarArray, gridArray, slot} from 'holes'

test('bolt circle: six holes on the 64 mm pitch circle', () => {
  const bolts = polarArray('bolt', -30, 0, 64, 6, 4, Math.PI / 2)
  assertEqual(bolts.length, 6, 'hole count')
  for (const b of bolts) assertClose(Math.hypot(b.x + 30, b.y), 32, 1e-9, b.name + ' off the pitch circle')
  assertClose(bolts[0].y, 32, 1e-9, 'the first bolt is at the top')
})

test('corner holes: centred, 154 × 84 apart', () => {
  const corners = gridArray('corner', 0, 0, 2, 2, 154, 84, 5)
  assertEqual(corners.map(h => [h.x, h.y]), [[-77, -42], [77, -42], [-77, 42], [77, 42]])
})

test('the slot stands upright', () => {
  const s = slot('slot', 52, 0, 36, 12, Math.PI / 2)
  const b = getWorldBounds(s.name)
  assertClose(b.max[1] - b.min[1], 48, 1e-9, 'slot height (length + width)')
  assertClose(b.max[0] - b.min[0], 12, 1e-9, 'slot width')
})
