"""Reads DXF files with ezdxf and prints the geometry of every model-space entity, as one JSON
list with an object per file: the audit's errors and, per entity, its kind and geometry as
ezdxf reads it. A polyline also lists the pieces ezdxf itself makes of it (virtual_entities:
a LINE per straight segment, an ARC per bulged one, with the centre and radius ezdxf derives
from the bulge), so that the tests check the bulges through a reader cadrun did not write.

usage: python3 dxfgeometry.py FILE.dxf...
"""
import json
import sys

import ezdxf


def xy(v):
    return [v[0], v[1]]


def pieces(e):
    out = []
    for p in e.virtual_entities():
        if p.dxftype() == "ARC":
            out.append({"kind": "ARC", "center": xy(p.dxf.center), "radius": p.dxf.radius,
                        "start_angle": p.dxf.start_angle, "end_angle": p.dxf.end_angle})
        elif p.dxftype() == "LINE":
            out.append({"kind": "LINE", "start": xy(p.dxf.start), "end": xy(p.dxf.end)})
        else:
            out.append({"kind": p.dxftype()})
    return out


out = []
for path in sys.argv[1:]:
    doc = ezdxf.readfile(path)
    auditor = doc.audit()
    entities = []
    for e in doc.modelspace():
        kind = e.dxftype()
        d = {"kind": kind}
        if kind in ("CIRCLE", "ARC"):
            d["center"] = xy(e.dxf.center)
            d["radius"] = e.dxf.radius
            if kind == "ARC":
                d["start_angle"] = e.dxf.start_angle
                d["end_angle"] = e.dxf.end_angle
        elif kind == "LWPOLYLINE":
            d["closed"] = bool(e.closed)
            d["vertices"] = [[x, y, b] for x, y, b in e.get_points("xyb")]
            d["pieces"] = pieces(e)
        elif kind == "POLYLINE":
            d["closed"] = bool(e.is_closed)
            d["vertices"] = [[v.dxf.location[0], v.dxf.location[1], v.dxf.bulge] for v in e.vertices]
            d["pieces"] = pieces(e)
        entities.append(d)
    out.append({"errors": [x.message for x in auditor.errors], "entities": entities})
print(json.dumps(out))
