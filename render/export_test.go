package render

import (
	"encoding/json"
	"errors"
	"flag"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cadrun/cadrun/scene"
)

// needTool skips the test when an external checker is missing, or fails it under
// CADRUN_REQUIRE_TOOLS=1 (make test, CI), where .ci/deps has installed it.
func needTool(t *testing.T, what string) {
	t.Helper()
	if os.Getenv("CADRUN_REQUIRE_TOOLS") == "1" {
		t.Fatalf("%s is missing; make deps installs it (.ci/debian-packages)", what)
	}
	t.Skipf("%s is not installed; run make deps", what)
}

var (
	ezdxfOnce   sync.Once
	ezdxfPython string
)

// ezdxf returns a Python that can import ezdxf. Debian's python3-ezdxf lives in the system
// Python, which a Python earlier on PATH (pyenv, a virtualenv) may not see.
func ezdxf(t *testing.T) string {
	t.Helper()
	ezdxfOnce.Do(func() {
		for _, py := range []string{"python3", "/usr/bin/python3"} {
			if exec.Command(py, "-c", "import ezdxf").Run() == nil {
				ezdxfPython = py
				return
			}
		}
	})
	if ezdxfPython == "" {
		needTool(t, "python3 with ezdxf (Debian package python3-ezdxf)")
	}
	return ezdxfPython
}

// ezdxfReport runs the script in testdata (one of the ezdxf readers, which print a JSON list
// with an element per file) over files and decodes its report into a []T.
func ezdxfReport[T any](t *testing.T, script string, files ...string) []T {
	t.Helper()
	out, err := exec.Command(ezdxf(t), append([]string{filepath.Join("testdata", script)}, files...)...).Output()
	if err != nil {
		msg := ""
		if ee, ok := err.(*exec.ExitError); ok {
			msg = string(ee.Stderr)
		}
		t.Fatalf("ezdxf (%s): %v\n%s", script, err, msg)
	}
	var got []T
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("reading ezdxf's report (%s): %v\n%s", script, err, out)
	}
	return got
}

func pdftoppm(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("pdftoppm")
	if err != nil {
		needTool(t, "pdftoppm (Debian package poppler-utils)")
	}
	return p
}

func TestByExt(t *testing.T) {
	t.Parallel()
	s := scene.New()
	put(t, s, "c", scene.Circle{Radius: 5})
	put(t, s, "cube", &scene.Solid{Mesh: unitCube(), Place: scene.Identity3})
	for _, c := range []struct{ path, magic string }{
		{"a.svg", "<svg"}, {"b.PNG", "\x89PNG"}, {"c.json", "{"}, {"d.dxf", "  0\nSECTION"}, {"dir.x/e.pdf", "%PDF-1.4"},
		{"f.STL", "binary STL written by cadrun"}, {"g.3mf", "PK\x03\x04"},
	} {
		f, err := ByExt(c.path)
		if err != nil {
			t.Fatalf("ByExt(%q): %v", c.path, err)
		}
		b, err := f.Render(s, Options{})
		if err != nil {
			t.Fatalf("%s: %v", c.path, err)
		}
		if got := string(b[:min(len(b), len(c.magic))]); got != c.magic {
			t.Errorf("%s starts with %q, want %q", c.path, got, c.magic)
		}
	}
	_, err := ByExt("part.dwg")
	want := `bad export option: output "part.dwg" must end in .svg, .png, .json, .dxf, .pdf, .stl, .3mf, .step or .glb`
	if err == nil || err.Error() != want || !errors.Is(err, ErrExportOption) {
		t.Errorf("ByExt(part.dwg) = %v, want %q", err, want)
	}
}

func TestExportFlags(t *testing.T) {
	t.Parallel()
	var o Options
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	o.Flags(fs)
	if err := fs.Parse([]string{"-dxf", "2000", "-units", "IN", "-tolerance", "0.5", "-page", "a3", "-scale", "1:2"}); err != nil {
		t.Fatal(err)
	}
	want := Options{
		DXF:     DXFOptions{Version: DXF2000, Unit: UnitIn, Tolerance: 0.5},
		PDF:     PDFOptions{Page: "A3", Scale: PDFScale{Paper: 0.5}, Unit: UnitIn},
		ThreeMF: ThreeMFOptions{Unit: UnitIn},
		STEP:    STEPOptions{Unit: UnitIn},
		GLTF:    GLTFOptions{Unit: UnitIn},
	}
	if diff := cmp.Diff(want, o); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-dxf", "14"}, `invalid value "14" for flag -dxf: bad export option: DXF version "14": use 12 or 2000`},
		{[]string{"-units", "furlong"}, `invalid value "furlong" for flag -units: bad export option: unit "furlong": use mm, cm, m, in or ft`},
		{[]string{"-tolerance", "0"}, `invalid value "0" for flag -tolerance: bad export option: tolerance "0" must be a number > 0`},
		{[]string{"-page", "A5"}, `invalid value "A5" for flag -page: bad export option: page "A5": use fit, A4, A3 or Letter`},
		{[]string{"-scale", "1:0"}, `invalid value "1:0" for flag -scale: bad export option: scale "1:0": use 1:1, 1:N, N:1 or fit`},
		{[]string{"-scale", "2"}, `invalid value "2" for flag -scale: bad export option: scale "2": use 1:1, 1:N, N:1 or fit`},
	} {
		var o Options
		fs := flag.NewFlagSet("x", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		o.Flags(fs)
		err := fs.Parse(c.args)
		if err == nil || err.Error() != c.want {
			t.Errorf("%q: got %v, want %q", c.args, err, c.want)
		}
	}
}

// FuzzExportOptions: any flag value is either refused with ErrExportOption or accepted as a
// value the writers take; nothing panics.
func FuzzExportOptions(f *testing.F) {
	for _, s := range []string{"1:1", "fit", "2:1", "1:0", "a4", "Letter", "mm", "IN", "12", "R2000", "1e400:1", "NaN:1", ":", ""} {
		f.Add(s)
	}
	s := scene.New()
	if _, err := s.Put("c", scene.Circle{Radius: 5}); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, v string) {
		check := func(what string, err error) {
			if err != nil && !errors.Is(err, ErrExportOption) {
				t.Fatalf("%s(%q): %v is not an ErrExportOption", what, v, err)
			}
		}
		sc, err := ParseScale(v)
		check("ParseScale", err)
		if err == nil && !sc.Fit && !(sc.Paper > 0 && !math.IsInf(sc.Paper, 0)) {
			t.Fatalf("ParseScale(%q) accepted %v", v, sc)
		}
		page, err := ParsePage(v)
		check("ParsePage", err)
		u, err := ParseUnit(v)
		check("ParseUnit", err)
		if err != nil {
			u = ""
		}
		ver, err := ParseDXFVersion(v)
		check("ParseDXFVersion", err)
		if _, err := DXF(s, DXFOptions{Version: ver, Unit: u}); err != nil {
			t.Fatalf("DXF with parsed options: %v", err)
		}
		if _, err := PDF(s, PDFOptions{Page: page, Scale: sc, Unit: u}); err != nil && !errors.Is(err, ErrExportOption) {
			t.Fatalf("PDF with parsed options: %v", err)
		}
	})
}
