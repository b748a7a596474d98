package tiff

import (
	"encoding/xml"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/omnihsr/omnihsr/hsi"
)

// GeoKey IDs used here.
const (
	keyGTModelType      = 1024
	keyGTRasterType     = 1025
	keyGeographicType   = 2048
	keyProjectedCSType  = 3072
	rasterPixelIsArea   = 1
	rasterPixelIsPoint  = 2
	modelTypeProjected  = 1
	modelTypeGeographic = 2
)

// geo collects the GeoTIFF tags of an IFD (nil when there are none).
func (f *file) geo(d ifd) *hsi.Geo {
	g := &hsi.Geo{
		PixelScale:     f.floats(d, tModelPixelScale),
		Tiepoints:      f.floats(d, tModelTiepoint),
		Transformation: f.floats(d, tModelTransform),
		GeoDoubles:     f.floats(d, tGeoDoubleParams),
		GeoASCII:       f.str(d, tGeoASCIIParams),
	}
	if keys, ok := f.uints(d, tGeoKeyDirectory); ok {
		g.GeoKeys = make([]uint16, len(keys))
		for i, k := range keys {
			g.GeoKeys[i] = uint16(k)
		}
	}
	if len(g.Transformation) != 16 {
		g.Transformation = nil
	}
	if g.Empty() && len(g.GeoDoubles) == 0 && g.GeoASCII == "" {
		return nil
	}
	if v, ok := geoKeyValue(g.GeoKeys, keyGTRasterType); ok && v == rasterPixelIsPoint {
		g.PixelIsPoint = true
	}
	return g
}

// geoKeyValue returns the value of a short GeoKey stored in the directory itself.
func geoKeyValue(keys []uint16, id uint16) (uint16, bool) {
	if len(keys) < 4 {
		return 0, false
	}
	n := int(keys[3])
	for i := 0; i < n && 4+4*i+3 < len(keys); i++ {
		e := keys[4+4*i : 8+4*i]
		if e[0] == id && e[1] == 0 {
			return e[3], true
		}
	}
	return 0, false
}

// geoKeysForWrite returns the key directory to write: the stored one with
// GTRasterTypeGeoKey set from PixelIsPoint, or, for a grid known only by an
// ENVI map info, one made from it.
func geoKeysForWrite(g *hsi.Geo) []uint16 {
	raster := uint16(rasterPixelIsArea)
	if g.PixelIsPoint {
		raster = rasterPixelIsPoint
	}
	if len(g.GeoKeys) >= 4 {
		keys := append([]uint16(nil), g.GeoKeys...)
		n := int(keys[3])
		for i := 0; i < n && 4+4*i+3 < len(keys); i++ {
			if keys[4+4*i] == keyGTRasterType && keys[4+4*i+1] == 0 {
				keys[4+4*i+3] = raster
				return keys
			}
		}
		if !g.PixelIsPoint {
			return keys // absent means PixelIsArea
		}
		return setKeys(keys, map[uint16]uint16{keyGTRasterType: raster})
	}
	return setKeys(nil, map[uint16]uint16{keyGTRasterType: raster})
}

// setKeys adds short keys to a directory, keeping entries sorted by ID.
func setKeys(keys []uint16, add map[uint16]uint16) []uint16 {
	type entry [4]uint16
	var ents []entry
	hdr := [4]uint16{1, 1, 0, 0}
	if len(keys) >= 4 {
		copy(hdr[:], keys[:4])
		for i := 0; i < int(keys[3]) && 4+4*i+3 < len(keys); i++ {
			var e entry
			copy(e[:], keys[4+4*i:8+4*i])
			if _, ok := add[e[0]]; ok {
				continue
			}
			ents = append(ents, e)
		}
	}
	for id, v := range add {
		ents = append(ents, entry{id, 0, 1, v})
	}
	sort.Slice(ents, func(i, j int) bool { return ents[i][0] < ents[j][0] })
	hdr[3] = uint16(len(ents))
	out := append([]uint16(nil), hdr[:]...)
	for _, e := range ents {
		out = append(out, e[:]...)
	}
	return out
}

// fromMapInfo turns an ENVI map info (UTM on WGS-84, or geographic lat/lon)
// into GeoTIFF pixel scale, tie point and keys. ok is false when the map
// info cannot be expressed that way (rotation, other projections).
func fromMapInfo(g *hsi.Geo) (scale, tie []float64, keys []uint16, ok bool) {
	f := strings.Split(g.MapInfo, ",")
	for i := range f {
		f[i] = strings.TrimSpace(f[i])
	}
	if len(f) < 7 {
		return nil, nil, nil, false
	}
	var v [6]float64
	for i := range v {
		x, err := strconv.ParseFloat(f[i+1], 64)
		if err != nil {
			return nil, nil, nil, false
		}
		v[i] = x
	}
	for _, extra := range f[7:] {
		if strings.HasPrefix(strings.ToLower(extra), "rotation") {
			return nil, nil, nil, false
		}
	}
	// ENVI's reference pixel is 1-based with (1,1) the upper-left corner of
	// the first pixel; GeoTIFF raster space (PixelIsArea) is 0-based corners.
	scale = []float64{v[4], v[5], 0}
	tie = []float64{v[0] - 1, v[1] - 1, 0, v[2], v[3], 0}
	proj := strings.ToLower(f[0])
	datum := ""
	switch {
	case strings.HasPrefix(proj, "utm") && len(f) >= 10:
		zone, err := strconv.Atoi(f[7])
		datum = strings.ToUpper(strings.ReplaceAll(f[9], " ", ""))
		if err != nil || zone < 1 || zone > 60 || (datum != "WGS-84" && datum != "WGS84") {
			return scale, tie, setKeys(nil, map[uint16]uint16{keyGTRasterType: rasterPixelIsArea}), true
		}
		code := 32600 + zone
		if strings.HasPrefix(strings.ToLower(f[8]), "s") {
			code = 32700 + zone
		}
		keys = setKeys(nil, map[uint16]uint16{keyGTModelType: modelTypeProjected, keyGTRasterType: rasterPixelIsArea, keyProjectedCSType: uint16(code)})
	case strings.HasPrefix(proj, "geographic"):
		keys = setKeys(nil, map[uint16]uint16{keyGTModelType: modelTypeGeographic, keyGTRasterType: rasterPixelIsArea, keyGeographicType: 4326})
	default:
		keys = setKeys(nil, map[uint16]uint16{keyGTRasterType: rasterPixelIsArea})
	}
	return scale, tie, keys, true
}

