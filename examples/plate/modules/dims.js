// dims: drafting annotations, drawn in one colour with thin strokes, each call making a group.

export const DIM_COLOR = [0.1, 0.3, 0.65, 1]
export const CENTER_COLOR = [0.75, 0.2, 0.2, 1]
const THIN = 0.25
const TEXT_SIZE = 4.2
const ARROW = 3

function stroke(name, color = DIM_COLOR, width = THIN) {
  setFill(name, null)
  setStroke(name, color, width)
}

function arrow(name, tip, dir) {
  // a filled arrowhead whose tip is at tip, pointing along the unit vector dir
  const [x, y] = tip, [ux, uy] = dir
  const bx = x - ux * ARROW, by = y - uy * ARROW
  const w = ARROW * 0.3
  drawPolygon(name, [x, y, bx - uy * w, by + ux * w, bx + uy * w, by - ux * w])
  setFill(name, DIM_COLOR)
  setStroke(name, null)
}

// label draws text centred on (x, y) along the angle, lifted off the line it annotates.
function label(name, text, x, y, angle) {
  const m = getTextMetrics(text, TEXT_SIZE)
  drawText(name, text, x, y - m.height / 2 + m.descent, TEXT_SIZE, {align: 'center', color: DIM_COLOR})
  if (angle !== 0) {
    setPivot(name, x, y)
    rotate(name, angle)
  }
}

// centerMark draws the crossed centre lines of a hole, a little longer than the hole.
export function centerMark(name, x, y, r) {
  const e = r + 2.5
  drawLine(name + '_h', [x - e, y, x - r * 0.25, y])
  drawLine(name + '_h2', [x + r * 0.25, y, x + e, y])
  drawLine(name + '_v', [x, y - e, x, y - r * 0.25])
  drawLine(name + '_v2', [x, y + r * 0.25, x, y + e])
  drawLine(name + '_c', [x - r * 0.12, y, x + r * 0.12, y])
  const parts = ['_h', '_h2', '_v', '_v2', '_c'].map(s => name + s)
  parts.forEach(p => stroke(p, CENTER_COLOR, 0.2))
  createGroup(name, parts)
}

// chainCircle draws a dash-dot centre circle (a pitch circle) as a ring of short arcs.
export function chainCircle(name, cx, cy, r, dashes = 24) {
  const parts = []
  const step = (2 * Math.PI) / dashes
  for (let i = 0; i < dashes; i++) {
    const a = i * step
    drawArc(`${name}_${i}`, cx, cy, r, a, a + step * 0.62)
    drawArc(`${name}_${i}d`, cx, cy, r, a + step * 0.76, a + step * 0.86)
    parts.push(`${name}_${i}`, `${name}_${i}d`)
  }
  parts.forEach(p => stroke(p, CENTER_COLOR, 0.2))
  createGroup(name, parts)
}

// linear draws an aligned dimension between p1 and p2, offset to the left of p1→p2 by
// offset, with extension lines, arrowheads and the measured length (or text) as its label.
export function linear(name, p1, p2, offset, text) {
  const dx = p2[0] - p1[0], dy = p2[1] - p1[1]
  const len = Math.hypot(dx, dy)
  const u = [dx / len, dy / len], n = [-u[1], u[0]]
  const at = (p, k) => [p[0] + n[0] * k, p[1] + n[1] * k]
  const a = at(p1, offset), b = at(p2, offset)
  const s = Math.sign(offset)
  drawLine(name + '_ext1', [at(p1, s * 1.5), at(p1, offset + s * 2)])
  drawLine(name + '_ext2', [at(p2, s * 1.5), at(p2, offset + s * 2)])
  drawLine(name + '_line', [a, b])
  ;['_ext1', '_ext2', '_line'].forEach(p => stroke(name + p))
  arrow(name + '_a1', a, [-u[0], -u[1]])
  arrow(name + '_a2', b, u)
  let angle = Math.atan2(dy, dx)
  if (angle > Math.PI / 2 + 1e-9 || angle <= -Math.PI / 2 + 1e-9) angle += Math.PI // keep text upright
  const mid = at([(p1[0] + p2[0]) / 2, (p1[1] + p2[1]) / 2], offset + s * 3.2)
  label(name + '_text', text !== undefined ? text : fmt(len), mid[0], mid[1], angle)
  createGroup(name, ['_ext1', '_ext2', '_line', '_a1', '_a2', '_text'].map(p => name + p))
  return len
}

// leader draws a callout: an arrow touching the edge of the feature at `at`, a bent line and
// the text at its end.
export function leader(name, at, elbow, text, side = 1) {
  const tail = [elbow[0] + side * 6, elbow[1]]
  drawLine(name + '_line', [at, elbow, tail])
  stroke(name + '_line')
  const d = [at[0] - elbow[0], at[1] - elbow[1]]
  const l = Math.hypot(d[0], d[1])
  arrow(name + '_a', at, [d[0] / l, d[1] / l])
  drawText(name + '_text', text, tail[0] + side * 1.2, tail[1] - TEXT_SIZE * 0.35, TEXT_SIZE,
    {align: side > 0 ? 'left' : 'right', color: DIM_COLOR})
  createGroup(name, [name + '_line', name + '_a', name + '_text'])
}

// fmt writes a length the way a drawing shows it: no trailing zeros.
export function fmt(v) {
  return String(Math.round(v * 100) / 100)
}
