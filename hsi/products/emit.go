package products

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/crs"
	"github.com/omnihsr/omnihsr/hsi/internal/hdf5"
	"github.com/omnihsr/omnihsr/internal/memlimit"
)

// emitVars are the root cubes of the EMIT L2A granules read as products:
// RFL's reflectance and RFLUNCERT's reflectance_uncertainty (the same
// layout, dimensions, groups and fill value).
var emitVars = []string{"reflectance", "reflectance_uncertainty"}

// emitCube returns the root cube of an EMIT granule, or nil when the file
// does not have an EMIT granule's structure: a root cube named in
// emitVars, the sensor_band_parameters group and the location group with
// its geometry lookup table.
func emitCube(f *file) *hdf5.Object {
	if f.get("/sensor_band_parameters") == nil || f.get("/location/glt_x") == nil || f.get("/location/glt_y") == nil {
		return nil
	}
	for _, n := range emitVars {
		if r := f.get("/" + n); r != nil && r.Kind == hdf5.KindDataset && len(r.Dims) == 3 {
			return r
		}
	}
	return nil
}

// emitRFL matches the name of an EMIT L2A reflectance granule,
// EMIT_L2A_RFL_<version>_<start time>_<orbit>_<scene>.nc, as LP DAAC
// names it; the RFLUNCERT and MASK granules of the same acquisition share
// everything after the product name.
var emitRFL = regexp.MustCompile(`^EMIT_L2A_RFL_(\d+_\d{8}T\d{6}_\d+_\d+\.nc)$`)

// EMITUncertaintyPath returns the path of the RFLUNCERT companion of an
// EMIT L2A reflectance granule: EMIT_L2A_RFLUNCERT_<same rest> in the same
// folder. It is an error when rfl is not named as an RFL granule or the
// companion is not there.
func EMITUncertaintyPath(rfl string) (string, error) {
	m := emitRFL.FindStringSubmatch(filepath.Base(rfl))
	if m == nil {
		return "", fmt.Errorf("%s: not named as an EMIT L2A reflectance granule (EMIT_L2A_RFL_001_<time>_<orbit>_<scene>.nc), so it has no RFLUNCERT companion to find", rfl)
	}
	p := filepath.Join(filepath.Dir(rfl), "EMIT_L2A_RFLUNCERT_"+m[1])
	st, err := os.Stat(p)
	if err != nil {
		return "", fmt.Errorf("%s: its RFLUNCERT companion %s: %w", rfl, p, err)
	}
	if !st.Mode().IsRegular() {
		return "", fmt.Errorf("%s: its RFLUNCERT companion %s is not a regular file", rfl, p)
	}
	return p, nil
}

// emitFill is the fill value of EMIT products (emit_tools' FILL_VALUE).
const emitFill = -9999

func readEMIT(f *file, o *hdf5.Object, opt hsi.ReadOptions, rows *rowPlan) (*hsi.Cube, hsi.SourceInfo, error) {
	info := hsi.SourceInfo{Format: "NetCDF-4", Variable: o.Path, DataType: o.Type.String()}
	title := f.root.AttrString("title")
	if title == "" {
		title = "EMIT L2A " + strings.ReplaceAll(o.Name, "_", " ")
	}
	info.Product = title
	if t := f.root.AttrString("time_coverage_start"); t != "" {
		info.Product += ", acquired " + t
	}
	if p := f.root.AttrString("platform"); p != "" {
		info.Product += " from " + p
	}
	layout, how, err := f.layoutOf(o, opt.Layout)
	if err != nil {
		return nil, info, err
	}
	info.Layout = layout
	v, err := f.cfOf(o)
	if err != nil {
		return nil, info, err
	}
	if !v.hasFill {
		v.fill, v.hasFill = emitFill, true
	}
	c, err := f.cubeOf(o, layout, v.apply(), rows)
	if err != nil {
		return nil, info, err
	}
	c.Meta.DataIgnore, c.Meta.HasDataIgnore = v.fill, true
	if err := f.bandMeta(c, o, strings.IndexByte(layout, 'B')); err != nil {
		return nil, info, err
	}
	if c.Meta.Wavelengths == nil {
		return nil, info, fmt.Errorf("%s: EMIT granule without /sensor_band_parameters/wavelengths", f.path)
	}
	if err := increasing(c.Meta.Wavelengths); err != nil {
		return nil, info, fmt.Errorf("%s: /sensor_band_parameters/wavelengths: %w", f.path, err)
	}
	c.Meta.Description = info.Product
	det := []string{how, o.LayoutName()}
	if fl := o.FilterNames(); fl != "" {
		det = append(det, fl)
	}
	if !opt.Ortho {
		info.Detail = strings.Join(append(det, "swath (downtrack x crosstrack), not georeferenced; -ortho applies the GLT"), ", ")
		return c, info, nil
	}
	oc, err := emitOrtho(f, c)
	if err != nil {
		return nil, info, err
	}
	info.Detail = strings.Join(append(det, fmt.Sprintf("orthorectified by the GLT to %d x %d", oc.H, oc.W)), ", ")
	return oc, info, nil
}

