// The same solids as kernel_test.go's sameAsNode cases, made by manifold-3d's own JavaScript
// API in Node, so that the Go host is checked against the glue manifold ships. Prints one JSON
// object: for each case, its volume, surface area and triangle count.
import Module from '../npm/node_modules/manifold-3d/manifold.js';

const wasm = await Module();
wasm.setup();
const {Manifold, CrossSection} = wasm;

const plateWithHole = [
  [[0, 0], [40, 0], [40, 25], [0, 25]],
  [[10, 5], [10, 20], [30, 20], [30, 5]],
];
const ring = [[[5, 0], [8, 0], [8, 4], [5, 4]]];
const lshape = [[[0, 0], [20, 0], [20, 5], [5, 5], [5, 15], [0, 15]]];

const cases = {
  'cube minus cylinder 64': () =>
    Manifold.cube([10, 10, 10], true).subtract(Manifold.cylinder(20, 3, 3, 64, true)),
  'extruded plate with a hole': () => Manifold.extrude(plateWithHole, 6),
  'twisted, tapered extrusion': () => Manifold.extrude(lshape, 10, 4, 30, [0.5, 0.5]),
  'revolved ring 48': () => Manifold.revolve(ring, 48, 360),
  'revolved quarter 32': () => Manifold.revolve(ring, 32, 90),
  'union of spheres': () =>
    Manifold.union([Manifold.sphere(5, 32), Manifold.sphere(4, 32).translate([6, 0, 0]), Manifold.sphere(3, 24).translate([0, 6, 1])]),
  'intersection': () => Manifold.cube([10, 10, 10], true).intersect(Manifold.sphere(6.5, 48)),
  'difference of three': () =>
    Manifold.difference([Manifold.cube([20, 20, 5]), Manifold.cylinder(10, 2, 2, 32).translate([5, 5, -1]), Manifold.cylinder(10, 3, 1, 16).translate([14, 12, -1])]),
  'hull of two spheres': () => Manifold.hull([Manifold.sphere(2, 16), Manifold.sphere(1, 16).translate([8, 0, 0])]),
  'moved, turned, scaled, mirrored': () =>
    Manifold.cylinder(6, 2, 1, 24).translate([1, 2, 3]).rotate([30, 45, 60]).scale([1, 2, 0.5]).mirror([1, 1, 0]),
  'mesh round trip': () => {
    const m = Manifold.cube([10, 10, 10], true).subtract(Manifold.sphere(6, 40)).getMesh();
    return new Manifold(m);
  },
};

const out = {};
for (const [name, make] of Object.entries(cases)) {
  const m = make();
  out[name] = {volume: m.volume(), area: m.surfaceArea(), triangles: m.numTri()};
}
console.log(JSON.stringify(out));
