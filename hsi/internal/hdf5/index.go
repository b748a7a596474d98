package hdf5

import (
	"fmt"
	"math/bits"
)

// The chunk indexes of extendible datasets in data layout version 4 (HDF5
// file format specification, "Data Layout Message", chunk indexing types 4
// and 5; "Extensible Array" and "Version 2 B-trees", record types 10 and
// 11): libhdf5 with libver 1.10 or later (h5py libver="latest",
// netCDF-C built to write them) indexes a dataset with exactly one
// unlimited dimension by an extensible array and one with several by a
// version 2 B-tree.

// unlimitedDim is the maximum dimension of an unlimited axis.
const unlimitedDim = ^uint64(0)

// chunkEntry decodes one chunk record of the extensible or fixed array:
// the address, and for filtered chunks (client 1) the stored size and the
// filter mask.
func (cr *chunkReader) chunkEntry(b []byte, filtered bool) (addr, size uint64, mask uint32, err error) {
	f := cr.o.f
	c := &cursor{b: b}
	addr = c.addr(f.so)
	size = cr.nbytes
	if filtered {
		size = c.uN(len(b) - f.so - 4)
		mask = c.u32()
	}
	if c.err != nil {
		return 0, 0, 0, fmt.Errorf("hdf5: dataset %s: chunk entry truncated", cr.o.Name)
	}
	return addr, size, mask, nil
}

// eaOrigin returns the element origin of the chunk at index i of an
// extensible array: libhdf5 linearises the chunk's scaled coordinates with
// the unlimited dimension moved first (H5VM_swizzle_coords) over the
// numbers of chunks the maximum dimensions allow.
func (cr *chunkReader) eaOrigin(i uint64, unlim int, maxChunks []uint64) []uint64 {
	order := make([]int, 0, cr.rank)
	order = append(order, unlim)
	for k := 0; k < cr.rank; k++ {
		if k != unlim {
			order = append(order, k)
		}
	}
	org := make([]uint64, cr.rank)
	for j := cr.rank - 1; j >= 1; j-- {
		k := order[j]
		org[k] = (i % maxChunks[k]) * cr.chunk[k]
		i /= maxChunks[k]
	}
	org[unlim] = i * cr.chunk[unlim]
	return org
}

