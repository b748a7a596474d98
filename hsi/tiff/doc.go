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
// of the same size, a page of another size being an error; reduced-
// resolution and mask subfiles are skipped),
// strips or tiles, samples uint8, int8, uint16, int16, uint32, int32,
// float32 and float64, compression none, LZW (5), deflate (8 and 32946),
// PackBits (32773) and ZSTD (50000; github.com/klauspost/compress/zstd),
// with horizontal differencing (predictor 2) or the floating-point
// predictor (3).
//
// Decode reads the same from an io.ReaderAt of a given size (bytes in
// memory, a member of an archive), as archive/zip.NewReader does, with the
// same checks.
// OpenRows reads the same a range of rows at a time, decoding only the
// strips or tiles that hold them (and keeping the last strip or tile row
// decoded for the next call), with the same checks.
//
// GeoTIFF tags are kept in Meta.Geo as stored: ModelPixelScale (33550),
// ModelTiepoint (33922), ModelTransformation (34264), GeoKeyDirectory
// (34735), GeoDoubleParams (34736) and GeoAsciiParams (34737);
// Geo.PixelIsPoint comes from GTRasterTypeGeoKey (1025). GDAL_NODATA (42113)
// becomes Meta.DataIgnore (a value that is not a number is an error), ImageDescription (270) Meta.Description, and
// GDAL's band metadata in GDAL_METADATA (42112) — the items "wavelength",
// "wavelength_units", "fwhm", the band descriptions and the band SCALE and
// OFFSET — fill Meta.Wavelengths, WavelengthUnits, FWHM, BandNames, Scale
// and Offset; items of the "ENVI" domain (ENVI header fields, as GDAL keeps
// them) fill Meta.BadBands (bbl), ReflectanceScale and Extra. EnMAP-Box's
// per-band "bbl" items, and the "IMAGERY" domain's CENTRAL_WAVELENGTH_UM and
// FWHM_UM (micrometres, GDAL 3.10+) when the default-domain items are absent,
// are read too; both are written.
//
// Declared sizes are checked against the file size before anything is
// allocated and against the memory limit (internal/memlimit,
// OMNIHSR_MEM_LIMIT): uncompressed data must lie in the file; a compressed
// strip or tile may not expand more than 4096-fold (65,536-fold for ZSTD,
// whose RLE blocks store 128 KiB in 4 bytes), plus 4 KiB, and the whole
// image not more than that over its distinct stored bytes: strips or tiles
// that share an offset are counted once, so a file whose tile offsets all
// point at one small tile is refused before anything is decoded.
//
// # Writing
//
// Write stores the cube as one IFD with all bands as samples of each pixel,
// band-separate (PlanarConfiguration 2): each band is a grey image of its
// own, which is what suits many bands — every band compresses as a smooth
// image, a reader can fetch one band without touching the others, and the
// layout is GDAL's INTERLEAVE=BAND. Create writes the same file from rows
// given in order: each block of rows (a strip or tile height) is encoded,
// its strips or tiles compressed on all cores, and written at once, so the
// memory held is one block, not the image. Samples are float32 by default,
// or WriteOptions.DataType (float64, uint8, int8, uint16, int16, uint32,
// int32; integers are rounded half away from zero by package sample and
// must fit). Geo tags, GDAL_NODATA,
// ImageDescription and the band metadata are written back. A grid known by
// an ENVI map info is written as GDAL writes it (see addGeoTags): pixel
// scale and tie point, or a ModelTransformation when rotated, and its CRS
// as EPSG keys, as the standard user-defined keys GDAL writes, or as
// GDAL's "ESRI PE String" citation (crs.GeoKeys). A band scale (or
// 1/ENVI reflectance scale factor) is written as GDAL's SCALE and OFFSET
// items, the bad band list and other ENVI header fields as GDAL metadata in
// the "ENVI" domain. The file is written to a temporary name and renamed,
// so no partial file is ever left.
//
// The layout follows GDAL's creation options (ParseOptions), given as
// WriteOptions.Driver (hsi.GTiff or hsi.COG) and WriteOptions.Creation
// ("KEY=VALUE"):
//
//   - COMPRESS=NONE (GTiff default), DEFLATE (code 8; ZLEVEL 1-9, default 1,
//     which writes a real AVIRIS scene 2.7-3.3 times as fast as GDAL's 6
//     for files 3-10% larger: BenchmarkCodecs), LZW (COG default) or
//     ZSTD (code 50000, through github.com/klauspost/compress/zstd;
//     ZSTD_LEVEL 1-22, default 9 as GDAL's).
//   - PREDICTOR=1 (default), 2 (horizontal differencing, any sample type),
//     3 (floating point, float samples) or YES (2 for integers, 3 for
//     floats). WriteOptions.Compression, the format-independent compression
//     name, means that compression with PREDICTOR=YES.
//   - GTiff: strips of about 64 KiB per band by default, BLOCKYSIZE=N rows
//     per strip; TILED=YES for tiles of BLOCKXSIZE x BLOCKYSIZE (default
//     256, multiples of 16).
//   - BIGTIFF=IF_NEEDED (default) writes BigTIFF when the file, whose size
//     is known before its header is written, exceeds 4 GiB; IF_SAFER above
//     2 GiB; YES always; NO refuses a larger file.
//   - COG: a Cloud Optimized GeoTIFF as GDAL's COG driver lays it out (no
//     ghost area): tiles of BLOCKSIZE (default 512), COMPRESS=LZW by
//     default, the IFDs of the image and its overviews first, then the
//     tiles of the smallest overview first and of the full image last.
//     OVERVIEWS=AUTO (default) halves the image (sides rounded up) until it
//     fits one tile; NONE writes none. RESAMPLING=AVERAGE (default; GDAL's
//     COG default is CUBIC) takes the mean of each 2x2 block, leaving out
//     no-data and NaN samples; NEAREST takes one pixel of the block. Rows
//     given to Create are encoded as they come into a temporary file beside
//     the output, while the first overview, a quarter of the image as
//     float32, is built in memory; Commit derives the smaller overviews
//     (with their compressed tiles, about 0.4 of the image's float32 size
//     is then held: TestCreateMemory), writes the header, IFDs and
//     overview tiles, and copies the full image's tiles after them (so the
//     disk holds the image twice for a moment).
//
// Every combination of sample type, compression, predictor, layout and
// BigTIFF, and COGs, are read back bit for bit by GDAL, and the COGs pass
// its validate_cloud_optimized_geotiff: scripts/goldens/tiff.py checks that
// and pins the files' bytes in testdata/gdal_reads.json.
package tiff
