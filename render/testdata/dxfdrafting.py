"""Report what ezdxf reads of a DXF's drafting tables, as JSON on stdout.

For each file: the audit's errors, the LTYPE entries (name and pattern lengths), the LAYER
entries (name, colour, linetype, plot flag) and each entity's type, layer and linetype.
"""
import json
import sys

import ezdxf

out = []
for path in sys.argv[1:]:
    doc = ezdxf.readfile(path)
    auditor = doc.audit()
    ltypes = {}
    for lt in doc.linetypes:
        ltypes[lt.dxf.name] = [float(t.value) for t in lt.pattern_tags.tags if t.code == 49]
    layers = {}
    for l in doc.layers:
        layers[l.dxf.name] = {"color": l.dxf.color, "linetype": l.dxf.linetype, "plot": bool(l.dxf.get("plot", 1))}
    ents = [{"type": e.dxftype(), "layer": e.dxf.layer, "linetype": e.dxf.linetype}
            for e in doc.modelspace() if e.dxftype() != "VERTEX"]
    out.append({"errors": [str(e.message) for e in auditor.errors], "ltypes": ltypes, "layers": layers, "entities": ents})
json.dump(out, sys.stdout)
