package modules

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/cadrun/cadrun/internal/benchtime"
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

// BenchmarkDurableWriteFloor is the floor under every durable write on this disk, with no
// cadrun code in it: a new file created beside the target with 1.5 KB written and fsynced,
// renamed over the target, then the directory fsynced (two journal commits in a row on ext4).
// p50-ms is read against BenchmarkWriteAndRun's (tools), measured in the same run, since the
// disk's latency moves both from one moment to the next:
//
//	go test ./modules/ ./tools/ -run '^$' -bench 'DurableWriteFloor|WriteAndRun$' -benchmem -count 5
func BenchmarkDurableWriteFloor(b *testing.B) {
	dir := b.TempDir()
	target := filepath.Join(dir, "scene.code.js")
	data := bytes.Repeat([]byte("drawCircle('c', 0, 0, 1)\n"), 60) // 1,500 bytes
	if err := os.WriteFile(target, data, 0o644); err != nil {
		b.Fatal(err)
	}
	write := func(tmp string) error {
		f, err := os.OpenFile(tmp, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
		if err != nil {
			return err
		}
		_, err = f.Write(data)
		if err == nil {
			err = f.Sync()
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err == nil {
			err = os.Rename(tmp, target)
		}
		if err != nil {
			return err
		}
		d, err := os.Open(dir)
		if err != nil {
			return err
		}
		defer d.Close()
		return d.Sync()
	}
	b.ReportAllocs()
	p := benchtime.New(b)
	defer p.Report()
	i := 0
	for b.Loop() {
		start := time.Now()
		i++
		data[0] = byte('a' + i%26)
		if err := write(filepath.Join(dir, tempPrefix+strconv.Itoa(i))); err != nil {
			b.Fatal(err)
		}
		p.Add(start)
	}
}
