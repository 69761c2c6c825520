// An offset and hull study: a star grown and shrunk with every join type, a gear with its
// convex hull and an inset, the three joins side by side on an L bracket, and a union of
// disjoint shapes split back into its pieces with decompose, and a closing (grow, then
// shrink) that bridges the gaps between separate bars.
import {star, gear, lShape} from 'shapes'

const INK = [0.15, 0.17, 0.22, 1]
const title = (name, text, x, y) => drawText(name, text, x, y, 5, {align: 'center', font: 'sans-bold', color: INK})
const note = (name, text, x, y) => drawText(name, text, x, y, 3.6, {align: 'center', color: [0.35, 0.37, 0.42, 1]})
const style = (name, fill, stroke, width = 0.5) => {
  setFill(name, fill)
  setStroke(name, stroke, width)
}
const area = name => getArea(name).toFixed(2)

// --- 1. a star, offset outward with each join and inward with a miter ------------------
drawPolygon('star', star(0, 0, 5, 28, 12))
const rings = [
  ['star_sq', 12, {joinType: 'square'}, [0.98, 0.85, 0.6, 1]],
  ['star_mi', 8, {joinType: 'miter', miterLimit: 3}, [0.98, 0.7, 0.45, 1]],
  ['star_ro', 4, 'round', [0.95, 0.55, 0.35, 1]],
]
for (const [n, d, join, fill] of rings) {
  offsetPolygon('star', d, n, join)
  style(n, fill, [0.6, 0.3, 0.15, 1], 0.35)
}
style('star', [0.85, 0.3, 0.25, 1], INK, 0.6)
offsetPolygon('star', -3, 'star_in', {joinType: 'miter'})
style('star_in', [1, 0.92, 0.8, 1], [0.6, 0.3, 0.15, 1], 0.35)
drawOrder('star', 'front')
drawOrder('star_in', 'front')
createGroup('star_study', ['star_sq', 'star_mi', 'star_ro', 'star', 'star_in'])
title('t_star', 'offsetPolygon', 0, 52)
note('n_star', '+12 square · +8 miter(3) · +4 round · −3 miter', 0, -48)
console.log(`star ${area('star')}; +4 round ${area('star_ro')}; +8 miter ${area('star_mi')}; +12 square ${area('star_sq')}; -3 miter ${area('star_in')}`)

// --- 2. a gear, its convex hull, and an inset ring for the web -----------------------------
const GX = 100
drawPolygon('gear', gear(GX, 0, 14, 24, 31))
convexHull('gear', 'gear_hull')
offsetPolygon('gear', -7, 'gear_web', {joinType: 'round'})
drawCircle('gear_bore', GX, 0, 6)
booleanDifference('gear', ['gear_web', 'gear_bore'], 'gear_rim')
booleanDifference('gear_web', 'gear_bore', 'gear_hub')
deleteEntity('gear_web')
deleteEntity('gear_bore')
style('gear_hull', [0.82, 0.9, 0.98, 1], [0.2, 0.45, 0.75, 1], 0.5)
style('gear', null, null)
style('gear_rim', [0.45, 0.5, 0.58, 1], INK, 0.5)
style('gear_hub', [0.68, 0.73, 0.8, 1], INK, 0.3)
createGroup('gear_study', ['gear_hull', 'gear', 'gear_rim', 'gear_hub'])
title('t_gear', 'convexHull', GX, 52)
const solidity = getArea('gear') / getArea('gear_hull')
note('n_gear', `hull ${area('gear_hull')} · gear ${area('gear')} · solidity ${(100 * solidity).toFixed(1)}%`, GX, -48)
console.log(`gear ${area('gear')}, hull ${area('gear_hull')}, solidity ${solidity.toFixed(4)}, rim ${area('gear_rim')}, hub ${area('gear_hub')}`)

