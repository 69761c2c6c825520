// drafting: the layers of a shop drawing and the marks a part's holes get. Colours, linetypes
// and line weights belong to the layers; the shapes put on them take theirs.

export function layers() {
  createLayer('outline', {color: [0.15, 0.17, 0.2, 1], lineweight: 0.6})
  createLayer('center', {color: [0.75, 0.2, 0.2, 1], linetype: 'center'})
  createLayer('section', {color: [0.15, 0.17, 0.2, 1], lineweight: 0.6})
  createLayer('dims', {color: [0.1, 0.3, 0.65, 1]})
  createLayer('notes', {color: [0.15, 0.17, 0.2, 1]})
}

// centerMark draws a hole's centre lines, a little longer than the hole, as one group.
export function centerMark(name, x, y, r) {
  const e = r + 3
  drawLine(name + '_h', [x - e, y, x + e, y])
  drawLine(name + '_v', [x, y - e, x, y + e])
  createGroup(name, [name + '_h', name + '_v'])
  setLayer(name, 'center')
  setLinetype(name, 'center', {scale: 0.25})
}

// centerCircle draws a pitch circle as a centre line.
export function centerCircle(name, x, y, r) {
  drawCircle(name, x, y, r)
  setLayer(name, 'center')
  setLinetype(name, 'center', {scale: 0.5})
}
