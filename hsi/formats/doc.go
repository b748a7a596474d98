// Package formats reads and writes hyperspectral cubes in every file format
// OmniHSR knows, choosing the format by the file's extension.
//
//	ENVI  .hdr .img .dat .raw .bsq .bil .bip .bin   read, write (package envi)
//	NPY   .npy                                       read, write (package npy)
//	MAT   .mat                                       read (v5, v7.3), write v5 (package matfile)
//	TIFF  .tif .tiff                                 read, write (package tiff)
//	PNG   .png                                       read (RGB or grey), write a false-colour preview (package png)
//
// Formats lists them (for help text). A path with another extension, or
// none, is read as ENVI when a header lies beside it (x.hdr or x.ext.hdr).
//
// Read applies one policy to every format (hsi.ReadOptions): a NaN sample
// is no-data, kept in the cube, unless RefuseNaN; an infinite sample (or a
// NaN with RefuseNaN) is an error, a *hsi.NonFiniteError naming the file
// and the first such sample's row, column and band, returned together with
// the cube so that a caller that only inspects the file (omnihsr info) can
// still use it. Writers write NaN to float types (the usual no-data value
// of float rasters) and refuse infinite values, and NaN or out-of-range
// values for integer types.
//
// Open opens a file as a Source: its header (hsi.Header) first, then its
// rows a range at a time, with the same policy applied inside ReadRows,
// giving Read's values bit for bit. These formats stream, each through
// its package's OpenRows (an hsi.RowReader), so that an image larger than
// memory, or a small file that declares a huge one, is never held:
//
//	ENVI   every interleave: the lines asked are read from the data file
//	PNG    8 or 16 bits a sample, not interlaced, no palette: inflated row by row
//	NPY    C order: the rows asked are read at their offset
//	TIFF   strips or tiles, every compression, predictor and planar
//	       configuration, bands as samples or pages: only the strips or
//	       tiles that hold the rows asked are decoded
//	HDF5   a generic HDF5 or NetCDF-4 dataset, an EMIT swath: a contiguous
//	       dataset's rows are read by seeking, a chunked one's by decoding
//	       the chunks that hold them
//
// The elements of an HDF5 or NetCDF-4 dataset that the file never wrote
// (chunks absent from its chunk index, contiguous storage never
// allocated) read as the dataset's fill value, as h5py and netCDF read
// them (the Fill Value message: netCDF-4 sets it to the variable's
// _FillValue, or to netCDF's default fill, 9.969209968386869e+36 for a
// float, when there is none), converted and unpacked (scale_factor,
// add_offset) as a stored value is, and 0 when the file defines none; a
// fill equal to _FillValue is then no-data, as that value always is.
//
// A TIFF strip or tile row, or an HDF5 chunk row, that a call needs only
// in part is kept decoded for the next call (its height of rows of the
// whole width and bands, checked against the memory limit), so that
// reading a row at a time decodes each strip, tile or chunk once: the
// memory held is one such row, not the image.
//
// These are read whole by Open, as Read reads them, and served from
// memory: a Fortran-order NPY array (at the first ReadRows: each of its
// rows is scattered over the whole file, a value in every column of every
// band's column-major image, so reading a row at a time would read the
// file once a row); MAT files (a v5 matrix is one compressed element; a
// v7.3 one an HDF5 dataset whose -layout may transpose it); the products
// assembled from several datasets or files, scaled or remapped (EnMAP and
// DESIS, PRISMA, NEON, an EMIT granule with -ortho, whose every output
// pixel the GLT picks from anywhere in the swath); and ENVI or PNG read
// with reader options other than RefuseNaN (PNG also when palette,
// interlaced or 1, 2 or 4 bits a sample).
//
// ReadAll reads a Source into a cube, as Read does, taking over the cube
// of one read whole. omnihsr.UpscaleFile reads its input through Open
// (the outputs checked from the header, the bicubic method a band of rows
// at a time), and so do the noise file and omnihsr info's statistics and
// noise screen (the rows of an HDF5 dataset that the file never wrote
// counted without being read: see Source).
//
// Create writes an image a band of rows at a time through a RowWriter, for
// outputs too large to hold in memory. ENVI and NPY stream to disk (the
// memory held is bounded by one call's rows; the file is byte for byte what
// Write stores), TIFF a strip or tile height of rows at a time (a COG holds
// its overviews, up to about 0.4 of the float32 image); MAT and PNG
// are assembled in memory and written at
// Commit, after Create has checked that the cube fits the memory limit
// (memlimit.Check). Format.Create is non-nil for the streaming formats.
//
// WriteOptions.Interleave applies to ENVI only and WriteOptions.Compression
// to MAT and TIFF only; giving either for another format is an error rather
// than silently ignored.
package formats
