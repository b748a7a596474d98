// Package rowstream is the lifecycle shared by the streaming writers of
// the format packages (ENVI, NPY and TIFF StreamWriter, and the writer
// formats.Create gives for a format written from memory): rows counted as
// they arrive, whole rows only and never past the end, a sticky error that
// removes the temporary files, Commit only once every row was written, and
// an idempotent Abort that does nothing after Commit, so that
// `defer w.Abort()` is always safe.
//
// A format supplies a Sink that encodes rows and publishes or discards its
// files; Writer does the rest and words the errors the same way for every
// format ("FORMAT: write PATH: ...").
package rowstream
