// W2 of BENCH.md, booleans; the SVG holds the two results.
//
// (A) The union of 200 circles of radius 4 as 64-gons: circle k centred at
// 3 sqrt(k) (cos kG, sin kG), G the golden angle. Area 5,992.9246, one outline with one hole.
const G = Math.PI * (3 - Math.sqrt(5))
const circles = []
for (let k = 0; k < 200; k++) {
  const r = 3 * Math.sqrt(k), cx = r * Math.cos(k * G), cy = r * Math.sin(k * G)
  const pts = []
  for (let i = 0; i < 64; i++) {
    const a = 2 * Math.PI * i / 64
    pts.push(cx + 4 * Math.cos(a), cy + 4 * Math.sin(a))
  }
  drawPolygon('c' + k, pts)
  circles.push('c' + k)
}
booleanUnion(circles, 'w2a')

// (B) The square [0,100]² minus a 50 x 50 grid of 1 x 1 squares with lower-left corners at
// (2i+0.5, 2j+0.5), as ONE difference against all the holes. Area 7,500, 2,501 contours.
drawRect('plate', 50, 50, 100, 100)
const holes = []
for (let i = 0; i < 50; i++) {
  for (let j = 0; j < 50; j++) {
    const name = 'h' + (50 * i + j)
    drawRect(name, 2 * i + 1, 2 * j + 1, 1, 1)
    holes.push(name)
  }
}
booleanDifference('plate', holes, 'w2b')

for (const name of [...circles, ...holes, 'plate']) deleteEntity(name)
