// W1 of BENCH.md with manifold-3d: 10,000 separate cross-sections (32-gon circles and
// rotated 6 x 4 rectangles on a 100 x 100 grid), one SVG path each.
import {manifold, pathData, writeSVG} from './svg.mjs'

const {CrossSection} = await manifold()
const paths = []
for (let j = 0; j < 100; j++) {
  for (let i = 0; i < 100; i++) {
    const k = 100 * j + i
    let cs
    if (k % 2 === 0) {
      const c = CrossSection.circle(4, 32)
      cs = c.translate([10 * i, 10 * j])
      c.delete()
    } else {
      const r = CrossSection.square([6, 4], true)
      const t = r.rotate(k % 90)
      cs = t.translate([10 * i, 10 * j])
      r.delete()
      t.delete()
    }
    paths.push(pathData(cs))
    cs.delete()
  }
}
writeSVG(paths)
