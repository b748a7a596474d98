package products

import (
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/internal/hdf5"
	"github.com/omnihsr/omnihsr/hsi/internal/raw"
	"github.com/omnihsr/omnihsr/internal/memlimit"
	"github.com/omnihsr/omnihsr/internal/regfile"
)

// file is an open HDF5 file with its objects indexed.
type file struct {
	path string
	fh   *os.File
	h    *hdf5.File
	root *hdf5.Object
	all  []*hdf5.Object          // every object below the root, depth first
	byAd map[uint64]*hdf5.Object // by object header address
}

func open(path string) (*file, error) {
	fh, err := regfile.Open(path)
	if err != nil {
		return nil, err
	}
	st, err := fh.Stat()
	if err != nil {
		fh.Close()
		return nil, err
	}
	h, err := hdf5.Open(fh, st.Size())
	if err != nil {
		fh.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	f := &file{path: path, fh: fh, h: h, byAd: map[uint64]*hdf5.Object{}}
	if f.root, err = h.Root(); err != nil {
		fh.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	err = f.root.Walk(func(o *hdf5.Object) error {
		f.all = append(f.all, o)
		f.byAd[o.Addr] = o
		return nil
	})
	if err != nil {
		fh.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return f, nil
}

func (f *file) close() { f.fh.Close() }

// get returns the object at path, or nil: one the walk listed, else one
// the path names (an object reached by another path first, or one below
// the groups the walk follows).
func (f *file) get(path string) *hdf5.Object {
	path = "/" + strings.Trim(path, "/")
	for _, o := range f.all {
		if o.Path == path {
			return o
		}
	}
	if o, err := f.h.Open(path); err == nil && o.Path != "/" {
		return o
	}
	return nil
}

// readFloats reads a whole numeric dataset, in C order.
func (f *file) readFloats(o *hdf5.Object) ([]float64, error) {
	n, err := o.Numel()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.path, err)
	}
	if n > 1<<28 {
		return nil, fmt.Errorf("%s: %s: %d elements is too many for an auxiliary dataset", f.path, o.Path, n)
	}
	if err := memlimit.Check(8*n, fmt.Sprintf("%s %v", o.Path, o.Dims)); err != nil {
		return nil, fmt.Errorf("%s: %w", f.path, err)
	}
	fill, err := o.Fill()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.path, err)
	}
	out := make([]float64, n)
	if fill != 0 { // the elements never written
		for i := range out {
			out[i] = fill
		}
	}
	err = o.Read(func(start uint64, raw []byte) error {
		k := uint64(len(raw) / o.Type.Size)
		if start > n || k > n-start {
			return fmt.Errorf("hdf5: dataset %s: run outside the dataset", o.Path)
		}
		o.Type.Decode(raw, out[start:start+k])
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %s: %w", f.path, o.Path, err)
	}
	if o.Type.Class == hdf5.ClassFloat && o.Type.Size == 4 {
		// float32 metadata as its shortest decimal: 8.6, not 8.600000381469727
		for i, v := range out {
			out[i] = short32(v)
		}
	}
	return out, nil
}

// dimNames returns the names of a dataset's dimensions from its
// DIMENSION_LIST (NetCDF-4 and HDF5 dimension scales); nil when absent.
func (f *file) dimNames(o *hdf5.Object) []string {
	a, ok := o.Attrs["DIMENSION_LIST"]
	if !ok || len(a.Refs) != len(o.Dims) {
		return nil
	}
	names := make([]string, len(a.Refs))
	for i, refs := range a.Refs {
		if len(refs) == 0 {
			return nil
		}
		d := f.byAd[refs[0]]
		if d == nil {
			return nil
		}
		names[i] = d.Name
	}
	return names
}

// dimScale returns the dimension scale dataset of axis k, or nil.
func (f *file) dimScale(o *hdf5.Object, k int) *hdf5.Object {
	a, ok := o.Attrs["DIMENSION_LIST"]
	if !ok || k >= len(a.Refs) || len(a.Refs[k]) == 0 {
		return nil
	}
	return f.byAd[a.Refs[k][0]]
}

