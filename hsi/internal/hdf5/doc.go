// Package hdf5 is a minimal, read-only, pure-Go reader of the HDF5 files
// that MATLAB (MAT v7.3), h5py, netCDF-C (NetCDF-4) and HDF-EOS5 write:
// enough to walk the groups, read attributes and stream the elements of a
// numeric dataset chunk by chunk.
//
// Supported: superblock versions 0 to 3 (a user block before the superblock
// included, as MATLAB's 512-byte header), object headers versions 1 and 2
// with continuation blocks, nested groups stored as a symbol table (B-tree
// v1 + local heap), as compact link messages or densely (fractal heap +
// B-tree v2 name index, as NetCDF-4 files store groups and attributes
// beyond eight), dataspaces, fixed-point and IEEE floating-point datatypes
// of either byte order, attributes that are numeric scalars or arrays,
// fixed- or variable-length strings (global heap) or variable-length lists
// of object references (the DIMENSION_LIST of HDF5 dimension scales), data
// layouts compact, contiguous and chunked (B-tree v1 index, and for layout
// version 4 every chunk index libhdf5 writes: single chunk, implicit, fixed
// array, extensible array with its super blocks and paged data blocks, for
// datasets with one unlimited dimension, and version 2 B-tree, for several)
// and the deflate, shuffle and Fletcher-32 filters, and fill values (the
// Fill Value message, versions 1 to 3, and the old one: Object.Fill, the
// value of the elements never written, which reads leave to the caller).
// Chunk buffers are reused from
// chunk to chunk. The chunks of a filtered dataset are read and unfiltered
// by up to four goroutines (one per CPU) and handed to the caller one at a
// time from the calling goroutine; their buffers are bounded by 256 MiB
// (three chunk-sized buffers per goroutine), so reading a dataset needs a
// few chunks of memory at most, one when unfiltered.
//
// Not supported, reported as errors: filtered fractal-heap objects,
// fractal heaps with nested indirect blocks, virtual datasets, other
// filters (szip, scale-offset, n-bit). Fletcher-32 checksums of chunks are
// verified (ErrChecksum; the byte-swapped form libhdf5 1.6.0-1.6.2 wrote is
// accepted, as libhdf5 accepts it); other metadata checksums are not.
// IEEE half-precision floats (float16) are read as numbers; huge
// fractal-heap objects (an attribute too large for its heap's blocks, as a
// 2 MB WKT) are read from the heap's huge-object index.
//
// Every size and address read from the file is checked against the file's
// size before it is used, so a damaged or hostile file yields an error, not
// a panic or a huge allocation. Bounds on work, for files built to amplify:
// each object header is parsed once per File, however many hard links
// reach it, and each global heap collection is read once; the metadata a
// File parses in all (header blocks, decoded attribute values, heap
// collections) is bounded by 256 MiB + 8 x the file's size (ErrMetadata);
// a chunk index that lists a chunk twice is an error (ErrDuplicateChunk),
// so a read decodes each chunk of the dataset at most once; a chunk's
// buffers are checked against the memory limit (internal/memlimit,
// OMNIHSR_MEM_LIMIT) before they are allocated. Groups are followed 1024
// deep; Walk does not loop on cyclic hard links.
package hdf5
