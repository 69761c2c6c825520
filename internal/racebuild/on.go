//go:build race

package racebuild

// On reports a build with the race detector.
const On = true
