"""Reads DXF files with ezdxf, audits each, and prints what the Go tests compare, as one JSON
list with an object per file: the DXF version, the audit's errors and fixes, the layers,
every model-space entity's kind and layer in file order, $INSUNITS and the bounding box of
the model space.

usage: python3 dxfcheck.py FILE.dxf...
"""
import json
import sys

import ezdxf
from ezdxf import bbox

out = []
for path in sys.argv[1:]:
    doc = ezdxf.readfile(path)
    auditor = doc.audit()
    msp = doc.modelspace()
    box = bbox.extents(msp)
    out.append({
        "version": doc.dxfversion,
        "errors": [e.message for e in auditor.errors],
        "fixes": [e.message for e in auditor.fixes],
        "layers": [layer.dxf.name for layer in doc.layers],
        "entities": [[e.dxftype(), e.dxf.layer] for e in msp],
        "insunits": doc.header.get("$INSUNITS"),
        "bbox": [box.extmin.x, box.extmin.y, box.extmax.x, box.extmax.y] if box.has_data else None,
    })
print(json.dumps(out))
