"""Report what ezdxf reads of a DXF's hatches, as JSON on stdout.

For each file: the audit's errors and fixes, every model-space entity's type and layer in
order, and for each HATCH its layer, colour, pattern name, solid flag, pattern angle and
scale, definition lines (angle, base point, offset, dashes) and boundary paths (flags and
the signed area each encloses, counter-clockwise positive). A path's area is exact: the
shoelace sum of its vertices plus, for each edge with a bulge, the circular segment between
the chord and the arc ezdxf.math.bulge_to_arc makes of it.
"""
import json
import math
import sys

import ezdxf
from ezdxf.math import Vec2, bulge_to_arc


def path_area(path):
    verts = [(Vec2(v[0], v[1]), v[2]) for v in path.vertices]
    area = 0.0
    for i, (p, b) in enumerate(verts):
        q = verts[(i + 1) % len(verts)][0]
        area += (p.x * q.y - q.x * p.y) / 2
        if b:
            _, a0, a1, r = bulge_to_arc(p, q, b)
            sweep = (a1 - a0) % (2 * math.pi)
            area += math.copysign(r * r / 2 * (sweep - math.sin(sweep)), b)
    return area


out = []
for name in sys.argv[1:]:
    doc = ezdxf.readfile(name)
    auditor = doc.audit()
    entities, hatches = [], []
    for e in doc.modelspace():
        entities.append({"type": e.dxftype(), "layer": e.dxf.layer})
        if e.dxftype() != "HATCH":
            continue
        lines = []
        if e.pattern:
            for l in e.pattern.lines:
                lines.append({"angle": l.angle, "base": [l.base_point.x, l.base_point.y],
                              "offset": [l.offset.x, l.offset.y], "dashes": list(l.dash_length_items)})
        paths = []
        for p in e.paths:
            if p.type != ezdxf.entities.BoundaryPathType.POLYLINE:
                paths.append({"flags": p.path_type_flags, "polyline": False, "area": 0})
                continue
            paths.append({"flags": p.path_type_flags, "polyline": True, "closed": bool(p.is_closed), "area": path_area(p)})
        hatches.append({
            "layer": e.dxf.layer, "color": e.dxf.color, "pattern": e.dxf.pattern_name,
            "solid": e.dxf.solid_fill, "angle": e.dxf.pattern_angle, "scale": e.dxf.pattern_scale,
            "lines": lines, "paths": paths,
        })
    out.append({
        "errors": [str(e.message) for e in auditor.errors],
        "fixes": [str(e.message) for e in auditor.fixes],
        "entities": entities,
        "hatches": hatches,
    })
json.dump(out, sys.stdout)
