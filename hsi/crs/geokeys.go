package crs

import (
	"strings"
)

// GeoKey IDs and values (GeoTIFF 1.1).
const (
	KeyModelType       = 1024
	KeyRasterType      = 1025
	KeyCitation        = 1026
	KeyGeographicType  = 2048
	KeyGeogCitation    = 2049
	KeyProjectedCSType = 3072
	KeyPCSCitation     = 3073

	ModelProjected  = 1
	ModelGeographic = 2
	RasterIsArea    = 1
	RasterIsPoint   = 2
	UserDefined     = 32767

	tagGeoDoubles = 34736
	tagGeoASCII   = 34737
)

// esriPE starts the citation in which GDAL stores a CRS's ESRI WKT.
const esriPE = "ESRI PE String = "

// GeoKeyEntry is one entry of a GeoKeyDirectoryTag.
type GeoKeyEntry struct {
	ID, Location, Count, Value uint16
}

// Entries returns the entries of a key directory.
func Entries(keys []uint16) []GeoKeyEntry {
	if len(keys) < 4 {
		return nil
	}
	n := int(keys[3])
	var out []GeoKeyEntry
	for i := 0; i < n && 8+4*i <= len(keys); i++ {
		e := keys[4+4*i : 8+4*i]
		out = append(out, GeoKeyEntry{e[0], e[1], e[2], e[3]})
	}
	return out
}

// Short returns the value of a key stored in the directory itself.
func Short(keys []uint16, id uint16) (uint16, bool) {
	for _, e := range Entries(keys) {
		if e.ID == id && e.Location == 0 {
			return e.Value, true
		}
	}
	return 0, false
}

// ASCII returns the text of a key stored in GeoAsciiParamsTag, without its
// '|' terminator.
func ASCII(keys []uint16, ascii string, id uint16) (string, bool) {
	for _, e := range Entries(keys) {
		if e.ID == id && e.Location == tagGeoASCII {
			lo, hi := int(e.Value), int(e.Value)+int(e.Count)
			if lo > len(ascii) || hi > len(ascii) || lo > hi {
				return "", false
			}
			return strings.TrimSuffix(strings.TrimRight(ascii[lo:hi], "\x00"), "|"), true
		}
	}
	return "", false
}

// FromGeoKeys returns the CRS a GeoTIFF key directory describes: an EPSG
// code (ProjectedCSTypeGeoKey, or GeographicTypeGeoKey of a geographic
// model), the WKT of an "ESRI PE String" citation, or the WKT of a
// user-defined projection on WGS 84 that userDefinedWKT knows. ok is false
// for any other CRS.
func FromGeoKeys(keys []uint16, doubles []float64, ascii string) (c CRS, ok bool) {
	if code, ok := Short(keys, KeyProjectedCSType); ok && code > 0 && code < UserDefined {
		return FromEPSG(int(code)), true
	}
	for _, id := range []uint16{KeyPCSCitation, KeyCitation, KeyGeogCitation} {
		if s, ok := ASCII(keys, ascii, id); ok {
			if i := strings.Index(s, esriPE); i >= 0 {
				if c, err := FromWKT(s[i+len(esriPE):]); err == nil {
					return c, true
				}
			}
		}
	}
	model, _ := Short(keys, KeyModelType)
	if code, ok := Short(keys, KeyGeographicType); ok && model == ModelGeographic && code > 0 && code < UserDefined {
		return FromEPSG(int(code)), true
	}
	if wkt, ok := userDefinedWKT(keys, doubles, ascii); ok {
		if c, err := FromWKT(wkt); err == nil {
			return c, true
		}
	}
	return CRS{}, false
}

// GeoKeys returns the key directory, GeoDoubleParams values and
// GeoAsciiParams text that store the CRS in a GeoTIFF: an EPSG code as
// ProjectedCSTypeGeoKey or GeographicTypeGeoKey; a CRS known only by its
// WKT as the standard user-defined keys GDAL writes for it (standardKeys)
// where they describe it and read back as the same CRS; any other WKT as a
// user-defined model whose citation is GDAL's "ESRI PE String = WKT".
func GeoKeys(c CRS, pixelIsPoint bool) (keys []uint16, doubles []float64, ascii string) {
	raster := uint16(RasterIsArea)
	if pixelIsPoint {
		raster = RasterIsPoint
	}
	var b keyBuilder
	geog := c.Geographic()
	switch {
	case c.Empty():
	case c.EPSG > 0 && c.EPSG < UserDefined && geog:
		b.short(KeyModelType, ModelGeographic)
		b.short(KeyGeographicType, uint16(c.EPSG))
	case c.EPSG > 0 && c.EPSG < UserDefined:
		b.short(KeyModelType, ModelProjected)
		b.short(KeyProjectedCSType, uint16(c.EPSG))
	case c.WKT != "":
		if s, ok := standardKeys(c.WKT); ok {
			b = s
			break
		}
		// GDAL reads the WKT (projected or geographic) of a PCS citation
		// "ESRI PE String = ..." when the model type is user-defined; it
		// reads no other citation that way. Like GDAL, a projected CRS
		// whose geographic CRS and unit the standard keys hold gets those
		// keys too.
		b = peKeys(c.WKT)
	}
	b.short(KeyRasterType, raster)
	return b.directory()
}

// peKeys returns the keys of a WKT the standard keys do not hold: a
// user-defined model with GDAL's ESRI PE citation and, as GDAL writes them
// for a projected CRS, GTCitationGeoKey, the geographic CRS's keys and
// ProjLinearUnitsGeoKey, where geogKeys and linearUnit take them; else
// ProjectedCSTypeGeoKey user-defined.
func peKeys(wkt string) (b keyBuilder) {
	b.short(KeyModelType, UserDefined)
	n, err := Parse(wkt)
	unit, unitOK := linearUnit(n)
	var probe keyBuilder
	if err == nil && n.Key == "PROJCS" && unitOK && geogKeys(&probe, n.Child("GEOGCS")) {
		b.ascii(KeyCitation, citeName(n.Name()))
		geogKeys(&b, n.Child("GEOGCS"))
		b.short(keyProjLinearUnits, unit)
	} else {
		b.short(KeyProjectedCSType, UserDefined)
	}
	b.ascii(KeyPCSCitation, citeName(esriPE+wkt))
	return b
}
