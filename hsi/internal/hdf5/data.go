package hdf5

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/klauspost/compress/zlib"

	"github.com/omnihsr/omnihsr/internal/memlimit"
)

// Layout classes and chunk index types.
const (
	layoutCompact    = 0
	layoutContiguous = 1
	layoutChunked    = 2

	indexBTree1    = 0
	indexSingle    = 1
	indexImplicit  = 2
	indexFixedArr  = 3
	indexExtArr    = 4
	indexBTree2    = 5
	maxChunkBytes  = 1 << 31
	contiguousStep = 1 << 20
)

type layout struct {
	class   int
	version int
	compact []byte
	addr    uint64
	size    uint64   // contiguous size when known (version 3+)
	chunk   []uint64 // chunk dimensions, with the element-size dimension when present
	index   int

	singleFiltered bool
	singleSize     uint64
	singleMask     uint32
}

func (f *File) parseLayout(b []byte) (layout, error) {
	c := &cursor{b: b}
	l := layout{version: int(c.u8())}
	switch l.version {
	case 1, 2:
		nd := int(c.u8())
		l.class = int(c.u8())
		c.skip(5)
		if nd > maxDims+1 {
			return l, fmt.Errorf("data layout of %d dimensions", nd)
		}
		if l.class != layoutCompact {
			l.addr = c.addr(f.so)
		}
		dims := make([]uint64, nd)
		for i := range dims {
			dims[i] = uint64(c.u32())
		}
		switch l.class {
		case layoutCompact:
			n := int(c.u32())
			l.compact = c.bytes(n)
		case layoutChunked:
			l.chunk = dims
		}
	case 3, 4:
		l.class = int(c.u8())
		switch l.class {
		case layoutCompact:
			n := int(c.u16())
			l.compact = c.bytes(n)
		case layoutContiguous:
			l.addr = c.addr(f.so)
			l.size = c.uN(f.sl)
		case layoutChunked:
			if l.version == 3 {
				nd := int(c.u8())
				if nd > maxDims+1 {
					return l, fmt.Errorf("chunks of %d dimensions", nd)
				}
				l.addr = c.addr(f.so)
				l.chunk = make([]uint64, nd)
				for i := range l.chunk {
					l.chunk[i] = uint64(c.u32())
				}
				l.index = indexBTree1
				break
			}
			flags := c.u8()
			nd := int(c.u8())
			enc := int(c.u8())
			if nd > maxDims+1 || enc < 1 || enc > 8 {
				return l, fmt.Errorf("chunk layout: %d dimensions encoded in %d bytes", nd, enc)
			}
			l.chunk = make([]uint64, nd)
			for i := range l.chunk {
				l.chunk[i] = c.uN(enc)
			}
			l.index = int(c.u8())
			switch l.index {
			case indexSingle:
				if flags&2 != 0 {
					l.singleFiltered = true
					l.singleSize = c.uN(f.sl)
					l.singleMask = c.u32()
				}
			case indexImplicit:
			case indexFixedArr:
				c.skip(1)
			case indexExtArr:
				c.skip(5) // the array's creation parameters, repeated in its header
			case indexBTree2:
				c.skip(6) // node size, split and merge percentages, repeated in the tree's header
			default:
				return l, fmt.Errorf("chunk index type %d is not supported", l.index)
			}
			l.addr = c.addr(f.so)
		default:
			return l, fmt.Errorf("data layout class %d (virtual?) is not supported", l.class)
		}
	default:
		return l, fmt.Errorf("data layout message version %d is not supported", l.version)
	}
	if c.err != nil {
		return l, errors.New("data layout message truncated")
	}
	return l, nil
}

type filter struct {
	id     uint16
	flags  uint16
	params []uint32
}

