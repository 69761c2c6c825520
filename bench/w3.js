// W3 of BENCH.md, offset: a 1,000-vertex star (vertex k at 0.36k degrees, radius 1000 for
// even k, 900 for odd k; area 2,827,414.7845) grown by 2 and shrunk by 2 with round joins.
// Peers' areas: about 2,998,954 and 2,659,437. The SVG holds the two results.
const pts = []
for (let k = 0; k < 1000; k++) {
  const a = 0.36 * k * Math.PI / 180, r = k % 2 === 0 ? 1000 : 900
  pts.push(r * Math.cos(a), r * Math.sin(a))
}
drawPolygon('star', pts)
offsetPolygon('star', 2, 'w3_out', {joinType: 'round'})
offsetPolygon('star', -2, 'w3_in', {joinType: 'round'})
deleteEntity('star')
