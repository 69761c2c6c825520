// Reads a binary STL that cadrun wrote and makes it a solid with manifold-3d's own JavaScript
// API in Node: the facets' corners become shared vertices (equal float32 coordinates are one
// vertex, as STL holds no other link between facets), and manifold checks that the triangles
// close a solid. Prints one JSON object: manifold's status, volume and triangle count.
// Usage: node stl_manifold.mjs FILE.stl
import {readFileSync} from 'node:fs';
import Module from '../../scene/solid/internal/manifold/npm/node_modules/manifold-3d/manifold.js';

const wasm = await Module();
wasm.setup();
const {Manifold, Mesh} = wasm;

const b = readFileSync(process.argv[2]);
const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
const n = view.getUint32(80, true);
if (b.length !== 84 + 50 * n) throw new Error(`an STL of ${n} triangles is ${b.length} bytes`);
const index = new Map();
const verts = [];
const tris = new Uint32Array(3 * n);
for (let t = 0; t < n; t++) {
  for (let k = 0; k < 3; k++) {
    const at = 84 + 50 * t + 12 + 12 * k;
    const p = [0, 4, 8].map((o) => view.getFloat32(at + o, true));
    const key = p.join(',');
    let i = index.get(key);
    if (i === undefined) {
      i = verts.length / 3;
      index.set(key, i);
      verts.push(...p);
    }
    tris[3 * t + k] = i;
  }
}
const mesh = new Mesh({numProp: 3, vertProperties: new Float32Array(verts), triVerts: tris});
let out;
try {
  const m = new Manifold(mesh);
  out = {status: m.status(), volume: m.volume(), triangles: m.numTri()};
} catch (e) {
  out = {status: e.code ?? String(e)};
}
console.log(JSON.stringify(out));