func parseFilters(b []byte) ([]filter, error) {
	c := &cursor{b: b}
	ver := c.u8()
	n := int(c.u8())
	if ver == 1 {
		c.skip(6)
	} else if ver != 2 {
		return nil, fmt.Errorf("filter pipeline version %d is not supported", ver)
	}
	if n > 32 {
		return nil, fmt.Errorf("filter pipeline of %d filters", n)
	}
	out := make([]filter, 0, n)
	for i := 0; i < n; i++ {
		var fl filter
		fl.id = c.u16()
		nlen := 0
		if ver == 1 || fl.id >= 256 {
			nlen = int(c.u16())
		}
		fl.flags = c.u16()
		nv := int(c.u16())
		if ver == 1 {
			c.skip(nlen) // already padded to 8
		} else {
			c.skip(nlen)
		}
		if nv > 256 {
			return nil, fmt.Errorf("filter with %d parameters", nv)
		}
		for k := 0; k < nv; k++ {
			fl.params = append(fl.params, c.u32())
		}
		if ver == 1 && nv%2 == 1 {
			c.skip(4)
		}
		out = append(out, fl)
	}
	if c.err != nil {
		return nil, errors.New("filter pipeline message truncated")
	}
	return out, nil
}

// FilterNames returns a short description of the filter pipeline ("" if none).
func (o *Object) FilterNames() string {
	var s string
	for i, fl := range o.filters {
		if i > 0 {
			s += "+"
		}
		switch fl.id {
		case 1:
			s += "deflate"
		case 2:
			s += "shuffle"
		case 3:
			s += "fletcher32"
		default:
			s += fmt.Sprintf("filter-%d", fl.id)
		}
	}
	return s
}

// LayoutName returns "compact", "contiguous" or "chunked".
func (o *Object) LayoutName() string {
	switch o.layout.class {
	case layoutCompact:
		return "compact"
	case layoutContiguous:
		return "contiguous"
	}
	return "chunked"
}

// Read streams the elements of a numeric dataset in runs: fn gets the C-order
// linear index of the first element of a run and the raw bytes of the run's
// consecutive elements, in the datatype's byte order (see Datatype.Decode);
// raw is only valid during the call.
// Elements in chunks that were never written are not reported: they hold
// the fill value (Fill). Runs arrive in no particular order.
func (o *Object) Read(fn func(start uint64, raw []byte) error) error {
	if o.Kind != KindDataset {
		return fmt.Errorf("hdf5: %s is not a dataset", o.Name)
	}
	if !o.Type.Numeric() {
		return fmt.Errorf("hdf5: dataset %s has type %s, not a number", o.Name, o.Type)
	}
	return o.readRaw(fn)
}

// readRaw streams the raw elements of a dataset of any fixed-size type, as
// Read does.
func (o *Object) readRaw(fn func(start uint64, raw []byte) error) error {
	n, err := o.Numel()
	if err != nil {
		return err
	}
	if n == 0 {
		return nil
	}
	es := uint64(o.Type.Size)
	if n > math.MaxInt64/es {
		return fmt.Errorf("hdf5: dataset %s is too large", o.Name)
	}
	total := n * es
	f := o.f
	switch o.layout.class {
	case layoutCompact:
		if uint64(len(o.layout.compact)) < total {
			return fmt.Errorf("hdf5: dataset %s: compact data holds %d bytes, want %d", o.Name, len(o.layout.compact), total)
		}
		return fn(0, o.layout.compact[:total])
	case layoutContiguous:
		if f.undef(o.layout.addr) {
			return nil // never written: all fill value
		}
		if o.layout.version >= 3 && o.layout.size < total {
			return fmt.Errorf("hdf5: dataset %s: contiguous storage of %d bytes, want %d", o.Name, o.layout.size, total)
		}
		if _, err := f.abs(o.layout.addr, int64(total)); err != nil {
			return fmt.Errorf("hdf5: dataset %s: %w", o.Name, err)
		}
		step := uint64(contiguousStep) / es * es
		buf := make([]byte, min(step, total))
		for off := uint64(0); off < total; off += step {
			m := min(step, total-off)
			abs, _ := f.abs(o.layout.addr+off, int64(m))
			if _, err := f.r.ReadAt(buf[:m], abs); err != nil {
				return fmt.Errorf("hdf5: dataset %s: %w", o.Name, err)
			}
			if err := fn(off/es, buf[:m]); err != nil {
				return err
			}
		}
		return nil
	case layoutChunked:
		return o.readChunked(fn)
	}
	return fmt.Errorf("hdf5: dataset %s: layout class %d", o.Name, o.layout.class)
}

