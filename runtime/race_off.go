//go:build !race

package runtime

const raceBuild = false