func isBandName(s string) bool {
	s = strings.ToLower(s)
	for _, p := range []string{"band", "wavelength", "spectral", "channel", "lambda"} {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return s == "wl" || s == "nbands"
}

// layoutOf returns the axis letters (H, W, B) of a 3-D dataset's stored
// axes and how they were found.
func (f *file) layoutOf(o *hdf5.Object, opt string) (string, string, error) {
	if opt != "" {
		l := strings.ToUpper(opt)
		if len(l) != 3 || !strings.Contains(l, "H") || !strings.Contains(l, "W") || !strings.Contains(l, "B") {
			return "", "", fmt.Errorf("%s: layout %q: want the stored axes as a permutation of H, W and B (HWB, BHW, HBW, ...)", f.path, opt)
		}
		return l, "layout " + l + " as given", nil
	}
	names := f.dimNames(o)
	if names == nil {
		return "HWB", "layout HWB assumed (no dimension names; -layout sets it)", nil
	}
	band := -1
	for k, n := range names {
		if isBandName(n) {
			if band >= 0 {
				return "", "", fmt.Errorf("%s: %s: dimensions %v: more than one looks like the band axis; give the layout", f.path, o.Path, names)
			}
			band = k
		}
	}
	if band < 0 {
		return "HWB", fmt.Sprintf("layout HWB assumed (dimensions %s name no band axis; -layout sets it)", strings.Join(names, ", ")), nil
	}
	l := []byte("   ")
	l[band] = 'B'
	next := byte('H')
	for k := range l {
		if l[k] == ' ' {
			l[k] = next
			next = 'W'
		}
	}
	return string(l), fmt.Sprintf("layout %s from dimensions (%s)", l, strings.Join(names, ", ")), nil
}

// cubeOf reads a 2-D or 3-D numeric dataset into a cube. layout gives the
// stored axes (H, W, B). fn, when not nil, maps each stored value. With
// rows set, nothing is read: the dataset, its layout and value map go to
// *rows (OpenRows streams them) and the cube has no Data, so that nothing
// is allocated from the declared size.
func (f *file) cubeOf(o *hdf5.Object, layout string, fn func(float64) float64, rows *rowPlan) (*hsi.Cube, error) {
	if o.Kind != hdf5.KindDataset || !o.Type.Numeric() {
		return nil, fmt.Errorf("%s: %s is not a numeric dataset", f.path, o.Path)
	}
	dims := o.Dims
	if len(dims) == 2 {
		dims = []uint64{dims[0], dims[1], 1}
		layout = "HWB"
	}
	if len(dims) != 3 {
		return nil, fmt.Errorf("%s: %s has %d dimensions %v, want 2 or 3", f.path, o.Path, len(o.Dims), o.Dims)
	}
	var size [3]int // H, W, B
	var stride [3]int
	for k := 0; k < 3; k++ {
		if dims[k] == 0 || dims[k] > math.MaxInt32 {
			return nil, fmt.Errorf("%s: %s: dimension %d is %d", f.path, o.Path, k, dims[k])
		}
		size[strings.IndexByte("HWB", layout[k])] = int(dims[k])
	}
	if rows != nil {
		if _, err := hsi.Elems(size[0], size[1], size[2]); err != nil {
			return nil, fmt.Errorf("%s: %s: %w", f.path, o.Path, err)
		}
		*rows = rowPlan{o: o, layout: layout, fn: fn}
		return &hsi.Cube{H: size[0], W: size[1], B: size[2]}, nil
	}
	// The cube is sized from the declared dimensions, which a small file
	// may declare as large as it likes: the memory check comes first.
	c, err := raw.NewCube(size[0], size[1], size[2])
	if err != nil {
		return nil, fmt.Errorf("%s: %s: %w", f.path, o.Path, err)
	}
	fill, err := fillOf(o, fn)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.path, err)
	}
	fillRows(c.Data, fill)
	for k := 0; k < 3; k++ {
		switch layout[k] {
		case 'H':
			stride[k] = c.W * c.B
		case 'W':
			stride[k] = c.B
		case 'B':
			stride[k] = 1
		}
	}
	if err := o.Read(newRunDecoder(o, layout, dims, stride, fn).into(c.Data, 0)); err != nil {
		return nil, fmt.Errorf("%s: %w", f.path, err)
	}
	return c, nil
}

// fillOf is the sample the elements of o never written read as: its
// fill value (hdf5.Object.Fill: 0 when the file defines none) mapped by
// fn, when not nil, and converted to float32, as a stored value is.
func fillOf(o *hdf5.Object, fn func(float64) float64) (float32, error) {
	v, err := o.Fill()
	if err != nil {
		return 0, err
	}
	if fn != nil {
		v = fn(v)
	}
	return float32(v), nil
}