// --- 3. the three joins on the same bracket ---------------------------------------------
const joins = ['round', 'miter', 'square']
joins.forEach((j, i) => {
  const x = -22 + i * 62, y = -100
  const n = 'l_' + j
  drawPolygon(n, lShape(x, y, 32, 8))
  offsetPolygon(n, 6, n + '_out', {joinType: j, miterLimit: 4})
  offsetPolygon(n, -2, n + '_in', j)
  style(n + '_out', [0.75, 0.9, 0.78, 1], [0.15, 0.5, 0.3, 1], 0.4)
  style(n, [0.3, 0.62, 0.42, 1], INK, 0.5)
  style(n + '_in', [0.85, 0.95, 0.87, 1], null)
  drawOrder(n, 'front')
  drawOrder(n + '_in', 'front')
  createGroup('join_' + j, [n + '_out', n, n + '_in'])
  note('n_' + j, `${j}: +6 → ${area(n + '_out')}`, x + 12, y - 22)
})
title('t_joins', 'joinType: round · miter · square', 52, -58)

// --- 4. a union of disjoint shapes, split with decompose ----------------------------------
const DX = 200
drawCircle('u_a', DX - 22, 14, 10)
drawCircle('u_b', DX - 10, 14, 8)                 // overlaps u_a: they fuse into one piece
drawPolygon('u_c', star(DX + 18, 14, 6, 13, 7))
drawRoundedRect('u_d', DX - 12, -20, 30, 14, 4)
drawEllipse('u_e', DX + 20, -20, 9, 6)
drawPolygon('u_f', [[DX + 2, -2], [DX + 10, -2], [DX + 6, 6]])
booleanUnion(['u_a', 'u_b', 'u_c', 'u_d', 'u_e', 'u_f'], 'blobs')
for (const n of ['u_a', 'u_b', 'u_c', 'u_d', 'u_e', 'u_f']) deleteEntity(n)
const total = getArea('blobs')
const pieces = decompose('blobs', 'piece')
deleteEntity('blobs')
const palette = [[0.86, 0.37, 0.34, 1], [0.95, 0.65, 0.25, 1], [0.4, 0.7, 0.45, 1], [0.3, 0.55, 0.8, 1], [0.6, 0.45, 0.75, 1]]
let sum = 0
pieces.forEach((p, i) => {
  style(p, palette[i % palette.length], INK, 0.4)
  const b = getWorldBounds(p)
  const a = getArea(p)
  sum += a
  drawText(p + '_label', String(i), (b.min[0] + b.max[0]) / 2, (b.min[1] + b.max[1]) / 2 - 1.5, 4.2, {align: 'center', font: 'sans-bold', color: [1, 1, 1, 1]})
  console.log(`${p}: area ${a.toFixed(2)}, bounds [${b.min.map(v => v.toFixed(1))}]..[${b.max.map(v => v.toFixed(1))}]`)
})
createGroup('pieces', pieces.flatMap(p => [p, p + '_label']))
title('t_decompose', 'booleanUnion → decompose', DX, 52)
note('n_decompose', `6 shapes → ${pieces.length} pieces, largest first · total ${total.toFixed(2)}`, DX, -48)
console.log(`union area ${total.toFixed(2)}, sum of pieces ${sum.toFixed(2)}`)

// --- 5. closing: grow a group of separate bars until they touch, then shrink it back -------
const bars = []
for (let i = 0; i < 4; i++) {
  const b = 'bar' + i
  drawRect(b, DX - 24 + i * 16, -96 + (i % 2) * 6, 10, 30 - i * 4)
  style(b, [0.3, 0.55, 0.8, 1], INK, 0.4)
  bars.push(b)
}
createGroup('bars', bars)
offsetPolygon('bars', 5, 'bars_grown', {joinType: 'round'})
offsetPolygon('bars_grown', -5, 'bars_closed', {joinType: 'round'})
style('bars_grown', null, [0.55, 0.6, 0.7, 1], 0.3)
style('bars_closed', [0.82, 0.88, 0.96, 1], [0.2, 0.4, 0.7, 1], 0.5)
drawOrder('bars', 'front')
createGroup('closing', ['bars_grown', 'bars_closed', 'bars'])
const before = decompose('bars', 'bar_piece')
const after = decompose('bars_closed', 'closed_piece')
for (const n of [...before, ...after]) deleteEntity(n)
title('t_closing', 'closing: +5 then −5', DX, -58)
note('n_closing', `${before.length} pieces → ${after.length} · area ${area('bars')} → ${area('bars_closed')}`, DX, -122)
console.log(`closing: ${before.length} bars (${area('bars')}) became ${after.length} piece (${area('bars_closed')})`)
