// A rosette: one petal and one half-leaf are drawn at the origin, then duplicated, mirrored,
// scaled and rotated about pivots into rings; colours are picked by index round the wheel.
import {hsl, petal, halfLeaf, ring} from 'motif'

const OUTER = 12, INNER = 8

// outer ring: 12 petals, each coloured by its index
petal('big', 62, 18, hsl(0, 0.7, 0.6))
const outer = ring('big', OUTER)
// a copy's members are named copy_0, copy_1, ... so find them by their place in the group
const member = (g, i) => getDrawOrder(g).order[i]
outer.forEach((g, i) => {
  const c = hsl(i / OUTER, 0.72, 0.62)
  setFill(member(g, 0), c) // the petal
  setFill(member(g, 2), c) // the bead
})

// leaves between the petals: a half leaf mirrored into a whole one, then ringed
halfLeaf('leafR', 52, 9, [0.36, 0.62, 0.35, 1])
mirror('leafR', 'leafL', 'x')
const b = getWorldBounds('leafL')
translate('leafL', -(b.min[0] + b.max[0]), 0) // mirror flips in place; move it across the axis
setFill('leafL', [0.28, 0.52, 0.3, 1])
createGroup('leaf', ['leafL', 'leafR'])
const leaves = ring('leaf', OUTER, Math.PI / OUTER)

// inner ring: a copy of the petal scaled down around the centre, 8 of them
duplicate('big', 'small')
scale('small', 0.5, 0.5, {around: [0, 0]})
const inner = ring('small', INNER, Math.PI / INNER)
inner.forEach((g, i) => setFill(g, hsl(0.08 + i / INNER / 2, 0.85, 0.5)))
inner.forEach(g => {
  setStroke(g, [0.25, 0.1, 0.1, 1], 0.3) // every member...
  setStroke(member(g, 1), [1, 1, 1, 0.8], 0.35) // ...then the vein back to white
})

// a ring of 24 beads outside the petals' tips, alternating between two hues
drawCircle('dot', 0, 72, 2)
setStroke('dot', [0.2, 0.15, 0.25, 1], 0.3)
const dots = ring('dot', 24, Math.PI / 24)
dots.forEach((d, i) => setFill(d, i % 2 ? hsl(0.55, 0.6, 0.45) : hsl(0.13, 0.9, 0.6)))
createGroup('bead_ring', dots)

// the centre: concentric discs and a star
const discs = [[14, hsl(0.12, 0.9, 0.55)], [10, hsl(0.95, 0.7, 0.45)], [6, hsl(0.6, 0.6, 0.35)]]
discs.forEach(([r, c], i) => {
  drawCircle('disc' + i, 0, 0, r)
  setFill('disc' + i, c)
  setStroke('disc' + i, [1, 1, 1, 0.9], 0.6)
})
const star = []
for (let i = 0; i < 16; i++) {
  const r = i % 2 ? 2.2 : 5.2
  const a = Math.PI / 2 + (i * Math.PI) / 8
  star.push([r * Math.cos(a), r * Math.sin(a)])
}
drawPolygon('star', star)
setFill('star', [1, 0.95, 0.75, 1])
setStroke('star', null)
createGroup('centre', ['disc0', 'disc1', 'disc2', 'star'])

createGroup('outer_ring', outer)
createGroup('leaf_ring', leaves)
createGroup('inner_ring', inner)
createGroup('rosette', ['bead_ring', 'leaf_ring', 'outer_ring', 'inner_ring', 'centre'])
drawOrder('leaf_ring', 'back')
drawOrder('inner_ring', 'above:outer_ring')
drawOrder('centre', 'front')

// a frame of small rosettes: the whole rosette duplicated, shrunk and turned at each corner,
// the right-hand ones mirrored with a negative scale
const R = 92
drawRoundedRect('frame', 0, 0, 2 * R + 20, 2 * R + 20, 18)
setFill('frame', [0.99, 0.97, 0.92, 1])
setStroke('frame', [0.45, 0.3, 0.2, 1], 1.5)
drawOrder('frame', 'back')
const corners = [[-1, -1], [1, -1], [1, 1], [-1, 1]]
corners.forEach(([sx, sy], i) => {
  const n = 'corner' + i
  duplicate('rosette', n)
  scale(n, 0.22 * sx, 0.22, {around: [0, 0]})
  rotate(n, (i * Math.PI) / 7)
  translate(n, sx * (R - 15), sy * (R - 15))
})
console.log('rosette members, back to front:', getDrawOrder('rosette').order.join(', '))
// getArea of a group needs every member closed (the veins are lines), so sum the petals
const petals = outer.reduce((sum, g) => sum + getArea(member(g, 0)), 0)
console.log('petal area', getArea('big_petal').toFixed(2), 'all 12 petals', petals.toFixed(1), 'centre', getArea('centre').toFixed(1))
console.log('corner 1 transform', JSON.stringify(getWorldTransform('corner1').map(r => r.map(v => Math.round(v * 1000) / 1000))))