// Unwritten reports whether the dataset has no storage: contiguous or
// chunked data that was never written, which reads as its fill value
// everywhere, whatever its declared size.
func (o *Object) Unwritten() bool {
	switch o.layout.class {
	case layoutContiguous, layoutChunked:
		return o.f.undef(o.layout.addr)
	}
	return false
}

type chunkReader struct {
	o      *Object
	rank   int
	dims   []uint64
	chunk  []uint64
	grid   []uint64 // chunks along each dimension
	nbytes uint64   // bytes of one unfiltered chunk
	es     uint64
	fn     func(uint64, []byte) error

	buf chunkBuf  // reused from chunk to chunk by a serial read
	par *parallel // decoders of a parallel read (nil: serial)

	// seen holds the grid index of every chunk the index walk has listed:
	// a chunk listed twice (duplicate B-tree keys, as a hostile file may
	// hold by the thousand, all pointing at one compressed chunk) is an
	// error, so that the work of a read is bounded by the dataset's size.
	seen map[uint64]struct{}

	// axis, when not -1, restricts the runs scatter delivers to the
	// elements whose index along it lies in [lo, hi) (a Slab's read), and
	// axis2 likewise to [lo2, hi2) (a Slab's window).
	axis, axis2 int
	lo, hi      uint64
	lo2, hi2    uint64
	// list, when not nil, collects the chunks the index walk finds
	// instead of reading them (a Slab's index).
	list *[]chunkJob
}

// maxSpareChunkBytes bounds a chunk larger than its whole dataset (chunk
// dimensions beyond the extent of a dataset with unlimited dimensions): a
// chunk is decoded whole, so an 8-sample dataset declaring one 2 GiB chunk
// would take 2 GiB (three times, filtered) and seconds to give 32 bytes.
const maxSpareChunkBytes = 64 << 20

// checkChunkSpan refuses a chunk (dimensions ch) of nb bytes that exceeds both
// maxSpareChunkBytes and four times the bytes of o's whole dataset
// (elements of es bytes); HDF5 writers size chunks within the dataset, or
// a little beyond it when a dimension is unlimited.
func checkChunkSpan(o *Object, ch []uint64, nb, es uint64) error {
	if nb <= maxSpareChunkBytes {
		return nil
	}
	ds := es
	for _, d := range o.Dims {
		if d != 0 && ds > math.MaxUint64/4/d {
			return nil // a dataset this large has room for any chunk
		}
		ds *= d
	}
	if nb <= 4*ds {
		return nil
	}
	return fmt.Errorf("hdf5: dataset %s: a chunk of %v elements (%s) for a dataset of %v (%s): a chunk larger than %s may not exceed four times its dataset (a damaged or hostile file)",
		o.Name, ch, memlimit.Format(nb), o.Dims, memlimit.Format(ds), memlimit.Format(maxSpareChunkBytes))
}

func (o *Object) readChunked(fn func(uint64, []byte) error) error {
	cr, err := o.chunkReader(fn)
	if err != nil || cr == nil {
		return err
	}
	l := o.layout
	if l.index != indexSingle {
		if w := cr.parallelDecoders(); w >= 2 {
			return cr.readParallel(w, func() error { return cr.walk(l) })
		}
	}
	return cr.walk(l)
}

