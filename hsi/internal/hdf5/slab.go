package hdf5

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)

// Slab reads the elements of a numeric dataset whose index along one axis
// lies in a range, a range at a time: the rows of an image stored in a
// dataset, without reading the others. A contiguous dataset is read by
// seeking to the runs of the range; a chunked one decodes the chunks that
// intersect the range (its chunk index is walked once, by Object.Slab, and
// kept: a few words a chunk). A Slab is not safe for concurrent use.
//
// Run tells which ranges of the axis hold no written element: a dataset
// declared large and written in part (or not at all) is then read only
// where it was written, the rest being its fill value (see Object.Fill).
type Slab struct {
	o      *Object
	axis   int
	cr     *chunkReader // chunked and written; nil otherwise
	chunks []chunkJob   // every chunk cr's index lists
	// written lists, in increasing order, the chunk rows along axis
	// (chunk origin / Step) where cr's index lists at least one chunk.
	written []uint64
	// none is true when no element was ever written (storage never
	// allocated).
	none bool
}

// Slab prepares reads of o along axis (0 <= axis < rank): it checks the
// layout and walks the chunk index of a chunked dataset.
func (o *Object) Slab(axis int) (*Slab, error) {
	if o.Kind != KindDataset {
		return nil, fmt.Errorf("hdf5: %s is not a dataset", o.Name)
	}
	if !o.Type.Numeric() {
		return nil, fmt.Errorf("hdf5: dataset %s has type %s, not a number", o.Name, o.Type)
	}
	if axis < 0 || axis >= len(o.Dims) {
		return nil, fmt.Errorf("hdf5: dataset %s of rank %d has no axis %d", o.Name, len(o.Dims), axis)
	}
	n, err := o.Numel()
	if err != nil {
		return nil, err
	}
	if n > math.MaxInt64/uint64(o.Type.Size) {
		return nil, fmt.Errorf("hdf5: dataset %s is too large", o.Name)
	}
	s := &Slab{o: o, axis: axis}
	switch o.layout.class {
	case layoutCompact:
		if uint64(len(o.layout.compact)) < n*uint64(o.Type.Size) {
			return nil, fmt.Errorf("hdf5: dataset %s: compact data holds %d bytes, want %d", o.Name, len(o.layout.compact), n*uint64(o.Type.Size))
		}
	case layoutContiguous:
		total := n * uint64(o.Type.Size)
		if o.f.undef(o.layout.addr) {
			s.none = true
			break
		}
		if o.layout.version >= 3 && o.layout.size < total {
			return nil, fmt.Errorf("hdf5: dataset %s: contiguous storage of %d bytes, want %d", o.Name, o.layout.size, total)
		}
		if _, err := o.f.abs(o.layout.addr, int64(total)); err != nil {
			return nil, fmt.Errorf("hdf5: dataset %s: %w", o.Name, err)
		}
	case layoutChunked:
		cr, err := o.chunkReader(nil)
		if err != nil || cr == nil {
			s.none = true
			return s, err
		}
		cr.list = &s.chunks
		if err := cr.walk(o.layout); err != nil {
			return nil, err
		}
		cr.list, cr.seen = nil, nil
		s.cr = cr
		// in the order of their chunk rows, for rowChunks
		slices.SortStableFunc(s.chunks, func(a, b chunkJob) int { return cmp.Compare(a.org[axis], b.org[axis]) })
		for _, j := range s.chunks {
			s.written = append(s.written, j.org[axis]/cr.chunk[axis])
		}
		slices.Sort(s.written)
		s.written = slices.Compact(s.written)
	default:
		return nil, fmt.Errorf("hdf5: dataset %s: layout class %d", o.Name, o.layout.class)
	}
	return s, nil
}

// Step is the extent of a chunk along the slab's axis (1 for a dataset
// that is not chunked): reading ranges aligned to it decodes each chunk
// once.
func (s *Slab) Step() uint64 {
	if s.cr == nil {
		return 1
	}
	return s.cr.chunk[s.axis]
}

