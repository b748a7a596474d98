package products

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/crs"
	"github.com/omnihsr/omnihsr/hsi/internal/hdf5"
)

// NEON AOP reflectance (DP3.30006 mosaic tiles, DP1.30006 flight lines):
// one root group named after the site holds Reflectance/Reflectance_Data
// (int16, lines x samples x bands) with its Metadata group.
const (
	neonCube   = "Reflectance/Reflectance_Data"
	neonSpec   = "Reflectance/Metadata/Spectral_Data/"
	neonCoords = "Reflectance/Metadata/Coordinate_System/"
)

// neonSite returns the site group of a NEON AOP reflectance file ("/SJER"),
// or "" when the file does not have that structure: a root group whose
// Reflectance/Reflectance_Data is a 3-D dataset and whose metadata holds
// the wavelengths.
func neonSite(f *file) string {
	for _, o := range f.all {
		if o.Kind != hdf5.KindGroup || strings.Count(o.Path, "/") != 1 || o.Path == "/" {
			continue
		}
		d := f.get(o.Path + "/" + neonCube)
		if d != nil && d.Kind == hdf5.KindDataset && len(d.Dims) == 3 && f.get(o.Path+"/"+neonSpec+"Wavelength") != nil {
			return o.Path
		}
	}
	return ""
}

// attrNum reads a numeric attribute stored as a number or as a string.
func attrNum(o *hdf5.Object, name string) (float64, bool, error) {
	a, ok := o.Attrs[name]
	if !ok {
		return 0, false, nil
	}
	var v float64
	switch {
	case len(a.Nums) == 1:
		v = a.Nums[0]
	case a.IsStr:
		x, err := strconv.ParseFloat(strings.TrimSpace(a.Str), 64)
		if err != nil {
			return 0, true, fmt.Errorf("attribute %s %q is not a number", name, a.Str)
		}
		v = x
	default:
		return 0, true, fmt.Errorf("attribute %s holds %d values, want one number", name, len(a.Nums))
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, true, fmt.Errorf("attribute %s is %v, not a finite number", name, v)
	}
	return v, true, nil
}

// neonString reads a scalar string (or number) dataset of the metadata.
func (f *file) neonString(path string) (string, error) {
	o := f.get(path)
	if o == nil || o.Kind != hdf5.KindDataset {
		return "", nil
	}
	if o.Type.Numeric() {
		v, err := f.readFloats(o)
		if err != nil {
			return "", err
		}
		if len(v) != 1 {
			return "", fmt.Errorf("%s: %s holds %d values, want one", f.path, o.Path, len(v))
		}
		return strconv.FormatFloat(v[0], 'f', -1, 64), nil
	}
	s, err := o.ReadStrings()
	if err != nil {
		return "", fmt.Errorf("%s: %w", f.path, err)
	}
	if len(s) != 1 {
		return "", fmt.Errorf("%s: %s holds %d strings, want one", f.path, o.Path, len(s))
	}
	return strings.TrimSpace(s[0]), nil
}

