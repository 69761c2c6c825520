package modules

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// BenchmarkOpenBigFolder: Open of the folder of `cadrun run FILE.js` when that folder holds
// 2,000 other files. Open sweeps it for a killed write's temp files, by name.
func BenchmarkOpenBigFolder(b *testing.B) {
	dir := b.TempDir()
	for i := range 2000 {
		if err := os.WriteFile(filepath.Join(dir, "f"+strconv.Itoa(i)+".txt"), nil, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	for b.Loop() {
		w, err := Open(dir)
		if err != nil {
			b.Fatal(err)
		}
		w.Close()
	}
}
