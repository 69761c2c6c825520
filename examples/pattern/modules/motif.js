// motif: the pieces of a rosette, each built at the origin pointing up (+y), so that callers
// place copies by rotating about (0, 0) and scaling around it.

// hsl turns hue (turns, 0..1), saturation and lightness (0..1) into an RGBA colour.
export function hsl(h, s, l, a = 1) {
  const k = n => (n + h * 12) % 12
  const c = s * Math.min(l, 1 - l)
  const f = n => l - c * Math.max(-1, Math.min(k(n) - 3, 9 - k(n), 1))
  return [f(0), f(8), f(4), a].map(v => Math.round(v * 1000) / 1000)
}

// petal draws a pointed petal from the origin to (0, length) with a vein and a bead at the
// tip, grouped as name; its members are name's petal, vein and bead.
export function petal(name, length, width, color) {
  const w = width / 2, L = length
  drawBezier(name + '_petal',
    `M 0 0 C ${w} ${L * 0.2} ${w * 1.4} ${L * 0.62} 0 ${L} C ${-w * 1.4} ${L * 0.62} ${-w} ${L * 0.2} 0 0 Z`)
  setFill(name + '_petal', color)
  setStroke(name + '_petal', [0.2, 0.15, 0.25, 1], 0.4)
  drawLine(name + '_vein', [0, L * 0.12, 0, L * 0.78])
  setStroke(name + '_vein', [1, 1, 1, 0.7], 0.5)
  drawCircle(name + '_bead', 0, L + 2.2, 1.5)
  setFill(name + '_bead', color)
  setStroke(name + '_bead', [0.2, 0.15, 0.25, 1], 0.3)
  createGroup(name, [name + '_petal', name + '_vein', name + '_bead'])
  setPivot(name, 0, 0) // turn about the rosette's centre, not the petal's middle
  return name
}

// halfLeaf draws the right half of a leaf from the origin up to (0, length): the left half is
// made with mirror, so the two always match.
export function halfLeaf(name, length, width, color) {
  drawBezier(name, `M 0 0 C ${width} ${length * 0.25} ${width} ${length * 0.7} 0 ${length} Z`)
  setFill(name, color)
  setStroke(name, [0.1, 0.3, 0.15, 1], 0.3)
  return name
}

// ring places count copies of the grouped piece src about the origin, starting at angle
// start (radians), and returns the names; the copies are src#1 ... src#{count-1}, src itself
// is turned to the first position. (Copies are named src#1 ... so that their members,
// named src#1_0, src#1_1 ..., cannot clash with the members of another copy of src.)
export function ring(src, count, start = 0) {
  const names = [src]
  for (let i = 1; i < count; i++) {
    duplicate(src, `${src}#${i}`)
    names.push(`${src}#${i}`)
  }
  names.forEach((n, i) => {
    setPivot(n, 0, 0)
    rotate(n, start + (2 * Math.PI * i) / count)
  })
  return names
}