// chunkReader checks a chunked dataset's chunk dimensions and returns its
// reader, delivering runs to fn; nil when the dataset was never written.
func (o *Object) chunkReader(fn func(uint64, []byte) error) (*chunkReader, error) {
	rank := len(o.Dims)
	ch := o.layout.chunk
	if len(ch) == rank+1 {
		ch = ch[:rank]
	}
	if len(ch) != rank || rank == 0 {
		return nil, fmt.Errorf("hdf5: dataset %s: chunks of rank %d for data of rank %d", o.Name, len(o.layout.chunk), rank)
	}
	es := uint64(o.Type.Size)
	nb := es
	grid := make([]uint64, rank)
	for i, c := range ch {
		if c == 0 {
			return nil, fmt.Errorf("hdf5: dataset %s: chunk dimension 0", o.Name)
		}
		if nb > maxChunkBytes/c {
			return nil, fmt.Errorf("hdf5: dataset %s: chunk of %v elements is too large", o.Name, ch)
		}
		nb *= c
		grid[i] = (o.Dims[i] + c - 1) / c
	}
	if err := checkChunkSpan(o, ch, nb, es); err != nil {
		return nil, err
	}
	cr := &chunkReader{o: o, rank: rank, dims: o.Dims, chunk: ch, grid: grid, nbytes: nb, es: es, fn: fn, seen: map[uint64]struct{}{}, axis: -1, axis2: -1}
	if o.f.undef(o.layout.addr) {
		return nil, nil
	}
	// A filtered chunk is held three times while it is decoded (stored,
	// inflated, unshuffled): a chunk declared larger than memory allows is
	// refused before any of it is read, whatever the file's size.
	bufs := uint64(1)
	if len(o.filters) > 0 {
		bufs = 3
	}
	if err := memlimit.Check(bufs*nb, fmt.Sprintf("hdf5: dataset %s: a chunk of %v elements of %d bytes", o.Name, ch, es)); err != nil {
		return nil, err
	}
	return cr, nil
}

// walk calls chunkAt for every chunk the dataset's index lists.
func (cr *chunkReader) walk(l layout) error {
	o := cr.o
	f := o.f
	nb := cr.nbytes
	switch l.index {
	case indexBTree1:
		return cr.btree(l.addr, 0, map[uint64]bool{})
	case indexSingle:
		size := nb
		if l.singleFiltered {
			size = l.singleSize
		}
		return cr.chunkAt(l.addr, size, l.singleMask, make([]uint64, cr.rank))
	case indexImplicit:
		nchunks := uint64(1)
		for _, g := range cr.grid {
			nchunks *= g
		}
		if nchunks > uint64(f.size)/nb+1 {
			return fmt.Errorf("hdf5: dataset %s: %d chunks do not fit in the file", o.Name, nchunks)
		}
		for i := uint64(0); i < nchunks; i++ {
			if err := cr.chunkAt(l.addr+i*nb, nb, 0, cr.origin(i)); err != nil {
				return err
			}
		}
		return nil
	case indexFixedArr:
		return cr.fixedArray(l.addr)
	case indexExtArr:
		return cr.extArray(l.addr)
	case indexBTree2:
		return cr.btree2(l.addr)
	}
	return fmt.Errorf("hdf5: dataset %s: chunk index %d is not supported", o.Name, l.index)
}

// origin returns the element coordinates of chunk number i (row-major over the grid).
func (cr *chunkReader) origin(i uint64) []uint64 {
	o := make([]uint64, cr.rank)
	for k := cr.rank - 1; k >= 0; k-- {
		o[k] = (i % cr.grid[k]) * cr.chunk[k]
		i /= cr.grid[k]
	}
	return o
}

func (cr *chunkReader) btree(a uint64, depth int, visited map[uint64]bool) error {
	f := cr.o.f
	if depth > maxBTreeDepth || visited[a] {
		return fmt.Errorf("hdf5: dataset %s: chunk B-tree is cyclic or too deep", cr.o.Name)
	}
	visited[a] = true
	head, err := f.read(a, 8+2*f.so)
	if err != nil {
		return fmt.Errorf("hdf5: dataset %s: chunk B-tree: %w", cr.o.Name, err)
	}
	if string(head[:4]) != "TREE" || head[4] != 1 {
		return fmt.Errorf("hdf5: dataset %s: chunk B-tree node signature missing", cr.o.Name)
	}
	level := int(head[5])
	n := int(head[6]) | int(head[7])<<8
	keySize := 8 + 8*(cr.rank+1)
	body, err := f.read(a+uint64(8+2*f.so), n*(keySize+f.so)+keySize)
	if err != nil {
		return fmt.Errorf("hdf5: dataset %s: chunk B-tree: %w", cr.o.Name, err)
	}
	c := &cursor{b: body}
	for i := 0; i < n; i++ {
		size := uint64(c.u32())
		mask := c.u32()
		org := make([]uint64, cr.rank)
		for k := range org {
			org[k] = c.uN(8)
		}
		c.skip(8)
		child := c.addr(f.so)
		if c.err != nil {
			return fmt.Errorf("hdf5: dataset %s: chunk B-tree node truncated", cr.o.Name)
		}
		if level > 0 {
			if err := cr.btree(child, depth+1, visited); err != nil {
				return err
			}
			continue
		}
		if err := cr.chunkAt(child, size, mask, org); err != nil {
			return err
		}
	}
	return nil
}

