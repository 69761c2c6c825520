// W1 of BENCH.md with JSCAD: 10,000 separate geometries (32-gon circles and rotated 6 x 4
// rectangles on a 100 x 100 grid) in one SVG.
const { primitives, transforms } = require('@jscad/modeling')
const { writeSVG } = require('./svg.js')

const shapes = []
for (let j = 0; j < 100; j++) {
  for (let i = 0; i < 100; i++) {
    const k = 100 * j + i
    if (k % 2 === 0) {
      shapes.push(primitives.circle({ radius: 4, center: [10 * i, 10 * j], segments: 32 }))
      continue
    }
    const r = transforms.rotateZ((k % 90) * Math.PI / 180, primitives.rectangle({ size: [6, 4] }))
    shapes.push(transforms.translate([10 * i, 10 * j, 0], r))
  }
}
writeSVG(shapes)
