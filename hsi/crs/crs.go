package crs

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// CRS is a coordinate reference system known by an EPSG code, by a WKT
// text, or by both.
type CRS struct {
	EPSG int    // 0 when no code is known
	WKT  string // WKT version 1 (OGC or ESRI flavour); "" when only the code is known
}

// Known EPSG codes.
const (
	EPSGWGS84 = 4326
	epsgUTMN  = 32600 // + zone
	epsgUTMS  = 32700 // + zone
)

// Empty reports whether neither a code nor a text is known.
func (c CRS) Empty() bool { return c.EPSG == 0 && c.WKT == "" }

// FromEPSG returns the CRS of an EPSG code, with its WKT text filled in
// for every EPSG geographic 2D and projected CRS: the ESRI WKT GDAL writes
// for it, from epsg_esri.txt.gz (recorded from GDAL by
// scripts/goldens/epsg.py). Other codes (vertical, compound, geocentric,
// unknown) keep an empty WKT.
func FromEPSG(code int) CRS {
	c := CRS{EPSG: code}
	if zone, north, ok := utmZone(code); ok {
		c.WKT = UTMWKT(zone, north)
	} else if code == EPSGWGS84 {
		c.WKT = wgs84GeogCS
	} else if wkt, ok := knownWKT()[code]; ok {
		c.WKT = wkt
	}
	return c
}

//go:embed epsg_esri.txt.gz
var epsgESRI []byte

// epsgTable is the decoded epsg_esri.txt.gz (see scripts/goldens/epsg.py):
// the ESRI WKT GDAL writes for every EPSG geographic 2D and projected CRS,
// and, for EPSG datums, ellipsoids and prime meridians, the code of a
// geographic CRS that uses them.
type epsgTable struct {
	wkt                  map[int]string
	datum, ellps, primem map[int]int
	order                []int // codes in file order: current ones first, each kind ascending
}

// table decodes the embedded table once, on first use.
var table = sync.OnceValue(func() *epsgTable { return decodeTable(epsgESRI) })

func decodeTable(gz []byte) *epsgTable {
	t := &epsgTable{wkt: map[int]string{}, datum: map[int]int{}, ellps: map[int]int{}, primem: map[int]int{}}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return t // the embedded table is checked by the tests
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		return t
	}
	for _, line := range strings.Split(string(raw), "\n") {
		f := strings.Split(line, "\t")
		if len(f) < 3 {
			continue
		}
		code, err := strconv.Atoi(f[1])
		if err != nil {
			continue
		}
		switch f[0] {
		case "C":
			if len(f) == 4 {
				t.wkt[code] = f[3]
				t.order = append(t.order, code)
			}
		case "D", "E", "P":
			geog, err := strconv.Atoi(f[2])
			if err != nil {
				continue
			}
			map[string]map[int]int{"D": t.datum, "E": t.ellps, "P": t.primem}[f[0]][code] = geog
		}
	}
	return t
}

// knownWKT returns the table's ESRI WKT by EPSG code.
func knownWKT() map[int]string { return table().wkt }

func utmZone(code int) (zone int, north, ok bool) {
	switch {
	case code > epsgUTMN && code <= epsgUTMN+60:
		return code - epsgUTMN, true, true
	case code > epsgUTMS && code <= epsgUTMS+60:
		return code - epsgUTMS, false, true
	}
	return 0, false, false
}

const wgs84GeogCS = `GEOGCS["GCS_WGS_1984",DATUM["D_WGS_1984",SPHEROID["WGS_1984",6378137.0,298.257223563]],PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]]`

// UTMWKT returns the ESRI WKT of a WGS 84 UTM zone, as GDAL writes it in an
// ENVI header.
func UTMWKT(zone int, north bool) string {
	hemi, fn := "N", "0.0"
	if !north {
		hemi, fn = "S", "10000000.0"
	}
	return fmt.Sprintf(`PROJCS["WGS_1984_UTM_Zone_%d%s",%s,PROJECTION["Transverse_Mercator"],PARAMETER["False_Easting",500000.0],PARAMETER["False_Northing",%s],PARAMETER["Central_Meridian",%s],PARAMETER["Scale_Factor",0.9996],PARAMETER["Latitude_Of_Origin",0.0],UNIT["Meter",1.0]]`,
		zone, hemi, wgs84GeogCS, fn, strconv.FormatFloat(float64(6*zone-183), 'f', 1, 64))
}

