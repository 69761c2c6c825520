# cadrun: a CAD scripting runtime with write-and-run. `make help` lists the targets.

GO        ?= go
PKGS      := ./...
OUT       ?= out
BENCHTIME ?= 1s
# The solids kernel: manifold's wasm from the npm package pinned in its lock file, placed
# where `go build` embeds it. Every target that builds or tests depends on it.
KERNEL    := scene/solid/internal/manifold
WASM      := $(KERNEL)/wasm/manifold.wasm

.DEFAULT_GOAL := help

## help: list the targets
.PHONY: help
help:
	@grep -E '^## ' $(MAKEFILE_LIST) | sed -e 's/^## /  /' | column -t -s ':'

## build: build the cadrun binary into bin/ (static: CGO_ENABLED=0, see docs/decisions.md "Start-up"), with the solids kernel
.PHONY: build
build: kernel
	CGO_ENABLED=0 $(GO) build -o bin/cadrun ./cmd/cadrun

## test: install what the tests need (.ci/deps), run `cadrun test` on the examples, every test with the race detector, then the worker isolation tests without it and 4 s of fuzzing of each importer (FuzzDXF, FuzzSVG) and of the JSON Schema validator against the former one (FuzzAgreesWithOracle)
.PHONY: test
test: kernel deps test-examples
	CADRUN_REQUIRE_TOOLS=1 CADRUN_BROWSER_TESTS=1 $(GO) test -race -count=1 $(PKGS)
	CADRUN_REQUIRE_TOOLS=1 $(GO) test -count=1 -run 'TestPool' ./runtime/
	$(GO) test -count=1 -run 'TestLargeDrawingAsData|TestImportLargeDrawing' ./tools/importer/ ./tools/
	$(GO) test -run '^$$' -fuzz '^FuzzDXF$$' -fuzztime 4s ./tools/importer/
	$(GO) test -run '^$$' -fuzz '^FuzzSVG$$' -fuzztime 4s ./tools/importer/
	$(GO) test -run '^$$' -fuzz '^FuzzAgreesWithOracle$$' -fuzztime 4s ./tools/internal/schemacheck/jsonschema/

## test-examples: `cadrun test` on the example workspaces against their committed __snapshots__/ (CI=true: a missing snapshot fails)
.PHONY: test-examples
test-examples: kernel
	CGO_ENABLED=0 $(GO) build -o bin/cadrun ./cmd/cadrun
	CI=true bin/cadrun test examples

## kernel: fetch manifold's wasm (npm ci of the lock file in scene/solid/internal/manifold/npm, integrity-checked) and place it where go build embeds it; redone only when the lock file changes
.PHONY: kernel
kernel: $(WASM)

$(WASM): $(KERNEL)/npm/package-lock.json
	cd $(KERNEL)/npm && npm ci --omit=optional --ignore-scripts --no-audit --no-fund --loglevel=error
	cp $(KERNEL)/npm/node_modules/manifold-3d/manifold.wasm $@

## deps: install the Debian packages and Node tools the tests use (each only when missing)
.PHONY: deps
deps:
	.ci/deps

## check: format check, vet, staticcheck, the builds for other systems, then the tests (run before every commit)
.PHONY: check
check: fmt-check vet staticcheck cross test

## cross: build cadrun for the other systems it builds on (README, "Platforms"), so that a
## change that only Linux compiles is caught here
.PHONY: cross
cross: kernel
	GOOS=darwin GOARCH=arm64 CGO_ENABLED=0 $(GO) build -o /dev/null ./cmd/cadrun
	GOOS=freebsd GOARCH=amd64 CGO_ENABLED=0 $(GO) build -o /dev/null ./cmd/cadrun

.PHONY: fmt-check
fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

.PHONY: vet
vet: kernel
	$(GO) vet $(PKGS)

.PHONY: staticcheck
staticcheck: kernel
	$(GO) tool staticcheck $(PKGS)

## bench: run the benchmarks (BENCHTIME=1s by default)
.PHONY: bench
bench: kernel
	$(GO) test -run '^$$' -bench . -benchmem -benchtime $(BENCHTIME) $(PKGS)

## bench-peers: W1-W5 as whole processes beside JSCAD, manifold-3d and OpenSCAD and prints medians and ratios (installs the peers, so it needs the network once; not part of test or check)
.PHONY: bench-peers
bench-peers:
	bench/peers/run.sh

## tools: install the Node tools the tests use (same as deps; kept for old habits)
.PHONY: tools
tools: deps

## docs: regenerate docs/api.md from the API table
.PHONY: docs
docs: kernel
	UPDATE_GOLDEN=1 $(GO) test -count=1 -run TestReferenceIsCurrent ./runtime/

## demo: run the example workspaces and render each drawing to $(OUT)/NAME.svg, NAME.png, NAME.dxf and NAME.pdf (a solid part to NAME.stl, NAME.3mf and NAME.png)
.PHONY: demo
demo: kernel
	$(GO) run ./cmd/cadrun demo -o $(OUT)

## golden: regenerate golden files in testdata/ (review the diff before committing)
.PHONY: golden
golden: kernel
	UPDATE_GOLDEN=1 $(GO) test -count=1 $(PKGS)

## corpus: import public drawings (librsvg's tests, inkscape's examples, the DXF files of LibreCAD, FreeCAD and OpenSCAD, fetched as Debian packages) and compare each picture with librsvg's or ezdxf's; counts in out/corpus/summary.txt (minutes; not part of test)
.PHONY: corpus
corpus: kernel deps
	.ci/corpus

## geometry-long: the differential geometry test on 20,000 seeded cases, then 2 minutes of fuzzing
.PHONY: geometry-long
geometry-long: kernel
	$(GO) test -count=1 -timeout 30m -run 'TestDifferential' ./scene/ -geometry.cases=20000
	$(GO) test -count=1 -run '^$$' -fuzz 'FuzzBoolean' -fuzztime 2m ./scene/
