// The sheet's views measured: each projection is the bracket's size in its view, the holes
// are circles of their diameter where the spec puts them, the fillets arcs of their radii,
// and section A-A is the L's area less the four holes' cuts.
import {angleBracket} from 'angle_lib'
import {layers, thirdAngle} from 'sheet'

const spec = {leg: 50, thick: 6, width: 30, fillet: 8, hole: 6, holes: [22, 40]}
layers()
angleBracket('bracket', spec)
const {at} = thirdAngle('bracket', {z: spec.width / 2}, 20)
deleteEntity('bracket')

function size(name) {
  const b = getWorldBounds(name)
  return [b.max[0] - b.min[0], b.max[1] - b.min[1]]
}

test('each view is the bracket seen from its side', () => {
  for (const [view, w, h] of [['front', spec.leg, spec.width], ['top', spec.leg, spec.leg], ['right', spec.leg, spec.width]]) {
    const [gw, gh] = size(view)
    assertClose(gw, w, 1e-6, view + ' width')
    assertClose(gh, h, 1e-6, view + ' height')
    const b = getWorldBounds(view)
    assertClose(b.min[0], at[view][0], 1e-6, view + ' placed at its origin (x)')
    assertClose(b.min[1], at[view][1], 1e-6, view + ' placed at its origin (y)')
  }
})

test('the holes are circles where the spec drills them', () => {
  for (const view of ['front', 'right']) {
    const circles = getEntity(view).children.filter(n => getEntity(n).kind === 'circle')
    assertEqual(circles.length, spec.holes.length, view + ' hole circles')
    circles.forEach((n, i) => {
      const g = getEntity(n).geometry
      assertClose(g.radius * 2, spec.hole, 1e-5, n + ' diameter')
      // A drill is turned about the middle of its bounds, which its facets move off its
      // axis by up to half their tolerance (0.01): the hole's centre moves as much.
      assertClose(g.center[0] - at[view][0], spec.holes[i], 0.01, n + ' along the leg')
      assertClose(g.center[1] - at[view][1], spec.width / 2, 0.01, n + ' height')
    })
  }
})

test('the holes through the other leg are hidden lines', () => {
  assertEqual(getEntity('front_hidden').children.length, 1, 'front: the short leg\'s holes, one outline')
  assertEqual(getEntity('top_hidden').children.length, 4 * spec.holes.length, 'top: two walls of each hole')
})

test('section A-A is the L less the holes', () => {
  const corner = 1 - Math.PI / 4
  const l = spec.leg * spec.thick + spec.thick * (spec.leg - spec.thick) + corner * spec.fillet ** 2 - 2 * corner * (spec.thick / 2) ** 2
  const holes = 2 * spec.holes.length * spec.hole * spec.thick
  assertClose(getArea('section'), l - holes, 0.5, 'section area (the mesh\'s chords)')
})

test('the fillets are arcs of the top view, to dimension', () => {
  const radii = getEntity('top').children.filter(n => getEntity(n).kind === 'arc').map(n => getEntity(n).geometry.radius).sort((a, b) => a - b)
  assertEqual(radii.length, 3, 'the inside fillet and the two leg ends')
  assertClose(radii[0], spec.thick / 2, 1e-4, 'a leg end')
  assertClose(radii[1], spec.thick / 2, 1e-4, 'the other leg end')
  assertClose(radii[2], spec.fillet, 1e-4, 'the inside fillet')
})
