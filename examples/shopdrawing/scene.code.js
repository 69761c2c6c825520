// The angle bracket of examples/anglebracket as a shop drawing made from its solid: the front,
// top and right views projected in third-angle layout, section A-A through the holes hatched,
// dimensions taken from the views, and a title block. Once drawn from, the solid is deleted,
// so the sheet exports as SVG, DXF and PDF:
//   cadrun run -workspace examples/shopdrawing -o bracket.pdf
import {angleBracket} from 'angle_lib'
import {layers, thirdAngle, centerMark, titleBlock} from 'sheet'

const spec = {leg: 50, thick: 6, width: 30, fillet: 8, hole: 6, holes: [22, 40]}
const GAP = 28, TEXT = 3
layers()
angleBracket('bracket', spec)
const volumeMm3 = volume('bracket')
const {at, box} = thirdAngle('bracket', {z: spec.width / 2}, GAP)
deleteEntity('bracket')

// front view: the long leg's face, x across and z up
const dim = {size: TEXT, layer: 'dims'}
const F = at.front, T = at.top, R = at.right
const zc = F[1] + spec.width / 2
dimLinear('d_leg', [F[0], F[1]], [F[0] + spec.leg, F[1]], {...dim, direction: 'horizontal', offset: -10})
dimLinear('d_width', [F[0], F[1]], [F[0], F[1] + spec.width], {...dim, direction: 'vertical', offset: 10})
spec.holes.forEach((x, i) => {
  dimLinear(`d_hole${i}`, [F[0], F[1] + spec.width], [F[0] + x, zc], {...dim, direction: 'horizontal', offset: 7 + 7 * i})
  centerMark(`cm_front${i}`, F[0] + x, zc, spec.hole / 2)
  centerMark(`cm_right${i}`, R[0] + x, zc, spec.hole / 2)
})
dimDiameter('d_holes', 'front_circle2', {...dim, angle: Math.PI / 4, outside: true, text: '4× <> THRU', textAt: [F[0] + spec.leg + 14, F[1] + spec.width + 6]})

// top view: the L and its fillets, y up
dimLinear('d_leg_y', [T[0], T[1]], [T[0], T[1] + spec.leg], {...dim, direction: 'vertical', offset: 10})
dimLinear('d_thick', [T[0] + spec.leg, T[1]], [T[0] + spec.leg, T[1] + spec.thick], {...dim, direction: 'vertical', offset: -8})
// the fillets are arcs of the projection (the solid's chords on one circle)
const arcOf = r => getEntity('top').children.find(n => getEntity(n).kind === 'arc' && Math.abs(getEntity(n).geometry.radius - r) < 0.01)
dimRadius('d_fillet', arcOf(spec.fillet), {...dim, textAt: [T[0] + 22, T[1] + 20]})
dimRadius('d_ends', arcOf(spec.thick / 2), {...dim, outside: true, text: '2× <>'})

// right view: the short leg's face, y across and z up
spec.holes.forEach((y, i) => {
  dimLinear(`d_hole_y${i}`, [R[0], R[1] + spec.width], [R[0] + y, zc], {...dim, direction: 'horizontal', offset: 7 + 7 * i})
})
dimLinear('d_hole_z', [R[0] + spec.leg, R[1]], [R[0] + spec.holes[1], zc], {...dim, direction: 'vertical', offset: -8})

// section A-A at mid-width, and where it cuts the front view
const S = at.section
drawText('sec_title', 'SECTION A-A', S[0] + spec.leg / 2, S[1] - 8, TEXT, {align: 'center', font: 'sans-bold'})
drawLine('cut_l', [F[0] - 9, zc, F[0] - 3, zc])
drawLine('cut_r', [F[0] + spec.leg + 3, zc, F[0] + spec.leg + 9, zc])
drawText('cut_a', 'A', F[0] - 6, zc + 1.5, TEXT, {align: 'center'})
drawText('cut_a2', 'A', F[0] + spec.leg + 6, zc + 1.5, TEXT, {align: 'center'})
for (const n of ['sec_title', 'cut_l', 'cut_r', 'cut_a', 'cut_a2']) setLayer(n, 'notes')

titleBlock('title', R[0] + spec.leg + 5, F[1] - 52, 95, 'ANGLE BRACKET', [
  ['material', 'S235 steel'],
  ['scale', '1:1, mm'],
  ['projection', 'third angle'],
])
const size = [box.x1 - box.x0, box.y1 - box.y0, box.z1 - box.z0].map(v => v.toFixed(1)).join(" × ")
console.log(`shop drawing of the angle bracket: ${size} mm, ${volumeMm3.toFixed(1)} mm³, section A-A ${getArea("section").toFixed(1)} mm²`)
console.log(`front view: ${getEntity('front').children.length} lines and circles, ${getEntity('front_hidden').children.length} hidden`)
