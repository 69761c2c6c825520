package importer

import (
	"testing"
	"time"

	"github.com/cadrun/cadrun/tools/importer/dxf"
)

// FuzzDXF: any input is imported or refused, never a panic, within the reader's time limit.
func FuzzDXF(f *testing.F) {
	f.Add([]byte("0\nSECTION\n2\nENTITIES\n0\nLWPOLYLINE\n8\nA\n70\n1\n10\n0\n20\n0\n42\n1\n10\n1\n20\n0\n0\nENDSEC\n0\nEOF\n"))
	f.Add([]byte("0\nSECTION\n2\nBLOCKS\n0\nBLOCK\n2\nB\n10\n1\n20\n1\n0\nCIRCLE\n40\n1\n0\nENDBLK\n0\nENDSEC\n0\nSECTION\n2\nENTITIES\n0\nINSERT\n2\nB\n50\n30\n0\nMTEXT\n1\n{\\fA;x}\\P\\S1^2;\n40\n2\n0\nENDSEC\n0\nEOF\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _, _ = DXF(data, Options{Limits: dxf.Limits{MaxTime: time.Second}})
	})
}
