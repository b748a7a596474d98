// Package eval is OmniHSR's evaluation protocol (docs/CONVENTIONS.md section 6) as a
// library: it reads evaluation scenes, cuts them into the images a protocol
// scores (tiles or centred crops), degrades every image to a low-resolution
// input, asks each Method to upscale it back to the reference size, scores
// the outputs (PSNR, SSIM, SAM, ERGAS, per-band RMSE on outputs clipped to
// [0, 1]) and writes the per-image figures as JSON and the summary tables as
// Markdown shaped like the paper's.
//
// # Protocols
//
// "seven" (the paper's Table "seven datasets", default factors x2, x4, x8):
// remote-sensing scenes are cut into non-overlapping 64x64 tiles, top-left
// aligned, ragged edges dropped; close-range scenes (CloseRange of the sensor
// name: CAVE, ARAD, Harvard, ...) give one centred 256x256 crop, or the
// largest centred square when the scene is smaller.
//
// "twelve" (the paper's Table "main"): the largest centred square crop of
// every scene at x2, x4, x8, x2.5, x3.7, x5.3, x7.6, x12, x16, x24, x36, x48
// (the paper's column order).
//
// In both, the low-resolution side is round(side/s), made by the degradation
// (antialiased bicubic by default, see Degradation), and every method
// receives the LR cube and the HR size, so the effective factor is the HR
// side over the LR side.
//
// # Methods
//
// A Method upscales an LR cube to a given size. Bicubic is built in; package
// method names the OmniHSR model, its test-time options and bicubic for
// the command line.
//
// # Band-shared prior test
//
// Prior runs the no-network test of the paper's appendix "Testing the
// band-shared operator prior": zero-sum 5x5 operators fitted by ridge least
// squares on 16x16 LR windows with a checkerboard split, per band, on one
// band, on four bands and on the first half of the spectrum.
//
// Every output is deterministic: records are sorted, bootstrap resampling is
// seeded, and the Markdown uses fixed formatting, so regenerating a report
// changes nothing but timing cells.
package eval
