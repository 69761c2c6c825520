//go:build race

package runtime

// raceBuild: the race detector maps large shadow regions, so a race-enabled worker cannot
// cap its address space.
const raceBuild = true
