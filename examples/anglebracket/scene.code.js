// A solid angle bracket: a filleted L profile, exact until it is extruded, then drilled from
// both sides by 3D booleans. Write it as STL or 3MF to print it:
//   cadrun run -workspace examples/anglebracket -o bracket.stl
import {angleBracket} from 'angle_lib'

const spec = {leg: 50, thick: 6, width: 30, fillet: 8, hole: 6, holes: [22, 40]}
const n = angleBracket('bracket', spec)
setFill('bracket', [0.55, 0.62, 0.72, 1])
const v = volume('bracket')
console.log(`angle bracket: ${spec.leg} mm legs, ${spec.width} mm wide, ${n} holes, ${v.toFixed(1)} mm³`)
