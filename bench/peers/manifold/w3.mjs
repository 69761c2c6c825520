// W3 of BENCH.md with manifold-3d: a 1,000-vertex star offset by +2 and by -2 with round
// joins, 32 segments per full circle.
import {manifold, pathData, writeSVG} from './svg.mjs'

const {CrossSection} = await manifold()
const pts = []
for (let k = 0; k < 1000; k++) {
  const a = 0.36 * k * Math.PI / 180, r = k % 2 === 0 ? 1000 : 900
  pts.push([r * Math.cos(a), r * Math.sin(a)])
}
const star = CrossSection.ofPolygons([pts])
const grown = star.offset(2, 'Round', 2, 32)
const shrunk = star.offset(-2, 'Round', 2, 32)
writeSVG([pathData(grown), pathData(shrunk)])
