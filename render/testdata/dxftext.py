"""Report what ezdxf reads of a DXF's text entities, as JSON on stdout.

For each file: the audit's errors and fixes, every model-space entity's type, and for each
TEXT and MTEXT its layer, colour, style, the style's font file, its plain text (with the
\\U+XXXX escapes decoded, as CAD programs read them), insertion point, alignment point,
justification or attachment point, height and rotation in degrees.

usage: python3 dxftext.py FILE.dxf...
"""
import json
import sys

import ezdxf

out = []
for path in sys.argv[1:]:
    doc = ezdxf.readfile(path)
    auditor = doc.audit()
    texts = []
    for e in doc.modelspace():
        if e.dxftype() not in ("TEXT", "MTEXT"):
            continue
        style = doc.styles.get(e.dxf.style)
        t = {
            "type": e.dxftype(),
            "layer": e.dxf.layer,
            "color": e.dxf.color,
            "style": e.dxf.style,
            "font": style.dxf.font if style else None,
            "text": ezdxf.decode_dxf_unicode(e.plain_text()),
            "insert": list(e.dxf.insert)[:2],
        }
        if e.dxftype() == "TEXT":
            t["align"] = e.dxf.halign
            t["height"] = e.dxf.height
            t["rotation"] = e.dxf.rotation
            t["align_point"] = list(e.dxf.align_point)[:2] if e.dxf.hasattr("align_point") else None
        else:
            t["align"] = e.dxf.attachment_point
            t["height"] = e.dxf.char_height
            t["rotation"] = e.get_rotation()
        texts.append(t)
    out.append({
        "errors": [str(e.message) for e in auditor.errors],
        "fixes": [str(e.message) for e in auditor.fixes],
        "kinds": [e.dxftype() for e in doc.modelspace()],
        "texts": texts,
    })
json.dump(out, sys.stdout)
