"""The referee for the DXF importer's bounds: reads DXF files with ezdxf and prints, per file,
one JSON line with the exact bounding box of the modelspace's geometry, overall and by layer.

Input on stdin, one file a line: the path, a tab, and the entity kinds to count, comma
separated (the kinds the importer imported; INSERT is always followed into its block). The
kinds the importer skips are left out here too, and so are the ones it skips in part: an
entity whose extrusion leaves the XY plane, a mesh, a 3D polyline out of the XY plane, a
zero-length line, a radius that is not positive, and a polyline of fewer than 2 distinct
vertices. TEXT and MTEXT are never counted: their extents depend on the font.

Output, one line per input line: {"path", "bbox": [x0, y0, x1, y1] or null, "layers":
{layer: bbox}, "entities": modelspace entities by kind, "error": why ezdxf could not read it}.
An entity inside a block counts on the layer of the INSERT at the top, as the importer draws
a block's group on its insert's layer.

The box is exact for lines, circles, arcs (and polyline bulges, which ezdxf turns into arcs)
and ellipses: ezdxf.bbox.extents approximates an arc by cubic Béziers and overshoots a
quadrant point inside a Bézier by up to 1.7e-4 of the radius, far more than the importer's
tolerance, so those kinds are measured here from their extreme points. A spline is measured
from a flattening within 1e-9 of its size, since ezdxf's box flattens it coarsely and falls
inside its extremes. Other kinds fall back to ezdxf.bbox.extents.
"""

import json
import math
import sys

import ezdxf
from ezdxf import bbox, recover
from ezdxf.math import Vec3

TEXTS = {"TEXT", "MTEXT", "ATTRIB", "ATTDEF"}


def planar(e):
    """Whether the entity lies in the XY plane (extrusion 0,0,1 or 0,0,-1; a SPLINE's normal
    may also be 0,0,0, which says nothing, as its points are in world coordinates)."""
    if not e.dxf.hasattr("extrusion"):
        return True
    x, y, z = e.dxf.extrusion
    if e.dxftype() == "SPLINE" and x == y == z == 0:
        return True
    return abs(x) <= 1e-9 and abs(y) <= 1e-9 and z != 0


def in_sweep(a, start, end):
    """Whether angle a (degrees) lies on the counter-clockwise sweep from start to end."""
    sweep = (end - start) % 360 or 360
    return (a - start) % 360 <= sweep


def arc_points(e, start, end):
    """The extreme points of a circle or arc, mapped from its OCS to WCS."""
    c, r = Vec3(e.dxf.center), e.dxf.radius
    pts = [c + Vec3(r * math.cos(math.radians(a)), r * math.sin(math.radians(a)), 0)
           for a in (start, end, 0, 90, 180, 270) if in_sweep(a, start, end)]
    return list(e.ocs().points_to_wcs(pts))


def ellipse_points(e):
    """The extreme points of an ellipse (WCS): its ends and where x or y turns."""
    c, major = Vec3(e.dxf.center), Vec3(e.dxf.major_axis)
    minor = Vec3(e.dxf.extrusion).cross(major).normalize(major.magnitude * e.dxf.ratio)
    t0, t1 = e.dxf.start_param, e.dxf.end_param
    span = (t1 - t0) % math.tau
    if span < 1e-9:  # a whole ellipse: 0 to 2π, written a hair over or under
        span = math.tau
    ts = [t0, t0 + span]
    for k in (0, 1):  # x, then y: d/dt (major cos t + minor sin t) = 0
        t = math.atan2(minor[k], major[k])
        for u in (t, t + math.pi):
            if (u - t0) % math.tau <= span:
                ts.append(u)
    return [c + major * math.cos(t) + minor * math.sin(t) for t in ts]


def points(e, kinds):
    """The points whose box is e's box, or None to use ezdxf's box; [] for nothing counted."""
    kind = e.dxftype()
    if kind in TEXTS or not planar(e):
        return []
    if kind == "INSERT":
        out = []
        for ins in e.multi_insert():
            for v in ins.virtual_entities():
                out += points_or_box(v, kinds)
        return out
    if kind not in kinds:
        return []
    if kind == "LINE":
        s, t = Vec3(e.dxf.start), Vec3(e.dxf.end)
        return [] if s.x == t.x and s.y == t.y else [s, t]
    if kind == "CIRCLE":
        return arc_points(e, 0, 360) if e.dxf.radius > 0 else []
    if kind == "ARC":
        return arc_points(e, e.dxf.start_angle, e.dxf.end_angle) if e.dxf.radius > 0 else []
    if kind == "ELLIPSE":
        return ellipse_points(e)
    if kind == "SPLINE" and len(e.control_points) > 1:
        # ezdxf's box flattens coarsely and falls short of a curve's extremes by up to
        # 4e-4 of its size; flattened finely, the chords reach them within 1e-9.
        cps = e.control_points
        size = max(max(p[k] for p in cps) - min(p[k] for p in cps) for k in (0, 1))
        return list(e.flattening(max(size * 1e-9, 1e-12)))
    if kind in ("LWPOLYLINE", "POLYLINE"):
        if kind == "POLYLINE" and (e.is_polygon_mesh or e.is_poly_face_mesh):
            return []
        if kind == "POLYLINE" and e.is_3d_polyline:  # drawn when it lies in the XY plane
            if any(v.dxf.location.z != 0 for v in e.vertices):
                return []
            return [Vec3(v.dxf.location) for v in e.vertices]
        out = []
        for v in e.virtual_entities():
            out += points_or_box(v, {"LINE", "ARC"})
        return out
    return None


def points_or_box(e, kinds):
    p = points(e, kinds)
    if p is None:
        b = bbox.extents([e])
        return [b.extmin, b.extmax] if b.has_data else []
    return p


def box(pts):
    if not pts:
        return None
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return [min(xs), min(ys), max(xs), max(ys)]


def measure(path, kinds):
    try:
        doc = ezdxf.readfile(path)
    except ezdxf.DXFStructureError:
        doc, _ = recover.readfile(path)
    msp = doc.modelspace()
    every, layers, counts = [], {}, {}
    for e in msp:
        counts[e.dxftype()] = counts.get(e.dxftype(), 0) + 1
        p = points_or_box(e, kinds)
        if p:
            every += p
            layers.setdefault(e.dxf.layer, []).extend(p)
    return {"bbox": box(every), "layers": {k: box(v) for k, v in layers.items()}, "entities": counts}


def main():
    for line in sys.stdin:
        path, _, kinds = line.rstrip("\n").partition("\t")
        out = {"path": path}
        try:
            out.update(measure(path, set(filter(None, kinds.split(",")))))
        except Exception as err:  # the file is the subject: say why and go on
            out["error"] = "%s: %s" % (type(err).__name__, err)
        print(json.dumps(out), flush=True)


if __name__ == "__main__":
    main()