// fillRows sets every sample of out to fill (the value of the elements
// never written, which the reads then leave).
func fillRows(out []float32, fill float32) {
	if math.Float32bits(fill) == 0 {
		clear(out)
		return
	}
	for i := range out {
		out[i] = fill
	}
}

// runDecoder stores the runs of a dataset (hdf5.Object.Read's) in a cube's
// samples: each stored value, mapped by fn, converted to float32.
type runDecoder struct {
	o          *hdf5.Object
	stride     [3]int // of each stored axis in the cube
	d1, d2     uint64 // the last two stored dimensions
	total      uint64 // elements in the dataset
	fn         func(float64) float64
	fast       bool // float32 little-endian, no value map: decoded in place
	contiguous bool // stored in the cube's order
	buf        []float64
}

// newRunDecoder is the decoder of o (of dimensions dims, of rank 3, whose
// stored axes are layout's) into a cube whose strides per stored axis are
// stride.
func newRunDecoder(o *hdf5.Object, layout string, dims []uint64, stride [3]int, fn func(float64) float64) *runDecoder {
	return &runDecoder{o: o, stride: stride, d1: dims[1], d2: dims[2], total: dims[0] * dims[1] * dims[2], fn: fn,
		fast:       fn == nil && o.Type.Class == hdf5.ClassFloat && o.Type.Size == 4 && !o.Type.BigEndian,
		contiguous: layout == "HWB", // C order is the cube's order
	}
}

// into returns the run handler that stores into data, whose first value
// is the cube's value base.
func (d *runDecoder) into(data []float32, base int) func(start uint64, raw []byte) error {
	o, d1, d2 := d.o, d.d1, d.d2
	return func(start uint64, raw []byte) error {
		k := uint64(len(raw) / o.Type.Size)
		p, err := runAt(o, start, k, d.total, d1, d2)
		if err != nil {
			return err
		}
		if d.fast {
			if d.contiguous {
				dst := p.at(&d.stride) - base
				out := data[dst : dst+int(k)]
				for j := range out {
					out[j] = math.Float32frombits(binary.LittleEndian.Uint32(raw[4*j:]))
				}
				return nil
			}
			for j := 0; j < int(k); j++ {
				data[p.at(&d.stride)-base] = math.Float32frombits(binary.LittleEndian.Uint32(raw[4*j:]))
				p = p.next(d1, d2)
			}
			return nil
		}
		if cap(d.buf) < int(k) {
			d.buf = make([]float64, k)
		}
		v := d.buf[:k]
		o.Type.Decode(raw, v)
		for _, x := range v {
			if d.fn != nil {
				x = d.fn(x)
			}
			data[p.at(&d.stride)-base] = float32(x)
			p = p.next(d1, d2)
		}
		return nil
	}
}

// storedIndex is a position (i0, i1, i2) in the stored, C-order index of
// a dataset, as the chunk reader hands out runs of it. (Three fields keep
// it in registers in the decoding loops.)
type storedIndex struct{ i0, i1, i2 uint64 }

// runAt checks that the run of k elements starting at start lies inside a
// dataset of total elements whose last two dimensions are d1 and d2, and
// returns the index of its first element.
func runAt(o *hdf5.Object, start, k, total, d1, d2 uint64) (storedIndex, error) {
	if start > total || k > total-start {
		return storedIndex{}, fmt.Errorf("hdf5: dataset %s: run outside the dataset", o.Path)
	}
	r := start % (d1 * d2)
	return storedIndex{start / (d1 * d2), r / d2, r % d2}, nil
}

// next is the following element in C order.
func (p storedIndex) next(d1, d2 uint64) storedIndex {
	if p.i2++; p.i2 == d2 {
		p.i2 = 0
		if p.i1++; p.i1 == d1 {
			p.i1 = 0
			p.i0++
		}
	}
	return p
}

// at is the element's offset in a cube with the given strides per stored axis.
func (p storedIndex) at(stride *[3]int) int {
	return int(p.i0)*stride[0] + int(p.i1)*stride[1] + int(p.i2)*stride[2]
}

// largest3D returns the numeric dataset with the most elements among
// those of rank 3 (rank 2 when there is none).
func (f *file) largest3D() *hdf5.Object {
	var best *hdf5.Object
	var bestN uint64
	for _, rank := range []int{3, 2} {
		for _, o := range f.all {
			if o.Kind != hdf5.KindDataset || !o.Type.Numeric() || len(o.Dims) != rank {
				continue
			}
			if n, err := o.Numel(); err == nil && n > bestN {
				best, bestN = o, n
			}
		}
		if best != nil {
			return best
		}
	}
	return nil
}

