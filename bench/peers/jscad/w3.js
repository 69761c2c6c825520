// W3 of BENCH.md with JSCAD: a 1,000-vertex star offset by +2 and by -2 with round corners,
// 32 segments per full circle.
const { primitives, expansions } = require('@jscad/modeling')
const { writeSVG } = require('./svg.js')

const points = []
for (let k = 0; k < 1000; k++) {
  const a = 0.36 * k * Math.PI / 180, r = k % 2 === 0 ? 1000 : 900
  points.push([r * Math.cos(a), r * Math.sin(a)])
}
const star = primitives.polygon({ points })
const grown = expansions.offset({ delta: 2, corners: 'round', segments: 32 }, star)
const shrunk = expansions.offset({ delta: -2, corners: 'round', segments: 32 }, star)
writeSVG([grown, shrunk])
