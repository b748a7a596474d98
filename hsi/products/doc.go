// Package products reads the HDF5 and NetCDF-4 files that imaging
// spectrometer missions deliver, through the pure-Go reader of hsi/hdf5.
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
// so memory is the output cube plus one chunk.
//
// Known products are recognised from their structure, not their name:
//
//   - EMIT L2A RFL (NetCDF-4): the swath by default (rows = downtrack,
//     columns = crosstrack, not georeferenced); with ReadOptions.Ortho the
//     geometry lookup table is applied as NASA's emit_tools.apply_glt does
//     and the cube carries the granule's geotransform and CRS.
package products
