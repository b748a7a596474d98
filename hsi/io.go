package hsi

import (
	"errors"
	"fmt"
	"strings"

	"github.com/omnihsr/omnihsr/hsi/sample"
)

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

// WriteOptions controls how a cube is written. The zero value of each
// field is the format's default; the command-line tools fill them with
// sample.ParseType, ParseInterleave, ParseCompression and ParseDriver, so
// that a bad value is refused before anything is read.
type WriteOptions struct {
	// DataType is the sample type on disk: sample.Invalid (the zero
	// value) is float32 (a PNG preview: uint8); float64, uint8, uint16,
	// int16, int32 and the others as each format allows. Values are
	// rounded and must fit.
	DataType sample.Type
	// Interleave is the ENVI interleave: BSQ (default), BIL or BIP.
	Interleave Interleave
	// Compression is the MAT or TIFF compression: NoCompression (default),
	// Deflate; TIFF also LZW and ZSTD.
	Compression Compression
	// Driver is the kind of TIFF written, as GDAL names its drivers: GTiff
	// (default, a plain GeoTIFF) or COG (a Cloud Optimized GeoTIFF).
	Driver Driver
	// Creation holds GDAL-style TIFF creation options, "KEY=VALUE" (see
	// package tiff's ParseOptions).
	Creation []string
	// Var is the variable name of a MATLAB file (default "cube").
	Var string
}

// Interleave is the order of the samples in an ENVI data file.
type Interleave string

// ENVI interleaves; "" is BSQ.
const (
	BSQ Interleave = "bsq" // band sequential: one plane per band
	BIL Interleave = "bil" // band interleaved by line
	BIP Interleave = "bip" // band interleaved by pixel: the cube's own order
)

// ParseInterleave returns the interleave named s, in any case; "" stays ""
// (the default, BSQ).
func ParseInterleave(s string) (Interleave, error) {
	switch il := Interleave(strings.ToLower(s)); il {
	case "", BSQ, BIL, BIP:
		return il, nil
	}
	return "", fmt.Errorf("interleave %q (want bsq, bil or bip)", s)
}

// Compression is the compression of a MAT or TIFF output.
type Compression string

// Compressions; "" is NoCompression.
const (
	NoCompression Compression = "none"
	Deflate       Compression = "deflate" // MAT and TIFF
	LZW           Compression = "lzw"     // TIFF only
	ZSTD          Compression = "zstd"    // TIFF only
)

// ParseCompression returns the compression named s, in any case; "" stays
// "" (the default, none).
func ParseCompression(s string) (Compression, error) {
	switch c := Compression(strings.ToLower(s)); c {
	case "", NoCompression, Deflate, LZW, ZSTD:
		return c, nil
	}
	return "", fmt.Errorf("compression %q is not supported (none, deflate, lzw, zstd)", s)
}

// Driver is the kind of TIFF written, named as GDAL names its drivers.
type Driver string

// TIFF drivers; "" is GTiff.
const (
	GTiff Driver = "GTiff" // a plain (Geo)TIFF
	COG   Driver = "COG"   // a Cloud Optimized GeoTIFF
)

// ParseDriver returns the driver named s, in any case and spelled as GDAL
// spells it; "" stays "" (the default, GTiff).
func ParseDriver(s string) (Driver, error) {
	switch strings.ToUpper(strings.TrimSpace(s)) {
	case "":
		return "", nil
	case "GTIFF":
		return GTiff, nil
	case "COG":
		return COG, nil
	}
	return "", fmt.Errorf("output format %q: TIFF output is written as GTiff or COG", s)
}

// ParseDataType reads an output sample type as the commands' -type takes
// it: "" is float32 (sample.Invalid, WriteOptions' zero value), "same" (any
// case) asks for the input's type (same; resolved by
// SourceInfo.SampleType once the input is read), anything else a name
// sample.ParseType reads, with its error.
func ParseDataType(s string) (t sample.Type, same bool, err error) {
	switch {
	case s == "":
		return sample.Invalid, false, nil
	case strings.EqualFold(s, "same"):
		return sample.Invalid, true, nil
	}
	t, err = sample.ParseType(s)
	return t, false, err
}

// Header describes the cube a file holds without its samples: its shape,
// its metadata (wavelengths, georeferencing, no-data, bad bands) and what
// the reader saw (formats.Source.Header).
type Header struct {
	H, W, B int
	Meta    Meta
	Info    SourceInfo
}

// RowReader is a file opened for reading a range of rows at a time, as
// the formats' OpenRows give it: Header first (nothing sized from the
// samples allocated), then ReadRows for the rows wanted, then Close.
// ReadRows fills dst with rows [y0, y1) ((y1-y0) x W x B values,
// pixel-interleaved as Cube.Data), the values Read gives, non-finite ones
// included: the caller applies its policy (formats.Source applies
// ReadOptions').
type RowReader interface {
	Header() Header
	ReadRows(y0, y1 int, dst []float32) error
	Close() error
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

// ErrSampleType reports a sample type on disk that no writer takes (a
// source that did not say its type, or a type such as complex): what
// asking to write "the input's type" gets for such an input.
var ErrSampleType = errors.New("the input's sample type cannot be written")

// SampleType is the sample type on disk as a writer takes it, for writing
// an output in the input's type (-type same).
func (s SourceInfo) SampleType() (sample.Type, error) {
	t, err := sample.ParseType(s.DataType)
	if err != nil || s.DataType == "" {
		return sample.Invalid, fmt.Errorf("%w: %q", ErrSampleType, s.DataType)
	}
	return t, nil
}