var (
	esriUTM = regexp.MustCompile(`(?i)^WGS[ _]?(?:19)?84[ _/]+UTM[ _]zone[ _](\d{1,2})([NS])$`)
	ogcUTM  = regexp.MustCompile(`(?i)^WGS 84 / UTM zone (\d{1,2})([NS])$`)
)

// FromWKT parses a WKT text and finds its EPSG code where the text states
// one (AUTHORITY or ID at its root), where it is the ESRI WKT GDAL writes
// for a code of the table (white space aside), or where it is WGS 84
// geographic or a WGS 84 UTM zone by name or by its parameters. The text
// is kept as given.
func FromWKT(wkt string) (CRS, error) {
	wkt = strings.TrimSpace(wkt)
	n, err := Parse(wkt)
	if err != nil {
		return CRS{}, err
	}
	c := CRS{WKT: wkt, EPSG: n.authority()}
	if c.EPSG == 0 {
		c.EPSG = knownCodes()[strings.Join(strings.Fields(wkt), "")]
	}
	if c.EPSG == 0 {
		c.EPSG = identify(n)
	}
	return c, nil
}

// knownCodes maps the texts of knownWKT (white space removed) to their
// codes, so that a WKT this package wrote is known by its code again.
var knownCodes = sync.OnceValue(func() map[string]int { return reverse(table()) })

func reverse(t *epsgTable) map[string]int {
	out := make(map[string]int, len(t.order))
	for _, code := range t.order {
		k := strings.Join(strings.Fields(t.wkt[code]), "")
		if _, ok := out[k]; !ok { // a text shared by several codes: the first (smallest current) code
			out[k] = code
		}
	}
	return out
}

func identify(n *Node) int {
	name := n.Name()
	for _, re := range []*regexp.Regexp{esriUTM, ogcUTM} {
		if m := re.FindStringSubmatch(name); m != nil {
			z, _ := strconv.Atoi(m[1])
			if z >= 1 && z <= 60 {
				if strings.EqualFold(m[2], "N") {
					return epsgUTMN + z
				}
				return epsgUTMS + z
			}
		}
	}
	switch n.Key {
	case "GEOGCS":
		if isWGS84(n) && isDegrees(n) {
			return EPSGWGS84
		}
	case "PROJCS":
		g := n.Child("GEOGCS")
		if g == nil || !isWGS84(g) || !strings.Contains(strings.ToLower(n.Child("PROJECTION").Name()), "transverse_mercator") {
			return 0
		}
		p := params(n)
		k, fe, fn, lat0, cm := p["scale_factor"], p["false_easting"], p["false_northing"], p["latitude_of_origin"], p["central_meridian"]
		if math.Abs(k-0.9996) > 1e-12 || fe != 500000 || lat0 != 0 || (fn != 0 && fn != 10000000) {
			return 0
		}
		z := (cm + 183) / 6
		if z != math.Trunc(z) || z < 1 || z > 60 || !isMetres(n) {
			return 0
		}
		if fn == 0 {
			return epsgUTMN + int(z)
		}
		return epsgUTMS + int(z)
	}
	return 0
}

func isWGS84(g *Node) bool {
	d := strings.ToLower(strings.NewReplacer(" ", "", "_", "", "-", "").Replace(g.Child("DATUM").Name()))
	if d != "dwgs1984" && d != "wgs1984" && d != "wgs84" && d != "worldgeodeticsystem1984" {
		return false
	}
	s := g.Child("DATUM").Child("SPHEROID", "ELLIPSOID")
	a, ok1 := s.Num(0)
	rf, ok2 := s.Num(1)
	return ok1 && ok2 && a == 6378137 && math.Abs(rf-298.257223563) < 1e-9
}

func isDegrees(g *Node) bool {
	u := g.Child("UNIT")
	v, ok := u.Num(0)
	return u == nil || ok && math.Abs(v-math.Pi/180) < 1e-12
}

func isMetres(n *Node) bool {
	for _, a := range n.Args {
		if a.Node != nil && a.Node.Key == "UNIT" {
			v, ok := a.Node.Num(0)
			return ok && v == 1
		}
	}
	return true
}

