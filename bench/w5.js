// W5 (BENCH.md): a 120 x 80 x 6 plate minus 200 through holes of 64 segments, plus ten ribs,
// written as a binary STL (bin/cadrun run bench/w5.js -o w5.stl).
drawBox('plate', 0, 0, 0, 120, 80, 6);
const holes = [];
for (let i = 0; i < 20; i++) {
  for (let j = 0; j < 10; j++) {
    const name = `hole_${i}_${j}`;
    drawCylinder(name, -57 + 6 * i, -36 + 8 * j, 0, 2, 8, {segments: 64});
    holes.push(name);
  }
}
booleanDifference('plate', holes, 'drilled');
const ribs = [];
for (let k = 0; k < 10; k++) {
  drawBox(`rib_${k}`, -54 + 12 * k, 0, 8, 2, 80, 10);
  ribs.push(`rib_${k}`);
}
booleanUnion(['drilled', ...ribs], 'part');
for (const n of ['plate', 'drilled', ...holes, ...ribs]) deleteEntity(n);
console.log(volume('part').toFixed(4), getEntity('part').solid.triangles);
