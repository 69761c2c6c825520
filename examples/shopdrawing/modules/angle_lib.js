// An angle bracket: an L profile with a filleted inside corner, extruded to its width, with
// holes drilled through each leg from the side (3D booleans of turned cylinders).
export function angleBracket(name, s) {
  // The L in the XY plane: one leg along x, one along y, both s.thick thick.
  drawPolygon(name + '_l', [0, 0, s.leg, 0, s.leg, s.thick, s.thick, s.thick, s.thick, s.leg, 0, s.leg])
  fillet(name + '_l', s.thick / 2, {corners: [2, 4]})    // the leg ends' top corners
  fillet(name + '_l', s.fillet, {corners: [4]})          // the inside corner, now vertex 4
  extrude(name + '_l', s.width, name + '_body')
  const holes = []
  s.holes.forEach((along, i) => {
    // Through the leg along x: a cylinder turned to run along y.
    drawCylinder(`${name}_hx${i}`, along, s.thick / 2, s.width / 2, s.hole / 2, s.thick * 3)
    rotate(`${name}_hx${i}`, Math.PI / 2, {axis: 'x'})
    // Through the leg along y: a cylinder turned to run along x.
    drawCylinder(`${name}_hy${i}`, s.thick / 2, along, s.width / 2, s.hole / 2, s.thick * 3)
    rotate(`${name}_hy${i}`, Math.PI / 2, {axis: 'y'})
    holes.push(`${name}_hx${i}`, `${name}_hy${i}`)
  })
  booleanDifference(name + '_body', holes, name)
  for (const n of [name + '_l', name + '_body', ...holes]) deleteEntity(n)
  return holes.length
}