// gdalMetadata is GDAL's GDAL_METADATA XML.
type gdalMetadata struct {
	XMLName xml.Name   `xml:"GDALMetadata"`
	Items   []gdalItem `xml:"Item"`
}

type gdalItem struct {
	Name   string `xml:"name,attr"`
	Sample string `xml:"sample,attr,omitempty"`
	Role   string `xml:"role,attr,omitempty"`
	Domain string `xml:"domain,attr,omitempty"`
	Value  string `xml:",chardata"`
}

// applyGDALMetadata takes the per-band wavelength, units, FWHM and
// descriptions from GDAL_METADATA.
func applyGDALMetadata(m *hsi.Meta, s string, bands int) {
	var md gdalMetadata
	if err := xml.Unmarshal([]byte(s), &md); err != nil {
		return
	}
	wl := make([]float64, bands)
	fw := make([]float64, bands)
	names := make([]string, bands)
	var nwl, nfw, nnames int
	units := ""
	// GDAL 3.10+ also states band centres and widths in micrometres in the
	// IMAGERY domain; they are used when the ENVI-style items are absent.
	umWL := make([]float64, bands)
	umFW := make([]float64, bands)
	var numWL, numFW int
	for _, it := range md.Items {
		if it.Domain == "IMAGERY" && it.Sample != "" {
			b, err := strconv.Atoi(it.Sample)
			x, err2 := strconv.ParseFloat(strings.TrimSpace(it.Value), 64)
			if err != nil || err2 != nil || b < 0 || b >= bands {
				continue
			}
			switch strings.ToUpper(it.Name) {
			case "CENTRAL_WAVELENGTH_UM":
				umWL[b] = x
				numWL++
			case "FWHM_UM":
				umFW[b] = x
				numFW++
			}
			continue
		}
		if it.Domain != "" {
			continue
		}
		name := strings.ToLower(it.Name)
		val := strings.TrimSpace(it.Value)
		if it.Sample == "" {
			if name == "wavelength_units" && units == "" {
				units = val
			}
			continue
		}
		b, err := strconv.Atoi(it.Sample)
		if err != nil || b < 0 || b >= bands {
			continue
		}
		switch {
		case it.Role == "description":
			names[b] = val
			nnames++
		case name == "wavelength":
			if x, err := strconv.ParseFloat(val, 64); err == nil {
				wl[b] = x
				nwl++
			}
		case name == "fwhm":
			if x, err := strconv.ParseFloat(val, 64); err == nil {
				fw[b] = x
				nfw++
			}
		case name == "wavelength_units":
			units = val
		}
	}
	if nwl == bands {
		m.Wavelengths = wl
		m.WavelengthUnits = units
	} else if numWL == bands {
		m.Wavelengths = umWL
		m.WavelengthUnits = "Micrometers"
		if numFW == bands {
			m.FWHM = umFW
		}
	}
	if nfw == bands {
		m.FWHM = fw
	}
	if nnames == bands {
		m.BandNames = names
	}
}

// gdalMetadataXML writes the band metadata in GDAL's form ("" if none).
func gdalMetadataXML(m *hsi.Meta, bands int) string {
	var md gdalMetadata
	num := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	if len(m.Wavelengths) == bands && m.WavelengthUnits != "" {
		md.Items = append(md.Items, gdalItem{Name: "wavelength_units", Value: m.WavelengthUnits})
	}
	for b := 0; b < bands; b++ {
		s := strconv.Itoa(b)
		if len(m.Wavelengths) == bands {
			md.Items = append(md.Items, gdalItem{Name: "wavelength", Sample: s, Value: num(m.Wavelengths[b])})
			if m.WavelengthUnits != "" {
				md.Items = append(md.Items, gdalItem{Name: "wavelength_units", Sample: s, Value: m.WavelengthUnits})
			}
		}
		if len(m.FWHM) == bands {
			md.Items = append(md.Items, gdalItem{Name: "fwhm", Sample: s, Value: num(m.FWHM[b])})
		}
		if len(m.BandNames) == bands {
			md.Items = append(md.Items, gdalItem{Name: "DESCRIPTION", Sample: s, Role: "description", Value: m.BandNames[b]})
		}
	}
	if len(md.Items) == 0 {
		return ""
	}
	out, err := xml.MarshalIndent(md, "", "  ")
	if err != nil {
		return ""
	}
	return string(out)
}

// noDataString formats a no-data value as GDAL does.
func noDataString(v float64) string {
	switch {
	case math.IsNaN(v):
		return "nan"
	case math.IsInf(v, 1):
		return "inf"
	case math.IsInf(v, -1):
		return "-inf"
	}
	return fmt.Sprint(strconv.FormatFloat(v, 'g', -1, 64))
}
