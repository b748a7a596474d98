// Package tiff reads and writes multi-band TIFF and GeoTIFF files as
// hyperspectral cubes.
//
// golang.org/x/image/tiff decodes to image.Image (at most 4 samples per
// pixel, no float samples), so this package has its own TIFF reader and
// writer; it reuses the TIFF-flavoured LZW decoder of
// golang.org/x/image/tiff/lzw.
//
// # Reading
//
// Read accepts classic TIFF and BigTIFF, either byte order (II/MM), bands
// stored as samples per pixel (PlanarConfiguration 1, pixel-interleaved, or
// 2, band-separate) and/or as pages (one IFD per band or group of bands, all
// of the same size; reduced-resolution and mask subfiles are skipped),
// strips or tiles, samples uint8, int8, uint16, int16, uint32, int32,
// float32 and float64, compression none, LZW (5), deflate (8 and 32946) and
// PackBits (32773), with horizontal differencing (predictor 2) or the
// floating-point predictor (3).
//
// GeoTIFF tags are kept in Meta.Geo as stored: ModelPixelScale (33550),
// ModelTiepoint (33922), ModelTransformation (34264), GeoKeyDirectory
// (34735), GeoDoubleParams (34736) and GeoAsciiParams (34737);
// Geo.PixelIsPoint comes from GTRasterTypeGeoKey (1025). GDAL_NODATA (42113)
// becomes Meta.DataIgnore, ImageDescription (270) Meta.Description, and
// GDAL's band metadata in GDAL_METADATA (42112) — the items "wavelength",
// "wavelength_units", "fwhm", the band descriptions and the band SCALE and
// OFFSET — fill Meta.Wavelengths, WavelengthUnits, FWHM, BandNames, Scale
// and Offset; items of the "ENVI" domain (ENVI header fields, as GDAL keeps
// them) fill Meta.BadBands (bbl), ReflectanceScale and Extra.
//
// Declared sizes are checked against the file size before anything is
// allocated (uncompressed data must lie in the file; compressed data cannot
// expand more than 4096-fold) and against the machine's memory.
//
// # Writing
//
// Write stores the cube as one IFD with all bands as samples of each pixel,
// band-separate (PlanarConfiguration 2): each band is a grey image of its
// own, which is what suits many bands — every band compresses as a smooth
// image, a reader can fetch one band without touching the others, and the
// layout is GDAL's INTERLEAVE=BAND. Strips of about 64 KiB per band are
// written a block of rows at a time, so the pixel-interleaved cube is read
// sequentially, and the strips of a block are compressed on all cores. Samples are float32 by default, or WriteOptions.DataType
// (float64, uint8, int8, uint16, int16, uint32, int32; integers are rounded
// and must fit). WriteOptions.Compression is "none" (default), "deflate"
// (Adobe deflate, 8, zlib level 1) or "lzw"; compressed files use horizontal
// differencing (predictor 2) for integers and the floating-point predictor
// (3) for floats. Geo tags, GDAL_NODATA, ImageDescription and the band
// metadata are written back; a file larger than 4 GiB is written as BigTIFF.
// A grid known by an ENVI map info is written as GDAL writes it (see
// addGeoTags): pixel scale and tie point, or a ModelTransformation when
// rotated, and its CRS as EPSG keys or as GDAL's "ESRI PE String"
// citation. A band scale (or 1/ENVI reflectance scale factor) is written as
// GDAL's SCALE and OFFSET items, the bad band list and other ENVI header
// fields as GDAL metadata in the "ENVI" domain.
// The file is written to a temporary name and renamed, so no partial file
// is ever left.
package tiff
