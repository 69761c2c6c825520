// A mounting plate: a rounded blank with a bolt circle around a centre bore, four corner
// holes and an adjusting slot, all cut in one boolean difference, then dimensioned.
import {polarArray, gridArray, slot} from 'holes'
import * as dim from 'dims'

const W = 180, H = 110, R = 12 // plate, mm
const BOSS = [-30, 0]          // centre of the bolt circle
const PCD = 64

drawRoundedRect('blank', 0, 0, W, H, R)
const bore = {name: 'bore', x: BOSS[0], y: BOSS[1], r: 15}
drawCircle(bore.name, bore.x, bore.y, bore.r)
const bolts = polarArray('bolt', BOSS[0], BOSS[1], PCD, 6, 4, Math.PI / 2)
const corners = gridArray('corner', 0, 0, 2, 2, W - 26, H - 26, 5)
const adjust = slot('slot', 52, 0, 36, 12, Math.PI / 2)

const cutters = [bore, ...bolts, ...corners].map(h => h.name).concat(adjust.name)
booleanDifference('blank', cutters, 'part')
cutters.forEach(deleteEntity)
deleteEntity('blank')
setFill('part', [0.74, 0.78, 0.83, 1])
setStroke('part', [0.15, 0.17, 0.2, 1], 0.6)

const area = getArea('part')
console.log(`plate ${W} x ${H}, ${cutters.length} cut-outs in one difference`)
console.log(`net area ${area.toFixed(1)} mm², ${(100 * area / (W * H)).toFixed(1)}% of the bounding rectangle`)
console.log(`part has ${getEntity('part').geometry.parts[0].holes.length} holes`)

// centre marks, the pitch circle and the slot's axis
const marks = []
for (const h of [bore, ...bolts, ...corners]) {
  dim.centerMark('cm_' + h.name, h.x, h.y, h.r)
  marks.push('cm_' + h.name)
}
dim.chainCircle('pcd', BOSS[0], BOSS[1], PCD / 2)
dim.centerMark('cm_slot_top', adjust.x, adjust.y + adjust.length / 2, adjust.width / 2)
dim.centerMark('cm_slot_bottom', adjust.x, adjust.y - adjust.length / 2, adjust.width / 2)
createGroup('centres', [...marks, 'pcd', 'cm_slot_top', 'cm_slot_bottom'])

// dimensions; edge is the point on a hole's rim in direction a, where a leader's arrow ends
const edge = (h, a) => [h.x + h.r * Math.cos(a), h.y + h.r * Math.sin(a)]
const dims = []
const add = (name, f) => { f(name); dims.push(name) }
add('d_width', n => dim.linear(n, [-W / 2, H / 2], [W / 2, H / 2], 12))
add('d_height', n => dim.linear(n, [W / 2, -H / 2], [W / 2, H / 2], -12))
add('d_pitch_x', n => dim.linear(n, [corners[0].x, corners[0].y], [corners[1].x, corners[1].y], -(H - (H - 26)) / 2 - 10))
add('d_boss', n => dim.linear(n, [-W / 2, H / 2], [BOSS[0], H / 2], 4, dim.fmt(BOSS[0] + W / 2)))
add('d_slot', n => dim.linear(n, [adjust.x, adjust.y - adjust.length / 2], [adjust.x, adjust.y + adjust.length / 2], -16))
add('c_bolts', n => dim.leader(n, edge(bolts[1], Math.PI * 5 / 6), [-100, 27], '6× Ø8 EQ SP\nON PCD 64', -1))
add('c_bore', n => dim.leader(n, edge(bore, -Math.PI / 4), [0, -34], 'Ø30 BORE'))
add('c_corner', n => dim.leader(n, edge(corners[1], Math.PI * 3 / 4), [62, -30], '4× Ø10', -1))
add('c_slot', n => dim.leader(n, edge({x: adjust.x, y: adjust.y + adjust.length / 2, r: adjust.width / 2}, Math.PI * 3 / 4), [38, 42], 'SLOT 12 WIDE', -1))
createGroup('dimensions', dims)
drawOrder('centres', 'front')
drawOrder('dimensions', 'front')

drawText('title', 'MOUNTING PLATE  —  6 mm AL 6061  —  scale 1:1', 0, -H / 2 - 22, 5, {align: 'center', font: 'sans-bold'})
