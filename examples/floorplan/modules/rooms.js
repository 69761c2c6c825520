// rooms: the apartment's layout data and the helpers that draw walls, openings and labels.
// Units are metres; the origin is the inside of the south-west corner.

export const EXT_WALL = 0.3   // exterior walls grow outward from the outline by this much
export const INT_WALL = 0.12  // partitions are centred on their lines

// The inside face of the exterior walls: a rectangle with a porch notch at the north-west.
export const OUTLINE = [[0, 0], [13, 0], [13, 9], [4, 9], [4, 7], [0, 7]]

// Rooms by their extent between wall centre lines (the outline for exterior sides); `at`
// places the label where the furniture leaves room for it (default: the middle).
export const ROOMS = [
  {id: 'living', label: 'Living / Dining', x0: 0, y0: 0, x1: 7, y1: 4.5, floor: [0.93, 0.86, 0.74, 1], at: [2.3, 3.0]},
  {id: 'kitchen', label: 'Kitchen', x0: 7, y0: 0, x1: 13, y1: 4.5, floor: [0.86, 0.89, 0.9, 1]},
  {id: 'study', label: 'Study', x0: 0, y0: 4.5, x1: 4, y1: 7, floor: [0.86, 0.92, 0.84, 1], at: [2.4, 5.3]},
  {id: 'hall', label: 'Hall', x0: 4, y0: 4.5, x1: 7, y1: 9, floor: [0.9, 0.9, 0.9, 1]},
  {id: 'bedroom', label: 'Bedroom', x0: 7, y0: 4.5, x1: 10.5, y1: 9, floor: [0.95, 0.9, 0.82, 1], at: [8.75, 5.6]},
  {id: 'bath', label: 'Bath', x0: 10.5, y0: 4.5, x1: 13, y1: 9, floor: [0.8, 0.9, 0.96, 1], at: [11.3, 6.8]},
]

// Partitions as centre lines [x0, y0, x1, y1].
export const PARTITIONS = [
  [0, 4.5, 13, 4.5],
  [7, 0, 7, 4.5],
  [4, 4.5, 4, 7],
  [7, 4.5, 7, 9],
  [10.5, 4.5, 10.5, 9],
]

// wallBand draws a rectangle along a wall line: `along` from a to b, `across` thick.
export function wallBand(name, a, b, across) {
  const horizontal = a[1] === b[1]
  const cx = (a[0] + b[0]) / 2, cy = (a[1] + b[1]) / 2
  const len = Math.hypot(b[0] - a[0], b[1] - a[1])
  if (horizontal) drawRect(name, cx, cy, len, across)
  else drawRect(name, cx, cy, across, len)
  return name
}

// opening draws the cutter for a gap of width w centred on (x, y) in a wall running
// horizontally ('h') or vertically ('v'); it is deep enough for any wall.
export function opening(name, x, y, w, dir) {
  if (dir === 'h') drawRect(name, x, y, w, 1)
  else drawRect(name, x, y, 1, w)
  return name
}

// label draws a room's name and area in a white box sized from the text's metrics.
export function label(id, title, sub, x, y) {
  const TITLE = 0.34, SUB = 0.26, PAD = 0.16, GAP = 0.1
  const mt = getTextMetrics(title, TITLE, 'sans-bold')
  const ms = getTextMetrics(sub, SUB)
  const w = Math.max(mt.width, ms.width) + 2 * PAD
  const h = mt.height + ms.height + GAP + 2 * PAD
  const top = y + h / 2
  drawRoundedRect(id + '_box', x, y, w, h, 0.08)
  setFill(id + '_box', [1, 1, 1, 0.85])
  setStroke(id + '_box', [0.55, 0.55, 0.55, 1], 0.015)
  drawText(id + '_title', title, x, top - PAD - mt.ascent, TITLE, {align: 'center', font: 'sans-bold', color: [0.15, 0.15, 0.2, 1]})
  drawText(id + '_area', sub, x, top - PAD - mt.height - GAP - ms.ascent, SUB, {align: 'center', color: [0.35, 0.35, 0.4, 1]})
  createGroup(id + '_label', [id + '_box', id + '_title', id + '_area'])
  return {width: w, height: h}
}
