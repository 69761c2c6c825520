// A laser-cut mounting panel, in millimetres, made for a cutter's DXF: its outline and every
// cut-out are exact lines and arcs. The blank's lower corners are chamfered, a hanging tab is
// joined on with booleanUnion, every corner of that outline is filleted (the tab's inner
// corners too), and the holes, a filleted window and chamfered vent slots are cut in one
// booleanDifference. Export it with
//   cadrun run -workspace examples/panel -o panel.dxf
// which gives one polyline with bulges for the outline, a CIRCLE per mounting hole, and a
// polyline per window and slot.
import {mountingHoles, window, vents} from 'cuts'

const W = 160, H = 90        // the blank
const TAB = {w: 40, h: 16}   // the hanging tab on top

drawRect('blank', 0, 0, W, H)
chamfer('blank', 10, {corners: [0, 1]}) // the lower corners: 0 and 1 of a rectangle
drawRect('tab', 0, H / 2 + TAB.h / 2 - 1, TAB.w, TAB.h)
booleanUnion(['blank', 'tab'], 'outline')
fillet('outline', 3) // every corner between two straight edges, convex and concave
drawCircle('hang', 0, H / 2 + TAB.h / 2, 4)

const cutters = [
  ...mountingHoles('hole', 0, 0, W, H, 9, 6),
  'hang',
  ...window('window', 0, 8, 70, 34, 6),
  ...vents('vent', 0, -28, 7, 14, 8, 16, 2),
]
booleanDifference('outline', cutters, 'panel')
for (const n of ['blank', 'tab', 'outline', ...cutters]) deleteEntity(n)

createGroup('cut', ['panel'])
setFill('cut', [0.93, 0.9, 0.84, 1])
setStroke('cut', [1, 0, 0, 1], 0.2)

const g = getEntity('panel').geometry.parts[0]
console.log(`panel: area ${getArea('panel').toFixed(3)} mm², cut length ${perimeter('panel').toFixed(3)} mm`)
console.log(`outline: ${g.outer.length} vertices, ${g.outerBulges.filter(b => b !== 0).length} of its edges arcs`)
console.log(`${g.holes.length} cut-outs, ${(g.holeBulges || []).filter(h => h && h.length === 2).length} of them whole circles`)
