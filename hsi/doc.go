// Package hsi holds the hyperspectral cube, the in-memory value every other
// package of OmniHSR reads, writes and transforms.
//
// # Memory order
//
// A Cube is float32, H rows x W columns x B bands, stored pixel-interleaved
// (ENVI "bip"): the spectrum of pixel (y, x) is the contiguous slice
// Data[(y*W+x)*B : (y*W+x+1)*B]. The operations that dominate OmniHSR are
// per-pixel spectral work: the band resampling C_B of CSM, r_n = sum_q k_nq x(q)
// and Y(p) = sum_n w_n(p) r_n of COFR, which are dense vector operations over B
// in this order. Band-sequential views are produced at the edges (file formats,
// per-band metrics) where they are needed.
//
// # Metadata
//
// Meta carries band metadata (wavelengths with units, FWHM, bad-band list,
// band names, scale and offset), the data-ignore value, the other ENVI
// header fields and georeferencing. Georeferencing is passed through
// untouched by readers and writers of the same family; Geo.Transform and
// Geo.CRS give it in GDAL's terms (an affine geotransform and a CRS by EPSG
// code or WKT, see package crs) for writers of the other family; and
// Geo.Scale adjusts it when the pixel grid is resampled, so an image upscaled
// by s keeps its footprint on the ground with pixels s times smaller.
// docs/FORMATS.md tabulates what each output format keeps.
//
// # No-data
//
// No-data is decided sample by sample: a sample holding the data-ignore
// value, or NaN, is no-data in its band. A band flagged bad (bbl = 0) or
// no-data in every pixel is a bad band. FillNoData fills the no-data
// samples of the other bands from valid neighbours in the same band before
// an interpolation, and NoDataMask.Apply writes the no-data value back into
// every output sample over a no-data input sample and into every sample of
// a bad band, so a fill value such as -9999 never bleeds into valid
// samples; KeepNoData wraps a whole-image resampling in both. NoDataValue
// gives the value an output declares: the input's, or NaN when the input
// has NaN samples or bad bands and declares none.
package hsi
