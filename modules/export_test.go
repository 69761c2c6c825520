package modules

// OpenForCallListed is OpenForCall with a hook called with each directory the workspace lists,
// from its first, for the tests of the external package (call_test.go).
func OpenForCallListed(dir string, onList func(dir string)) (*Workspace, error) {
	return openForCall(dir, onList)
}
