package products

import (
	"fmt"
	"strings"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/internal/hdf5"
	"github.com/omnihsr/omnihsr/hsi/internal/raw"
	"github.com/omnihsr/omnihsr/internal/memlimit"
)

// rowPlan is what readFile, asked for the rows, found of
// a cube stored in one dataset: the dataset, its stored axes and its value
// map.
type rowPlan struct {
	o      *hdf5.Object
	layout string
	fn     func(float64) float64
}

// OpenRows opens the HDF5 or NetCDF-4 file at path for reading the cube
// ReadHDF5 reads with opt a range of rows at a time. The header (shape,
// metadata, description) is ReadHDF5's and ReadRows gives its values,
// non-finite ones included.
//
// A cube stored in one dataset streams: a generic HDF5 or NetCDF-4 dataset
// and an EMIT swath (its reflectance or uncertainty). ReadRows reads the
// rows asked: from a contiguous dataset by seeking to them, from a chunked
// one by decoding the chunks that hold them, keeping the decoded rows of
// the last chunk row (the chunk's height along the row axis, the whole
// width and bands: checked against the memory limit) for the next call.
// The products assembled from several datasets or remapped are read whole
// by OpenRows, as ReadHDF5 reads them, and served from memory: PRISMA
// (the VNIR and SWIR cubes joined, scaled, their overlap dropped), NEON
// (reflectance scaled and its bad-band windows looked up) and an EMIT
// granule with -ortho (every output pixel picked through the GLT from
// anywhere in the swath).
func OpenRows(path string, opt hsi.ReadOptions) (hsi.RowReader, error) {
	f, err := open(path)
	if err != nil {
		return nil, err
	}
	var plan rowPlan
	c, info, err := readFile(f, opt, &plan)
	if err != nil {
		f.close()
		return nil, err
	}
	hd := hsi.Header{H: c.H, W: c.W, B: c.B, Meta: c.Meta, Info: info}
	if plan.o == nil { // read whole
		f.close()
		return &wholeRows{c: c, hd: hd, path: path}, nil
	}
	r := &hdf5Rows{f: f, hd: hd, plan: plan}
	if err := r.prepare(); err != nil {
		f.close()
		return nil, err
	}
	return r, nil
}

// hdf5Rows streams the rows of a cube stored in one dataset.
type hdf5Rows struct {
	f    *file
	hd   hsi.Header
	plan rowPlan
	slab *hdf5.Slab
	step int // rows a chunk holds (1: not chunked along the rows)
	dec  *runDecoder
	// fill is the sample the elements never written read as (fillOf)
	fill float32
	// the stored axes (H, W, B; HWB for a 2-D dataset) and dimensions
	// (rank 3), and the stored axes of rows and columns
	layout       string
	dims         []uint64
	hAxis, wAxis int
	// rows [c0, c1) decoded: the last chunk row read in part
	cache  []float32
	c0, c1 int
}

func (r *hdf5Rows) prepare() error {
	o, layout := r.plan.o, r.plan.layout
	dims := o.Dims
	if len(dims) == 2 {
		dims = []uint64{dims[0], dims[1], 1}
		layout = "HWB"
	}
	var stride [3]int
	for k := 0; k < 3; k++ {
		switch layout[k] {
		case 'H':
			stride[k] = r.hd.W * r.hd.B
		case 'W':
			stride[k] = r.hd.B
		case 'B':
			stride[k] = 1
		}
	}
	r.dec = newRunDecoder(o, layout, dims, stride, r.plan.fn)
	fill, err := fillOf(o, r.plan.fn)
	if err != nil {
		return fmt.Errorf("%s: %w", r.f.path, err)
	}
	r.fill = fill
	r.layout, r.dims = layout, dims
	r.hAxis, r.wAxis = strings.IndexByte(layout, 'H'), strings.IndexByte(layout, 'W')
	s, err := o.Slab(r.hAxis)
	if err != nil {
		return fmt.Errorf("%s: %w", r.f.path, err)
	}
	r.slab = s
	r.step = int(min(s.Step(), uint64(r.hd.H)))
	return nil
}

func (r *hdf5Rows) Header() hsi.Header { return r.hd }

func (r *hdf5Rows) ReadRows(y0, y1 int, dst []float32) error {
	W, B := r.hd.W, r.hd.B
	if err := raw.CheckRows(r.f.path, r.hd.H, W, B, y0, y1, len(dst)); err != nil {
		return err
	}
	if r.slab == nil {
		return fmt.Errorf("%s: read after Close", r.f.path)
	}
	row := W * B
	if r.step == 1 {
		return r.read(y0, y1, dst)
	}
	for y := y0; y < y1; {
		b0 := y / r.step * r.step
		b1 := min(b0+r.step, r.hd.H)
		if y == b0 && b1 <= y1 { // a whole chunk row: straight into dst
			if err := r.read(b0, b1, dst[(b0-y0)*row:(b1-y0)*row]); err != nil {
				return err
			}
			y = b1
			continue
		}
		if r.c0 != b0 || r.c1 != b1 {
			if r.cache == nil {
				n := r.step * row
				if err := memlimit.Check(uint64(n)*4, fmt.Sprintf("%s: a chunk row of %d x %d x %d samples", r.f.path, r.step, W, B)); err != nil {
					return err
				}
				r.cache = make([]float32, n)
			}
			r.c0, r.c1 = 0, 0
			if err := r.read(b0, b1, r.cache[:(b1-b0)*row]); err != nil {
				return err
			}
			r.c0, r.c1 = b0, b1
		}
		e := min(b1, y1)
		copy(dst[(y-y0)*row:(e-y0)*row], r.cache[(y-b0)*row:(e-b0)*row])
		y = e
	}
	return nil
}

