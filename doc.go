// Package omnihsr is the front door of OmniHSR for Go programs:
// super-resolution of hyperspectral images from any sensor, at any scale,
// with one call.
//
// # Overview
//
// OmniHSR super-resolves a hyperspectral cube (H x W pixels, B bands, any
// B, any units) by any factor S > 0, fractional included, or to any output
// size. The default method runs the OmniHSR model: an encoder that sees the
// image once, band by band over the rows, and a renderer that spreads
// per-pixel spatial operators over the output grid on top of bicubic
// interpolation (docs/CONVENTIONS.md). Bicubic interpolation is there as
// well (MethodBicubic).
//
// # Files
//
// UpscaleFile reads a file and writes the super-resolved file in the
// format the output's extension names (ENVI .hdr, NumPy .npy, TIFF and
// COG, MATLAB .mat, PNG; package hsi/formats), exactly as
//
//	omnihsr upscale -in in.hdr -out out.hdr -scale 4
//
// does, byte for byte:
//
//	res, err := omnihsr.UpscaleFile(ctx, "in.hdr", "out.hdr", omnihsr.Options{Scale: 4})
//
// The output streams to disk for ENVI, NumPy and TIFF, so it may be far
// larger than memory; it appears only when complete, and no file is left
// on any error.
//
// Options.Scales renders several factors from one encoding of the input
// (the encoder's cost is paid once), into a pattern holding {scale} or a
// directory:
//
//	res, err := omnihsr.UpscaleFile(ctx, "in.hdr", "sr_x{scale}.hdr", omnihsr.Options{Scales: []float64{2, 3.5, 8}})
//
// # Cubes in memory
//
// Upscale works on an *hsi.Cube (package hsi: the samples in H x W x B
// order, each pixel's spectrum contiguous, and the metadata) and returns
// the output cube, with the values UpscaleFile writes as float32:
//
//	sr, res, err := omnihsr.Upscale(ctx, lr, omnihsr.Options{Scale: 2.5})
//
// ReadFile reads a cube as UpscaleFile reads its input.
//
// # Options
//
// Options sets the output size (Scale, Size or Scales, exactly one), the
// Method, the input's Noise (estimated by default, or clean, given, or
// read from a file or an EMIT granule's uncertainty companion), an
// OmniHSR weight file (Weights; the model embedded in the binary by
// default), and, for files, the output sample Type and TIFF creation
// options. Invalid options give an error wrapping ErrOption.
//
// # No-data
//
// A sample holding the input's no-data value, or NaN, is filled from
// valid neighbours of its band before upscaling, so that it never bleeds
// into valid samples, and is no-data again in the output. Bands flagged
// bad, or no-data everywhere, are left out of the model's input and come
// out as no-data. Infinite samples are an error, a *hsi.NonFiniteError
// naming the first one's position; hsi.ReadOptions.RefuseNaN makes NaN one
// too. This one policy is what formats.Read, ReadFile and UpscaleFile
// apply.
//
// # Results
//
// A Result reports, typed, what `omnihsr upscale` prints as warnings and
// notes: the output shape, the no-data samples filled, the model chosen
// (the model for clean inputs or the noise-aware one) with the noise it
// worked with and its field gain, the noisy bands screened out of the
// noise level, and for a file the samples clamped to an integer type, a
// no-data value the type cannot hold, and the metadata the format cannot
// keep (Result.Files, one FileReport an output).
//
// # Cancellation
//
// Both calls take a context.Context: it is checked before the input is
// read, by the encoder between bands of rows, and before each band of
// output rows is written. A cancelled call returns an error matching
// context.Canceled (or context.DeadlineExceeded), and UpscaleFile removes
// the output's temporary file.
//
// # Licence
//
// OmniHSR is licensed under the Apache License, Version 2.0 (the LICENSE
// file at the module's root); the bundled sample scene keeps its own
// licence, stated in sample/README.md.
package omnihsr
