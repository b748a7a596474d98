// Package decodetest holds the tests every Decode function of the
// single-file formats (tiff, npy, matfile) must pass, for those packages'
// tests: Decode of a file's bytes gives what Read of the file gives, and
// cut, failing or over-announced input gives an error or a valid cube,
// never a panic.
package decodetest
