// Prints the areas the peers compute for W1-W3 beside BENCH.md's, to show that the peers'
// scripts do the work BENCH.md describes: node bench/peers/areas.mjs (after make bench-peers
// has installed them). The geometry is built as in jscad/wN.js and manifold/wN.mjs.
import { createRequire } from 'node:module'
import Module from 'manifold-3d'

const require = createRequire(import.meta.url)
const { primitives: p, booleans: b, expansions: e, measurements: m, geometries: g } = require('@jscad/modeling')
const wasm = await Module()
wasm.setup()
const { CrossSection } = wasm

const G = Math.PI * (3 - Math.sqrt(5))
const spiral = (k) => { const r = 3 * Math.sqrt(k); return [r * Math.cos(k * G), r * Math.sin(k * G)] }
const star = []
for (let k = 0; k < 1000; k++) {
  const a = 0.36 * k * Math.PI / 180, r = k % 2 === 0 ? 1000 : 900
  star.push([r * Math.cos(a), r * Math.sin(a)])
}
const row = (what, bench, jscad, manifold) => console.log([what, bench, jscad, manifold].join('\t'))
row('figure', 'BENCH.md', 'JSCAD', 'manifold-3d')

let j1 = 0, m1 = 0
for (let k = 0; k < 10000; k++) {
  if (k % 2 === 0) {
    j1 += m.measureArea(p.circle({ radius: 4, segments: 32 }))
    m1 += CrossSection.circle(4, 32).area()
  } else {
    j1 += m.measureArea(p.rectangle({ size: [6, 4] }))
    m1 += CrossSection.square([6, 4], true).area()
  }
}
row('W1 area (32-gons)', 369715.6122, j1, m1)

const ja = b.union(Array.from({ length: 200 }, (_, k) => p.circle({ radius: 4, center: spiral(k), segments: 64 })))
const ma = CrossSection.union(Array.from({ length: 200 }, (_, k) => CrossSection.circle(4, 64).translate(spiral(k))))
row('W2 (A) area', 5992.9246, m.measureArea(ja), ma.area())
row('W2 (A) contours', 2, g.geom2.toOutlines(ja).length, ma.toPolygons().length)

const jHoles = [], mHoles = []
for (let i = 0; i < 50; i++) {
  for (let k = 0; k < 50; k++) {
    jHoles.push(p.rectangle({ size: [1, 1], center: [2 * i + 1, 2 * k + 1] }))
    mHoles.push(CrossSection.square([1, 1]).translate([2 * i + 0.5, 2 * k + 0.5]))
  }
}
const jb = b.subtract(p.rectangle({ size: [100, 100], center: [50, 50] }), b.union(jHoles))
const mb = CrossSection.square([100, 100]).subtract(CrossSection.union(mHoles))
row('W2 (B) area', 7500, m.measureArea(jb), mb.area())
row('W2 (B) contours', 2501, g.geom2.toOutlines(jb).length, mb.toPolygons().length)

const js = p.polygon({ points: star }), ms = CrossSection.ofPolygons([star])
for (const d of [2, -2]) {
  row(`W3 offset ${d > 0 ? '+' : ''}${d} area`, d > 0 ? 'about 2998954' : 'about 2659437',
    m.measureArea(e.offset({ delta: d, corners: 'round', segments: 32 }, js)), ms.offset(d, 'Round', 2, 32).area())
}
