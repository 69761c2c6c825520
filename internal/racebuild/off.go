//go:build !race

// Package racebuild tells tests whether the race detector is built in: a few tests of
// conversions sized to a wall-clock limit (a 1 MB drawing against MaxImportTime) take several
// times as long under it, and run without it instead (make test runs them apart).
package racebuild

// On reports a build with the race detector.
const On = false
