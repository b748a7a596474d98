// Package stac describes an output cube as a STAC Item (SpatioTemporal
// Asset Catalog, version 1.1.0), the JSON that catalogues and cloud
// pipelines index: one asset (the file, and for ENVI its header), its
// bands with the eo extension's centre wavelength and full width at half
// maximum in micrometres and the raster extension's scale and offset, the
// asset's no-data value and data type (STAC 1.1 common band fields), and
// the projection extension v2.0.0 (proj:code, proj:transform in the
// extension's affine order, proj:shape, proj:bbox). The footprint is
// given as a GeoJSON polygon in longitude and latitude when the grid is in
// EPSG:4326 or a WGS 84 UTM zone (inverse transverse Mercator); otherwise
// geometry is null, which the specification allows.
//
// The item's datetime is the acquisition time when the metadata states one
// (an ENVI "acquisition time" field), else the time the caller gives. The
// processing note (software version, method, factor, model) is written as
// the item's description and as omnihsr:* properties, which no extension
// schema constrains. A wavelength, FWHM, scale or offset that is not a
// finite number (JSON has none) is left out of its band, and a transform
// that is not finite leaves the projection out, so that an item can always
// be written.
//
// The schemas of the specification and the three extensions validate the
// items of the tests (scripts/goldens/stac.py); the Go tests compare with
// the golden items that script validated.
package stac
