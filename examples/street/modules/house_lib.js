// house_lib: a gabled house drawn into one group, upstream style.
//
// Load it with a side-effect import (`import 'house_lib'`): its top-level declarations,
// class House among them, become visible to the importer.

const WALL_LINE = [0.25, 0.2, 0.18, 1]
const GLASS = [0.72, 0.86, 0.95, 1]
const FRAME = [1, 1, 1, 1]

class House {
  // name: the group's name; every part is named name_PART.
  // x: centre of the front wall; the house stands on y = 0.
  // width, height: of the front wall. opts: {wall, roof, door, floors, chimney, number}
  constructor(name, x, width, height, opts = {}) {
    this.name = name
    this.x = x
    this.width = width
    this.height = height
    this.floors = opts.floors || 1
    this.parts = []
    const wall = opts.wall || [0.93, 0.87, 0.74, 1]
    const roof = opts.roof || [0.62, 0.22, 0.16, 1]
    const door = opts.door || [0.36, 0.23, 0.15, 1]

    const roofH = width * 0.45
    const eave = width * 0.08
    if (opts.chimney) {
      // drawn first, so the roof covers its foot
      const cx = x + width * 0.22
      this.part('chimney', () => drawRect(this.n('chimney'), cx, height + roofH * 0.62, width * 0.09, roofH * 0.7),
        [0.55, 0.3, 0.25, 1], WALL_LINE)
    }
    this.part('walls', () => drawRect(this.n('walls'), x, height / 2, width, height), wall, WALL_LINE)
    this.part('roof', () => drawPolygon(this.n('roof'), [
      x - width / 2 - eave, height - 0.2,
      x + width / 2 + eave, height - 0.2,
      x, height + roofH,
    ]), roof, WALL_LINE)

    // door: off-centre, with a step and a house number above it
    const doorW = Math.min(1.1, width * 0.16)
    const doorH = Math.min(2.1, height / this.floors * 0.7)
    const doorX = x - width * 0.22
    this.part('door', () => drawRoundedRect(this.n('door'), doorX, doorH / 2, doorW, doorH, 0.12), door, WALL_LINE)
    this.part('knob', () => drawCircle(this.n('knob'), doorX + doorW * 0.3, doorH * 0.48, 0.06), [0.9, 0.75, 0.3, 1], null)
    if (opts.number !== undefined) {
      this.part('number', () => drawText(this.n('number'), String(opts.number), doorX, doorH + 0.2, 0.8,
        {align: 'center', font: 'sans-bold', color: WALL_LINE}))
    }

    // windows: one row per floor; the ground floor skips the bay the door is in
    const floorH = height / this.floors
    const cols = Math.max(2, Math.round(width / 2.6))
    const bay = width / cols
    let k = 0
    for (let f = 0; f < this.floors; f++) {
      const wy = floorH * f + floorH * 0.58
      for (let c = 0; c < cols; c++) {
        const wx = x - width / 2 + bay * (c + 0.5)
        if (f === 0 && Math.abs(wx - doorX) < bay / 2 + doorW / 2 - 0.2) continue
        this.window(k++, wx, wy, Math.min(1.2, bay * 0.5), Math.min(1.3, floorH * 0.4))
      }
    }
    if (opts.roofWindow) {
      this.part('attic', () => drawCircle(this.n('attic'), x, height + roofH * 0.38, roofH * 0.14), GLASS, FRAME, 0.12)
    }
    createGroup(name, this.parts)
  }

  n(part) { return this.name + '_' + part }

  // part draws one piece and styles it: undefined keeps the fill or stroke as drawn, null
  // removes it.
  part(p, draw, fill, stroke, width = 0.08) {
    draw()
    const id = this.n(p)
    if (fill !== undefined) setFill(id, fill)
    if (stroke !== undefined) setStroke(id, stroke, width)
    this.parts.push(id)
  }

  window(i, wx, wy, w, h) {
    this.part('win' + i, () => drawRect(this.n('win' + i), wx, wy, w, h), GLASS, FRAME, 0.12)
    this.part('mullion' + i, () => drawLine(this.n('mullion' + i), [[wx, wy - h / 2], [wx, wy + h / 2]]), undefined, FRAME, 0.07)
    this.part('transom' + i, () => drawLine(this.n('transom' + i), [[wx - w / 2, wy + h * 0.15], [wx + w / 2, wy + h * 0.15]]), undefined, FRAME, 0.07)
    this.part('sill' + i, () => drawRect(this.n('sill' + i), wx, wy - h / 2 - 0.06, w + 0.3, 0.12), [0.85, 0.85, 0.82, 1], WALL_LINE, 0.04)
  }

  // top is the height of the roof's ridge.
  top() { return getWorldBounds(this.name).max[1] }
}