// cf holds the CF packing and fill attributes of a variable.
type cf struct {
	fill       float64
	hasFill    bool
	scale, off float64
	packed     bool
	units      string
}

func (f *file) cfOf(o *hdf5.Object) (cf, error) {
	v := cf{scale: 1}
	for _, n := range []string{"_FillValue", "missing_value"} {
		if a := o.Attrs[n]; len(a.Nums) > 0 {
			v.fill, v.hasFill = a.Nums[0], true
			break
		}
	}
	if a := o.Attrs["scale_factor"]; len(a.Nums) > 0 {
		v.scale, v.packed = a.Nums[0], true
	}
	if a := o.Attrs["add_offset"]; len(a.Nums) > 0 {
		v.off, v.packed = a.Nums[0], true
	}
	if math.IsNaN(v.scale) || math.IsInf(v.scale, 0) || math.IsNaN(v.off) || math.IsInf(v.off, 0) {
		return v, fmt.Errorf("%s: %s: scale_factor %v / add_offset %v is not a finite number", f.path, o.Path, v.scale, v.off)
	}
	v.units = o.AttrString("units")
	return v, nil
}

// apply returns the value map of the CF attributes: packed values are
// unpacked, the fill value is kept as it is (the cube's no-data value).
func (v cf) apply() func(float64) float64 {
	if !v.packed {
		return nil
	}
	return func(x float64) float64 {
		if v.hasFill && x == v.fill {
			return x
		}
		return x*v.scale + v.off
	}
}

// bandVector finds a per-band 1-D dataset: for wavelengths, the band
// dimension's coordinate variable when it has one; else a dataset with one of names and
// B values, nearest to o (same group first).
func (f *file) bandVector(o *hdf5.Object, bandAxis, b int, names ...string) (*hdf5.Object, []float64, error) {
	var cands []*hdf5.Object
	if slices.Contains(names, "wavelengths") && bandAxis >= 0 {
		if d := f.dimScale(o, bandAxis); d != nil && isBandName(d.Name) && !strings.HasPrefix(d.AttrString("NAME"), "This is a netCDF dimension") {
			cands = append(cands, d)
		}
	}
	dir := o.Path[:strings.LastIndexByte(o.Path, '/')+1]
	for _, same := range []bool{true, false} {
		for _, x := range f.all {
			if x.Kind != hdf5.KindDataset || len(x.Dims) != 1 || !x.Type.Numeric() {
				continue
			}
			if (strings.HasPrefix(x.Path, dir) && !strings.Contains(x.Path[len(dir):], "/")) != same {
				continue
			}
			if slices.Contains(names, strings.ToLower(x.Name)) {
				cands = append(cands, x)
			}
		}
	}
	for _, x := range cands {
		if len(x.Dims) == 1 && x.Dims[0] == uint64(b) {
			v, err := f.readFloats(x)
			return x, v, err
		}
	}
	if len(cands) > 0 {
		x := cands[0]
		return x, nil, fmt.Errorf("%s: %s holds %v values for %d bands", f.path, x.Path, x.Dims, b)
	}
	return nil, nil, nil
}

// short32 returns a float32 value as its shortest decimal (8.6, not
// 8.600000381469727), for metadata stored as float32.
func short32(v float64) float64 {
	r, err := strconv.ParseFloat(strconv.FormatFloat(v, 'g', -1, 32), 64)
	if err != nil {
		return v
	}
	return r
}

func unitsName(u string) string {
	switch strings.ToLower(strings.TrimSpace(u)) {
	case "nm", "nanometers", "nanometer", "nanometres", "nanometre":
		return "Nanometers"
	case "um", "µm", "micrometers", "micrometer", "micrometres", "micrometre", "micron", "microns":
		return "Micrometers"
	}
	return u
}

// ReadHDF5 reads a cube from an HDF5 or NetCDF-4 file (see the package
// documentation).
func ReadHDF5(path string, opt hsi.ReadOptions) (*hsi.Cube, hsi.SourceInfo, error) {
	f, err := open(path)
	if err != nil {
		return nil, hsi.SourceInfo{}, err
	}
	defer f.close()
	return readFile(f, opt, nil)
}

