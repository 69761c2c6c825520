// fixtures: doors, windows and furniture symbols, drawn in plan.

const LINE = [0.2, 0.2, 0.22, 1]
const FURN = [1, 1, 1, 1]

function thin(name, w = 0.02, color = LINE) {
  setStroke(name, color, w)
  return name
}

// door draws a leaf of width w hinged at (hx, hy), shown open at angle `open` (radians) with
// the arc it sweeps from the closed position at angle `closed`.
export function door(name, hx, hy, w, closed, open) {
  drawLine(name + '_leaf', [[hx, hy], [hx + w * Math.cos(open), hy + w * Math.sin(open)]])
  thin(name + '_leaf', 0.05)
  const [a, b] = open > closed ? [closed, open] : [open, closed]
  drawArc(name + '_swing', hx, hy, w, a, b)
  thin(name + '_swing', 0.015, [0.45, 0.45, 0.5, 1])
  createGroup(name, [name + '_leaf', name + '_swing'])
}

// window draws glazing in a wall opening: a frame the wall's thickness deep and two glass lines.
export function glazing(name, x, y, w, depth, dir) {
  const h = dir === 'h'
  drawRect(name + '_frame', x, y, h ? w : depth, h ? depth : w)
  setFill(name + '_frame', [0.93, 0.97, 1, 1])
  thin(name + '_frame', 0.02)
  const parts = [name + '_frame']
  for (const k of [-0.15, 0.15]) {
    const o = k * depth
    drawLine(name + '_glass' + (k > 0 ? 1 : 0), h ? [x - w / 2, y + o, x + w / 2, y + o] : [x + o, y - w / 2, x + o, y + w / 2])
    thin(name + '_glass' + (k > 0 ? 1 : 0), 0.02, [0.3, 0.55, 0.8, 1])
    parts.push(name + '_glass' + (k > 0 ? 1 : 0))
  }
  createGroup(name, parts)
}

function piece(name, draw, fill = FURN) {
  draw(name)
  setFill(name, fill)
  thin(name)
  return name
}

export function bed(name, x, y, w, l) {
  const parts = [
    piece(name + '_frame', n => drawRoundedRect(n, x, y, w, l, 0.05)),
    piece(name + '_duvet', n => drawRoundedRect(n, x, y - l * 0.12, w - 0.1, l * 0.7, 0.06), [0.72, 0.8, 0.9, 1]),
    piece(name + '_pillow1', n => drawRoundedRect(n, x - w / 4, y + l / 2 - 0.28, w / 2 - 0.15, 0.35, 0.1)),
    piece(name + '_pillow2', n => drawRoundedRect(n, x + w / 4, y + l / 2 - 0.28, w / 2 - 0.15, 0.35, 0.1)),
  ]
  createGroup(name, parts)
}

export function sofa(name, x, y, w, d) {
  const parts = [
    piece(name + '_back', n => drawRoundedRect(n, x, y + d / 2 - 0.1, w, 0.2, 0.06), [0.55, 0.62, 0.7, 1]),
    piece(name + '_armL', n => drawRoundedRect(n, x - w / 2 + 0.1, y, 0.2, d, 0.06), [0.55, 0.62, 0.7, 1]),
    piece(name + '_armR', n => drawRoundedRect(n, x + w / 2 - 0.1, y, 0.2, d, 0.06), [0.55, 0.62, 0.7, 1]),
  ]
  const seats = 3, sw = (w - 0.4) / seats
  for (let i = 0; i < seats; i++) {
    parts.push(piece(`${name}_seat${i}`, n => drawRoundedRect(n, x - w / 2 + 0.2 + sw * (i + 0.5), y - 0.1, sw - 0.04, d - 0.24, 0.06), [0.68, 0.74, 0.8, 1]))
  }
  createGroup(name, parts)
}

