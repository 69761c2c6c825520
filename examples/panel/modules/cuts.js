// Cut-outs for sheet panels, in millimetres. Each draws closed shapes and returns their names,
// for one booleanDifference against the panel.

// Four mounting holes of diameter d, inset from the corners of a w x h panel centred at (cx, cy).
export function mountingHoles(prefix, cx, cy, w, h, inset, d) {
  const names = []
  for (const [sx, sy] of [[-1, -1], [1, -1], [1, 1], [-1, 1]]) {
    const n = prefix + names.length
    drawCircle(n, cx + sx * (w / 2 - inset), cy + sy * (h / 2 - inset), d / 2)
    names.push(n)
  }
  return names
}

// A rectangular window with rounded corners of radius r.
export function window(name, cx, cy, w, h, r) {
  drawRect(name, cx, cy, w, h)
  fillet(name, r)
  return [name]
}

// A row of n vent slots, each a w x h rectangle with its corners chamfered by c.
export function vents(prefix, cx, cy, n, pitch, w, h, c) {
  const names = []
  for (let i = 0; i < n; i++) {
    const name = prefix + i
    drawRect(name, cx + (i - (n - 1) / 2) * pitch, cy, w, h)
    chamfer(name, c)
    names.push(name)
  }
  return names
}
