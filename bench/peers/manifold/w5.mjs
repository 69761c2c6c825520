// W5 of BENCH.md with manifold-3d: a 120 x 80 x 6 box centred at the origin minus 200 through
// holes (64-gon cylinders of radius 2) as ONE difference, plus ten 2 x 80 x 10 ribs as ONE
// union, written as a binary STL (manifold-3d has no STL writer of its own). Its booleans are
// lazy: the work is done at the first read of the result, here the mesh. With --check it also
// prints the volume and the triangle count, as bench/w5.js does.
import fs from 'node:fs'
import {manifold} from './svg.mjs'

const out = process.argv[2]
if (!out) {
  console.error('usage: node ' + process.argv[1] + ' OUT.stl [--check]')
  process.exit(2)
}
const {Manifold} = await manifold()

const plate = Manifold.cube([120, 80, 6], true)
const holes = []
for (let i = 0; i < 20; i++) {
  for (let j = 0; j < 10; j++) {
    const c = Manifold.cylinder(8, 2, 2, 64, true)
    holes.push(c.translate([-57 + 6 * i, -36 + 8 * j, 0]))
    c.delete()
  }
}
const drilled = Manifold.difference([plate, ...holes])
const ribs = []
for (let k = 0; k < 10; k++) {
  const r = Manifold.cube([2, 80, 10], true)
  ribs.push(r.translate([-54 + 12 * k, 0, 8]))
  r.delete()
}
const part = Manifold.union([drilled, ...ribs])
const mesh = part.getMesh()
writeSTL(out, mesh)
if (process.argv[3] === '--check') console.log(part.volume().toFixed(4), part.numTri())

// writeSTL writes a mesh as a binary STL: an 80-byte header, the triangle count, then per
// triangle its unit normal, its three corners (float32) and a zero attribute word.
function writeSTL(file, mesh) {
  const {vertProperties: v, triVerts: t, numProp: np} = mesh
  const n = t.length / 3
  const buf = Buffer.alloc(84 + 50 * n)
  buf.write('binary STL of W5 written by manifold-3d', 0)
  buf.writeUInt32LE(n, 80)
  let o = 84
  for (let k = 0; k < n; k++) {
    const p = [0, 1, 2].map((c) => {
      const i = np * t[3 * k + c]
      return [v[i], v[i + 1], v[i + 2]]
    })
    const a = p[1].map((x, c) => x - p[0][c]), b = p[2].map((x, c) => x - p[0][c])
    const nx = a[1] * b[2] - a[2] * b[1], ny = a[2] * b[0] - a[0] * b[2], nz = a[0] * b[1] - a[1] * b[0]
    const len = Math.hypot(nx, ny, nz) || 1
    for (const x of [nx / len, ny / len, nz / len, ...p[0], ...p[1], ...p[2]]) {
      buf.writeFloatLE(x, o)
      o += 4
    }
    buf.writeUInt16LE(0, o)
    o += 2
  }
  fs.writeFileSync(file, buf)
}
