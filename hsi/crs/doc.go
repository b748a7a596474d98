// Package crs reads and writes the coordinate reference system texts that
// hyperspectral files carry: OGC and ESRI WKT (version 1) as found in ENVI
// "coordinate system string" fields and GeoTIFF "ESRI PE String" citations.
// It has no EPSG database: an embedded table, recorded from GDAL, gives the
// ESRI WKT of every EPSG geographic 2D and projected CRS (FromEPSG) and
// knows those texts by their code again (FromWKT); any other CRS is kept as
// its WKT text. GeoTIFF geokeys are read to a CRS (EPSG codes, GDAL's ESRI
// PE citation, and user-defined projections, datums and ellipsoids) and
// written from one, as GDAL writes them (user-defined keys for a WKT the
// standard keys can hold, the ESRI PE citation for any other).
package crs
