// Package products reads the HDF5 and NetCDF-4 files that imaging
// spectrometer missions deliver, through the pure-Go reader of hsi/internal/hdf5.
//
// ReadHDF5 reads any HDF5 or NetCDF-4 cube: ReadOptions.Var selects the
// dataset ("/group/dataset"; default the largest numeric 3-D dataset) and
// ReadOptions.Layout its axis order ("HWB", "BHW", "HBW", ...: the stored
// axes, slowest first). Without a layout the band axis is found from the
// dataset's dimension names (NetCDF-4 dimensions, HDF5 dimension scales:
// band, bands, wavelength, wavelengths, spectral, channel); a dataset
// without dimension names is taken as HWB, and SourceInfo.Detail says so.
// The CF attributes are applied: _FillValue (or missing_value) becomes the
// no-data value, scale_factor and add_offset turn stored values into
// physical ones; wavelengths, FWHM and bad-band lists come from the band
// dimension's coordinate variable or from datasets named wavelength(s),
// fwhm and good_wavelengths/bbl that hold one value per band.
//
// Chunked datasets are read chunk by chunk (deflate, shuffle, Fletcher-32),
// compressed chunks inflated by up to four goroutines, so memory is the
// output cube plus a few chunks (at most 256 MiB of chunk buffers). Every
// allocation sized from the file's declared dimensions (the cube, PRISMA's
// padding mask, EMIT's geometry lookup tables and ortho cube, auxiliary
// datasets) is checked against internal/memlimit first: a small file that
// declares a cube larger than memory gets an error naming it that wraps
// hsi.ErrTooLarge. OpenRows streams the rows of a dataset and tells
// which runs of rows and columns the file never wrote, and their value
// (its RowRun and ColRun methods), so that omnihsr info counts them
// without reading them, and reads windows of a chunked dataset
// (ReadWindow) whose rows are too wide to read whole. The elements never
// written read as the dataset's fill value (the Fill Value message:
// netCDF-4 sets it to _FillValue, or its default fill), mapped by the CF
// packing attributes as a stored value is; 0 when the file defines none.
//
// Product metadata is checked on read: EMIT wavelengths finite, positive
// and increasing and its geotransform finite with a pixel size
// (hsi.CheckGeoTransform); PRISMA's L2Scale*Min below L2Scale*Max and its
// Epsg_Code an EPSG code the reader knows; a DESIS bandNumber listed once.
// Product XML (EnMAP, DESIS) must be a regular file of at most
// MaxMetadataBytes.
//
// Known products are recognised from their structure, not their name:
//
//   - EMIT L2A RFL and RFLUNCERT (NetCDF-4; the root cube reflectance or
//     reflectance_uncertainty): the swath by default (rows = downtrack,
//     columns = crosstrack, not georeferenced); with ReadOptions.Ortho the
//     geometry lookup table is applied as NASA's emit_tools.apply_glt does
//     and the cube carries the granule's geotransform and CRS.
//     EMITUncertaintyPath finds an RFL granule's RFLUNCERT companion by
//     name (upscale -noise-file auto reduces it, streamed through
//     OpenRows, to a noise value per band).
//   - PRISMA L2D (HDF-EOS5 .he5): VNIR_Cube and SWIR_Cube (uint16, rows x
//     bands x columns) scaled to reflectance, Min + DN*(Max-Min)/65535 with
//     each spectrometer's L2Scale*Min/Max; the placeholder bands (zero
//     wavelength or flagged 0 in List_Cw_*_Flags) dropped and the rest
//     sorted by wavelength. Both sides of the VNIR/SWIR overlap (943-977
//     nm in real products) are kept, as HyperCoast's reader keeps them; at equal
//     wavelengths VNIR comes first. A pixel whose DNs are all 0 is no-data
//     (-9999). Georeferencing comes from Epsg_Code and the corner
//     attributes, taken as pixel centres as prismaread does (its extent
//     starts half a 30 m pixel before the upper-left corner coordinate).
//     -var reads one cube as stored instead. L2C and L2B products (swaths
//     PRS_L2C_HCO, PRS_L2B_HCO, the same layout) read the same way, not
//     georeferenced; "Data_Fields" (SNAP's spelling) is accepted for
//     "Data Fields". L1 (swath PRS_L1_HCO, the co-registered cubes of the
//     same layout) reads as radiance in W/(m2 sr um), DN / ScaleFactor_* -
//     Offset_* per spectrometer (prismaread's formula), with the band lists
//     of the List_Cw_* / List_Fwhm_* attributes (KDP_AUX's per-column
//     matrices, the smile, are not applied), not georeferenced; its
//     PRS_L1_HRC cubes, error matrices and panchromatic cubes read with -var.
//   - NEON AOP reflectance (HDF5, DP3.30006 mosaic tiles and DP1 flight
//     lines): the root group named after the site holds
//     Reflectance/Reflectance_Data (int16, lines x samples x bands), read
//     as stored with Scale_Factor as the reflectance scale factor and
//     Data_Ignore_Value as no-data; wavelengths and FWHM from
//     Metadata/Spectral_Data; the bands whose centre lies inside the
//     Band_Window_1_Nanometers / Band_Window_2_Nanometers attributes (the
//     water-vapour absorptions) flagged bad; the geotransform from
//     Metadata/Coordinate_System/Map_Info (an ENVI map info line, as GDAL
//     reads one) and the CRS from its EPSG Code dataset (a string).
package products
