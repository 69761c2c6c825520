// shapes: outlines computed point by point, returned as [[x, y], ...] rings (counter-clockwise).

// star: n points between radii rOuter and rInner about (cx, cy), the first point straight up.
export function star(cx, cy, n, rOuter, rInner) {
  const pts = []
  for (let i = 0; i < 2 * n; i++) {
    const r = i % 2 ? rInner : rOuter
    const a = Math.PI / 2 + (i * Math.PI) / n
    pts.push([round(cx + r * Math.cos(a)), round(cy + r * Math.sin(a))])
  }
  return pts
}

// gear: a spur-gear outline with trapezoidal teeth; rootR at the bottom of the gaps, tipR at
// the tips. Each tooth takes `flank` of its pitch angle for each flank and `land` for its top.
export function gear(cx, cy, teeth, rootR, tipR, land = 0.22, flank = 0.14) {
  const pts = []
  const pitch = (2 * Math.PI) / teeth
  const at = (r, a) => [round(cx + r * Math.cos(a)), round(cy + r * Math.sin(a))]
  for (let i = 0; i < teeth; i++) {
    const a0 = i * pitch
    const gap = 1 - land - 2 * flank
    pts.push(at(rootR, a0))
    pts.push(at(rootR, a0 + gap * pitch))
    pts.push(at(tipR, a0 + (gap + flank) * pitch))
    pts.push(at(tipR, a0 + (gap + flank + land) * pitch))
  }
  return pts
}

// lShape: an L-shaped bracket with its inner corner at (cx, cy), legs of length len and
// thickness t, pointing right and up.
export function lShape(cx, cy, len, t) {
  return [[cx - t, cy - t], [cx + len, cy - t], [cx + len, cy], [cx, cy], [cx, cy + len], [cx - t, cy + len]]
}

// round keeps the numbers short and the output stable.
function round(v) {
  return Math.round(v * 1e6) / 1e6
}
