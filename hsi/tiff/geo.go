package tiff

import (
	"encoding/xml"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/crs"
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

// addGeoTags writes the georeferencing. Tags read from a GeoTIFF are
// written back as they are (with GTRasterTypeGeoKey from PixelIsPoint);
// a grid read from ENVI is written as GDAL writes it: ModelPixelScale and
// ModelTiepoint for a north-up grid, ModelTransformation for a rotated
// one, and its CRS as crs.GeoKeys writes it: EPSG-coded keys or, for a
// CRS known only by its WKT, GDAL's standard user-defined keys (or, where
// they cannot hold it, GDAL's "ESRI PE String" citation).
func addGeoTags(g *hsi.Geo, add func(tagValue)) {
	scale, tie, trans := g.PixelScale, g.Tiepoints, g.Transformation
	var keys []uint16
	doublesParams, asciiParams := g.GeoDoubles, g.GeoASCII
	switch {
	case len(scale) > 0 || len(tie) > 0 || len(trans) == 16 || len(g.GeoKeys) > 0:
		keys = geoKeysForWrite(g)
	default:
		gt, ok := g.Transform()
		if !ok {
			return
		}
		if gt[2] == 0 && gt[4] == 0 && gt[1] > 0 && gt[5] < 0 {
			scale = []float64{gt[1], -gt[5], 0}
			tie = []float64{0, 0, 0, gt[0], gt[3], 0}
		} else {
			trans = []float64{gt[1], gt[2], 0, gt[0], gt[4], gt[5], 0, gt[3], 0, 0, 0, 0, 0, 0, 0, 1}
		}
		c, _ := g.CRS()
		keys, doublesParams, asciiParams = crs.GeoKeys(c, false)
	}
	if len(scale) > 0 {
		add(doubles(tModelPixelScale, scale))
	}
	if len(tie) > 0 {
		add(doubles(tModelTiepoint, tie))
	}
	if len(trans) == 16 {
		add(doubles(tModelTransform, trans))
	}
	if len(keys) > 0 {
		k := make([]uint64, len(keys))
		for i, v := range keys {
			k[i] = uint64(v)
		}
		add(shorts(tGeoKeyDirectory, k...))
	}
	if len(doublesParams) > 0 {
		add(doubles(tGeoDoubleParams, doublesParams))
	}
	if asciiParams != "" {
		add(ascii(tGeoASCIIParams, asciiParams))
	}
}

// GeoLost names what of m's georeferencing a TIFF cannot hold.
func GeoLost(m *hsi.Meta) []string {
	g := m.Geo
	if g == nil || len(g.PixelScale) > 0 || len(g.Tiepoints) > 0 || len(g.Transformation) == 16 || len(g.GeoKeys) > 0 {
		return nil
	}
	if _, ok := g.Transform(); !ok {
		if g.Empty() {
			return nil
		}
		return []string{"ENVI georeferencing without a readable map info"}
	}
	if _, note := g.CRS(); note != "" {
		return []string{"CRS: " + note}
	}
	return nil
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
	scale := make([]float64, bands)
	offset := make([]float64, bands)
	var nscale, noffset int
	bandBBL := make([]bool, bands)
	nbbl := 0
	for i := range scale {
		scale[i] = 1
	}
	for _, it := range md.Items {
		if it.Domain == enviDomain && it.Sample == "" {
			key := strings.ToLower(strings.ReplaceAll(strings.TrimSpace(it.Name), "_", " "))
			val := strings.TrimSpace(it.Value)
			braced := strings.HasPrefix(val, "{") && strings.HasSuffix(val, "}")
			if braced {
				val = strings.TrimSpace(val[1 : len(val)-1])
			}
			switch key {
			case "bbl":
				if bb, ok := parseBBL(val, bands); ok {
					m.BadBands = bb
				}
			case "reflectance scale factor":
				if x, err := strconv.ParseFloat(val, 64); err == nil && x != 0 && !math.IsInf(x, 0) {
					m.ReflectanceScale = x
				}
			default:
				m.Extra = append(m.Extra, hsi.Field{Key: key, Value: val, Braced: braced})
			}
			continue
		}
		if it.Domain == "" && it.Sample != "" && (it.Role == "scale" || it.Role == "offset") {
			b, err := strconv.Atoi(it.Sample)
			x, err2 := strconv.ParseFloat(strings.TrimSpace(it.Value), 64)
			if err != nil || err2 != nil || b < 0 || b >= bands {
				continue
			}
			if it.Role == "scale" {
				scale[b] = x
				nscale++
			} else {
				offset[b] = x
				noffset++
			}
			continue
		}
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
		case name == "bbl":
			// EnMAP-Box's per-band bad band flag (1 good, 0 bad)
			if x, err := strconv.ParseFloat(val, 64); err == nil {
				bandBBL[b] = x == 0
				nbbl++
			}
		}
	}
	if nbbl == bands && m.BadBands == nil {
		m.BadBands = bandBBL
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
		m.WavelengthsFromBandNames() // "blue (0.4505 Micrometers)", as GDAL names ENVI bands
	}
	// A scale that only restates the reflectance scale factor is not kept
	// twice.
	derived := m.ReflectanceScale != 0 && noffset == 0
	for _, v := range scale {
		derived = derived && v == 1/m.ReflectanceScale
	}
	if nscale > 0 && !derived {
		m.Scale = scale
	}
	if noffset > 0 {
		m.Offset = offset
	}
}

