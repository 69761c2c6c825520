package dxf

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestReadsWhatOthersRead: a file that stops without its 0 EOF, wherever between two groups,
// and a block without a name are read (ezdxf reads both) and noted; they were refused.
func TestReadsWhatOthersRead(t *testing.T) {
	t.Parallel()
	const line = "0\nLINE\n8\n0\n10\n0\n20\n0\n11\n1\n21\n1\n"
	blocks := "0\nSECTION\n2\nBLOCKS\n0\nBLOCK\n8\n0\n10\n0\n20\n0\n" + line + "0\nENDBLK\n0\nENDSEC\n"
	for _, c := range []struct {
		name, file string
		entities   int
		blocks     []string
		notes      map[string]int
	}{
		{"after ENDSEC", "0\nSECTION\n2\nENTITIES\n" + line + "0\nENDSEC\n", 1, nil,
			map[string]int{"FILE: ends at line 18 without 0 EOF (is it truncated?): read to its end": 1}},
		{"in ENTITIES", "0\nSECTION\n2\nENTITIES\n" + line + line, 2, nil,
			map[string]int{"FILE: ends at line 28 without 0 EOF (is it truncated?): read to its end": 1}},
		{"in a block", "0\nSECTION\n2\nBLOCKS\n0\nBLOCK\n2\nB\n" + line, 0, []string{"B"},
			map[string]int{"FILE: ends at line 20 without 0 EOF (is it truncated?): read to its end": 1}},
		{"unnamed blocks", blocks + blocks + "0\nEOF\n", 0, []string{"UNNAMED", "UNNAMED2"},
			map[string]int{"BLOCK: a block without a name (group 2, line 5), named UNNAMED": 1,
				"BLOCK: a block without a name (group 2, line 33), named UNNAMED2": 1}},
		{"a block named as an unnamed one would be", blocks + strings.Replace(blocks, "BLOCK\n8", "BLOCK\n2\nUNNAMED\n8", 1) + "0\nEOF\n", 0, []string{"UNNAMED", "UNNAMED2"},
			map[string]int{"BLOCK: a block without a name (group 2, line 5), named UNNAMED2": 1}},
	} {
		d, err := Read([]byte(c.file), Limits{})
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if len(d.Entities) != c.entities {
			t.Errorf("%s: %d entities, want %d", c.name, len(d.Entities), c.entities)
		}
		if diff := cmp.Diff(c.blocks, d.BlockOrder); diff != "" {
			t.Errorf("%s: blocks mismatch (-want +got):\n%s", c.name, diff)
		}
		for _, b := range c.blocks {
			if n := len(d.Blocks[b].Entities); n != 1 {
				t.Errorf("%s: block %s has %d entities, want 1", c.name, b, n)
			}
		}
		if diff := cmp.Diff(c.notes, d.Notes); diff != "" {
			t.Errorf("%s: notes mismatch (-want +got):\n%s", c.name, diff)
		}
	}
}

// file is a DXF file of the sections given, each a list of lines.
func file(sections ...string) []byte {
	s := ""
	for _, sec := range sections {
		s += "0\nSECTION\n" + sec + "0\nENDSEC\n"
	}
	return []byte(s + "0\nEOF\n")
}

// kinds are the entities' kinds in order.
func kinds(es []*Entity) []string {
	var out []string
	for _, e := range es {
		out = append(out, e.Kind)
	}
	return out
}