func (cr *chunkReader) fixedArray(a uint64) error {
	f := cr.o.f
	name := cr.o.Name
	hb, err := f.read(a, 8+f.sl+f.so+4)
	if err != nil {
		return fmt.Errorf("hdf5: dataset %s: fixed array: %w", name, err)
	}
	if string(hb[:4]) != "FAHD" {
		return fmt.Errorf("hdf5: dataset %s: fixed array header signature missing", name)
	}
	client := hb[5]
	esz := int(hb[6])
	pageBits := uint(hb[7])
	c := &cursor{b: hb, off: 8}
	nent := c.uN(f.sl)
	dblk := c.addr(f.so)
	if c.err != nil || pageBits > 32 {
		return fmt.Errorf("hdf5: dataset %s: fixed array header damaged", name)
	}
	if client == 0 && esz != f.so || client == 1 && esz < f.so+1+4 || client > 1 {
		return fmt.Errorf("hdf5: dataset %s: fixed array entry of %d bytes for client %d", name, esz, client)
	}
	if nent > uint64(f.size) {
		return fmt.Errorf("hdf5: dataset %s: fixed array of %d entries is larger than the file", name, nent)
	}
	pageSize := uint64(1) << pageBits
	prefix := uint64(4 + 1 + 1 + f.so)
	var pos []uint64 // address of each entry
	if nent > pageSize {
		npages := (nent + pageSize - 1) / pageSize
		prefix += (npages+7)/8 + 4
		off := dblk + prefix
		for p := uint64(0); p < npages; p++ {
			cnt := min(pageSize, nent-p*pageSize)
			for i := uint64(0); i < cnt; i++ {
				pos = append(pos, off+i*uint64(esz))
			}
			off += cnt*uint64(esz) + 4
		}
	} else {
		for i := uint64(0); i < nent; i++ {
			pos = append(pos, dblk+prefix+i*uint64(esz))
		}
	}
	sig, err := f.read(dblk, 4)
	if err != nil || string(sig) != "FADB" {
		return fmt.Errorf("hdf5: dataset %s: fixed array data block signature missing", name)
	}
	for i, p := range pos {
		eb, err := f.read(p, esz)
		if err != nil {
			return fmt.Errorf("hdf5: dataset %s: fixed array: %w", name, err)
		}
		ec := &cursor{b: eb}
		addr := ec.addr(f.so)
		size, mask := cr.nbytes, uint32(0)
		if client == 1 {
			size = ec.uN(esz - f.so - 4)
			mask = ec.u32()
		}
		if f.undef(addr) {
			continue
		}
		if err := cr.chunkAt(addr, size, mask, cr.origin(uint64(i))); err != nil {
			return err
		}
	}
	return nil
}

// chunkAt reads, unfilters and delivers one chunk: at once, or through the
// decoders of a parallel read (cr.par).
func (cr *chunkReader) chunkAt(a, size uint64, mask uint32, org []uint64) error {
	o := cr.o
	f := o.f
	for k := range org {
		if org[k] >= cr.dims[k] || org[k]%cr.chunk[k] != 0 {
			return fmt.Errorf("hdf5: dataset %s: chunk at %v outside the dataset %v", o.Name, org, cr.dims)
		}
	}
	if size > maxChunkBytes || size > uint64(f.size) {
		return fmt.Errorf("hdf5: dataset %s: chunk of %d bytes is larger than the file", o.Name, size)
	}
	var key uint64
	for k := range org {
		key = key*cr.grid[k] + org[k]/cr.chunk[k]
	}
	if _, dup := cr.seen[key]; dup {
		return fmt.Errorf("hdf5: dataset %s: the chunk at %v is listed twice in the chunk index: %w", o.Name, org, ErrDuplicateChunk)
	}
	cr.seen[key] = struct{}{}
	if cr.list != nil {
		*cr.list = append(*cr.list, chunkJob{addr: a, size: size, mask: mask, org: org})
		return nil
	}
	return cr.deliver(chunkJob{addr: a, size: size, mask: mask, org: org})
}

