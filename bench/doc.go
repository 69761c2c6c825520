// Package bench holds the reference workloads of BENCH.md (W1 many shapes, W2 booleans, W3
// offset, W4 start-up, W5 solid booleans) as the scripts a user would write, and measures
// them the way users wait on them: `cadrun run wN.js -o out.svg` (W5: `-o w5.stl`) as a fresh
// process, spawn to exit.
//
// Start with `bench/run.sh` (medians of 5 runs in milliseconds, as BENCH.md reports its
// peers) or `go test ./bench/ -run '^$' -bench .` (the same runs under the Go benchmark
// harness). TestWorkloads checks that each script computes what BENCH.md says it should.
// peers/ holds the same workloads written for JSCAD, manifold-3d and OpenSCAD (W5 for
// manifold-3d alone); `make bench-peers` installs them and times them side by side. docs/benchmarks.md has the
// figures.
package bench
