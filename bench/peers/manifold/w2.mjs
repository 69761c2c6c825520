// W2 of BENCH.md with manifold-3d: (A) the union of 200 64-gon circles on the golden-angle
// spiral; (B) the square [0,100]² minus ONE union of a 50 x 50 grid of unit squares.
import {manifold, pathData, writeSVG} from './svg.mjs'

const {CrossSection} = await manifold()
const G = Math.PI * (3 - Math.sqrt(5))
const circles = []
for (let k = 0; k < 200; k++) {
  const r = 3 * Math.sqrt(k)
  const c = CrossSection.circle(4, 64)
  circles.push(c.translate([r * Math.cos(k * G), r * Math.sin(k * G)]))
  c.delete()
}
const a = CrossSection.union(circles)

const holes = []
const unit = CrossSection.square([1, 1])
for (let i = 0; i < 50; i++) {
  for (let j = 0; j < 50; j++) holes.push(unit.translate([2 * i + 0.5, 2 * j + 0.5]))
}
const plate = CrossSection.square([100, 100])
const allHoles = CrossSection.union(holes)
const b = plate.subtract(allHoles)
writeSVG([pathData(a), pathData(b)])
