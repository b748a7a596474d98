// Package matfile reads and writes MATLAB .mat files holding hyperspectral
// cubes.
//
// # Reading
//
// Read accepts MAT v5 files (the format of MATLAB's -v6 and -v7: every
// element compressed (miCOMPRESSED) or not, little- or big-endian) and MAT
// v7.3 files (HDF5 with a 512-byte header, read by the pure-Go reader of
// hsi/internal/hdf5). Every real numeric class loads: double, single, int8 to
// int64, uint8 to uint64 and logical, whatever smaller type MATLAB chose to
// store the values in. Cell, struct, char, sparse, object and complex
// variables are listed but cannot be loaded.
// Decode reads the same from an io.ReaderAt of a given size (bytes in
// memory, a member of an archive), as archive/zip.NewReader does, with the
// same checks.
//
// The variable is chosen by ReadOptions.Var, by default the numeric array
// with the most elements. Its MATLAB dimensions are turned into a cube by a
// layout (ReadOptions.Layout):
//
//   - "HWB": a height x width x bands array (the default for 3-D arrays);
//     a 2-D height x width array is a one-band image.
//   - "B_HW_colmajor": a bands x pixels matrix whose pixel n is row
//     n mod Height, column n div Height (MATLAB's column-major order). It
//     needs ReadOptions.Height and/or Width; without them a square image is
//     inferred when the pixel count is a perfect square (SourceInfo.Detail
//     says so). With Layout "" a 2-D matrix whose second dimension equals
//     Height*Width is read this way.
//   - "HDF5_BWH": a v7.3 file, whose HDF5 dataset holds the MATLAB array
//     with its dimensions reversed (bands, width, height). The reader always
//     reverses HDF5 dimensions back to MATLAB's, so "HWB" means the same for
//     a v7.3 file.
//
// A vector named "wavelength" or "wavelengths" with one value per band is
// read into Meta.Wavelengths, "fwhm" into Meta.FWHM and a char variable
// "wavelength_units" into Meta.WavelengthUnits.
//
// Sizes are checked before anything is allocated: a declared array larger
// than its file can hold (or than the machine's memory) is an error, not an
// allocation.
//
// # Writing
//
// Write produces a MAT v5 file with one H x W x B variable (WriteOptions.Var,
// default "cube") of class single, or of the class of
// WriteOptions.DataType (sample.Float64 is double; integer types are rounded half
// away from zero by package sample and must fit). WriteOptions.Compression hsi.Deflate (or "zlib") compresses the
// elements as MATLAB's default -v7 does (zlib level 1: on the shared scenes
// about 3.5 times as fast as level 6 for files 1-7% larger); "" or hsi.NoCompression
// leaves them plain. Known
// wavelengths, their units and FWHM are stored as the variables
// "wavelength", "wavelength_units" and "fwhm". MAT v5 cannot hold a variable
// of 4 GiB or more; such a cube is refused. The file is written to a
// temporary name and renamed, so no partial file is ever left.
package matfile
