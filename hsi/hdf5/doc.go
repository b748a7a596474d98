// Package hdf5 is a minimal, read-only, pure-Go reader of the HDF5 files
// that MATLAB (MAT v7.3) and h5py write: enough to list the members of the
// root group and stream the elements of a numeric dataset.
//
// Supported: superblock versions 0 to 3 (a user block before the superblock
// included, as MATLAB's 512-byte header), object headers versions 1 and 2
// with continuation blocks, groups stored as a symbol table (B-tree v1 +
// local heap) or as compact link messages, dataspaces, fixed-point and IEEE
// floating-point datatypes of either byte order, fixed-length string
// attributes, data layouts compact, contiguous and chunked (B-tree v1 index,
// and for layout version 4 the single-chunk, implicit and fixed-array
// indexes) and the deflate, shuffle and Fletcher-32 filters.
//
// Not supported, reported as errors: dense link or attribute storage
// (fractal heaps), extensible-array and B-tree v2 chunk indexes, virtual
// datasets, other filters (szip, scale-offset, n-bit), variable-length
// types. Checksums are not verified.
//
// Every size and address read from the file is checked against the file's
// size before it is used, so a damaged or hostile file yields an error, not
// a panic or a huge allocation.
package hdf5
