// Package envi reads and writes ENVI images: a plain-text header (.hdr) and
// a binary data file of samples x lines x bands values.
//
// # Reading
//
// Read accepts the header or the data file and finds its partner (the same
// stem with .hdr; for a header, the stem itself or stem.img, .dat, .raw,
// .bsq, .bil, .bip, .bin, in spectral's order). It understands interleave
// bsq, bil and bip; data types 1 (uint8), 2 (int16), 3 (int32), 4
// (float32), 5 (float64), 12 (uint16), 13 (uint32), 14 (int64) and 15
// (uint64); byte order 0 and 1; header offset; values in braces over
// several lines; and comment lines starting with ';'. Band metadata
// (wavelength, wavelength units, fwhm, bbl, band names), data ignore value,
// description, georeferencing (map info, coordinate system string,
// projection info, kept verbatim), reflectance scale factor and data gain
// and offset values go to hsi.Meta; every other header field goes to
// Meta.Extra and is written back. A grid read from a GeoTIFF is written as
// GDAL's ENVI driver writes it (hsi.Geo.ENVI).
//
// Samples, lines, bands and data type are required; interleave defaults to
// bsq and byte order to 0 when absent. A data file whose size is not header
// offset + samples*lines*bands*size is an error: shorter is a truncated
// file, longer a header that does not describe the data (the data of
// another write, another data type).
//
// The reader streams: it allocates the float32 cube once, after checking
// that it fits in the memory available, and converts the file into it
// through buffers of a few MiB, so its peak memory is the cube plus a
// constant. NaN or infinite samples are an error (*hsi.NonFiniteError,
// returned together with the cube) naming the first one's row, column and
// band, even when the header's data ignore value is NaN; a caller that
// treats NaN as no-data (omnihsr upscale, hsi.FillNoData) takes the cube.
//
// # Writing
//
// Write stores float32 unless WriteOptions.DataType is another type
// (uint8, int16, uint16, int32, uint32, int64, uint64, float64; integer
// types are rounded half away from zero by package sample, GDAL's rule, and
// a value that does not fit is an error naming its position), in the interleave of WriteOptions.Interleave
// (hsi.BSQ by default, hsi.BIL or hsi.BIP), byte order 0, header offset 0. Given x.hdr it writes
// x.img and x.hdr; given x.img (or any other name) it writes that file and
// x.hdr. Both files are written to temporary files and renamed into place,
// data first and header last; on any error neither is left behind.
// Braces in the description and band names, and commas in band names,
// cannot be represented in a header and are replaced by parentheses and
// semicolons.
//
// # Streaming
//
// Create returns a StreamWriter for an image too large to hold in memory:
// rows arrive in order (WriteRows) and go straight to their place in the
// temporary data file, in any interleave and data type Write supports; the
// header is written by Commit, which publishes both files as Write does.
// The files are byte for byte those of Write.
package envi