// micrometres converts nanometres to micrometres, rounded to the shortest
// decimal of 12 significant digits so that 0.4 nm-based values print as
// 0.4, not 0.39999999999999997.
func micrometres(nm float64) float64 {
	v, err := strconv.ParseFloat(strconv.FormatFloat(nm/1000, 'g', 12, 64), 64)
	if err != nil {
		return nm / 1000
	}
	return v
}

// enviDomain is the GDAL metadata domain of ENVI header fields.
const enviDomain = "ENVI"

// parseBBL reads an ENVI bad band list "1, 0, ...".
func parseBBL(s string, bands int) ([]bool, bool) {
	parts := strings.Split(s, ",")
	if len(parts) != bands {
		return nil, false
	}
	out := make([]bool, bands)
	for i, p := range parts {
		x, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil {
			return nil, false
		}
		out[i] = x == 0
	}
	return out, true
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
		if len(m.BadBands) == bands {
			// EnMAP-Box reads a per-band bbl item
			v := "1"
			if m.BadBands[b] {
				v = "0"
			}
			md.Items = append(md.Items, gdalItem{Name: "bbl", Sample: s, Value: v})
		}
	}
	// GDAL 3.10+ states band centres and widths in micrometres in the
	// IMAGERY domain.
	if nm, fw, ok := m.Nanometers(); ok && len(nm) == bands {
		for b := 0; b < bands; b++ {
			s := strconv.Itoa(b)
			md.Items = append(md.Items, gdalItem{Name: "CENTRAL_WAVELENGTH_UM", Sample: s, Domain: "IMAGERY", Value: num(micrometres(nm[b]))})
			if fw != nil {
				md.Items = append(md.Items, gdalItem{Name: "FWHM_UM", Sample: s, Domain: "IMAGERY", Value: num(micrometres(fw[b]))})
			}
		}
	}
	for b := 0; b < bands; b++ {
		scale, offset, ok := m.PhysicalScale(b)
		if !ok {
			break
		}
		s := strconv.Itoa(b)
		if len(m.Offset) == bands {
			md.Items = append(md.Items, gdalItem{Name: "OFFSET", Sample: s, Role: "offset", Value: num(offset)})
		}
		md.Items = append(md.Items, gdalItem{Name: "SCALE", Sample: s, Role: "scale", Value: num(scale)})
	}
	// ENVI fields GDAL keeps in its ENVI metadata domain, with '_' for ' '.
	envi := func(key, val string) {
		md.Items = append(md.Items, gdalItem{Name: strings.ReplaceAll(key, " ", "_"), Domain: enviDomain, Value: val})
	}
	if len(m.BadBands) == bands {
		v := make([]string, bands)
		for i, bad := range m.BadBands {
			v[i] = "1"
			if bad {
				v[i] = "0"
			}
		}
		envi("bbl", "{"+strings.Join(v, ", ")+"}")
	}
	if m.ReflectanceScale != 0 {
		envi("reflectance scale factor", num(m.ReflectanceScale))
	}
	for _, f := range m.Extra {
		v := f.Value
		if f.Braced {
			v = "{" + v + "}"
		}
		envi(f.Key, v)
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