// readNEON reads a NEON AOP reflectance file: the stored values (reflectance
// x Scale_Factor) with the scale factor stated as the reflectance scale,
// Data_Ignore_Value as no-data, wavelengths and FWHM, the bands inside the
// Band_Window_*_Nanometers windows flagged bad, and the grid from Map_Info
// and EPSG Code.
func readNEON(f *file, site string, opt hsi.ReadOptions) (*hsi.Cube, hsi.SourceInfo, error) {
	o := f.get(site + "/" + neonCube)
	info := hsi.SourceInfo{Format: "HDF5", Variable: o.Path, DataType: o.Type.String(), Layout: "HWB"}
	level := "DP3 mosaic tile"
	if strings.Contains(f.path, "_DP1_") {
		level = "DP1 flight line"
	}
	info.Product = "NEON AOP reflectance, site " + strings.TrimPrefix(site, "/") + ", " + level
	if opt.Ortho {
		return nil, info, fmt.Errorf("%s: -ortho applies to EMIT granules; NEON AOP reflectance is already map-projected", f.path)
	}
	if opt.Layout != "" && !strings.EqualFold(opt.Layout, "HWB") {
		return nil, info, fmt.Errorf("%s: NEON AOP reflectance is stored lines x samples x bands (HWB); -var %s reads it with another layout", f.path, o.Path)
	}
	scale, hasScale, err := attrNum(o, "Scale_Factor")
	if err != nil {
		return nil, info, fmt.Errorf("%s: %s: %w", f.path, o.Path, err)
	}
	// reflectance = value / scale: a subnormal scale makes it infinite
	if hasScale && (!(scale >= 0x1p-1022) || math.IsInf(scale, 0)) {
		return nil, info, fmt.Errorf("%s: %s: Scale_Factor %v is not a positive normal number", f.path, o.Path, scale)
	}
	fill, hasFill, err := attrNum(o, "Data_Ignore_Value")
	if err != nil {
		return nil, info, fmt.Errorf("%s: %s: %w", f.path, o.Path, err)
	}
	c, err := f.cubeOf(o, "HWB", nil, nil)
	if err != nil {
		return nil, info, err
	}
	if hasScale {
		c.Meta.ReflectanceScale = scale
	}
	if hasFill {
		c.Meta.DataIgnore, c.Meta.HasDataIgnore = fill, true
	}
	wo := f.get(site + "/" + neonSpec + "Wavelength")
	wl, err := f.readFloats(wo)
	if err != nil {
		return nil, info, err
	}
	if len(wl) != c.B {
		return nil, info, fmt.Errorf("%s: %s holds %d wavelengths for the %d bands of %s", f.path, wo.Path, len(wl), c.B, o.Path)
	}
	c.Meta.Wavelengths = wl
	c.Meta.WavelengthUnits = unitsName(wo.AttrString("Units"))
	if c.Meta.WavelengthUnits == "" {
		c.Meta.WavelengthUnits = "Nanometers"
	}
	if fo := f.get(site + "/" + neonSpec + "FWHM"); fo != nil {
		fw, err := f.readFloats(fo)
		if err != nil {
			return nil, info, err
		}
		if len(fw) != c.B {
			return nil, info, fmt.Errorf("%s: %s holds %d values for the %d bands of %s", f.path, fo.Path, len(fw), c.B, o.Path)
		}
		c.Meta.FWHM = fw
	}
	var windows []string
	for _, k := range bandWindows(o) {
		name := fmt.Sprintf("Band_Window_%d_Nanometers", k)
		a := o.Attrs[name]
		if len(a.Nums) != 2 || math.IsNaN(a.Nums[0]) || math.IsNaN(a.Nums[1]) || a.Nums[0] > a.Nums[1] {
			return nil, info, fmt.Errorf("%s: %s: attribute %s is %v, want two wavelengths, low then high", f.path, o.Path, name, a.Nums)
		}
		lo, hi := a.Nums[0], a.Nums[1]
		if c.Meta.BadBands == nil {
			c.Meta.BadBands = make([]bool, c.B)
		}
		n := 0
		for b, w := range wl {
			if w >= lo && w <= hi {
				c.Meta.BadBands[b] = true
				n++
			}
		}
		windows = append(windows, fmt.Sprintf("%g-%g nm (%d bands)", lo, hi, n))
	}
	det := []string{o.LayoutName()}
	if fl := o.FilterNames(); fl != "" {
		det = append(det, fl)
	}
	if hasScale {
		det = append(det, fmt.Sprintf("reflectance = value / %g", scale))
	}
	if len(windows) > 0 {
		det = append(det, "bad-band windows "+strings.Join(windows, ", "))
	}
	geo, note, err := neonGeo(f, site)
	if err != nil {
		return nil, info, err
	}
	c.Meta.Geo = geo
	info.Detail = strings.Join(append(det, note), "; ")
	c.Meta.Description = info.Product
	return c, info, nil
}

// bandWindows returns the numbers N of o's Band_Window_N_Nanometers
// attributes in increasing order, gaps in the numbering included.
func bandWindows(o *hdf5.Object) []int {
	var ks []int
	for name := range o.Attrs {
		rest, ok := strings.CutPrefix(name, "Band_Window_")
		if !ok {
			continue
		}
		num, ok := strings.CutSuffix(rest, "_Nanometers")
		if k, err := strconv.Atoi(num); ok && err == nil && k >= 0 && strconv.Itoa(k) == num {
			ks = append(ks, k)
		}
	}
	slices.Sort(ks)
	return ks
}

// neonGeo georeferences the grid: the geotransform from Map_Info (an ENVI
// map info line, read as GDAL's ENVI driver reads one: reference pixel
// (1, 1) at the upper-left corner of the first pixel, rotation included),
// the CRS from EPSG Code.
func neonGeo(f *file, site string) (*hsi.Geo, string, error) {
	mi, err := f.neonString(site + "/" + neonCoords + "Map_Info")
	if err != nil {
		return nil, "", err
	}
	code, err := f.neonString(site + "/" + neonCoords + "EPSG Code")
	if err != nil {
		return nil, "", err
	}
	if mi == "" {
		return nil, "not georeferenced (no Map_Info)", nil
	}
	if err := hsi.CheckMapInfo(mi); err != nil {
		return nil, "", fmt.Errorf("%s: %s/%sMap_Info: %w", f.path, site, neonCoords, err)
	}
	gt, ok := (&hsi.Geo{MapInfo: mi}).Transform()
	if !ok {
		return nil, "", fmt.Errorf("%s: %s/%sMap_Info %q is not an ENVI map info line", f.path, site, neonCoords, mi)
	}
	note := "CRS from Map_Info"
	c, _ := (&hsi.Geo{MapInfo: mi}).CRS()
	if code != "" {
		n, err := strconv.Atoi(code)
		if err != nil || n <= 0 {
			return nil, "", fmt.Errorf("%s: %s/%sEPSG Code %q is not an EPSG code", f.path, site, neonCoords, code)
		}
		switch ec := crs.FromEPSG(n); {
		case ec.WKT == "" && !c.Empty():
			// A code the EPSG table does not hold: Map_Info's CRS stands.
			note = fmt.Sprintf("EPSG Code %d unknown (not a geographic or projected EPSG CRS), CRS from Map_Info", n)
		case c.EPSG != 0 && c.EPSG != n:
			return nil, "", fmt.Errorf("%s: %s/%sEPSG Code %d contradicts Map_Info, which names EPSG:%d (%q)", f.path, site, neonCoords, n, c.EPSG, mi)
		default:
			c = ec
			note = "EPSG:" + code
		}
	} else if c.Empty() {
		note = "no CRS (no EPSG Code, and Map_Info names none)"
	}
	return geoOf(gt, c), note + ", grid from Map_Info", nil
}
