package hdf5

import (
	"errors"
	"fmt"
	"math/bits"
)

// Dense storage: the links of a group and the attributes of an object that
// libhdf5 moves out of the object header (more than 8 of them in a file
// that tracks creation order, as NetCDF-4 files do) live in a fractal heap
// indexed by a version 2 B-tree.

// fractalHeap is an open fractal heap ("FRHP").
type fractalHeap struct {
	f              *File
	idLen          int
	offSize        int // bytes of a heap offset in a managed heap ID
	lenSize        int // bytes of a length in a managed heap ID
	width          int
	start          uint64 // starting block size
	maxDirect      uint64
	root           uint64
	rows           int // rows of the root indirect block; 0 = the root is a direct block
	filtered       bool
	checksumDirect bool
	maxDirectRows  int
	hugeIndex      uint64 // B-tree v2 of the huge objects
}

func (f *File) fractalHeap(a uint64) (*fractalHeap, error) {
	n := 4 + 1 + 2 + 2 + 1 + 4 + 12*f.sl + 3*f.so + 2 + 2 + 2 + 2 + 4
	b, err := f.read(a, n)
	if err != nil {
		return nil, fmt.Errorf("fractal heap: %w", err)
	}
	if string(b[:4]) != "FRHP" {
		return nil, errors.New("fractal heap signature missing")
	}
	c := &cursor{b: b, off: 5}
	h := &fractalHeap{f: f}
	h.idLen = int(c.u16())
	filterLen := c.u16()
	flags := c.u8()
	maxMan := uint64(c.u32())
	c.uN(f.sl) // next huge object ID
	h.hugeIndex = c.addr(f.so)
	c.uN(f.sl)   // free space in managed blocks
	c.addr(f.so) // free-space manager
	c.uN(f.sl)   // managed space
	c.uN(f.sl)   // allocated managed space
	c.uN(f.sl)   // direct block allocation iterator
	c.uN(f.sl)   // managed objects
	c.uN(f.sl)   // huge object size
	c.uN(f.sl)   // huge objects
	c.uN(f.sl)   // tiny object size
	c.uN(f.sl)   // tiny objects
	h.width = int(c.u16())
	h.start = c.uN(f.sl)
	h.maxDirect = c.uN(f.sl)
	maxHeapBits := int(c.u16())
	c.u16() // starting rows of the root indirect block
	h.root = c.addr(f.so)
	h.rows = int(c.u16())
	if c.err != nil {
		return nil, errors.New("fractal heap header truncated")
	}
	h.filtered = filterLen > 0
	h.checksumDirect = flags&2 != 0
	if h.width <= 0 || h.width > 1<<12 || h.start == 0 || h.start&(h.start-1) != 0 ||
		h.maxDirect < h.start || h.maxDirect&(h.maxDirect-1) != 0 || maxHeapBits <= 0 || maxHeapBits > 64 || h.rows > 64 {
		return nil, errors.New("fractal heap header damaged")
	}
	h.offSize = (maxHeapBits + 7) / 8
	h.lenSize = min((bits.Len64(h.maxDirect)-1+7)/8, bits.Len64(maxMan)/8+1)
	h.maxDirectRows = bits.Len64(h.maxDirect) - bits.Len64(h.start) + 2
	return h, nil
}

func le(b []byte) uint64 {
	var v uint64
	for i := len(b) - 1; i >= 0; i-- {
		v = v<<8 | uint64(b[i])
	}
	return v
}

// get returns the object a heap ID names.
func (h *fractalHeap) get(id []byte) ([]byte, error) {
	if len(id) < 1 {
		return nil, errors.New("empty heap ID")
	}
	switch (id[0] >> 4) & 3 {
	case 0: // managed
	case 2: // tiny: the object is in the ID
		n := int(id[0]&0x0F) + 1
		if 1+n > len(id) {
			return nil, errors.New("tiny heap object longer than its ID")
		}
		return id[1 : 1+n], nil
	case 1: // huge: stored outside the heap's blocks
		return h.huge(id)
	default:
		return nil, fmt.Errorf("heap ID of type %d", (id[0]>>4)&3)
	}
	if h.filtered {
		return nil, errors.New("filtered fractal heaps are not supported")
	}
	if 1+h.offSize+h.lenSize > len(id) {
		return nil, errors.New("heap ID too short")
	}
	off := le(id[1 : 1+h.offSize])
	n := le(id[1+h.offSize : 1+h.offSize+h.lenSize])
	blk, blkOff, size, err := h.block(off)
	if err != nil {
		return nil, err
	}
	if n > size || off-blkOff > size-n {
		return nil, errors.New("heap object outside its direct block")
	}
	return h.f.read(blk+(off-blkOff), int(n))
}

