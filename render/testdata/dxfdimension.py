"""Report what ezdxf reads of the DIMENSION entities in DXF files, as JSON on stdout.

For each file: the audit's errors and fixes, the kinds of the loose model-space entities (not
DIMENSION), and for each DIMENSION in file order its layer, colour, type without flags, the
raw group 70, ezdxf's get_measurement() (degrees for angles), group 42, the text override
(None when absent), the DIMSTYLE's name, DIMTXT, DIMASZ and DIMDEC, and its block: the name,
whether the block is anonymous, and its entities' kinds.

usage: python3 dxfdimension.py FILE.dxf...
"""
import json
import sys

import ezdxf

out = []
for path in sys.argv[1:]:
    doc = ezdxf.readfile(path)
    auditor = doc.audit()
    msp = doc.modelspace()
    dims = []
    for e in msp.query("DIMENSION"):
        block = doc.blocks.get(e.dxf.geometry)
        style = doc.dimstyles.get(e.dxf.dimstyle)
        dims.append({
            "layer": e.dxf.layer,
            "color": e.dxf.color,
            "dimtype": e.dimtype,
            "flags": e.dxf.dimtype,
            "measurement": e.get_measurement(),
            "actual": e.dxf.get("actual_measurement"),
            "text": e.dxf.get("text"),
            "style": e.dxf.dimstyle,
            "dimtxt": style.dxf.dimtxt,
            "dimasz": style.dxf.dimasz,
            "dimdec": style.dxf.dimdec,
            "block": e.dxf.geometry,
            "anonymous": block is not None and block.block.is_anonymous,
            "block_entities": [b.dxftype() for b in block] if block is not None else None,
        })
    out.append({
        "errors": [str(x.message) for x in auditor.errors],
        "fixes": [str(x.message) for x in auditor.fixes],
        "loose": [e.dxftype() for e in msp if e.dxftype() != "DIMENSION"],
        "dims": dims,
    })
json.dump(out, sys.stdout)
