// A mounting plate: a rounded blank with a bolt circle around a centre bore, four corner
// holes and an adjusting slot, all cut in one boolean difference; dimensioned, with centre
// lines and a hatched section A-A below the plan.
import {polarArray, gridArray, slot} from 'holes'
import {layers, centerMark, centerCircle} from 'drafting'

const W = 180, H = 110, R = 12, T = 6 // plate and thickness, mm
const BOSS = [-30, 0]                 // centre of the bolt circle
const PCD = 64
const TEXT = 3.5                      // dimension text height, mm on paper at 1:1
layers()

// the plan: the blank less its holes and slot
drawRoundedRect('blank', 0, 0, W, H, R)
const bore = {name: 'bore', x: BOSS[0], y: BOSS[1], r: 15}
drawCircle(bore.name, bore.x, bore.y, bore.r)
const bolts = polarArray('bolt', BOSS[0], BOSS[1], PCD, 6, 4, Math.PI / 2)
const corners = gridArray('corner', 0, 0, 2, 2, W - 26, H - 26, 5)
const adjust = slot('slot', 52, 0, 36, 12, Math.PI / 2)

// dimensions of the holes, taken from the cutters before they go
const dim = {size: TEXT, layer: 'dims'}
dimDiameter('d_bore', 'bore', {...dim, angle: -0.25, text: '<> H7'})
dimDiameter('d_bolts', 'bolt1', {...dim, angle: Math.PI * 5 / 6, text: '6× <>'})
dimDiameter('d_corner', 'corner0', {...dim, angle: 0, text: '4× <>'})

const cutters = [bore, ...bolts, ...corners].map(h => h.name).concat(adjust.name)
booleanDifference('blank', cutters, 'part')
cutters.forEach(deleteEntity)
deleteEntity('blank')
setLayer('part', 'outline')
setFill('part', [0.86, 0.88, 0.91, 1])

const area = getArea('part')
console.log(`plate ${W} x ${H}, ${cutters.length} cut-outs in one difference`)
console.log(`net area ${area.toFixed(1)} mm², ${(100 * area / (W * H)).toFixed(1)}% of the bounding rectangle`)
console.log(`part has ${getEntity('part').geometry.parts[0].holes.length} holes`)

// centre lines: a mark on every hole and the slot's ends, the pitch circle
const marks = [bore, ...bolts, ...corners].map(h => {
  centerMark('cm_' + h.name, h.x, h.y, h.r)
  return 'cm_' + h.name
})
centerMark('cm_slot_top', adjust.x, adjust.y + adjust.length / 2, adjust.width / 2)
centerMark('cm_slot_bottom', adjust.x, adjust.y - adjust.length / 2, adjust.width / 2)
centerCircle('pcd', BOSS[0], BOSS[1], PCD / 2)
createGroup('centres', [...marks, 'cm_slot_top', 'cm_slot_bottom', 'pcd'])

// overall and positional dimensions
const top = H / 2, right = W / 2
dimLinear('d_width', [-right, top - R], [right, top - R], {...dim, direction: 'horizontal', offset: 22})
dimLinear('d_height', [right - R, -top], [right - R, top], {...dim, direction: 'vertical', offset: -28})
dimLinear('d_boss', [-right, top - R], [BOSS[0], BOSS[1]], {...dim, direction: 'horizontal', offset: 6})
dimLinear('d_pitch', [corners[0].x, corners[0].y], [corners[1].x, corners[1].y], {...dim, direction: 'horizontal', offset: -(top - 42) - 10})
const slotTop = adjust.y + adjust.length / 2
dimLinear('d_slot', [adjust.x, adjust.y - adjust.length / 2], [adjust.x, slotTop], {...dim, direction: 'vertical', offset: -12})
dimLinear('d_slot_w', [adjust.x - adjust.width / 2, slotTop], [adjust.x + adjust.width / 2, slotTop], {...dim, direction: 'horizontal', offset: 14})
dimDiameter('d_pcd', 'pcd', {...dim, angle: Math.PI * 0.38, outside: true, text: 'PCD <>'})
dimAngle('a_bolts', [BOSS[0], BOSS[1]], [bolts[0].x, bolts[0].y], [bolts[1].x, bolts[1].y], {...dim, radius: PCD / 2 + 9})

// section A-A along y = 0, drawn below the plan: the plate's thickness where the cut passes
// through solid metal, between the bore and the slot
const SY = -top - 42
const solid = [[-right, bore.x - bore.r], [bore.x + bore.r, adjust.x - adjust.width / 2], [adjust.x + adjust.width / 2, right]]
const pieces = solid.map(([x0, x1], i) => {
  drawRect(`sec${i}`, (x0 + x1) / 2, SY, x1 - x0, T)
  return `sec${i}`
})
createGroup('section', pieces)
setLayer('section', 'section')
setHatch('section', 'ansi31', {scale: 0.6})
centerMark('cm_sec_bore', bore.x, SY, 0)
dimLinear('d_thick', [right, SY - T / 2], [right, SY + T / 2], {...dim, direction: 'vertical', offset: -10})
drawLine('cut_line', [-right - 8, 0, -right - 2, 0])
drawLine('cut_line2', [right + 2, 0, right + 8, 0])
for (const n of ['cut_line', 'cut_line2']) { setLayer(n, 'notes'); setStroke(n, [0.15, 0.17, 0.2, 1], 0.6) }
drawText('cut_a', 'A', -right - 6, 2, TEXT, {align: 'center'})
drawText('cut_a2', 'A', right + 6, 2, TEXT, {align: 'center'})
drawText('sec_title', 'SECTION A-A', 0, SY - T / 2 - 9, TEXT, {align: 'center', font: 'sans-bold'})

// the dimensions over the part and its centre lines
createGroup('dimensions', ['d_bore', 'd_bolts', 'd_corner', 'd_width', 'd_height', 'd_boss', 'd_pitch', 'd_slot', 'd_slot_w', 'd_pcd', 'a_bolts', 'd_thick'])
drawOrder('dimensions', 'front')

drawText('title', 'MOUNTING PLATE  —  6 mm AL 6061  —  scale 1:1', 0, SY - 24, 5, {align: 'center', font: 'sans-bold'})
for (const n of ['cut_a', 'cut_a2', 'sec_title', 'title']) setLayer(n, 'notes')