// emitOrtho applies the geometry lookup table as emit_tools.apply_glt
// does: ortho cell (r, c) takes swath pixel (glt_y-1, glt_x-1) when both
// indexes are set (not a GLT fill value: gltFill), and the fill value
// otherwise; an index outside the swath is an error naming the cell.
func emitOrtho(f *file, sw *hsi.Cube) (*hsi.Cube, error) {
	gxo, gyo := f.get("/location/glt_x"), f.get("/location/glt_y")
	if len(gxo.Dims) != 2 || !slices.Equal(gxo.Dims, gyo.Dims) {
		return nil, fmt.Errorf("%s: glt_x %v and glt_y %v must be 2-D arrays of one shape", f.path, gxo.Dims, gyo.Dims)
	}
	// The two tables (float64) and the ortho cube live together and are
	// sized from the tables' declared shape: check before reading them.
	if gxo.Dims[0] == 0 || gxo.Dims[1] == 0 || gxo.Dims[0] > math.MaxInt32 || gxo.Dims[1] > math.MaxInt32 {
		return nil, fmt.Errorf("%s: glt_x %v: want a non-empty grid", f.path, gxo.Dims)
	}
	cells := gxo.Dims[0] * gxo.Dims[1]
	if cells > (1<<62)/uint64(16+4*sw.B) {
		return nil, fmt.Errorf("%s: GLT grid %v is too large", f.path, gxo.Dims)
	}
	if err := memlimit.Check(cells*uint64(16+4*sw.B), fmt.Sprintf("the %dx%d GLT and its %dx%dx%d ortho cube", gxo.Dims[0], gxo.Dims[1], gxo.Dims[0], gxo.Dims[1], sw.B)); err != nil {
		return nil, fmt.Errorf("%s: %w", f.path, err)
	}
	// A GLT never written reads as fill everywhere: an ortho image of
	// no-data only, however large it declares itself.
	if gxo.Unwritten() || gyo.Unwritten() {
		return nil, fmt.Errorf("%s: the %dx%d GLT (location/glt_x and glt_y) was never written: it places no swath pixel", f.path, gxo.Dims[0], gxo.Dims[1])
	}
	gx, err := f.readFloats(gxo)
	if err != nil {
		return nil, err
	}
	gy, err := f.readFloats(gyo)
	if err != nil {
		return nil, err
	}
	oh, ow := int(gxo.Dims[0]), int(gxo.Dims[1])
	out, err := hsi.New(oh, ow, sw.B)
	if err != nil {
		return nil, fmt.Errorf("%s: GLT grid: %w", f.path, err)
	}
	out.Meta = sw.Meta
	fill := float32(sw.Meta.DataIgnore)
	for i := range out.Data {
		out.Data[i] = fill
	}
	unset := gltFill(gxo, gyo)
	for p := range gx {
		x, y := gx[p], gy[p]
		if unset(x) || unset(y) {
			continue
		}
		if x < 1 || y < 1 || x > float64(sw.W) || y > float64(sw.H) || x != math.Trunc(x) || y != math.Trunc(y) {
			return nil, fmt.Errorf("%s: GLT cell (%d, %d) points at swath row %v, column %v, outside the %d x %d swath",
				f.path, p/ow, p%ow, y, x, sw.H, sw.W)
		}
		copy(out.Data[p*sw.B:(p+1)*sw.B], sw.Spectrum(int(y)-1, int(x)-1))
	}
	gt := f.root.AttrNums("geotransform")
	if len(gt) != 6 {
		return nil, fmt.Errorf("%s: global attribute geotransform has %d values, want 6", f.path, len(gt))
	}
	if err := hsi.CheckGeoTransform([6]float64(gt)); err != nil {
		return nil, fmt.Errorf("%s: global attribute geotransform: %w", f.path, err)
	}
	var c crs.CRS
	if wkt := f.root.AttrString("spatial_ref"); wkt != "" {
		if c, err = crs.FromWKT(wkt); err != nil {
			return nil, fmt.Errorf("%s: spatial_ref: %w", f.path, err)
		}
	}
	out.Meta.Geo = geoOf([6]float64(gt), c)
	return out, nil
}

// increasing checks that wavelengths are finite, positive and strictly
// increasing, as an EMIT granule's are.
func increasing(wl []float64) error {
	for i, w := range wl {
		if math.IsNaN(w) || math.IsInf(w, 0) || w <= 0 {
			return fmt.Errorf("wavelength %d is %v, not a positive number", i, w)
		}
		if i > 0 && w <= wl[i-1] {
			return fmt.Errorf("wavelengths are not increasing: %v at band %d after %v", w, i, wl[i-1])
		}
	}
	return nil
}

// gltFill reports the GLT entries that mean "no swath pixel": 0, as
// emit_tools and the V001 writer (emit-utils daac_converter, fill 0) have
// it, -9999, the fill of later EMIT versions (emit-sds-l2a issue 20), the
// variables' own _FillValue, and NaN.
func gltFill(gx, gy *hdf5.Object) func(float64) bool {
	fills := []float64{0, emitFill}
	for _, o := range []*hdf5.Object{gx, gy} {
		if a := o.Attrs["_FillValue"]; len(a.Nums) == 1 {
			fills = append(fills, a.Nums[0])
		}
	}
	return func(v float64) bool { return math.IsNaN(v) || slices.Contains(fills, v) }
}

// geoOf builds the georeferencing of a grid from a GDAL geotransform
// (pixel-corner origin) and a CRS, in GeoTIFF form.
func geoOf(gt [6]float64, c crs.CRS) *hsi.Geo { return hsi.GeoFromTransform(gt, c) }
