// A flat's plan labelled in Korean, drawn in metres. Room outlines, doors and the axis
// lines keep the default stroke, a hairline that stays thin at any scale; only the outer
// wall has a width of its own (0.2 m). The Hangul comes from fonts/hangul.ttf, a subset of
// NanumGothic (SIL Open Font License, fonts/LICENSE.txt) with just the glyphs drawn here.
import {room, door, KO} from 'rooms'

const areas = [
  room('living', '거실', 0, 0, 5.4, 4.2, [0.96, 0.91, 0.82, 1]),
  room('kitchen', '주방', 5.4, 0, 3.2, 4.2, [0.9, 0.93, 0.88, 1]),
  room('bed', '침실', 0, 4.2, 4.0, 3.4, [0.87, 0.9, 0.96, 1]),
  room('bath', '욕실', 4.0, 4.2, 2.2, 2.0, [0.85, 0.94, 0.97, 1]),
  room('hall', '현관', 4.0, 6.2, 2.2, 1.4, [0.92, 0.92, 0.92, 1]),
  room('room2', '작은 방', 6.2, 4.2, 2.4, 3.4, [0.95, 0.88, 0.9, 1]),
]
drawRect('wall', 4.3, 3.8, 8.8, 7.8)
setStroke('wall', [0.15, 0.15, 0.18, 1], 0.2)
drawOrder('wall', 'back')

door('d_bed', 2.8, 4.2, 0.8, Math.PI)
door('d_bath', 4.9, 4.2, 0.7, Math.PI)
door('d_room2', 6.2, 5.0, 0.8, -Math.PI / 2)
door('d_entry', 6.1, 7.6, 0.7, Math.PI)

const total = areas.reduce((a, b) => a + b, 0)
drawText('title', '아파트 평면도', 4.3, -1.3, 0.6, KO)
// the Korean words in the workspace font, the figures in the default one, set side by side
const word = '전용면적', figures = ` ${total.toFixed(1)} m² · 1:100`
const ww = getTextMetrics(word, 0.35, {font: 'hangul'}).width, fw = getTextMetrics(figures, 0.35).width
drawText('subtitle_ko', word, 4.3 - (ww + fw) / 2, -2.0, 0.35, {font: 'hangul'})
drawText('subtitle_fig', figures, 4.3 - (ww + fw) / 2 + ww, -2.0, 0.35)
console.log(`${areas.length} rooms, ${total.toFixed(1)} m²`)
console.log('label font', getEntity('living_name').geometry.font, 'width', getTextMetrics('거실', 0.42, {font: 'hangul'}).width.toFixed(3))
