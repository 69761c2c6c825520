// W2 of BENCH.md with JSCAD: (A) the union of 200 64-gon circles on the golden-angle
// spiral; (B) the square [0,100]² minus ONE union of a 50 x 50 grid of unit squares.
const { primitives, booleans } = require('@jscad/modeling')
const { writeSVG } = require('./svg.js')

const G = Math.PI * (3 - Math.sqrt(5))
const circles = []
for (let k = 0; k < 200; k++) {
  const r = 3 * Math.sqrt(k)
  circles.push(primitives.circle({ radius: 4, center: [r * Math.cos(k * G), r * Math.sin(k * G)], segments: 64 }))
}
const a = booleans.union(circles)

const holes = []
for (let i = 0; i < 50; i++) {
  for (let j = 0; j < 50; j++) holes.push(primitives.rectangle({ size: [1, 1], center: [2 * i + 1, 2 * j + 1] }))
}
const b = booleans.subtract(primitives.rectangle({ size: [100, 100], center: [50, 50] }), booleans.union(holes))
writeSVG([a, b])