// extArray reads the chunks of an extensible-array index (EAHD header,
// EAIB index block, EASB super blocks, EADB data blocks, paged data
// blocks), as libhdf5's H5EA code lays them out.
func (cr *chunkReader) extArray(a uint64) error {
	o := cr.o
	f := o.f
	name := o.Name
	unlim := -1
	maxChunks := make([]uint64, cr.rank)
	for k := 0; k < cr.rank; k++ {
		m := o.Dims[k]
		if k < len(o.maxDims) {
			m = o.maxDims[k]
		}
		if m == unlimitedDim {
			if unlim >= 0 {
				return fmt.Errorf("hdf5: dataset %s: extensible-array index with more than one unlimited dimension", name)
			}
			unlim = k
			continue
		}
		if m < o.Dims[k] {
			return fmt.Errorf("hdf5: dataset %s: maximum dimensions %v below the dimensions %v", name, o.maxDims, o.Dims)
		}
		maxChunks[k] = max(1, (m+cr.chunk[k]-1)/cr.chunk[k])
	}
	if unlim < 0 {
		return fmt.Errorf("hdf5: dataset %s: extensible-array index without an unlimited dimension", name)
	}
	hb, err := f.read(a, 12+6*f.sl+f.so)
	if err != nil {
		return fmt.Errorf("hdf5: dataset %s: extensible array: %w", name, err)
	}
	if string(hb[:4]) != "EAHD" {
		return fmt.Errorf("hdf5: dataset %s: extensible array header signature missing", name)
	}
	client, esz, maxBits := hb[5], int(hb[6]), int(hb[7])
	idxN, dblkMin, sblkMinPtrs, pageBits := uint64(hb[8]), uint64(hb[9]), uint64(hb[10]), uint(hb[11])
	c := &cursor{b: hb, off: 12}
	c.skip(4 * f.sl)
	maxIdxSet := c.uN(f.sl)
	c.skip(f.sl)
	iblk := c.addr(f.so)
	pow2 := func(v uint64) bool { return v > 0 && v&(v-1) == 0 }
	if c.err != nil || client > 1 || maxBits < 1 || maxBits > 64 || !pow2(dblkMin) || !pow2(sblkMinPtrs) || pageBits > 32 ||
		bits.Len64(dblkMin)-1 > maxBits || (client == 0 && esz != f.so) || (client == 1 && (esz < f.so+1+4 || esz > f.so+8+4)) {
		return fmt.Errorf("hdf5: dataset %s: extensible array header damaged", name)
	}
	nchunks := cr.grid[unlim]
	for k, m := range maxChunks {
		if k == unlim {
			continue
		}
		hi, lo := bits.Mul64(nchunks, m)
		if hi != 0 {
			return fmt.Errorf("hdf5: dataset %s: too many chunks", name)
		}
		nchunks = lo
	}
	if maxIdxSet > nchunks {
		return fmt.Errorf("hdf5: dataset %s: extensible array of %d entries for %d chunks", name, maxIdxSet, nchunks)
	}
	if f.undef(iblk) || maxIdxSet == 0 {
		return nil
	}
	filtered := client == 1
	// Geometry (H5EA__hdr_init): super block u holds ndblks(u) data blocks
	// of dblkN(u) elements each.
	nsblks := 1 + maxBits - (bits.Len64(dblkMin) - 1)
	ndblks := func(u int) uint64 { return uint64(1) << uint(u/2) }
	dblkN := func(u int) uint64 { return (uint64(1) << uint((u+1)/2)) * dblkMin }
	startIdx := make([]uint64, nsblks+1)
	startDblk := make([]uint64, nsblks+1)
	for u := 0; u < nsblks; u++ {
		startIdx[u+1] = startIdx[u] + ndblks(u)*dblkN(u)
		startDblk[u+1] = startDblk[u] + ndblks(u)
	}
	ibNsblks := 2 * (bits.Len64(sblkMinPtrs) - 1)
	ndblkAddrs := int(2 * (sblkMinPtrs - 1))
	nsblkAddrs := max(0, nsblks-ibNsblks)
	arrOff := (maxBits + 7) / 8
	pageN := uint64(1) << pageBits
	ib, err := f.read(iblk, 6+f.so+int(idxN)*esz+(ndblkAddrs+nsblkAddrs)*f.so+4)
	if err != nil {
		return fmt.Errorf("hdf5: dataset %s: extensible array index block: %w", name, err)
	}
	if string(ib[:4]) != "EAIB" {
		return fmt.Errorf("hdf5: dataset %s: extensible array index block signature missing", name)
	}
	// entry delivers element i (the chunk index) stored in b.
	entry := func(i uint64, b []byte) error {
		if i >= maxIdxSet {
			return nil // never set
		}
		addr, size, mask, err := cr.chunkEntry(b, filtered)
		if err != nil || f.undef(addr) {
			return err
		}
		return cr.chunkAt(addr, size, mask, cr.eaOrigin(i, unlim, maxChunks))
	}
	off := 6 + f.so
	for i := uint64(0); i < idxN; i++ {
		if err := entry(i, ib[off:off+esz]); err != nil {
			return err
		}
		off += esz
	}
	ic := &cursor{b: ib, off: off}
	dblkAddrs := make([]uint64, ndblkAddrs)
	for i := range dblkAddrs {
		dblkAddrs[i] = ic.addr(f.so)
	}
	sblkAddrs := make([]uint64, nsblkAddrs)
	for i := range sblkAddrs {
		sblkAddrs[i] = ic.addr(f.so)
	}
	if ic.err != nil {
		return fmt.Errorf("hdf5: dataset %s: extensible array index block truncated", name)
	}
	// dataBlock delivers the elements of data block at addr of super block
	// u, whose first element is first; init tells which pages were written
	// (nil: all of them).
	dataBlock := func(addr uint64, u int, first uint64, init []byte) error {
		n := dblkN(u)
		prefix := 6 + f.so + arrOff
		if n <= pageN {
			b, err := f.read(addr, prefix+int(n)*esz+4)
			if err != nil {
				return fmt.Errorf("hdf5: dataset %s: extensible array data block: %w", name, err)
			}
			if string(b[:4]) != "EADB" {
				return fmt.Errorf("hdf5: dataset %s: extensible array data block signature missing", name)
			}
			for j := uint64(0); j < n && first+j < maxIdxSet; j++ {
				if err := entry(first+j, b[prefix+int(j)*esz:prefix+int(j+1)*esz]); err != nil {
					return err
				}
			}
			return nil
		}
		h, err := f.read(addr, prefix+4)
		if err != nil {
			return fmt.Errorf("hdf5: dataset %s: extensible array data block: %w", name, err)
		}
		if string(h[:4]) != "EADB" {
			return fmt.Errorf("hdf5: dataset %s: extensible array data block signature missing", name)
		}
		pageAt := addr + uint64(prefix+4)
		for p := uint64(0); p < n/pageN && first+p*pageN < maxIdxSet; p++ {
			pa := pageAt + p*(pageN*uint64(esz)+4)
			if init != nil && init[p/8]&(0x80>>(p%8)) == 0 {
				continue // page never written
			}
			b, err := f.read(pa, int(pageN)*esz)
			if err != nil {
				return fmt.Errorf("hdf5: dataset %s: extensible array data block page: %w", name, err)
			}
			for j := uint64(0); j < pageN && first+p*pageN+j < maxIdxSet; j++ {
				if err := entry(first+p*pageN+j, b[int(j)*esz:int(j+1)*esz]); err != nil {
					return err
				}
			}
		}
		return nil
	}
	for u := 0; u < nsblks && u < ibNsblks; u++ {
		for k := uint64(0); k < ndblks(u); k++ {
			d := startDblk[u] + k
			if d >= uint64(len(dblkAddrs)) || f.undef(dblkAddrs[d]) {
				continue
			}
			if err := dataBlock(dblkAddrs[d], u, idxN+startIdx[u]+k*dblkN(u), nil); err != nil {
				return err
			}
		}
	}
	for s, sa := range sblkAddrs {
		u := ibNsblks + s
		if f.undef(sa) || idxN+startIdx[u] >= maxIdxSet {
			continue
		}
		nd := ndblks(u)
		if nd > uint64(f.size) {
			return fmt.Errorf("hdf5: dataset %s: extensible array super block of %d data blocks", name, nd)
		}
		initSize := 0
		if dblkN(u) > pageN {
			initSize = int((dblkN(u)/pageN + 7) / 8)
		}
		prefix := 6 + f.so + arrOff
		b, err := f.read(sa, prefix+int(nd)*(initSize+f.so)+4)
		if err != nil {
			return fmt.Errorf("hdf5: dataset %s: extensible array super block: %w", name, err)
		}
		if string(b[:4]) != "EASB" {
			return fmt.Errorf("hdf5: dataset %s: extensible array super block signature missing", name)
		}
		sc := &cursor{b: b, off: prefix + int(nd)*initSize}
		for k := uint64(0); k < nd; k++ {
			da := sc.addr(f.so)
			if sc.err != nil {
				return fmt.Errorf("hdf5: dataset %s: extensible array super block truncated", name)
			}
			if f.undef(da) {
				continue
			}
			var init []byte
			if initSize > 0 {
				init = b[prefix+int(k)*initSize : prefix+int(k+1)*initSize]
			}
			if err := dataBlock(da, u, idxN+startIdx[u]+k*dblkN(u), init); err != nil {
				return err
			}
		}
	}
	return nil
}

