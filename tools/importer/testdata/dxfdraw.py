# Draws DXF files with ezdxf's drawing add-on (matplotlib), the reader the import corpus
# compares cadrun's pictures with. One process for a whole run: each line of stdin is a DXF
# path, a tab and the PNG path to write; each answer is one JSON line on stdout, the window the
# picture shows ({"box": [x0, y0, x1, y1]}, in drawing units) or why there is none
# ({"err": "..."}). Every line is drawn at one width whatever its lineweight, in its colour on
# white, in model space, framed by ezdxf as it frames a drawing.
import json
import logging
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
from ezdxf import recover
from ezdxf.addons.drawing import Frontend, RenderContext
from ezdxf.addons.drawing.properties import LayoutProperties
from ezdxf.addons.drawing.config import Configuration
from ezdxf.addons.drawing.matplotlib import MatplotlibBackend

W, H, DPI = int(sys.argv[1]), int(sys.argv[2]), 100
MIN_LW = float(sys.argv[3]) if len(sys.argv) > 3 else 1
logging.getLogger("matplotlib.font_manager").setLevel(logging.ERROR)  # a font a text names that this machine lacks

for line in sys.stdin:
    src, out = line.rstrip("\n").split("\t")
    fig = None
    try:
        doc, _ = recover.readfile(src)
        msp = doc.modelspace()
        fig = plt.figure(figsize=(W / DPI, H / DPI), dpi=DPI)
        ax = fig.add_axes([0, 0, 1, 1])
        ctx = RenderContext(doc)
        props = LayoutProperties.from_layout(msp)
        props.set_colors("#ffffff")
        # One pixel a line (min_lineweight is in 1/300 inch), whatever the lineweight.
        cfg = Configuration.defaults().with_changes(lineweight_scaling=0, min_lineweight=MIN_LW)
        Frontend(ctx, MatplotlibBackend(ax, adjust_figure=False), config=cfg).draw_layout(msp, finalize=True, layout_properties=props)
        fig.canvas.draw()
        (x0, x1), (y0, y1) = ax.get_xlim(), ax.get_ylim()
        fig.savefig(out, dpi=DPI, facecolor="white")
        print(json.dumps({"box": [x0, y0, x1, y1]}))
    except Exception as e:  # the file's fault or the reader's: said, and the run goes on
        print(json.dumps({"err": "%s: %s" % (type(e).__name__, str(e)[:200])}))
    finally:
        if fig is not None:
            plt.close(fig)
    sys.stdout.flush()
