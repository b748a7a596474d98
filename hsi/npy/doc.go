// Package npy reads and writes NumPy .npy files holding one cube.
//
// An array of shape (H, W, B) is a cube of H rows, W columns and B bands;
// an array of shape (H, W) is a cube of one band. Read accepts format
// versions 1.0, 2.0 and 3.0; C and Fortran order; little-endian, big-endian
// and byte-order-free ('|') descriptors; and the types uint8, int8, int16,
// uint16, int32, uint32, int64, uint64, float16, float32 and float64
// (integers beyond +-2^24 and float64 values are rounded to float32). A
// file shorter than its header promises is an error; NaN or infinite values
// are an error (*hsi.NonFiniteError, returned with the cube). The reader
// streams the file into the cube through a buffer of a few MiB after
// checking that the cube fits in memory.
// Decode reads the same from an io.ReaderAt of a given size, as
// archive/zip.NewReader does, with the same checks.
// OpenRows reads the same a range of rows at a time: a C-order array
// from the rows' offset, a Fortran-order one read whole at the first call.
//
// Write stores a C-order, little-endian array of shape (H, W, B), version
// 1.0 (2.0 when the header needs it), float32 unless WriteOptions.DataType
// is another type; integer types are rounded half away from zero by
// package sample (GDAL's rule) and a value that does not fit is an error. A one-band cube is written with
// shape (H, W, 1). The file is written to a temporary file and renamed.
// NPY holds no metadata: wavelengths and georeferencing are not stored.
// Create returns a StreamWriter that writes the same file from rows given
// in order (the header first, the shape being known up front), for arrays
// too large to hold in memory.
//
// github.com/sbinet/npyio was evaluated first (v0.6.0): it rejects version
// 3.0 headers, ignores fortran_order for arrays of more than two
// dimensions, and returns a truncated file's missing values as copies of
// the last one without an error, so this package parses the format itself.
package npy
