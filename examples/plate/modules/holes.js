// holes: hole patterns for a plate. Each function draws the cutting shapes (closed outlines
// that a booleanDifference removes) and returns their names with their centres.

// polarArray draws count holes of radius r evenly spaced on a circle of radius pcd / 2
// about (cx, cy), the first at startAngle (radians, counter-clockwise from +x).
export function polarArray(prefix, cx, cy, pcd, count, r, startAngle = 0) {
  const holes = []
  for (let i = 0; i < count; i++) {
    const a = startAngle + (2 * Math.PI * i) / count
    const h = {name: `${prefix}${i}`, x: cx + (pcd / 2) * Math.cos(a), y: cy + (pcd / 2) * Math.sin(a), r}
    drawCircle(h.name, h.x, h.y, r)
    holes.push(h)
  }
  return holes
}

// gridArray draws holes of radius r at the corners of a cols × rows grid centred on (cx, cy)
// with pitch dx, dy.
export function gridArray(prefix, cx, cy, cols, rows, dx, dy, r) {
  const holes = []
  for (let j = 0; j < rows; j++) {
    for (let i = 0; i < cols; i++) {
      const h = {name: `${prefix}${j * cols + i}`, x: cx + (i - (cols - 1) / 2) * dx, y: cy + (j - (rows - 1) / 2) * dy, r}
      drawCircle(h.name, h.x, h.y, r)
      holes.push(h)
    }
  }
  return holes
}

// slot draws a straight slot: length between the end centres, width across, turned by angle
// about its centre.
export function slot(name, cx, cy, length, width, angle = 0) {
  drawRoundedRect(name, cx, cy, length + width, width, width / 2)
  if (angle !== 0) rotate(name, angle)
  return {name, x: cx, y: cy, length, width, angle}
}