// readFile is ReadHDF5 of an open file; with rows set, a cube stored in
// one dataset is not read but planned in *rows (cubeOf), for OpenRows.
func readFile(f *file, opt hsi.ReadOptions, rows *rowPlan) (*hsi.Cube, hsi.SourceInfo, error) {
	path := f.path
	if o := emitCube(f); o != nil && (opt.Var == "" || strings.Trim(opt.Var, "/") == o.Name) {
		if opt.Ortho {
			rows = nil // read whole: the GLT picks the swath's pixels
		}
		return readEMIT(f, o, opt, rows)
	}
	if isPRISMA(f) && opt.Var == "" {
		return readPRISMA(f, opt)
	}
	if site := neonSite(f); site != "" && (opt.Var == "" || "/"+strings.Trim(opt.Var, "/") == site+"/"+neonCube) {
		return readNEON(f, site, opt)
	}
	if opt.Ortho {
		return nil, hsi.SourceInfo{}, fmt.Errorf("%s: -ortho applies to EMIT granules (a swath with a geometry lookup table)", path)
	}
	return readGeneric(f, opt, rows)
}

func readGeneric(f *file, opt hsi.ReadOptions, rows *rowPlan) (*hsi.Cube, hsi.SourceInfo, error) {
	info := hsi.SourceInfo{Format: "HDF5"}
	if f.root.Attrs["_NCProperties"].Parsed || hasNetCDFDims(f) {
		info.Format = "NetCDF-4"
	}
	var o *hdf5.Object
	if opt.Var != "" {
		if o = f.get(opt.Var); o == nil {
			return nil, info, fmt.Errorf("%s: no dataset %q (datasets: %s)", f.path, opt.Var, strings.Join(f.datasets(), ", "))
		}
	} else if o = f.largest3D(); o == nil {
		return nil, info, fmt.Errorf("%s: no numeric 2-D or 3-D dataset (datasets: %s)", f.path, strings.Join(f.datasets(), ", "))
	}
	info.Variable = o.Path
	info.DataType = o.Type.String()
	layout, how, err := f.layoutOf(o, opt.Layout)
	if err != nil {
		return nil, info, err
	}
	info.Layout = layout
	det := []string{how, o.LayoutName()}
	if fl := o.FilterNames(); fl != "" {
		det = append(det, fl)
	}
	info.Detail = strings.Join(det, ", ")
	v, err := f.cfOf(o)
	if err != nil {
		return nil, info, err
	}
	c, err := f.cubeOf(o, layout, v.apply(), rows)
	if err != nil {
		return nil, info, err
	}
	if v.hasFill {
		c.Meta.DataIgnore, c.Meta.HasDataIgnore = v.fill, true
	}
	bandAxis := -1
	if len(o.Dims) == 3 {
		bandAxis = strings.IndexByte(layout, 'B')
	}
	if err := f.bandMeta(c, o, bandAxis); err != nil {
		return nil, info, err
	}
	return c, info, nil
}

// bandMeta fills wavelengths, FWHM and bad bands from per-band datasets.
func (f *file) bandMeta(c *hsi.Cube, o *hdf5.Object, bandAxis int) error {
	wo, wl, err := f.bandVector(o, bandAxis, c.B, "wavelengths", "wavelength", "wavelength_centers", "wl")
	if err != nil {
		return err
	}
	if wl != nil {
		c.Meta.Wavelengths = wl
		c.Meta.WavelengthUnits = unitsName(wo.AttrString("units"))
		if c.Meta.WavelengthUnits == "" {
			c.Meta.WavelengthUnits = "Nanometers"
		}
	}
	if _, fw, err := f.bandVector(o, -1, c.B, "fwhm", "bandwidth", "bandwidths"); err != nil {
		return err
	} else if fw != nil {
		c.Meta.FWHM = fw
	}
	if _, good, err := f.bandVector(o, -1, c.B, "good_wavelengths", "bbl", "good_bands"); err != nil {
		return err
	} else if good != nil {
		c.Meta.BadBands = make([]bool, c.B)
		for i, g := range good {
			c.Meta.BadBands[i] = g == 0
		}
	}
	return nil
}

func hasNetCDFDims(f *file) bool {
	for _, o := range f.all {
		if _, ok := o.Attrs["_Netcdf4Dimid"]; ok {
			return true
		}
	}
	return false
}

func (f *file) datasets() []string {
	var out []string
	for _, o := range f.all {
		if o.Kind == hdf5.KindDataset && o.Type.Numeric() && len(o.Dims) >= 2 {
			out = append(out, fmt.Sprintf("%s %v", o.Path, o.Dims))
		}
	}
	if len(out) == 0 {
		return []string{"none"}
	}
	return out
}