// btree2 reads the chunks of a version 2 B-tree chunk index: records of
// type 10 (address, scaled chunk coordinates) or 11 (address, stored size,
// filter mask, scaled coordinates).
func (cr *chunkReader) btree2(a uint64) error {
	o := cr.o
	f := o.f
	hb, err := f.read(a, 6)
	if err != nil {
		return fmt.Errorf("hdf5: dataset %s: chunk B-tree v2: %w", o.Name, err)
	}
	typ := hb[5]
	if string(hb[:4]) != "BTHD" || (typ != 10 && typ != 11) {
		return fmt.Errorf("hdf5: dataset %s: chunk B-tree v2 header damaged (type %d)", o.Name, typ)
	}
	coords := 8 * cr.rank
	var recErr error // an error of a record or chunk, already with context
	err = f.btree2(a, func(rec []byte) (err error) {
		defer func() { recErr = err }()
		fixed := f.so + coords
		if typ == 11 {
			fixed += 4
		}
		if len(rec) < fixed || (typ == 11 && len(rec) == fixed) || (typ == 10 && len(rec) != fixed) {
			return fmt.Errorf("hdf5: dataset %s: chunk B-tree v2 record of %d bytes", o.Name, len(rec))
		}
		c := &cursor{b: rec}
		addr := c.addr(f.so)
		size, mask := cr.nbytes, uint32(0)
		if typ == 11 {
			size = c.uN(len(rec) - fixed)
			mask = c.u32()
		}
		org := make([]uint64, cr.rank)
		for k := range org {
			s := c.uN(8)
			if s > cr.dims[k]/cr.chunk[k]+1 {
				return fmt.Errorf("hdf5: dataset %s: chunk at %v outside the dataset %v", o.Name, s, cr.dims)
			}
			org[k] = s * cr.chunk[k]
		}
		if c.err != nil {
			return fmt.Errorf("hdf5: dataset %s: chunk B-tree v2 record truncated", o.Name)
		}
		if f.undef(addr) {
			return nil
		}
		return cr.chunkAt(addr, size, mask, org)
	})
	if err != nil && err != recErr {
		return fmt.Errorf("hdf5: dataset %s: chunk index: %w", o.Name, err)
	}
	return err
}
