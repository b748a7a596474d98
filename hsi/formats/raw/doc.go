// Package raw converts between the binary sample types of hyperspectral
// files and the float32 values of an hsi.Cube, in chunks, and guards the
// allocations and values of the readers that use it.
//
// It is shared by the ENVI and NPY readers and writers (and any other
// format package that stores plain binary samples; MAT and TIFF use its
// memory checks):
//
//   - Type names a sample type (uint8 ... float64) and its size.
//   - Decode converts n samples from bytes to float32, with a destination
//     stride so that band-sequential and line-interleaved files are
//     scattered straight into the pixel-interleaved cube without an
//     intermediate copy. It reports non-finite values.
//   - Encode converts float32 values to a sample type, rounding to the
//     nearest integer (ties to even) and reporting the first value that does
//     not fit or is not finite.
//   - ReadChunks, DecodePixels and EncodePixels are the chunked loops of
//     the readers and writers of files stored in the cube's own order
//     (ENVI bip, C-order NPY); BadValue is the error for a value Encode
//     rejects, named by row, column and band.
//   - NewCube checks that a cube fits in the memory available before it
//     allocates one (MemAvailable of /proc/meminfo, or OMNIHSR_MEM_LIMIT);
//     CheckMemTotal is the MAT and TIFF readers' bound (MemTotal).
//   - NonFiniteError is the error every reader returns for NaN or infinite
//     samples: it names the first one's position and counts them all.
//
// # Precision
//
// A float32 holds every integer up to 2^24 = 16777216 exactly. Samples of
// type uint8, int8, int16, uint16, float16 and float32 convert exactly;
// int32, uint32, int64, uint64 values beyond +-2^24 and float64 values are
// rounded to the nearest float32 (Exact reports which types are exact).
package raw