// table draws a dining table with chairs down both long sides: one chair is drawn, the
// rest are duplicates moved along the side, and the far side's are turned about the table's
// centre.
export function table(name, x, y, w, d, perSide) {
  const parts = [piece(name + '_top', n => drawRoundedRect(n, x, y, w, d, 0.05), [0.8, 0.66, 0.5, 1])]
  const pitch = w / perSide
  const first = name + '_chair0'
  piece(first, n => drawRoundedRect(n, x - w / 2 + pitch / 2, y + d / 2 + 0.22, 0.42, 0.4, 0.06), [0.62, 0.48, 0.35, 1])
  parts.push(first)
  for (let i = 1; i < 2 * perSide; i++) {
    const c = `${name}_chair${i}`
    duplicate(first, c)
    if (i >= perSide) {
      setPivot(c, x, y) // the table's centre; the copy has not moved yet, so own = world
      rotate(c, Math.PI)
    }
    translate(c, (i >= perSide ? -1 : 1) * (i % perSide) * pitch, 0)
    parts.push(c)
  }
  createGroup(name, parts)
}

export function counter(name, pts, depth) {
  const parts = [piece(name + '_top', n => drawPolygon(n, pts), [0.85, 0.84, 0.8, 1])]
  createGroup(name, parts)
  return depth
}

export function sink(name, x, y) {
  const parts = [
    piece(name + '_bowl', n => drawRoundedRect(n, x, y, 0.7, 0.45, 0.08), [0.92, 0.95, 0.97, 1]),
    piece(name + '_drain', n => drawCircle(n, x, y, 0.04), LINE),
  ]
  createGroup(name, parts)
}

export function hob(name, x, y) {
  const parts = [piece(name + '_plate', n => drawRect(n, x, y, 0.6, 0.52), [0.2, 0.2, 0.22, 1])]
  const burners = [[-0.14, -0.12, 0.09], [0.14, -0.12, 0.07], [-0.14, 0.12, 0.07], [0.14, 0.12, 0.09]]
  burners.forEach(([dx, dy, r], i) => parts.push(piece(`${name}_b${i}`, n => drawCircle(n, x + dx, y + dy, r), null)))
  parts.slice(1).forEach(p => setStroke(p, [0.85, 0.4, 0.2, 1], 0.02))
  createGroup(name, parts)
}

export function bathtub(name, x, y, w, l) {
  const parts = [
    piece(name + '_rim', n => drawRoundedRect(n, x, y, w, l, 0.1)),
    piece(name + '_basin', n => drawRoundedRect(n, x, y, w - 0.16, l - 0.16, 0.3), [0.88, 0.94, 0.98, 1]),
  ]
  createGroup(name, parts)
}

export function toilet(name, x, y, angle) {
  const parts = [
    piece(name + '_tank', n => drawRoundedRect(n, x, y + 0.28, 0.5, 0.18, 0.04)),
    piece(name + '_bowl', n => drawEllipse(n, x, y, 0.19, 0.26)),
  ]
  createGroup(name, parts)
  setPivot(name, x, y) // a group turns about its origin unless told otherwise
  rotate(name, angle)
}

export function basin(name, x, y, angle) {
  const parts = [
    piece(name + '_top', n => drawRoundedRect(n, x, y, 0.6, 0.45, 0.05)),
    piece(name + '_bowl', n => drawEllipse(n, x, y - 0.03, 0.22, 0.15), [0.88, 0.94, 0.98, 1]),
  ]
  createGroup(name, parts)
  setPivot(name, x, y) // a group turns about its origin unless told otherwise
  rotate(name, angle)
}

export function desk(name, x, y, w, d) {
  const parts = [
    piece(name + '_top', n => drawRect(n, x, y, w, d), [0.8, 0.7, 0.56, 1]),
    piece(name + '_chair', n => drawCircle(n, x, y - d / 2 - 0.3, 0.24), [0.4, 0.45, 0.5, 1]),
  ]
  createGroup(name, parts)
}