// huge returns a huge object (one larger than the heap's largest managed
// object, as a 2 MB attribute is): its address and length are in the ID
// when the ID is large enough ("directly accessed"), else in the heap's
// huge-object B-tree (record type 1: address, length, ID). Huge objects of
// a filtered heap are not supported.
func (h *fractalHeap) huge(id []byte) ([]byte, error) {
	f := h.f
	if h.filtered {
		return nil, errors.New("huge objects of a filtered fractal heap are not supported")
	}
	var addr, n uint64
	if len(id) >= 1+f.so+f.sl {
		addr, n = le(id[1:1+f.so]), le(id[1+f.so:1+f.so+f.sl])
	} else {
		if len(id) < 2 || f.undef(h.hugeIndex) {
			return nil, errors.New("huge heap object without an index")
		}
		key := le(id[1:min(len(id), 9)])
		found := false
		err := f.btree2(h.hugeIndex, func(rec []byte) error {
			if found || len(rec) < f.so+2*f.sl {
				return nil
			}
			if le(rec[f.so+f.sl:f.so+2*f.sl]) == key {
				addr, n, found = le(rec[:f.so]), le(rec[f.so:f.so+f.sl]), true
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("huge heap objects: %w", err)
		}
		if !found {
			return nil, fmt.Errorf("huge heap object %d missing from its index", key)
		}
	}
	if n > maxMeta {
		return nil, fmt.Errorf("huge heap object of %d bytes is too large", n)
	}
	if err := f.charge(n, "huge heap object"); err != nil {
		return nil, err
	}
	return f.read(addr, int(n))
}

// block finds the direct block holding heap offset off.
func (h *fractalHeap) block(off uint64) (addr, blockOff, size uint64, err error) {
	if h.rows == 0 {
		return h.root, 0, h.start, nil
	}
	f := h.f
	var rowStart uint64
	for r := 0; r < h.rows; r++ {
		rsz := h.start
		if r > 1 {
			rsz = h.start << uint(r-1)
		}
		rowLen := uint64(h.width) * rsz
		if rsz == 0 || rowLen/uint64(h.width) != rsz || rowStart+rowLen < rowStart {
			return 0, 0, 0, errors.New("fractal heap rows overflow")
		}
		if off >= rowStart+rowLen {
			rowStart += rowLen
			continue
		}
		if r >= h.maxDirectRows {
			return 0, 0, 0, errors.New("fractal heap with nested indirect blocks is not supported")
		}
		col := (off - rowStart) / rsz
		entry := uint64(r*h.width) + col
		hdr := uint64(4 + 1 + f.so + h.offSize)
		b, err := f.read(h.root+hdr+entry*uint64(f.so), f.so)
		if err != nil {
			return 0, 0, 0, fmt.Errorf("fractal heap indirect block: %w", err)
		}
		a := le(b)
		if f.undef(a) {
			return 0, 0, 0, errors.New("heap object in an unallocated block")
		}
		return a, rowStart + col*rsz, rsz, nil
	}
	return 0, 0, 0, errors.New("heap offset beyond the heap")
}

// limitEncSize is the number of bytes libhdf5 uses to encode values up to m.
func limitEncSize(m uint64) int { return (bits.Len64(m)-1)/8 + 1 }

// btree2 calls fn with every record of the version 2 B-tree at a.
func (f *File) btree2(a uint64, fn func(rec []byte) error) error {
	b, err := f.read(a, 4+1+1+4+2+2+1+1+f.so+2+f.sl+4)
	if err != nil {
		return fmt.Errorf("B-tree v2: %w", err)
	}
	if string(b[:4]) != "BTHD" {
		return errors.New("B-tree v2 header signature missing")
	}
	c := &cursor{b: b, off: 6}
	nodeSize := uint64(c.u32())
	recSize := int(c.u16())
	depth := int(c.u16())
	c.skip(2)
	root := c.addr(f.so)
	rootN := int(c.u16())
	if c.err != nil || recSize == 0 || nodeSize < 16 || nodeSize > maxMeta || depth > maxBTreeDepth {
		return errors.New("B-tree v2 header damaged")
	}
	if f.undef(root) {
		return nil
	}
	// Per-depth sizes, as libhdf5 derives them from the node size.
	maxRec := make([]uint64, depth+1)
	cumMax := make([]uint64, depth+1)
	cumSize := make([]int, depth+1)
	maxRec[0] = (nodeSize - 10) / uint64(recSize)
	if maxRec[0] == 0 {
		return errors.New("B-tree v2 node too small")
	}
	cumMax[0] = maxRec[0]
	nrecSize := limitEncSize(maxRec[0])
	ptrSize := func(d int) int {
		s := f.so + nrecSize
		if d > 1 {
			s += cumSize[d-1]
		}
		return s
	}
	for d := 1; d <= depth; d++ {
		ps := uint64(ptrSize(d))
		maxRec[d] = (nodeSize - (10 + ps)) / (uint64(recSize) + ps)
		cumMax[d] = (maxRec[d]+1)*cumMax[d-1] + maxRec[d]
		cumSize[d] = limitEncSize(cumMax[d])
	}
	visited := map[uint64]bool{}
	var walk func(a uint64, n, d int) error
	walk = func(a uint64, n, d int) error {
		if visited[a] || n < 0 || uint64(n) > maxRec[d] {
			return errors.New("B-tree v2 is cyclic or damaged")
		}
		visited[a] = true
		size := 6 + n*recSize
		if d > 0 {
			size += (n + 1) * ptrSize(d)
		}
		nb, err := f.read(a, size)
		if err != nil {
			return fmt.Errorf("B-tree v2 node: %w", err)
		}
		sig := "BTLF"
		if d > 0 {
			sig = "BTIN"
		}
		if string(nb[:4]) != sig {
			return errors.New("B-tree v2 node signature missing")
		}
		for i := 0; i < n; i++ {
			if err := fn(nb[6+i*recSize : 6+(i+1)*recSize]); err != nil {
				return err
			}
		}
		if d == 0 {
			return nil
		}
		pc := &cursor{b: nb, off: 6 + n*recSize}
		for i := 0; i <= n; i++ {
			child := pc.addr(f.so)
			cn := pc.uN(nrecSize)
			if d > 1 {
				pc.skip(cumSize[d-1])
			}
			if pc.err != nil {
				return errors.New("B-tree v2 node truncated")
			}
			if err := walk(child, int(cn), d-1); err != nil {
				return err
			}
		}
		return nil
	}
	return walk(root, rootN, depth)
}

// denseObjects calls fn with each object of a dense link or attribute
// store: heap is the fractal heap, index the name-index B-tree, idAt the
// offset of the heap ID in a B-tree record.
func (f *File) denseObjects(heap, index uint64, idAt int, fn func([]byte) error) error {
	h, err := f.fractalHeap(heap)
	if err != nil {
		return err
	}
	return f.btree2(index, func(rec []byte) error {
		if idAt+h.idLen > len(rec) {
			return errors.New("B-tree v2 record shorter than a heap ID")
		}
		obj, err := h.get(rec[idAt : idAt+h.idLen])
		if err != nil {
			return err
		}
		return fn(obj)
	})
}

// globalHeapObject returns object idx of the global heap collection at a.
// Each collection is read and indexed once per File: a variable-length
// attribute of a million elements reads its collection once, not a
// million times.
func (f *File) globalHeapObject(a uint64, idx uint32) ([]byte, error) {
	f.mu.Lock()
	objs, ok := f.gheap[a]
	f.mu.Unlock()
	if !ok {
		var err error
		if objs, err = f.globalHeap(a); err != nil {
			return nil, err
		}
		f.mu.Lock()
		if f.gheap == nil {
			f.gheap = map[uint64]map[uint32][]byte{}
		}
		f.gheap[a] = objs
		f.mu.Unlock()
	}
	if data, ok := objs[idx]; ok {
		return data, nil
	}
	return nil, fmt.Errorf("global heap object %d missing", idx)
}

// globalHeap reads the global heap collection at a and indexes its objects.
func (f *File) globalHeap(a uint64) (map[uint32][]byte, error) {
	hb, err := f.read(a, 8+f.sl)
	if err != nil {
		return nil, fmt.Errorf("global heap: %w", err)
	}
	if string(hb[:4]) != "GCOL" {
		return nil, errors.New("global heap signature missing")
	}
	size := le(hb[8 : 8+f.sl])
	if size > maxMeta {
		return nil, fmt.Errorf("global heap of %d bytes is too large", size)
	}
	if err := f.charge(size, "global heap"); err != nil {
		return nil, err
	}
	b, err := f.readAtMost(a, int(size))
	if err != nil {
		return nil, fmt.Errorf("global heap: %w", err)
	}
	objs := map[uint32][]byte{}
	c := &cursor{b: b, off: 8 + f.sl}
	for c.rest() >= 8+f.sl {
		id := c.u16()
		c.skip(6)
		n := c.uN(f.sl)
		if id == 0 {
			break
		}
		if n > uint64(c.rest()) {
			return nil, errors.New("global heap object truncated")
		}
		data := c.bytes(int(n))
		if _, dup := objs[uint32(id)]; !dup {
			objs[uint32(id)] = data
		}
		c.skip(int((n+7)&^7 - n))
	}
	return objs, nil
}
