// Package png writes false-colour PNG previews of hyperspectral cubes and
// reads natural PNG images (RGB or grey) as cubes.
//
// # Previews
//
// WritePreview renders three bands as red, green and blue, each stretched
// linearly between its own Low and High percentiles (2% and 98% by
// default; numpy's linear-interpolation percentile over the pixels that are
// finite and not the data-ignore value) to 0..255, rounded half to even.
// ChooseBands picks the bands when PreviewOptions.Bands is nil:
//
//   - with wavelengths (nanometers, micrometers or millimeters; a unitless
//     list whose largest value is below 20 is taken as micrometers): when
//     the sensor overlaps 450-650 nm, the bands nearest 650, 550 and 450 nm;
//     otherwise, or when those picks are not three different bands, the
//     bands nearest 80%, 50% and 20% of the covered range;
//   - with band names "red", "green", "blue" (an RGB image read by Read):
//     those bands;
//   - otherwise by index: round(0.8(B-1)), round(0.5(B-1)), round(0.2(B-1)),
//     which assumes bands ordered by increasing wavelength.
//
// Bands flagged bad are avoided when a good band is available. A cube of
// one or two bands (or a single explicit band) gives a grey image of its
// first (or chosen) band. Pixels equal to the data-ignore value are black.
// Percentiles of images over 4M pixels are taken on a regular sample of
// about 4M pixels.
//
// # Reading
//
// Read decodes a PNG with the standard library's image/png. Grey and
// grey+alpha images give one band; RGB, RGBA and palette images give three
// bands named "red", "green", "blue" (a palette of grey levels only gives
// one band). Values are the stored sample values as float32: 0..255 for
// 8-bit images (1, 2 and 4-bit grey are scaled to 0..255 by image/png) and
// 0..65535 for 16-bit ones. Alpha is dropped (the colour values are the
// non-premultiplied ones). An image whose declared size is impossible for
// the file's length, or that does not fit in memory, is refused before
// decoding. RowReader reads a non-interlaced grey, grey+alpha, RGB or RGBA
// image of 8 or 16 bits a sample a range of rows at a time (the same values),
// holding two rows of the file: a small file that declares a huge image is
// never decoded whole.
package png
