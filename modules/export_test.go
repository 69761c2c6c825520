package modules

// ListedBy is the OpenOption that calls onList with each directory the workspace lists, from
// its first, for the tests of the external package (call_test.go).
func ListedBy(onList func(dir string)) OpenOption {
	return func(c *openConfig) { c.onList = onList }
}
