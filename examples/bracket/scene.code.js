// A wall bracket drawn from data: its sizes and holes live in data/bracket.json, checked
// against data/bracket.schema.json before any change to them lands. Change the numbers with
// the write or edit tools (or an editor, in watch mode) and the drawing follows.
import {holedPlate} from 'plate_lib'

const spec = readJSON('bracket')
const n = holedPlate('bracket', spec)
setFill('bracket', [0.8, 0.82, 0.86, 1])
setStroke('bracket', [0.2, 0.2, 0.25, 1], 0.5)
drawText('label', `${spec.name}, ${spec.thickness} mm`, 0, -spec.height / 2 - 12, 6, {align: 'center'})
console.log(`${spec.name}: ${spec.width} x ${spec.height} mm, ${n} holes`)