// params returns the PARAMETER values of a PROJCS by lower-case name.
func params(n *Node) map[string]float64 {
	out := map[string]float64{}
	for _, p := range n.Children("PARAMETER") {
		if v, ok := p.Num(0); ok {
			out[strings.ToLower(strings.ReplaceAll(p.Name(), " ", "_"))] = v
		}
	}
	return out
}

// Geographic reports whether the CRS is geographic (latitude/longitude).
func (c CRS) Geographic() bool {
	if c.WKT != "" {
		if n, err := Parse(c.WKT); err == nil {
			return n.Key == "GEOGCS" || n.Key == "GEOGCRS" || n.Key == "GEODCRS"
		}
	}
	_, _, utm := utmZone(c.EPSG)
	return !utm && c.EPSG >= 4000 && c.EPSG < 5000
}

// UTM returns the zone and hemisphere of a WGS 84 UTM CRS.
func (c CRS) UTM() (zone int, north, ok bool) { return utmZone(c.EPSG) }

// Name returns the CRS's own name, or its EPSG code, or "".
func (c CRS) Name() string {
	if c.WKT != "" {
		if n, err := Parse(c.WKT); err == nil && n.Name() != "" {
			return n.Name()
		}
	}
	if c.EPSG != 0 {
		return fmt.Sprintf("EPSG:%d", c.EPSG)
	}
	return ""
}

// ENVIDatum returns the ENVI map info datum name of the CRS's datum
// ("WGS-84", ...) or "" when ENVI has no name for it.
func (c CRS) ENVIDatum() string {
	if _, _, ok := utmZone(c.EPSG); ok || c.EPSG == EPSGWGS84 {
		return "WGS-84"
	}
	if n, err := Parse(c.WKT); err == nil {
		g := n
		if n.Key != "GEOGCS" {
			g = n.Child("GEOGCS")
		}
		if g != nil && isWGS84(g) {
			return "WGS-84"
		}
	}
	return ""
}

// ENVIProjection returns the projection name ENVI's map info uses for a
// projected CRS that is not UTM, from its WKT PROJECTION element.
func (c CRS) ENVIProjection() string {
	n, err := Parse(c.WKT)
	if err != nil {
		return ""
	}
	p := n.Child("PROJECTION").Name()
	name := strings.ReplaceAll(p, " ", "_")
	for _, d := range projections {
		if d.envi != "" && (strings.EqualFold(name, d.esri) || d.ogc != "" && strings.EqualFold(name, d.ogc)) {
			return d.envi
		}
	}
	return strings.NewReplacer(",", " ", "{", "(", "}", ")").Replace(p)
}

// Equivalent reports whether two CRSs are the same: the same EPSG code and,
// where neither has one, WKT texts with the same elements, names and
// tokens, and numbers equal to 1e-9 relative. The name of a geographic CRS
// is left aside: a GeoTIFF names a geographic CRS it gives by an EPSG code
// by that code, so GDAL, and this package, read the code's name back.
func Equivalent(a, b CRS) bool {
	if a.EPSG != b.EPSG {
		return false
	}
	if a.EPSG != 0 || a.WKT == b.WKT {
		return true
	}
	x, err1 := Parse(a.WKT)
	y, err2 := Parse(b.WKT)
	return err1 == nil && err2 == nil && sameNode(x, y)
}

func sameNode(a, b *Node) bool {
	if a.Key != b.Key || len(a.Args) != len(b.Args) {
		return false
	}
	for i := range a.Args {
		x, y := a.Args[i], b.Args[i]
		switch {
		case x.Node != nil && y.Node != nil:
			if !sameNode(x.Node, y.Node) {
				return false
			}
		case x.Node != nil || y.Node != nil || x.Quoted != y.Quoted:
			return false
		case x.Quoted:
			if x.Text != y.Text && !(a.Key == "GEOGCS" && i == 0) {
				return false
			}
		default:
			u, err1 := strconv.ParseFloat(x.Text, 64)
			v, err2 := strconv.ParseFloat(y.Text, 64)
			if err1 != nil || err2 != nil {
				if x.Text != y.Text {
					return false
				}
			} else if math.Abs(u-v) > 1e-9*math.Max(1, math.Abs(v)) {
				return false
			}
		}
	}
	return true
}
