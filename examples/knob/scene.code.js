// A control knob turned from one profile (revolve), fluted and bored by 3D booleans.
//   cadrun run -workspace examples/knob -o knob.3mf
import {knob} from 'knob_lib'

const k = {radius: 15, height: 14, round: 4, flutes: 12, flute: 2, shaft: 6, bore: 10}
knob('knob', k)
setFill('knob', [0.2, 0.22, 0.26, 1])
console.log(`knob: Ø${2 * k.radius} x ${k.height} mm, ${k.flutes} flutes, ${getEntity('knob').solid.triangles} triangles`)
