// Package raw moves the binary samples of hyperspectral files into and
// out of an hsi.Cube in chunks, through the codec of package sample, and
// guards the allocations and values of the readers that use it.
//
// It is shared by the ENVI and NPY readers and writers (and any other
// format package that stores plain binary samples; MAT and TIFF use
// BadValue and NewCube):
//
//   - ReadChunks, DecodePixels and EncodePixels are the chunked loops of
//     the readers and writers of files stored in the cube's own order
//     (ENVI bip, C-order NPY); BadValue is the error for a value that
//     sample.Encode rejects, named by row, column and band.
//   - NewCube checks that a cube fits in memory before it allocates one
//     (internal/memlimit: physical memory or the cgroup limit, or
//     OMNIHSR_MEM_LIMIT); every reader allocates its cube with it.
//   - NonFiniteError is the error every reader returns for NaN or infinite
//     samples: it names the first one's position and counts them all.
package raw
