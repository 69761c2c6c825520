// A control knob: a profile turned about its axis, its grip cut by flutes around the rim and
// a D-shaped bore for the shaft.
export function knob(name, k) {
  // The half-section in x >= 0 (x: radius, y: height), its top outer corner rounded.
  drawPolygon(name + '_section', [0, 0, k.radius, 0, k.radius, k.height, 0, k.height])
  fillet(name + '_section', k.round, {corners: [2]})
  revolve(name + '_section', name + '_body')
  const flutes = []
  for (let i = 0; i < k.flutes; i++) {
    const a = (2 * Math.PI * i) / k.flutes
    const f = `${name}_flute${i}`
    drawCylinder(f, Math.cos(a) * (k.radius + k.flute * 0.4), Math.sin(a) * (k.radius + k.flute * 0.4), k.height / 2 - 1, k.flute, k.height)
    flutes.push(f)
  }
  // The bore: a circle with a flat, extruded, then moved down into the knob's base.
  drawCircle(name + '_shaft', 0, 0, k.shaft / 2)
  drawRect(name + '_flat', 0, k.shaft / 2, k.shaft, k.shaft * 0.3)
  booleanDifference(name + '_shaft', name + '_flat', name + '_d')
  extrude(name + '_d', k.bore, name + '_bore')
  booleanDifference(name + '_body', [...flutes, name + '_bore'], name)
  for (const n of [name + '_section', name + '_body', name + '_shaft', name + '_flat', name + '_d', name + '_bore', ...flutes]) deleteEntity(n)
}