// deliver reads, unfilters and delivers one chunk: at once, or through the
// decoders of a parallel read (cr.par).
func (cr *chunkReader) deliver(j chunkJob) error {
	a, size, mask, org := j.addr, j.size, j.mask, j.org
	if cr.par != nil {
		return cr.par.queue(chunkJob{addr: a, size: size, mask: mask, org: org})
	}
	data, err := cr.load(a, size, mask, &cr.buf)
	if err != nil {
		return err
	}
	return cr.scatter(data, org)
}

// chunkBuf holds the buffers that decoding a chunk reuses.
type chunkBuf struct {
	raw, sbuf []byte
	dbuf      bytes.Buffer
	zr        io.ReadCloser
}

// load reads and unfilters one chunk into b's buffers; the result is valid
// until b is used again.
func (cr *chunkReader) load(a, size uint64, mask uint32, b *chunkBuf) ([]byte, error) {
	o := cr.o
	f := o.f
	abs, err := f.abs(a, int64(size))
	if err != nil {
		return nil, fmt.Errorf("hdf5: dataset %s: chunk: %w", o.Name, err)
	}
	if uint64(cap(b.raw)) < size {
		b.raw = make([]byte, size)
	}
	data := b.raw[:size]
	if _, err := f.r.ReadAt(data, abs); err != nil {
		return nil, fmt.Errorf("hdf5: dataset %s: chunk: %w", o.Name, err)
	}
	for i := len(o.filters) - 1; i >= 0; i-- {
		if i < 32 && mask&(1<<uint(i)) != 0 {
			continue
		}
		fl := o.filters[i]
		switch fl.id {
		case 1: // deflate
			var err error
			if b.zr == nil {
				b.zr, err = zlib.NewReader(bytes.NewReader(data))
			} else {
				err = b.zr.(zlib.Resetter).Reset(bytes.NewReader(data), nil)
			}
			if err != nil {
				return nil, fmt.Errorf("hdf5: dataset %s: deflate: %w", o.Name, err)
			}
			b.dbuf.Reset()
			b.dbuf.Grow(int(cr.nbytes) + 1024) // room for ReadFrom's last read: no doubling
			if _, err := b.dbuf.ReadFrom(io.LimitReader(b.zr, int64(cr.nbytes)+64)); err != nil {
				return nil, fmt.Errorf("hdf5: dataset %s: deflate: %w", o.Name, err)
			}
			data = b.dbuf.Bytes()
		case 2: // shuffle
			es := int(cr.es)
			if len(fl.params) > 0 && fl.params[0] > 0 && fl.params[0] < 256 {
				es = int(fl.params[0])
			}
			if cap(b.sbuf) < len(data) {
				b.sbuf = make([]byte, len(data))
			}
			data = unshuffle(data, es, b.sbuf[:len(data)])
		case 3: // fletcher32
			if len(data) < 4 {
				return nil, fmt.Errorf("hdf5: dataset %s: fletcher32 chunk too short", o.Name)
			}
			body := data[:len(data)-4]
			if !fletcherOK(body, data[len(data)-4:]) {
				return nil, fmt.Errorf("hdf5: dataset %s: the chunk at address %d: Fletcher-32: %w", o.Name, a, ErrChecksum)
			}
			data = body
		default:
			return nil, fmt.Errorf("hdf5: dataset %s: filter %d is not supported", o.Name, fl.id)
		}
	}
	if uint64(len(data)) < cr.nbytes {
		return nil, fmt.Errorf("hdf5: dataset %s: chunk holds %d bytes, want %d: damaged file", o.Name, len(data), cr.nbytes)
	}
	return data, nil
}