// TestSpaces: an entity of the ENTITIES section is paper space's when its group 67 is 1 or
// its owner is a paper-space block record, whichever a writer gives; a layout holds those and
// its block's, and model space keeps the rest.
func TestSpaces(t *testing.T) {
	t.Parallel()
	tables := "2\nTABLES\n0\nTABLE\n2\nBLOCK_RECORD\n" +
		"0\nBLOCK_RECORD\n5\n1F\n2\n*Model_Space\n" +
		"0\nBLOCK_RECORD\n5\n1b\n2\n*Paper_Space\n" +
		"0\nBLOCK_RECORD\n5\n2A\n2\n*Paper_Space0\n0\nENDTAB\n"
	blocks := "2\nBLOCKS\n0\nBLOCK\n2\n*Paper_Space\n0\nENDBLK\n0\nBLOCK\n2\n*PAPER_SPACE0\n0\nARC\n0\nENDBLK\n"
	entities := "2\nENTITIES\n" +
		"0\nLINE\n5\n10\n330\n1F\n100\nAcDbEntity\n8\n0\n" + // model space by owner
		"0\nCIRCLE\n5\n11\n102\n{ACAD_REACTORS\n330\n1B\n102\n}\n330\n1B\n100\nAcDbEntity\n" + // paper space by owner, 67 left out
		"0\nTEXT\n67\n1\n" + // paper space by group 67
		"0\nPOINT\n102\n{ACAD_REACTORS\n330\n1B\n102\n}\n" // a reactor is no owner: model space
	objects := "2\nOBJECTS\n" +
		"0\nLAYOUT\n5\n30\n330\n1A\n100\nAcDbPlotSettings\n1\n\n100\nAcDbLayout\n1\nModel\n330\n1F\n" +
		"0\nLAYOUT\n5\n31\n330\n1A\n100\nAcDbPlotSettings\n1\nSetup\n100\nAcDbLayout\n1\nSheet A\n330\n1B\n" +
		"0\nLAYOUT\n5\n32\n330\n1A\n100\nAcDbLayout\n1\nSheet B\n330\n2a\n"
	d, err := Read(file(tables, blocks, entities, objects), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"LINE", "POINT"}, kinds(d.Entities)); diff != "" {
		t.Errorf("model space mismatch (-want +got):\n%s", diff)
	}
	want := []Layout{{Name: "Sheet A", Block: "*Paper_Space"}, {Name: "Sheet B", Block: "*PAPER_SPACE0"}}
	if diff := cmp.Diff(want, d.Layouts); diff != "" {
		t.Errorf("layouts mismatch (-want +got):\n%s", diff)
	}
	for name, want := range map[string][]string{"sheet a": {"CIRCLE", "TEXT"}, "Sheet B": {"ARC"}, "MODEL": {"LINE", "POINT"}} {
		es, err := d.LayoutEntities(name)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, kinds(es)); diff != "" {
			t.Errorf("layout %q mismatch (-want +got):\n%s", name, diff)
		}
	}
}

// TestEmbeddedObject: the groups from an entity's 101 on are an embedded object's (an MTEXT's
// columns) and kept apart from the entity's own, whose codes they reuse.
func TestEmbeddedObject(t *testing.T) {
	t.Parallel()
	mtext := "2\nENTITIES\n0\nMTEXT\n8\n0\n10\n1\n20\n2\n40\n3\n1\nAB\n" +
		"101\nEmbedded Object\n70\n1\n10\n0\n20\n1\n11\n0\n21\n1\n40\n9\n"
	d, err := Read(file(mtext), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	e := d.Entities[0]
	if p, ok := e.First(11); ok {
		t.Errorf("the MTEXT's own 11 is the embedded object's: %+v", p)
	}
	if h, _ := e.Num(40, 0); h != 3 {
		t.Errorf("height %g, want 3", h)
	}
	var codes []int
	for _, p := range e.Embedded {
		codes = append(codes, p.Code)
	}
	if diff := cmp.Diff([]int{101, 70, 10, 20, 11, 21, 40}, codes); diff != "" {
		t.Errorf("embedded groups mismatch (-want +got):\n%s", diff)
	}
}

// TestSpacesWithoutLayouts: paper space that no LAYOUT object names (a file without its
// OBJECTS section) is still a layout, named after its block, not lost.
func TestSpacesWithoutLayouts(t *testing.T) {
	t.Parallel()
	tables := "2\nTABLES\n0\nTABLE\n2\nBLOCK_RECORD\n" +
		"0\nBLOCK_RECORD\n5\n1B\n2\n*Paper_Space\n" +
		"0\nBLOCK_RECORD\n5\n2A\n2\n*Paper_Space3\n0\nENDTAB\n"
	entities := "2\nENTITIES\n0\nLINE\n0\nCIRCLE\n67\n1\n0\nARC\n330\n2A\n100\nAcDbEntity\n"
	d, err := Read(file(tables, entities), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	want := []Layout{{Name: "Layout1", Block: "*Paper_Space"}, {Name: "PAPER_SPACE3", Block: "*PAPER_SPACE3"}}
	if diff := cmp.Diff(want, d.Layouts); diff != "" {
		t.Errorf("layouts mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"LINE"}, kinds(d.Entities)); diff != "" {
		t.Errorf("model space mismatch (-want +got):\n%s", diff)
	}
}