// Run returns the end of the run of the axis that starts at index lo
// (lo < the axis' extent): [lo, hi) is either written (each of its chunk
// rows holds at least one chunk the file wrote: Read reports elements of
// it, maybe not all) or unwritten (no element of it was ever written:
// Read reports none; they hold the fill value, Object.Fill). A dataset
// that is not chunked is one run, written or not.
func (s *Slab) Run(lo uint64) (hi uint64, written bool) {
	n := s.o.Dims[s.axis]
	if s.cr == nil {
		return n, !s.none
	}
	step := s.cr.chunk[s.axis]
	return runOf(s.written, lo/step, step, n)
}

// rowChunks returns the chunks whose extent along the slab's axis meets
// [lo, hi) (s.chunks is in the order of their chunk rows).
func (s *Slab) rowChunks(lo, hi uint64) []chunkJob {
	step := s.cr.chunk[s.axis]
	at := func(v uint64) int {
		i, _ := slices.BinarySearchFunc(s.chunks, v, func(j chunkJob, v uint64) int { return cmp.Compare(j.org[s.axis], v) })
		return i
	}
	return s.chunks[at(lo/step*step):at(hi)]
}

// Extent is the extent of a chunk along axis k (0 for a dataset that is
// not chunked, or never written).
func (s *Slab) Extent(k int) uint64 {
	if s.cr == nil {
		return 0
	}
	return s.cr.chunk[k]
}

// RunIn is Run along another axis, k, within [lo, hi) of the slab's axis:
// [lo2, hi2) is either written (each of its chunks along k holds, in
// [lo, hi), at least one chunk the file wrote) or unwritten (no element
// of it in [lo, hi) was ever written). A dataset that is not chunked is
// one run; an axis k that is not another axis of the dataset (or lo2
// past its end) gives hi2 == lo2.
func (s *Slab) RunIn(lo, hi uint64, k int, lo2 uint64) (hi2 uint64, written bool) {
	if k < 0 || k >= len(s.o.Dims) || k == s.axis || lo2 >= s.o.Dims[k] {
		return lo2, true // no run: the caller reads
	}
	n := s.o.Dims[k]
	if s.cr == nil {
		return n, !s.none
	}
	var cols []uint64 // chunk indices along k of the chunks in [lo, hi)
	step2 := s.cr.chunk[k]
	for _, j := range s.rowChunks(lo, hi) {
		cols = append(cols, j.org[k]/step2)
	}
	slices.Sort(cols)
	return runOf(slices.Compact(cols), lo2/step2, step2, n)
}

// runOf is the run from chunk index c of a sorted list of written chunk
// indices, in elements (chunks of step, an axis of n).
func runOf(written []uint64, c, step, n uint64) (hi uint64, ok bool) {
	i, found := slices.BinarySearch(written, c)
	if !found {
		if i == len(written) {
			return n, false
		}
		return min(n, written[i]*step), false
	}
	for i+1 < len(written) && written[i+1] == written[i]+1 {
		i++
	}
	return min(n, (written[i]+1)*step), true
}

// Read delivers to fn, as Object.Read does (the C-order index of a run's
// first element and its raw bytes, valid during the call, in no
// particular order), the elements whose index along the slab's axis lies
// in [lo, hi). Elements in chunks never written are not reported.
func (s *Slab) Read(lo, hi uint64, fn func(start uint64, raw []byte) error) error {
	return s.ReadWindow(lo, hi, -1, 0, 0, fn)
}

