package tiff

// TIFF LZW encoder (compression 5), written after libtiff's: MSB-first codes
// of 9 to 12 bits, a Clear code first, the code width growing one code early
// ("early change", as TIFF readers expect), a Clear code when the table is
// full, and EOI last. golang.org/x/image/tiff/lzw only decodes.

const (
	lzwClear     = 256
	lzwEOI       = 257
	lzwFirst     = 258
	lzwMaxCode   = 4095
	lzwHashBits  = 13
	lzwHashSize  = 1 << lzwHashBits
	lzwHashShift = 32 - lzwHashBits
)

type lzwEncoder struct {
	keys [lzwHashSize]uint32
	vals [lzwHashSize]uint16
	gens [lzwHashSize]uint32
	gen  uint32

	out  []byte
	acc  uint64
	nacc uint
}

func (e *lzwEncoder) put(code int, nbits uint) {
	e.acc = e.acc<<nbits | uint64(code)
	e.nacc += nbits
	for e.nacc >= 8 {
		e.out = append(e.out, byte(e.acc>>(e.nacc-8)))
		e.nacc -= 8
	}
	e.acc &= 1<<e.nacc - 1
}

func (e *lzwEncoder) slot(key uint32) (int, bool) {
	h := int((key * 2654435761) >> lzwHashShift)
	for e.gens[h] == e.gen {
		if e.keys[h] == key {
			return h, true
		}
		h = (h + 1) & (lzwHashSize - 1)
	}
	return h, false
}

// encode appends the LZW code stream of src to dst.
func (e *lzwEncoder) encode(dst, src []byte) []byte {
	e.out = dst
	e.acc, e.nacc = 0, 0
	e.gen++
	nbits := uint(9)
	maxcode := 1<<nbits - 1
	free := lzwFirst
	e.put(lzwClear, nbits)
	if len(src) == 0 {
		e.put(lzwEOI, nbits)
		return e.flush()
	}
	ent := int(src[0])
	for _, c := range src[1:] {
		key := uint32(ent)<<8 | uint32(c)
		h, ok := e.slot(key)
		if ok {
			ent = int(e.vals[h])
			continue
		}
		e.put(ent, nbits)
		ent = int(c)
		e.keys[h], e.vals[h], e.gens[h] = key, uint16(free), e.gen
		free++
		if free == lzwMaxCode-1 {
			e.put(lzwClear, nbits)
			e.gen++
			free = lzwFirst
			nbits = 9
			maxcode = 1<<nbits - 1
		} else if free > maxcode {
			nbits++
			maxcode = 1<<nbits - 1
		}
	}
	e.put(ent, nbits)
	free++
	if free == lzwMaxCode-1 {
		e.put(lzwClear, nbits)
		nbits = 9
	} else if free > maxcode {
		nbits++
	}
	e.put(lzwEOI, nbits)
	return e.flush()
}

func (e *lzwEncoder) flush() []byte {
	if e.nacc > 0 {
		e.out = append(e.out, byte(e.acc<<(8-e.nacc)))
		e.nacc = 0
		e.acc = 0
	}
	return e.out
}
