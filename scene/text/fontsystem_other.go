//go:build !unix

package text

// mapFile reads the file where mapping is not available.
func mapFile(path string) (data []byte, unmap func(), err error) {
	data, err = readSystemFont(path)
	return data, func() {}, err
}
