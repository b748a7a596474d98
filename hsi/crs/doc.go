// Package crs reads and writes the coordinate reference system texts that
// hyperspectral files carry: OGC and ESRI WKT (version 1) as found in ENVI
// "coordinate system string" fields and GeoTIFF "ESRI PE String" citations.
// It knows the WGS 84 UTM zones and WGS 84 geographic coordinates by EPSG
// code and keeps any other CRS as its WKT text; it has no EPSG database.
package crs
