// trees: street trees as standard exports.

const LEAF_COLORS = [
  [0.33, 0.6, 0.28, 1],
  [0.25, 0.52, 0.3, 1],
  [0.42, 0.64, 0.25, 1],
]

// tree draws a broadleaf tree standing at (x, y): a trunk and a crown made of overlapping
// circles fused into one shape with booleanUnion. It returns the group's name.
export function tree(name, x, y, size, shade = 0) {
  const trunk = name + '_trunk'
  drawPolygon(trunk, [x - size * 0.09, y, x + size * 0.09, y, x + size * 0.05, y + size * 0.9, x - size * 0.05, y + size * 0.9])
  setFill(trunk, [0.45, 0.31, 0.2, 1])
  setStroke(trunk, null)

  const blobs = [[0, 1.25, 0.5], [-0.35, 1.0, 0.38], [0.36, 1.02, 0.36], [-0.18, 1.55, 0.34], [0.2, 1.5, 0.35]]
  const names = blobs.map(([dx, dy, r], i) => {
    const b = name + '_blob' + i
    drawCircle(b, x + dx * size, y + dy * size, r * size)
    return b
  })
  const crown = name + '_crown'
  booleanUnion(names, crown)
  names.forEach(deleteEntity)
  setFill(crown, LEAF_COLORS[shade % LEAF_COLORS.length])
  setStroke(crown, [0.16, 0.33, 0.15, 1], 0.06)
  createGroup(name, [trunk, crown])
  return name
}

// conifer draws a pine: three stacked triangles on a short trunk.
export function conifer(name, x, y, size) {
  const trunk = name + '_trunk'
  drawRect(trunk, x, y + size * 0.12, size * 0.14, size * 0.24)
  setFill(trunk, [0.4, 0.27, 0.18, 1])
  setStroke(trunk, null)
  const parts = [trunk]
  for (let i = 0; i < 3; i++) {
    const t = name + '_tier' + i
    const base = y + size * (0.2 + i * 0.42)
    const half = size * (0.55 - i * 0.12)
    drawPolygon(t, [x - half, base, x + half, base, x, base + size * 0.75])
    setFill(t, [0.16, 0.42 + i * 0.04, 0.26, 1])
    setStroke(t, [0.1, 0.28, 0.16, 1], 0.05)
    parts.push(t)
  }
  createGroup(name, parts)
  return name
}
