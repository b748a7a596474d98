package testfiles

import "path/filepath"

// patterns are the committed files of every format, relative to the
// repository's root: ENVI, NPY, TIFF and PNG goldens, MAT v7.3 and the
// HDF5/NetCDF products' miniatures, the formats package's own test files
// and the bundled sample.
var patterns = []string{
	"hsi/envi/testdata/*.hdr", "hsi/npy/testdata/*.npy", "hsi/tiff/testdata/*.tif", "hsi/png/testdata/*.png",
	"hsi/matfile/testdata/*.h5", "hsi/products/testdata/*.nc", "hsi/products/testdata/*.h5",
	"hsi/products/testdata/*.he5", "hsi/formats/testdata/*/*", "sample/*.tif",
}

// Committed returns the committed files of every format, root being the
// repository's root as seen from the calling test's folder (".." from a
// package one level down), then extra (patterns relative to root), in
// the order of the patterns, each pattern's files in lexical order.
func Committed(root string, extra ...string) []string {
	var paths []string
	for _, g := range append(append([]string(nil), patterns...), extra...) {
		m, _ := filepath.Glob(filepath.Join(root, g))
		paths = append(paths, m...)
	}
	return paths
}
