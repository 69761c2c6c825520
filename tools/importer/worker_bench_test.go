package importer

import (
	"context"
	"testing"
	"time"

	"github.com/cadrun/cadrun/internal/benchtime"
)

// BenchmarkImport imports a drawing of 2,000 lines (80 KB) in process, in a warm worker (the MCP
// server's second import on) and in a worker started for it (`cadrun import`, without Warm):
// what the isolation costs.
//
//	go test ./tools/importer/ -run '^$' -bench Import -benchtime 30x
func BenchmarkImport(b *testing.B) {
	data := bigDXF(2000)
	for _, bc := range []struct {
		name string
		run  func() error
	}{
		{"in process", func() error { _, _, err := Import("dxf", data, Options{}); return err }},
		{"warm worker", func() error { _, _, err := shared.Import(context.Background(), "dxf", data, Options{}); return err }},
		{"cold worker", func() error {
			p := NewPool(PoolOptions{KeepNone: true})
			_, _, err := p.Import(context.Background(), "dxf", data, Options{})
			return err
		}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			p := benchtime.New(b)
			defer p.Report()
			for b.Loop() {
				start := time.Now()
				if err := bc.run(); err != nil {
					b.Fatal(err)
				}
				p.Add(start)
			}
		})
	}
}
