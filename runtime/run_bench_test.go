package runtime

import (
	"context"
	"os"
	"testing"
)

const typicalScript = `
drawRect('plate', 0, 0, 80, 40)
drawCircle('h1', -25, 0, 5)
drawCircle('h2', 25, 0, 5)
setFill('plate', [0.7, 0.7, 0.75, 1])
drawLine('axis', [-40, 0, 40, 0])
drawText('label', 'PLATE 80x40', 0, -30, 5, {align: 'center'})
drawArc('bend', 0, 20, 10, 0, Math.PI)
createGroup('part', ['plate', 'h1', 'h2'])
rotate('part', 0.1)
`

func benchRun(b *testing.B, src string) { benchRunWith(b, src, Options{}) }

func benchRunWith(b *testing.B, src string, opt Options) {
	b.Helper()
	ms := MapSource{MainModule: src}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Run(context.Background(), ms, MainModule, opt); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTypicalScript is a 7-entity script, end to end in process.
func BenchmarkTypicalScript(b *testing.B) { benchRun(b, typicalScript) }

// BenchmarkDrawCircle10k is 10,000 drawCircle calls in one run.
func BenchmarkDrawCircle10k(b *testing.B) {
	benchRun(b, "for (let i = 0; i < 10000; i++) drawCircle('c' + i, i % 100, Math.floor(i / 100), 0.4)")
}

// BenchmarkCallOverhead measures one JS-to-Go call (exists on a missing name does no scene
// work); divide ns/op by 100,000.
func BenchmarkCallOverhead(b *testing.B) {
	benchRun(b, "for (let i = 0; i < 100000; i++) exists('x')")
}

// w1Script is the reference workload W1: 10,000 shapes from JS.
const w1Script = `
for (let j = 0; j < 100; j++) for (let i = 0; i < 100; i++) {
  const k = 100 * j + i, n = 'e' + k
  if (k % 2 === 0) { drawCircle(n, 10 * i, 10 * j, 4); continue }
  drawRect(n, 0, 0, 6, 4)
  rotate(n, (k % 90) * Math.PI / 180)
  translate(n, 10 * i, 10 * j)
}`

// BenchmarkW1 is the reference workload W1: 10,000 shapes from JS.
func BenchmarkW1(b *testing.B) { benchRun(b, w1Script) }

// BenchmarkW1Lint is W1 linted after its script, as `cadrun run` and every write lint it
// (Options.Lint): against BenchmarkW1, the lint's share of the run.
func BenchmarkW1Lint(b *testing.B) { benchRunWith(b, w1Script, Options{Lint: true}) }

// BenchmarkW2 is the reference workload W2 as bench/w2.js has it: 200 polygons built with
// pts.push, the 2,501 rectangles, the two booleans and 2,701 deletes.
func BenchmarkW2(b *testing.B) {
	src, err := os.ReadFile("../bench/w2.js")
	if err != nil {
		b.Fatal(err)
	}
	benchRun(b, string(src))
}

// BenchmarkTypicalScriptPool is the same script through a warm worker process: the round
// trip a server pays per run.
func BenchmarkTypicalScriptPool(b *testing.B) {
	p := NewPool(PoolOptions{})
	defer p.Close()
	ms := MapSource{MainModule: typicalScript}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := p.Run(context.Background(), ms, MainModule, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
