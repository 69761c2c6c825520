// A two-bedroom apartment in plan: exterior walls grown from the room outline with
// offsetPolygon, partitions fused on with booleanUnion, door and window openings cut in one
// booleanDifference, net floor areas measured with getArea, labels sized by getTextMetrics.
import {EXT_WALL, INT_WALL, OUTLINE, ROOMS, PARTITIONS, wallBand, opening, label} from 'rooms'
import * as fx from 'fixtures'

// --- walls ---------------------------------------------------------------------------
drawPolygon('outline', OUTLINE)
offsetPolygon('outline', EXT_WALL, 'outline_out', {joinType: 'miter'})
booleanDifference('outline_out', 'outline', 'shell')
const bands = PARTITIONS.map(([x0, y0, x1, y1], i) => wallBand('part' + i, [x0, y0], [x1, y1], INT_WALL))
booleanUnion(['shell', ...bands], 'walls_raw')

// openings: [name, x, y, width, direction, kind]
const W_MID = EXT_WALL / 2 // the middle of an exterior wall, measured from the inside face
const openings = [
  ['front', 5.5, 9 + W_MID, 1.0, 'h', 'door'],
  ['d_living', 5.5, 4.5, 0.9, 'h', 'door'],
  ['d_study', 4, 5.75, 0.8, 'v', 'door'],
  ['d_bed', 7, 7.9, 0.8, 'v', 'door'],
  ['d_bath', 10.5, 5.3, 0.8, 'v', 'door'],
  ['arch', 7, 2.6, 1.6, 'v', 'arch'],
  ['w_living1', 2.5, -W_MID, 2.6, 'h', 'window'],
  ['w_living2', -W_MID, 2.2, 1.4, 'v', 'window'],
  ['w_kitchen1', 10, -W_MID, 1.8, 'h', 'window'],
  ['w_kitchen2', 13 + W_MID, 2.2, 1.2, 'v', 'window'],
  ['w_study1', 2, 7 + W_MID, 1.6, 'h', 'window'],
  ['w_study2', -W_MID, 5.75, 1.0, 'v', 'window'],
  ['w_bed', 8.75, 9 + W_MID, 1.8, 'h', 'window'],
  ['w_bath', 13 + W_MID, 7.4, 0.8, 'v', 'window'],
]
const cutters = openings.map(([n, x, y, w, dir]) => opening('cut_' + n, x, y, w, dir))
booleanDifference('walls_raw', cutters, 'walls')
setFill('walls', [0.25, 0.25, 0.28, 1])
setStroke('walls', [0.1, 0.1, 0.1, 1], 0.02)

// --- floors: each room's rectangle minus the walls, so areas are net ---------------------
const floors = []
for (const r of ROOMS) {
  drawRect('r_' + r.id, (r.x0 + r.x1) / 2, (r.y0 + r.y1) / 2, r.x1 - r.x0, r.y1 - r.y0)
  booleanDifference('r_' + r.id, 'walls_raw', 'floor_' + r.id)
  deleteEntity('r_' + r.id)
  setFill('floor_' + r.id, r.floor)
  setStroke('floor_' + r.id, null)
  floors.push('floor_' + r.id)
}
createGroup('floors', floors)
drawOrder('floors', 'back')
for (const n of ['outline', 'outline_out', 'shell', 'walls_raw', ...bands, ...cutters]) deleteEntity(n)

// --- doors and windows -------------------------------------------------------------
const Q = Math.PI / 2
fx.door('door_front', 5.0, 9, 1.0, 0, -Q)        // hinged west, opens into the hall
fx.door('door_living', 5.95, 4.5, 0.9, Math.PI, Math.PI + Q) // opens down into the living room
fx.door('door_study', 4, 6.15, 0.8, -Q, -Math.PI) // opens west into the study
fx.door('door_bed', 7, 7.5, 0.8, Q, 0)           // opens east into the bedroom
fx.door('door_bath', 10.5, 4.9, 0.8, Q, 0)       // opens east into the bath
const glass = []
for (const [n, x, y, w, dir, kind] of openings) {
  if (kind !== 'window') continue
  fx.glazing('win_' + n, x, y, w, EXT_WALL, dir)
  glass.push('win_' + n)
}
createGroup('windows', glass)
createGroup('doors', ['door_front', 'door_living', 'door_study', 'door_bed', 'door_bath'])

// --- furniture ---------------------------------------------------------------------
fx.sofa('sofa', 2.4, 0.75, 2.4, 0.9)
setPivot('sofa', 2.4, 0.75) // groups turn about their origin unless told otherwise
rotate('sofa', Math.PI)
fx.table('dining', 5.0, 2.6, 1.6, 0.9, 3)
fx.counter('counter', [[7.4, 0.06], [12.94, 0.06], [12.94, 0.66], [8.0, 0.66], [8.0, 2.8], [7.4, 2.8]], 0.6)
fx.sink('sink', 10, 0.36)
fx.hob('hob', 7.7, 1.8)
setPivot('hob', 7.7, 1.8)
rotate('hob', Q)
fx.bed('bed', 8.75, 7.6, 1.6, 2.0)
fx.bathtub('tub', 12.55, 6.8, 0.75, 1.7)
fx.toilet('wc', 11.0, 8.5, 0)
fx.basin('basin', 11.9, 4.85, 0)
fx.desk('desk', 1.2, 6.65, 1.6, 0.6)
createGroup('furniture', ['sofa', 'dining', 'counter', 'sink', 'hob', 'bed', 'tub', 'wc', 'basin', 'desk'])

// --- labels --------------------------------------------------------------------------
let total = 0
const labels = []
for (const r of ROOMS) {
  const a = getArea('floor_' + r.id)
  total += a
  const at = r.at || [(r.x0 + r.x1) / 2, (r.y0 + r.y1) / 2]
  const box = label(r.id, r.label, `${a.toFixed(1)} m²`, at[0], at[1])
  labels.push(r.id + '_label')
  console.log(`${r.label.padEnd(16)} ${a.toFixed(2).padStart(6)} m²  (label ${box.width.toFixed(2)} × ${box.height.toFixed(2)} m)`)
}
createGroup('labels', labels)
console.log(`net floor area ${total.toFixed(2)} m², wall area ${getArea('walls').toFixed(2)} m²`)

// --- title, scale bar and north arrow ------------------------------------------------------
const bar = []
for (let i = 0; i < 4; i++) {
  drawRect('bar' + i, 0.5 + i * 0.5 + 0.25, -1.3, 0.5, 0.12)
  setFill('bar' + i, i % 2 ? [1, 1, 1, 1] : [0.15, 0.15, 0.15, 1])
  setStroke('bar' + i, [0.15, 0.15, 0.15, 1], 0.02)
  bar.push('bar' + i)
}
for (const m of [0, 1, 2]) {
  drawText('bar_t' + m, String(m), 0.5 + m, -1.75, 0.22, {align: 'center'})
  bar.push('bar_t' + m)
}
drawText('bar_unit', 'm', 2.75, -1.38, 0.22)
bar.push('bar_unit')
createGroup('scale_bar', bar)
drawPolygon('north', [[12.3, -1.8], [12.6, -0.9], [12.9, -1.8], [12.6, -1.55]])
setFill('north', [0.15, 0.15, 0.15, 1])
setStroke('north', null) // the default 1-unit pen is a metre wide here
drawText('north_n', 'N', 12.6, -0.75, 0.3, {align: 'center', font: 'sans-bold'})
drawText('title', 'Apartment 2B — ground floor plan', 7.2, -1.75, 0.42, {align: 'center', font: 'sans-bold'})
