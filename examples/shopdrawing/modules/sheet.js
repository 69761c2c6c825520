// sheet: a shop drawing made from a solid. The views are projections of the solid (project),
// the section is its cut (section): nothing is drawn twice by hand, so a change to the solid
// redraws the sheet. Colours, linetypes and line weights belong to the layers.

export function layers() {
  createLayer('outline', {color: [0.15, 0.17, 0.2, 1], lineweight: 0.5})
  createLayer('hidden', {color: [0.35, 0.38, 0.42, 1], linetype: 'hidden', lineweight: 0.25})
  createLayer('center', {color: [0.75, 0.2, 0.2, 1], linetype: 'center', lineweight: 0.18})
  createLayer('section', {color: [0.15, 0.17, 0.2, 1], lineweight: 0.5})
  createLayer('dims', {color: [0.1, 0.3, 0.65, 1]})
  createLayer('notes', {color: [0.15, 0.17, 0.2, 1]})
}

// thirdAngle projects the solid `name` into the front, top and right views in third-angle
// layout: the front view with its lower left corner at the origin, the top view above it and
// the right view to its right, gap apart, each with its hidden edges; and the section through
// the plane `cut` to the right of the top view. It returns where each view's origin is drawn
// and the box of the solid, so that dimensions can be placed from it.
export function thirdAngle(name, cut, gap) {
  const box = getEntity(name).solid.bounds
  const [x0, y0, z0] = box.min, [x1, y1, z1] = box.max
  const at = {
    front: [-x0, -z0],
    top: [-x0, (z1 - z0) + gap - y0],
    right: [(x1 - x0) + gap - y0, -z0],
  }
  at.section = [at.right[0], at.top[1]]
  for (const view of ['front', 'top', 'right']) {
    project(name, view, view, {hidden: true, at: at[view]})
    setLayer(view, 'outline')
    setLayer(view + '_hidden', 'hidden')
    setLinetype(view + '_hidden', 'hidden', {scale: 0.15})
  }
  section(name, cut, 'section', {at: at.section})
  setLayer('section', 'section')
  setHatch('section', 'ansi31', {scale: 0.5})
  return {at, box: {x0, y0, z0, x1, y1, z1}}
}

// centerMark draws a hole's centre lines, a little longer than the hole, as one group.
export function centerMark(name, x, y, r) {
  const e = r + 2.5
  drawLine(name + '_h', [x - e, y, x + e, y])
  drawLine(name + '_v', [x, y - e, x, y + e])
  createGroup(name, [name + '_h', name + '_v'])
  setLayer(name, 'center')
  setLinetype(name, 'center', {scale: 0.12})
}

// titleBlock draws the block of rows in the lower right corner at (x, y), w wide: the part's
// name large on top, then each row of [label, value].
export function titleBlock(name, x, y, w, title, rows) {
  const rowH = 6, titleH = 10
  const h = titleH + rows.length * rowH
  drawRect(name + '_frame', x - w / 2, y + h / 2, w, h)
  const parts = [name + '_frame']
  drawText(name + '_title', title, x - w + 3, y + h - titleH + 3, 5, {font: 'sans-bold'})
  parts.push(name + '_title')
  rows.forEach(([label, value], i) => {
    const top = y + rows.length * rowH - i * rowH
    drawLine(`${name}_rule${i}`, [x - w, top, x, top])
    drawText(`${name}_label${i}`, label, x - w + 3, top - rowH + 1.8, 2.5)
    drawText(`${name}_value${i}`, value, x - w / 2 + 3, top - rowH + 1.8, 2.5, {font: 'sans-bold'})
    parts.push(`${name}_rule${i}`, `${name}_label${i}`, `${name}_value${i}`)
  })
  createGroup(name, parts)
  setLayer(name, 'notes')
  return name
}
