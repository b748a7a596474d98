// Package opttext reads and writes the text forms of the upscaling options
// that `omnihsr upscale`, `omnihsr degrade`, omnihsr-batch, the C ABI and the
// front door share, so that each is spelled and checked in one place: an
// output size ("HxW"), a list of factors ("2,3.5"), a noise level ("auto",
// "clean" or a standard deviation), an adaptation step count ("auto" or a
// number) and the label of a factor in an output's name ("4", "3.5").
// Callers add the flag or key name to the errors.
package opttext