// RowRun returns the end of the run of rows that starts at row y: rows
// [y, end) are either written, in part at least (ReadRows reads them from
// the file), or hold no element the file ever wrote (written false), so
// that every sample of them is fill, the dataset's fill value as ReadRows
// gives it (hdf5.Object.Fill, mapped as a stored value is; 0 when the file
// defines none), and a caller may count them without reading. A dataset
// declared large and never written (a 1.4 KB file may declare 179 TiB) is
// then described at once.
func (r *hdf5Rows) RowRun(y int) (end int, written bool, fill float32) {
	if y < 0 || y >= r.hd.H || r.slab == nil {
		return y, true, r.fill
	}
	hi, w := r.slab.Run(uint64(y))
	return int(min(hi, uint64(r.hd.H))), w, r.fill
}

// ChunkSize returns the rows and columns of a chunk of the dataset (0, 0
// when it is not chunked): the grain of ColRun and of a ReadWindow that
// decodes each chunk once.
func (r *hdf5Rows) ChunkSize() (rows, cols int) {
	if r.slab == nil {
		return 0, 0
	}
	return int(r.slab.Extent(r.hAxis)), int(r.slab.Extent(r.wAxis))
}

// ColRun is RowRun along the columns within rows [y0, y1): columns [x,
// end) of those rows are either written, in part at least, or hold no
// element the file ever wrote (written false: all fill).
func (r *hdf5Rows) ColRun(y0, y1, x int) (end int, written bool, fill float32) {
	if y0 < 0 || y0 >= y1 || y1 > r.hd.H || x < 0 || x >= r.hd.W || r.slab == nil {
		return x, true, r.fill
	}
	hi, w := r.slab.RunIn(uint64(y0), uint64(y1), r.wAxis, uint64(x))
	return int(min(hi, uint64(r.hd.W))), w, r.fill
}

// ReadWindow fills dst with columns [x0, x1) of rows [y0, y1) ((y1-y0) x
// (x1-x0) x B values, pixel-interleaved) of a chunked dataset, decoding
// only the chunks the window crosses and keeping nothing: a row wider
// than memory allows is read in pieces. The elements never written hold
// the fill value, as in ReadRows.
func (r *hdf5Rows) ReadWindow(y0, y1, x0, x1 int, dst []float32) error {
	W, B := r.hd.W, r.hd.B
	if y0 < 0 || y0 >= y1 || y1 > r.hd.H || x0 < 0 || x0 >= x1 || x1 > W || len(dst) != (y1-y0)*(x1-x0)*B {
		return fmt.Errorf("%s: window [%d, %d) x [%d, %d) outside the image or not the destination's %d values", r.f.path, y0, y1, x0, x1, len(dst))
	}
	if r.slab == nil {
		return fmt.Errorf("%s: read after Close", r.f.path)
	}
	ww := x1 - x0
	var stride [3]int
	for k := 0; k < 3; k++ {
		switch r.layout[k] {
		case 'H':
			stride[k] = ww * B
		case 'W':
			stride[k] = B
		case 'B':
			stride[k] = 1
		}
	}
	dec := newRunDecoder(r.plan.o, r.layout, r.dims, stride, r.plan.fn)
	fillRows(dst, r.fill)
	if err := r.slab.ReadWindow(uint64(y0), uint64(y1), r.wAxis, uint64(x0), uint64(x1), dec.into(dst, y0*ww*B+x0*B)); err != nil {
		return fmt.Errorf("%s: %w", r.f.path, err)
	}
	return nil
}

// read decodes rows [y0, y1) into out; the elements never written hold
// the fill value, as in the cube ReadHDF5 reads.
func (r *hdf5Rows) read(y0, y1 int, out []float32) error {
	fillRows(out, r.fill)
	if err := r.slab.Read(uint64(y0), uint64(y1), r.dec.into(out, y0*r.hd.W*r.hd.B)); err != nil {
		return fmt.Errorf("%s: %w", r.f.path, err)
	}
	return nil
}

func (r *hdf5Rows) Close() error {
	if r.slab == nil {
		return nil
	}
	r.slab, r.cache = nil, nil
	r.f.close()
	return nil
}

// wholeRows serves the rows of a cube read whole.
type wholeRows struct {
	c    *hsi.Cube
	hd   hsi.Header
	path string
}

func (r *wholeRows) Header() hsi.Header { return r.hd }

func (r *wholeRows) ReadRows(y0, y1 int, dst []float32) error {
	c := r.c
	if err := raw.CheckRows(r.path, r.hd.H, r.hd.W, r.hd.B, y0, y1, len(dst)); err != nil {
		return err
	}
	if c == nil {
		return fmt.Errorf("%s: read after Close", r.path)
	}
	copy(dst, c.Data[y0*c.W*c.B:y1*c.W*c.B])
	return nil
}

func (r *wholeRows) Close() error { r.c = nil; return nil }

// TakeCube hands the cube over (formats.ReadAll, which reads a Source
// whole without a copy), nil once it has; no row is served after.
func (r *wholeRows) TakeCube() *hsi.Cube { c := r.c; r.c = nil; return c }

// Streams reports false: the cube was read whole.
func (r *wholeRows) Streams() bool { return false }
