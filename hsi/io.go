package hsi

// ReadOptions selects what a reader takes from a file.
type ReadOptions struct {
	// Var names the variable of a MATLAB file ("" = the largest numeric array).
	Var string
	// Layout overrides the memory layout of a MATLAB array: "HWB" (default
	// for 3-D arrays), "B_HW_colmajor" (a bands x pixels matrix whose pixel n
	// is row n mod Height, column n div Height) or "HDF5_BWH" (MAT v7.3 with
	// MATLAB's dimensions reversed). "" = infer.
	Layout string
	// Height and Width give the image size of a bands x pixels matrix.
	Height, Width int
	// Ortho asks a product delivered as a swath with a geometry lookup
	// table (EMIT) for the orthorectified, georeferenced grid.
	Ortho bool
	// RefuseNaN makes a NaN sample an error (*NonFiniteError), as an
	// infinite one always is. By default a NaN is no-data, as GDAL takes
	// it: the cube holds it, and the upscaler fills it from valid
	// neighbours and writes it as no-data again.
	RefuseNaN bool
}

// WriteOptions controls how a cube is written.
type WriteOptions struct {
	// DataType is the sample type on disk: "float32" (default), "float64",
	// "uint8", "uint16", "int16", "int32". Values are rounded and must fit.
	DataType string
	// Interleave is the ENVI interleave: "bsq", "bil" or "bip" (default "bsq").
	Interleave string
	// Compression is the MAT or TIFF compression: "none" (default),
	// "deflate"; TIFF also "lzw" and "zstd".
	Compression string
	// Driver is the kind of TIFF written, as GDAL names its drivers: "" or
	// "GTiff" (a plain GeoTIFF), or "COG" (a Cloud Optimized GeoTIFF).
	Driver string
	// Creation holds GDAL-style TIFF creation options, "KEY=VALUE" (see
	// package tiff's ParseOptions).
	Creation []string
	// Var is the variable name of a MATLAB file (default "cube").
	Var string
}

// SourceInfo describes where a cube came from, for `omnihsr info`.
type SourceInfo struct {
	Format   string // "ENVI", "MAT v5", "MAT v7.3", "NPY", "GeoTIFF", "TIFF", "PNG"
	DataType string // sample type on disk, e.g. "uint16", "float32"
	Layout   string // e.g. "bsq", "HWB", "B_HW_colmajor", "pages", "samples"
	Variable string // MATLAB variable name, when any
	Detail   string // anything else worth printing (byte order, compression)
	// Product names a recognised mission product: mission, level and
	// acquisition time, e.g. "EMIT L2A RFL, acquired 2023-08-01T10:11:12+0000".
	Product string
}
