// Package regfile opens and reads the files OmniHSR reads beside its main
// input (weight files, noise files, ENVI headers and data files, product
// metadata and companions) so that a path that is not a regular file is
// refused before anything is read from it: a directory, a named pipe (a
// FIFO, which would block the open or the read for ever), a device such
// as /dev/zero (which would be read without end) or a socket. ReadFile
// also bounds the bytes read whole.
package regfile