// ReadWindow is Read of the elements whose index along axis k lies in
// [lo2, hi2) too (k -1: all), so that a window of a wide chunked dataset
// decodes only the chunks it crosses. A dataset that is not chunked has no
// window read (an error).
func (s *Slab) ReadWindow(lo, hi uint64, k int, lo2, hi2 uint64, fn func(start uint64, raw []byte) error) error {
	o := s.o
	if lo >= hi || hi > o.Dims[s.axis] {
		return fmt.Errorf("hdf5: dataset %s: range [%d, %d) of axis %d outside %v", o.Name, lo, hi, s.axis, o.Dims)
	}
	if k >= 0 && (k >= len(o.Dims) || k == s.axis || lo2 >= hi2 || hi2 > o.Dims[k]) {
		return fmt.Errorf("hdf5: dataset %s: range [%d, %d) of axis %d outside %v", o.Name, lo2, hi2, k, o.Dims)
	}
	if cr := s.cr; cr != nil {
		cr.fn, cr.axis, cr.lo, cr.hi, cr.axis2, cr.lo2, cr.hi2 = fn, s.axis, lo, hi, k, lo2, hi2
		defer func() { cr.fn, cr.axis2 = nil, -1 }()
		var jobs []chunkJob
		for _, j := range s.rowChunks(lo, hi) {
			if k < 0 || j.org[k] < hi2 && j.org[k]+cr.chunk[k] > lo2 {
				jobs = append(jobs, j)
			}
		}
		walk := func() error {
			for _, j := range jobs {
				if err := cr.deliver(j); err != nil {
					return err
				}
			}
			return nil
		}
		if len(jobs) >= 2 {
			if w := cr.parallelDecoders(); w >= 2 {
				return cr.readParallel(w, walk)
			}
		}
		return walk()
	}
	if k >= 0 {
		if s.none {
			return nil // never written: nothing to deliver
		}
		return fmt.Errorf("hdf5: dataset %s: a window read needs a chunked dataset", o.Name)
	}
	es := uint64(o.Type.Size)
	outer, inner := uint64(1), uint64(1)
	for k, d := range o.Dims {
		if k < s.axis {
			outer *= d
		} else if k > s.axis {
			inner *= d
		}
	}
	stride := o.Dims[s.axis] * inner // elements from one outer index to the next
	span := (hi - lo) * inner        // elements of the range in each
	switch o.layout.class {
	case layoutCompact:
		b := o.layout.compact
		for i := uint64(0); i < outer; i++ {
			start := i*stride + lo*inner
			if err := fn(start, b[start*es:(start+span)*es]); err != nil {
				return err
			}
		}
		return nil
	case layoutContiguous:
		if o.f.undef(o.layout.addr) {
			return nil
		}
	default:
		return nil // a chunked dataset never written
	}
	step := uint64(contiguousStep) / es * es
	// Runs shorter than a step are read several at a time (with the gaps
	// between them) when that takes one read of at most a step.
	per := uint64(1)
	if span*es < step {
		per = max(1, (step/es-span)/stride+1)
	}
	buf := make([]byte, min(step, max((per-1)*stride+span, span)*es))
	read := func(off, n uint64) ([]byte, error) { // n bytes at byte off of the data
		b := buf[:n]
		abs, err := o.f.abs(o.layout.addr+off, int64(n))
		if err == nil {
			_, err = o.f.r.ReadAt(b, abs)
		}
		if err != nil {
			return nil, fmt.Errorf("hdf5: dataset %s: %w", o.Name, err)
		}
		return b, nil
	}
	for i := uint64(0); i < outer; {
		start := i*stride + lo*inner
		if per == 1 {
			for off := uint64(0); off < span*es; off += step {
				m := min(step, span*es-off)
				b, err := read(start*es+off, m)
				if err != nil {
					return err
				}
				if err := fn(start+off/es, b); err != nil {
					return err
				}
			}
			i++
			continue
		}
		m := min(per, outer-i)
		b, err := read(start*es, ((m-1)*stride+span)*es)
		if err != nil {
			return err
		}
		for j := uint64(0); j < m; j++ {
			if err := fn(start+j*stride, b[j*stride*es:(j*stride+span)*es]); err != nil {
				return err
			}
		}
		i += m
	}
	return nil
}
