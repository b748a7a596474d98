package products

import (
	"fmt"
	"math"
	"strings"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/internal/hdf5"
	"github.com/omnihsr/omnihsr/internal/memlimit"
)

// BandStats is the per-band root mean square of an HDF5 or NetCDF-4 cube.
type BandStats struct {
	// RMS holds each band's root mean square over its valid samples.
	RMS []float64
	// Count holds the number of valid samples of each band.
	Count []int
	// H and W are the rows and columns a ReadHDF5 with the same options
	// gives (for EMIT with ReadOptions.Ortho, the GLT grid's).
	H, W int
}

// BandRMS returns the root mean square of each band of the cube ReadHDF5
// reads from path with opt, over the valid samples: neither the no-data
// value (CF _FillValue, EMIT's -9999) nor NaN or infinite. The dataset is
// streamed chunk by chunk, so memory is one chunk, not the cube (an EMIT
// uncertainty granule is 1.8 GB as float32). For an EMIT granule with
// opt.Ortho the statistic is over the swath, where each measured pixel
// counts once (the GLT repeats some of them in the grid).
func BandRMS(path string, opt hsi.ReadOptions) (BandStats, error) {
	f, err := open(path)
	if err != nil {
		return BandStats{}, err
	}
	defer f.close()
	o := emitCube(f)
	emit := o != nil && (opt.Var == "" || strings.Trim(opt.Var, "/") == o.Name)
	switch {
	case emit:
	case isPRISMA(f) && opt.Var == "":
		c, _, err := readPRISMA(f, opt)
		if err != nil {
			return BandStats{}, err
		}
		return cubeRMS(c), nil
	case opt.Ortho:
		return BandStats{}, fmt.Errorf("%s: -ortho applies to EMIT granules (a swath with a geometry lookup table)", path)
	case opt.Var != "":
		if o = f.get(opt.Var); o == nil {
			return BandStats{}, fmt.Errorf("%s: no dataset %q (datasets: %s)", f.path, opt.Var, strings.Join(f.datasets(), ", "))
		}
	default:
		if o = f.largest3D(); o == nil {
			return BandStats{}, fmt.Errorf("%s: no numeric 2-D or 3-D dataset (datasets: %s)", f.path, strings.Join(f.datasets(), ", "))
		}
	}
	if o.Kind != hdf5.KindDataset || !o.Type.Numeric() || len(o.Dims) < 2 || len(o.Dims) > 3 {
		return BandStats{}, fmt.Errorf("%s: %s is not a numeric 2-D or 3-D dataset", f.path, o.Path)
	}
	layout, _, err := f.layoutOf(o, opt.Layout)
	if err != nil {
		return BandStats{}, err
	}
	dims := o.Dims
	if len(dims) == 2 {
		dims, layout = []uint64{dims[0], dims[1], 1}, "HWB"
	}
	v, err := f.cfOf(o)
	if err != nil {
		return BandStats{}, err
	}
	if emit && !v.hasFill {
		v.fill, v.hasFill = emitFill, true
	}
	unpack := v.apply()
	var st BandStats
	var size [3]int
	for k := range 3 {
		if dims[k] == 0 || dims[k] > math.MaxInt32 {
			return BandStats{}, fmt.Errorf("%s: %s: dimension %d is %d", f.path, o.Path, k, dims[k])
		}
		size[strings.IndexByte("HWB", layout[k])] = int(dims[k])
	}
	st.H, st.W = size[0], size[1]
	if emit && opt.Ortho {
		g := f.get("/location/glt_x")
		if len(g.Dims) != 2 {
			return BandStats{}, fmt.Errorf("%s: glt_x has %d dimensions, want 2", f.path, len(g.Dims))
		}
		st.H, st.W = int(g.Dims[0]), int(g.Dims[1])
	}
	bandAxis := strings.IndexByte(layout, 'B')
	if err := memlimit.Check(16*uint64(size[2]), fmt.Sprintf("the sums of %d bands", size[2])); err != nil {
		return BandStats{}, fmt.Errorf("%s: %w", f.path, err)
	}
	sum := make([]float64, size[2])
	st.Count = make([]int, size[2])
	d1, d2 := dims[1], dims[2]
	total := dims[0] * d1 * d2
	var buf []float64
	err = o.Read(func(start uint64, raw []byte) error {
		k := uint64(len(raw) / o.Type.Size)
		if start > total || k > total-start {
			return fmt.Errorf("hdf5: dataset %s: run outside the dataset", o.Path)
		}
		if cap(buf) < int(k) {
			buf = make([]float64, k)
		}
		x := buf[:k]
		o.Type.Decode(raw, x)
		idx := [3]uint64{start / (d1 * d2), start % (d1 * d2) / d2, start % d2}
		for _, s := range x {
			valid := !(v.hasFill && s == v.fill)
			if valid && unpack != nil {
				s = unpack(s)
			}
			if valid && !math.IsNaN(s) && !math.IsInf(s, 0) {
				s = float64(float32(s)) // as the cube holds it
				b := idx[bandAxis]
				sum[b] += s * s
				st.Count[b]++
			}
			if idx[2]++; idx[2] == d2 {
				idx[2] = 0
				if idx[1]++; idx[1] == d1 {
					idx[1] = 0
					idx[0]++
				}
			}
		}
		return nil
	})
	if err != nil {
		return BandStats{}, fmt.Errorf("%s: %w", f.path, err)
	}
	st.RMS = sum
	for b := range sum {
		if st.Count[b] > 0 {
			st.RMS[b] = math.Sqrt(sum[b] / float64(st.Count[b]))
		}
	}
	return st, nil
}

// cubeRMS is BandRMS of a cube in memory.
func cubeRMS(c *hsi.Cube) BandStats {
	st := BandStats{RMS: make([]float64, c.B), Count: make([]int, c.B), H: c.H, W: c.W}
	for i, v := range c.Data {
		x := float64(v)
		if math.IsNaN(x) || math.IsInf(x, 0) || (c.Meta.HasDataIgnore && x == c.Meta.DataIgnore) {
			continue
		}
		st.RMS[i%c.B] += x * x
		st.Count[i%c.B]++
	}
	for b := range st.RMS {
		if st.Count[b] > 0 {
			st.RMS[b] = math.Sqrt(st.RMS[b] / float64(st.Count[b]))
		}
	}
	return st
}