// unshuffle undoes the shuffle filter of b into out (len(out) == len(b)).
func unshuffle(b []byte, es int, out []byte) []byte {
	if es <= 1 {
		return b
	}
	n := len(b) / es
	switch es {
	case 2:
		b0, b1 := b[:n], b[n:2*n]
		for i := range b0 {
			out[2*i], out[2*i+1] = b0[i], b1[i]
		}
		copy(out[n*es:], b[n*es:])
		return out
	case 4:
		b0, b1, b2, b3 := b[:n], b[n:2*n], b[2*n:3*n], b[3*n:4*n]
		for i := range b0 {
			o := out[4*i : 4*i+4 : 4*i+4]
			o[0], o[1], o[2], o[3] = b0[i], b1[i], b2[i], b3[i]
		}
		copy(out[n*es:], b[n*es:])
		return out
	}
	for j := 0; j < es; j++ {
		src := b[j*n : (j+1)*n]
		for i, v := range src {
			out[i*es+j] = v
		}
	}
	copy(out[n*es:], b[n*es:])
	return out
}

// scatter delivers the in-bounds part of a chunk as runs along the last dimension.
func (cr *chunkReader) scatter(data []byte, org []uint64) error {
	r := cr.rank
	ext := make([]uint64, r)
	for k := 0; k < r; k++ {
		ext[k] = min(cr.chunk[k], cr.dims[k]-org[k])
	}
	// begin (for the restricted axes) and ext bound the chunk's indices delivered.
	begin := make([]uint64, r)
	for _, w := range [2]struct {
		k      int
		lo, hi uint64
	}{{cr.axis, cr.lo, cr.hi}, {cr.axis2, cr.lo2, cr.hi2}} {
		if k := w.k; k >= 0 {
			lo, hi := max(w.lo, org[k]), min(w.hi, org[k]+ext[k])
			if lo >= hi {
				return nil
			}
			begin[k], ext[k] = lo-org[k], hi-org[k]
		}
	}
	dstride := make([]uint64, r)
	cstride := make([]uint64, r)
	ds, cs := uint64(1), uint64(1)
	for k := r - 1; k >= 0; k-- {
		dstride[k], cstride[k] = ds, cs
		ds *= cr.dims[k]
		cs *= cr.chunk[k]
	}
	idx := slices.Clone(begin)
	run := ext[r-1] - begin[r-1]
	for {
		var lin, coff uint64
		for k := 0; k < r; k++ {
			lin += (org[k] + idx[k]) * dstride[k]
			coff += idx[k] * cstride[k]
		}
		if err := cr.fn(lin, data[coff*cr.es:(coff+run)*cr.es]); err != nil {
			return err
		}
		k := r - 2
		for ; k >= 0; k-- {
			idx[k]++
			if idx[k] < ext[k] {
				break
			}
			idx[k] = begin[k]
		}
		if k < 0 {
			return nil
		}
	}
}

// fletcher32 is libhdf5's H5_checksum_fletcher32: Fletcher's checksum over
// big-endian 16-bit words, a last odd byte taken as the high byte of a word.
func fletcher32(b []byte) uint32 {
	var s1, s2 uint32
	for len(b) >= 2 {
		n := min(len(b)/2, 360)
		for i := 0; i < n; i++ {
			s1 += uint32(b[2*i])<<8 | uint32(b[2*i+1])
			s2 += s1
		}
		b = b[2*n:]
		s1 = s1&0xffff + s1>>16
		s2 = s2&0xffff + s2>>16
	}
	if len(b) == 1 {
		s1 += uint32(b[0]) << 8
		s2 += s1
		s1 = s1&0xffff + s1>>16
		s2 = s2&0xffff + s2>>16
	}
	s1 = s1&0xffff + s1>>16
	s2 = s2&0xffff + s2>>16
	return s2<<16 | s1
}

// fletcherOK reports whether sum, the 4 bytes the Fletcher-32 filter
// appends (little-endian), matches body. As libhdf5 does, the byte-swapped
// form that versions 1.6.0 to 1.6.2 wrote is accepted too.
func fletcherOK(body, sum []byte) bool {
	got := uint32(sum[0]) | uint32(sum[1])<<8 | uint32(sum[2])<<16 | uint32(sum[3])<<24
	want := fletcher32(body)
	swapped := (want&0x00ff00ff)<<8 | (want&0xff00ff00)>>8
	return got == want || got == swapped
}
