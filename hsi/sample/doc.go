// Package sample is the one codec between the binary sample types of
// hyperspectral files and the float32 values of an hsi.Cube. Every reader
// and writer (ENVI, NPY, TIFF, MAT and the raw chunk loops) uses it, so a
// cube written as int16 reads back the same whatever the file format.
//
//   - Type names a sample type (uint8 ... float64), its size and range;
//     ParseType reads the names users give (-dtype).
//   - The format tables map each Type to its code in a file format and
//     back: ENVI "data type" codes (1-5, 12-15), NPY dtype descriptors
//     ("<i2", "|u1"), TIFF SampleFormat and BitsPerSample, MATLAB classes.
//   - Decode converts samples from bytes to float32 in either byte order,
//     with a destination stride, and reports non-finite values; FromBits
//     converts one sample held in the low bits of a word.
//   - Encode converts float32 values to a type in either byte order,
//     applying Round and the range check of Fits.
//
// # Rounding
//
// A value written to an integer type is rounded to the nearest integer,
// halfway cases away from zero (math.Round): 0.5 -> 1, 1.5 -> 2, 2.5 -> 3,
// -0.5 -> -1. This is GDAL's rule: GDALCopyWords rounds half away from zero
// when it converts floating-point to integer samples. Checked with GDAL
// 3.6.2, gdal_translate -ot Int16 (and UInt16, Int32, Byte) of a float32
// GeoTIFF holding 0.5, 1.5, 2.5, 3.5, -0.5, -1.5, -2.5 gives 1, 2, 3, 4,
// -1, -2, -3 (0 for the negative values in the unsigned types, which GDAL
// clamps). The golden files of hsi/formats/testdata/rounding come from that
// run (make_golden.py). Rounding here is exact: GDAL 3.6.2 adds 0.5 in
// float32 on some paths, so for the float32 just below a tie (0.49999997)
// its Byte, UInt16 and Int32 outputs differ by one from this package's.
//
// # Range
//
// An infinity, NaN for an integer type, or a rounded value outside the
// range of its type is not written (NaN is written to float types, the
// usual no-data value of float rasters): Fits reports it, Check returns a
// *RangeError naming the value and the type, and Encode returns the index
// of the first such value. Writers turn that into an error naming the
// sample's position; clamping, where a command asks for it, is done before
// (formats.Clamp, with the same Round).
//
// # Precision
//
// A float32 holds every integer up to 2^24 = 16777216 exactly. Samples of
// type uint8, int8, int16, uint16, float16 and float32 convert exactly;
// int32, uint32, int64, uint64 values beyond +-2^24 and float64 values are
// rounded to the nearest float32 (Exact reports which types are exact).
package sample
