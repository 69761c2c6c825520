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
