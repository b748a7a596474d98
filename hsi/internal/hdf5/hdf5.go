package hdf5

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"sync"

	"github.com/omnihsr/omnihsr/hsi/sample"
)

// Signature is the 8-byte HDF5 format signature.
var Signature = []byte("\x89HDF\r\n\x1a\n")

// ErrTruncated marks an address or a block beyond the end of the file.
var ErrTruncated = errors.New("truncated or damaged file")

// ErrDuplicateChunk marks a chunk index that lists one chunk twice.
var ErrDuplicateChunk = errors.New("duplicate chunk (damaged or hostile file)")

// ErrChecksum marks data whose Fletcher-32 checksum does not match.
var ErrChecksum = errors.New("checksum mismatch (damaged file)")

// ErrNotHDF5 is returned when no superblock is found.
var ErrNotHDF5 = errors.New("hdf5: no HDF5 superblock found")

// Limits on metadata, so that a damaged file cannot make the reader loop or
// allocate without bound.
const (
	maxMeta         = 64 << 20 // largest metadata block read at once
	maxMessages     = 1 << 16  // header messages of one object
	maxContinuation = 1024     // continuation blocks of one object
	maxBTreeDepth   = 64
	maxDims         = 32
	// maxGroupDepth bounds the nesting of groups that Walk follows.
	maxGroupDepth = 1024
	// metaBase + metaPerByte x the file's size bounds the metadata that
	// one File parses in all (object header blocks, decoded attribute
	// values, global heap collections), so that a small file whose
	// headers share blocks, or whose attributes all point at one large
	// heap object, cannot take unbounded time and memory.
	metaBase    = 256 << 20
	metaPerByte = 8
)

// ErrMetadata marks a file whose metadata exceeds the reader's bound.
var ErrMetadata = errors.New("metadata exceeds the reader's bound (damaged or hostile file)")

// File is an open HDF5 file.
type File struct {
	r    io.ReaderAt
	size int64 // file size in bytes
	base int64 // absolute offset of address 0
	so   int   // size of offsets
	sl   int   // size of lengths

	SuperblockVersion int
	rootAddr          uint64

	mu    sync.Mutex
	objs  map[uint64]*Object           // parsed object headers, by address
	gheap map[uint64]map[uint32][]byte // global heap collections, by address
	meta  uint64                       // metadata bytes parsed so far
}

// charge adds n bytes to the metadata parsed so far and fails once the
// total passes the bound (metaBase + metaPerByte x the file's size).
func (f *File) charge(n uint64, what string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	lim := uint64(metaBase) + metaPerByte*uint64(f.size)
	f.meta += n
	if f.meta > lim {
		return fmt.Errorf("hdf5: %s: more than %d bytes of metadata in a file of %d bytes: %w", what, lim, f.size, ErrMetadata)
	}
	return nil
}

// Open finds the superblock (at offset 0, 512, 1024, 2048, ...) and reads it.
func Open(r io.ReaderAt, size int64) (*File, error) {
	f := &File{r: r, size: size}
	var sig [8]byte
	for off := int64(0); off+8 <= size; off = nextSBOffset(off) {
		if _, err := r.ReadAt(sig[:], off); err != nil {
			return nil, fmt.Errorf("hdf5: read superblock: %w", err)
		}
		if bytes.Equal(sig[:], Signature) {
			if err := f.readSuperblock(off); err != nil {
				return nil, err
			}
			return f, nil
		}
	}
	return nil, ErrNotHDF5
}

func nextSBOffset(off int64) int64 {
	if off == 0 {
		return 512
	}
	return off * 2
}

func (f *File) readSuperblock(off int64) error {
	n := int64(128)
	if off+n > f.size {
		n = f.size - off
	}
	b := make([]byte, n)
	if _, err := f.r.ReadAt(b, off); err != nil && err != io.EOF {
		return fmt.Errorf("hdf5: read superblock: %w", err)
	}
	c := &cursor{b: b, off: 8}
	ver := int(c.u8())
	f.SuperblockVersion = ver
	switch ver {
	case 0, 1:
		c.skip(4) // free-space, root group, reserved, shared header versions
		f.so = int(c.u8())
		f.sl = int(c.u8())
		c.skip(1)
		c.skip(4) // group leaf/internal node K
		c.skip(4) // consistency flags
		if ver == 1 {
			c.skip(4)
		}
		if err := f.checkSizes(); err != nil {
			return err
		}
		base := c.addr(f.so)
		c.addr(f.so) // free space
		c.addr(f.so) // end of file
		c.addr(f.so) // driver info
		// Root group symbol table entry.
		c.addr(f.so) // link name offset
		f.rootAddr = c.addr(f.so)
		if c.err != nil {
			return fmt.Errorf("hdf5: superblock: %w", c.err)
		}
		f.base = int64(base)
	case 2, 3:
		f.so = int(c.u8())
		f.sl = int(c.u8())
		c.skip(1) // flags
		if err := f.checkSizes(); err != nil {
			return err
		}
		base := c.addr(f.so)
		c.addr(f.so) // superblock extension
		c.addr(f.so) // end of file
		f.rootAddr = c.addr(f.so)
		if c.err != nil {
			return fmt.Errorf("hdf5: superblock: %w", c.err)
		}
		f.base = int64(base)
	default:
		return fmt.Errorf("hdf5: superblock version %d is not supported", ver)
	}
	if f.base < 0 || f.base > off || f.base >= f.size {
		// libhdf5 takes the superblock's own position as the base.
		f.base = off
	}
	return nil
}

func (f *File) checkSizes() error {
	switch f.so {
	case 2, 4, 8:
	default:
		return fmt.Errorf("hdf5: size of offsets %d is not supported", f.so)
	}
	switch f.sl {
	case 2, 4, 8:
	default:
		return fmt.Errorf("hdf5: size of lengths %d is not supported", f.sl)
	}
	return nil
}

// undef reports whether a is the undefined address.
func (f *File) undef(a uint64) bool {
	return a == ^uint64(0)>>(64-8*uint(f.so))
}

// read returns n bytes at relative address a, checked against the file size.
func (f *File) read(a uint64, n int) ([]byte, error) {
	if n < 0 || n > maxMeta {
		return nil, fmt.Errorf("hdf5: block of %d bytes at address %d is too large", n, a)
	}
	abs, err := f.abs(a, int64(n))
	if err != nil {
		return nil, err
	}
	b := make([]byte, n)
	if _, err := f.r.ReadAt(b, abs); err != nil {
		if err == io.EOF {
			return nil, fmt.Errorf("hdf5: %d bytes at address %d: %w", n, a, io.ErrUnexpectedEOF)
		}
		return nil, fmt.Errorf("hdf5: read at address %d: %w", a, err)
	}
	return b, nil
}

// abs converts a relative address to a file offset, checking that n bytes
// from there lie inside the file.
func (f *File) abs(a uint64, n int64) (int64, error) {
	if f.undef(a) {
		return 0, errors.New("hdf5: undefined address")
	}
	if a > uint64(f.size) || n < 0 || f.base+int64(a) > f.size-n {
		return 0, fmt.Errorf("hdf5: %d bytes at address %d lie beyond the end of the file (%d bytes): %w", n, a, f.size, ErrTruncated)
	}
	return f.base + int64(a), nil
}

// readAtMost reads up to n bytes at a (fewer at the end of the file).
func (f *File) readAtMost(a uint64, n int) ([]byte, error) {
	if f.undef(a) || a >= uint64(f.size) || f.base+int64(a) >= f.size {
		return nil, fmt.Errorf("hdf5: address %d lies beyond the end of the file (%d bytes): %w", a, f.size, ErrTruncated)
	}
	rest := f.size - (f.base + int64(a))
	if int64(n) > rest {
		n = int(rest)
	}
	return f.read(a, n)
}

// cursor decodes little-endian HDF5 metadata; the first out-of-range access
// sets err and every later read returns zero.
type cursor struct {
	b   []byte
	off int
	err error
}

func (c *cursor) need(n int) bool {
	if c.err != nil {
		return false
	}
	if n < 0 || c.off+n > len(c.b) || c.off+n < c.off {
		c.err = io.ErrUnexpectedEOF
		return false
	}
	return true
}

func (c *cursor) u8() uint8 {
	if !c.need(1) {
		return 0
	}
	v := c.b[c.off]
	c.off++
	return v
}

func (c *cursor) uN(n int) uint64 {
	if !c.need(n) {
		return 0
	}
	var v uint64
	for i := n - 1; i >= 0; i-- {
		v = v<<8 | uint64(c.b[c.off+i])
	}
	c.off += n
	return v
}

func (c *cursor) u16() uint16       { return uint16(c.uN(2)) }
func (c *cursor) u32() uint32       { return uint32(c.uN(4)) }
func (c *cursor) addr(n int) uint64 { return c.uN(n) }

func (c *cursor) bytes(n int) []byte {
	if !c.need(n) {
		return nil
	}
	v := c.b[c.off : c.off+n]
	c.off += n
	return v
}

func (c *cursor) skip(n int) {
	if c.need(n) {
		c.off += n
	}
}

func (c *cursor) rest() int { return len(c.b) - c.off }

// cstring returns b up to its first NUL.
func cstring(b []byte) string {
	if i := bytes.IndexByte(b, 0); i >= 0 {
		b = b[:i]
	}
	return string(b)
}

// Kind tells what a root-group member is.
type Kind int

const (
	KindDataset Kind = iota
	KindGroup
	KindOther
)

// Object is a group, a dataset or another object of the file.
type Object struct {
	Name  string // the link name (the last element of its path)
	Path  string // "/group/dataset"; "/" for the root group
	Kind  Kind
	Attrs map[string]Attr
	Addr  uint64 // object header address: what object references point to

	// For datasets:
	Dims []uint64 // as stored (C order); empty for a scalar
	Type Datatype

	f       *File
	msgs    []message // header messages of a group
	layout  layout
	filters []filter
	null    bool     // null dataspace
	maxDims []uint64 // maximum dimensions (nil: the current ones)

	// fill is the fill value's bytes as the file stores them (nil: none
	// defined, the elements never written read as 0); fillNew is true once
	// the Fill Value message was read (it overrides the old one), fillErr
	// holds a malformed one's error, reported when the dataset is read.
	fill    []byte
	fillNew bool
	fillErr error
}

// Attr is an attribute value: a string for string attributes (fixed or
// variable length; Strs holds every element of an array), numbers for
// numeric ones (Num for a scalar, Nums for any size) and object addresses
// for variable-length sequences of object references (HDF5 dimension
// scales' DIMENSION_LIST).
type Attr struct {
	Str    string
	Strs   []string
	Num    float64
	Nums   []float64
	Refs   [][]uint64
	IsStr  bool
	IsNum  bool
	Parsed bool
}

// String returns the attribute named n as a string ("" when absent or not a string).
func (o *Object) AttrString(n string) string {
	if a, ok := o.Attrs[n]; ok && a.IsStr {
		return a.Str
	}
	return ""
}

// Numel returns the number of elements of a dataset.
func (o *Object) Numel() (uint64, error) {
	if o.null {
		return 0, nil
	}
	n := uint64(1)
	for _, d := range o.Dims {
		if d != 0 && n > (1<<62)/d {
			return 0, fmt.Errorf("hdf5: dataset %s: dimensions %v overflow", o.Name, o.Dims)
		}
		n *= d
	}
	return n, nil
}

// Members lists the members of the root group in file order.
func (f *File) Members() ([]*Object, error) {
	msgs, err := f.objectHeader(f.rootAddr)
	if err != nil {
		return nil, fmt.Errorf("hdf5: root group: %w", err)
	}
	links, err := f.groupLinks(msgs)
	if err != nil {
		return nil, fmt.Errorf("hdf5: root group: %w", err)
	}
	var out []*Object
	for _, l := range links {
		o, err := f.object(l.name, l.addr)
		if err != nil {
			return nil, err
		}
		out = append(out, o)
	}
	return out, nil
}

type link struct {
	name string
	addr uint64
}

// groupLinks returns the hard links of a group from its header messages.
func (f *File) groupLinks(msgs []message) ([]link, error) {
	var links []link
	for _, m := range msgs {
		switch m.typ {
		case msgSymbolTable:
			c := &cursor{b: m.data}
			bt := c.addr(f.so)
			heap := c.addr(f.so)
			if c.err != nil {
				return nil, errors.New("symbol table message truncated")
			}
			l, err := f.symbolTable(bt, heap)
			if err != nil {
				return nil, err
			}
			links = append(links, l...)
		case msgLink:
			l, ok, err := f.parseLink(m.data)
			if err != nil {
				return nil, err
			}
			if ok {
				links = append(links, l)
			}
		case msgLinkInfo:
			c := &cursor{b: m.data}
			c.u8()
			flags := c.u8()
			if flags&1 != 0 {
				c.skip(8)
			}
			heap := c.addr(f.so)
			index := c.addr(f.so)
			if c.err != nil {
				return nil, errors.New("link info message truncated")
			}
			if f.undef(heap) {
				continue
			}
			// Name-index records: a 4-byte hash, then the heap ID.
			err := f.denseObjects(heap, index, 4, func(b []byte) error {
				l, ok, err := f.parseLink(b)
				if err != nil {
					return err
				}
				if ok {
					links = append(links, l)
				}
				return nil
			})
			if err != nil {
				return nil, fmt.Errorf("dense links: %w", err)
			}
		}
	}
	return links, nil
}

func (f *File) parseLink(b []byte) (link, bool, error) {
	c := &cursor{b: b}
	if v := c.u8(); v != 1 {
		return link{}, false, fmt.Errorf("link message version %d is not supported", v)
	}
	flags := c.u8()
	ltype := uint8(0)
	if flags&0x8 != 0 {
		ltype = c.u8()
	}
	if flags&0x4 != 0 {
		c.skip(8)
	}
	if flags&0x10 != 0 {
		c.skip(1)
	}
	nlen := int(c.uN(1 << (flags & 3)))
	name := string(c.bytes(nlen))
	if ltype != 0 {
		return link{}, false, c.err // soft or external link: not followed
	}
	a := c.addr(f.so)
	if c.err != nil {
		return link{}, false, errors.New("link message truncated")
	}
	return link{name, a}, true, nil
}

// symbolTable walks a group B-tree (v1, type 0) and its symbol table nodes.
func (f *File) symbolTable(btree, heapAddr uint64) ([]link, error) {
	hb, err := f.read(heapAddr, 8+2*f.sl+f.so)
	if err != nil {
		return nil, fmt.Errorf("local heap: %w", err)
	}
	if string(hb[:4]) != "HEAP" {
		return nil, errors.New("local heap signature missing")
	}
	hc := &cursor{b: hb, off: 8}
	dsize := hc.uN(f.sl)
	hc.uN(f.sl)
	daddr := hc.addr(f.so)
	if dsize > maxMeta {
		return nil, fmt.Errorf("local heap of %d bytes is too large", dsize)
	}
	heap, err := f.read(daddr, int(dsize))
	if err != nil {
		return nil, fmt.Errorf("local heap data: %w", err)
	}
	var links []link
	visited := map[uint64]bool{}
	var walk func(a uint64, depth int) error
	walk = func(a uint64, depth int) error {
		if depth > maxBTreeDepth || visited[a] {
			return errors.New("group B-tree is cyclic or too deep")
		}
		visited[a] = true
		head, err := f.read(a, 8+2*f.so)
		if err != nil {
			return err
		}
		if string(head[:4]) != "TREE" {
			return errors.New("group B-tree signature missing")
		}
		typ, level, n := head[4], int(head[5]), int(head[6])|int(head[7])<<8
		if typ != 0 {
			return fmt.Errorf("group B-tree node type %d", typ)
		}
		body, err := f.read(a+uint64(8+2*f.so), (n+1)*f.sl+n*f.so)
		if err != nil {
			return err
		}
		c := &cursor{b: body}
		for i := 0; i < n; i++ {
			c.uN(f.sl)
			child := c.addr(f.so)
			if c.err != nil {
				return c.err
			}
			if level > 0 {
				if err := walk(child, depth+1); err != nil {
					return err
				}
				continue
			}
			l, err := f.snod(child, heap)
			if err != nil {
				return err
			}
			links = append(links, l...)
		}
		return nil
	}
	if err := walk(btree, 0); err != nil {
		return nil, err
	}
	return links, nil
}

func (f *File) snod(a uint64, heap []byte) ([]link, error) {
	head, err := f.read(a, 8)
	if err != nil {
		return nil, err
	}
	if string(head[:4]) != "SNOD" {
		return nil, errors.New("symbol table node signature missing")
	}
	n := int(head[6]) | int(head[7])<<8
	esize := 2*f.so + 8 + 16
	body, err := f.read(a+8, n*esize)
	if err != nil {
		return nil, err
	}
	c := &cursor{b: body}
	var out []link
	for i := 0; i < n; i++ {
		noff := c.uN(f.so)
		obj := c.addr(f.so)
		c.skip(8 + 16)
		if noff >= uint64(len(heap)) {
			return nil, errors.New("symbol name offset outside the local heap")
		}
		out = append(out, link{cstring(heap[noff:]), obj})
	}
	return out, c.err
}

// object returns the object at addr under the link name name. Each
// object header is parsed once: hard links to the same object (by the
// thousand in a hostile file) share it.
func (f *File) object(name string, addr uint64) (*Object, error) {
	f.mu.Lock()
	o, ok := f.objs[addr]
	f.mu.Unlock()
	if !ok {
		var err error
		if o, err = f.parseObject(name, addr); err != nil {
			return nil, err
		}
		f.mu.Lock()
		if f.objs == nil {
			f.objs = map[uint64]*Object{}
		}
		f.objs[addr] = o
		f.mu.Unlock()
	}
	c := *o
	c.Name, c.Path = name, "/"+name
	return &c, nil
}

// parseObject reads the header of the object at addr.
func (f *File) parseObject(name string, addr uint64) (*Object, error) {
	msgs, err := f.objectHeader(addr)
	if err != nil {
		return nil, fmt.Errorf("hdf5: object %q: %w", name, err)
	}
	o := &Object{Name: name, Path: "/" + name, Addr: addr, f: f, Attrs: map[string]Attr{}, Kind: KindOther}
	var haveSpace, haveType, haveLayout bool
	for _, m := range msgs {
		switch m.typ {
		case msgSymbolTable, msgLink, msgLinkInfo, msgGroupInfo:
			o.Kind = KindGroup
		case msgDataspace:
			if m.flags&2 != 0 {
				return nil, fmt.Errorf("hdf5: object %q: shared dataspace is not supported", name)
			}
			dims, maxd, null, err := parseDataspaceMax(m.data, f.sl)
			if err != nil {
				return nil, fmt.Errorf("hdf5: object %q: %w", name, err)
			}
			o.Dims, o.maxDims, o.null, haveSpace = dims, maxd, null, true
		case msgDatatype:
			if m.flags&2 != 0 {
				return nil, fmt.Errorf("hdf5: object %q: shared (committed) datatype is not supported", name)
			}
			t, err := parseDatatype(m.data)
			if err != nil {
				return nil, fmt.Errorf("hdf5: object %q: %w", name, err)
			}
			o.Type, haveType = t, true
		case msgLayout:
			l, err := f.parseLayout(m.data)
			if err != nil {
				return nil, fmt.Errorf("hdf5: object %q: %w", name, err)
			}
			o.layout, haveLayout = l, true
		case msgFilters:
			fl, err := parseFilters(m.data)
			if err != nil {
				return nil, fmt.Errorf("hdf5: object %q: %w", name, err)
			}
			o.filters = fl
		case msgFill, msgFillOld:
			if m.typ == msgFillOld && o.fillNew {
				break
			}
			o.fill, o.fillErr = parseFill(m.typ, m.flags, m.data)
			o.fillNew = m.typ == msgFill
		case msgAttribute:
			n, a, err := f.parseAttribute(m.data)
			if errors.Is(err, ErrTruncated) || errors.Is(err, ErrMetadata) {
				// an attribute of an unsupported type is left out; one cut
				// off by the end of the file is an error
				return nil, fmt.Errorf("hdf5: object %q: attribute %q: %w", name, n, err)
			}
			if err == nil && n != "" {
				o.Attrs[n] = a
			}
		case msgAttrInfo:
			if err := f.denseAttrs(m.data, o.Attrs); err != nil {
				return nil, fmt.Errorf("hdf5: object %q: attributes: %w", name, err)
			}
		}
	}
	if haveSpace && haveType && haveLayout {
		o.Kind = KindDataset
	}
	if o.Kind == KindGroup {
		o.msgs = msgs
	}
	return o, nil
}

// Message types.
const (
	msgNil          = 0x00
	msgDataspace    = 0x01
	msgLinkInfo     = 0x02
	msgDatatype     = 0x03
	msgFillOld      = 0x04
	msgFill         = 0x05
	msgLink         = 0x06
	msgLayout       = 0x08
	msgGroupInfo    = 0x0A
	msgFilters      = 0x0B
	msgAttribute    = 0x0C
	msgContinuation = 0x10
	msgSymbolTable  = 0x11
	msgAttrInfo     = 0x15
)

type message struct {
	typ   uint16
	flags uint8
	data  []byte
}

// objectHeader returns the messages of the object header at addr,
// following continuation blocks.
func (f *File) objectHeader(addr uint64) ([]message, error) {
	pre, err := f.readAtMost(addr, 16)
	if err != nil {
		return nil, err
	}
	if len(pre) >= 4 && string(pre[:4]) == "OHDR" {
		return f.objectHeaderV2(addr)
	}
	if len(pre) < 16 {
		return nil, errors.New("object header truncated")
	}
	if pre[0] != 1 {
		return nil, fmt.Errorf("object header version %d is not supported", pre[0])
	}
	c := &cursor{b: pre, off: 2}
	nmsgs := int(c.u16())
	c.u32()
	size := c.u32()
	if nmsgs > maxMessages {
		return nil, fmt.Errorf("object header claims %d messages", nmsgs)
	}
	hb := headerBlocks{f: f, list: []block{{addr + 16, uint64(size)}}}
	var msgs []message
	for i := 0; i < len(hb.list); i++ {
		b, err := hb.read(i)
		if err != nil {
			return nil, err
		}
		c := &cursor{b: b}
		for c.rest() >= 8 && len(msgs) < nmsgs {
			typ := c.u16()
			sz := int(c.u16())
			flags := c.u8()
			c.skip(3)
			data := c.bytes(sz)
			if c.err != nil {
				return nil, errors.New("object header message truncated")
			}
			if err := hb.note(typ, data); err != nil {
				return nil, err
			}
			msgs = append(msgs, message{typ, flags, data})
		}
	}
	return msgs, nil
}

// block is a run of n bytes of an object header at address a.
type block struct {
	a uint64
	n uint64
}

// headerBlocks lists the blocks of one object header: the first, then
// those that continuation messages add as they are read.
type headerBlocks struct {
	f    *File
	list []block
	seen map[uint64]bool
}

// read returns the bytes of block i after the checks of every header
// version: at most maxContinuation continuation blocks, no block twice
// (a loop), none larger than maxMeta.
func (h *headerBlocks) read(i int) ([]byte, error) {
	if i > maxContinuation {
		return nil, errors.New("too many object header continuation blocks")
	}
	bl := h.list[i]
	if h.seen == nil {
		h.seen = map[uint64]bool{}
	}
	if h.seen[bl.a] {
		return nil, errors.New("object header continuation loop")
	}
	h.seen[bl.a] = true
	if bl.n > maxMeta {
		return nil, fmt.Errorf("object header block of %d bytes is too large", bl.n)
	}
	if err := h.f.charge(bl.n, "object header"); err != nil {
		return nil, err
	}
	return h.f.read(bl.a, int(bl.n))
}

// note adds the block that a message of type typ with the given data
// points to, when it is a continuation message.
func (h *headerBlocks) note(typ uint16, data []byte) error {
	if typ != msgContinuation {
		return nil
	}
	cc := &cursor{b: data}
	a := cc.addr(h.f.so)
	n := cc.uN(h.f.sl)
	if cc.err != nil {
		return errors.New("continuation message truncated")
	}
	h.list = append(h.list, block{a, n})
	return nil
}

func (f *File) objectHeaderV2(addr uint64) ([]message, error) {
	pre, err := f.readAtMost(addr, 4+2+16+4+8)
	if err != nil {
		return nil, err
	}
	c := &cursor{b: pre, off: 4}
	if v := c.u8(); v != 2 {
		return nil, fmt.Errorf("object header version %d is not supported", v)
	}
	flags := c.u8()
	if flags&0x20 != 0 {
		c.skip(16)
	}
	if flags&0x10 != 0 {
		c.skip(4)
	}
	size := c.uN(1 << (flags & 3))
	if c.err != nil {
		return nil, errors.New("object header truncated")
	}
	if size > maxMeta {
		return nil, fmt.Errorf("object header chunk of %d bytes is too large", size)
	}
	start := addr + uint64(c.off)
	hb := headerBlocks{f: f, list: []block{{start, size}}}
	var msgs []message
	prefix := 4
	if flags&0x4 != 0 {
		prefix = 6
	}
	for i := 0; i < len(hb.list); i++ {
		b, err := hb.read(i)
		if err != nil {
			return nil, err
		}
		if i > 0 {
			// Continuation block: "OCHK", messages, checksum.
			if len(b) < 8 || string(b[:4]) != "OCHK" {
				return nil, errors.New("object header continuation signature missing")
			}
			b = b[4 : len(b)-4]
		}
		c := &cursor{b: b}
		for c.rest() >= prefix {
			typ := uint16(c.u8())
			sz := int(c.u16())
			mflags := c.u8()
			if flags&0x4 != 0 {
				c.skip(2)
			}
			data := c.bytes(sz)
			if c.err != nil {
				return nil, errors.New("object header message truncated")
			}
			if len(msgs) >= maxMessages {
				return nil, errors.New("too many object header messages")
			}
			if err := hb.note(typ, data); err != nil {
				return nil, err
			}
			msgs = append(msgs, message{typ, mflags, data})
		}
	}
	return msgs, nil
}

func parseDataspace(b []byte, sl int) (dims []uint64, null bool, err error) {
	dims, _, null, err = parseDataspaceMax(b, sl)
	return dims, null, err
}

// parseDataspaceMax is parseDataspace with the maximum dimensions (nil
// when the message has none: the maximum is the current size; an
// unlimited dimension is unlimitedDim).
func parseDataspaceMax(b []byte, sl int) (dims, maxd []uint64, null bool, err error) {
	c := &cursor{b: b}
	ver := c.u8()
	nd := int(c.u8())
	flags := c.u8()
	switch ver {
	case 1:
		c.skip(5)
	case 2:
		if t := c.u8(); t == 2 {
			null = true
		}
	default:
		return nil, nil, false, fmt.Errorf("dataspace version %d is not supported", ver)
	}
	if nd > maxDims {
		return nil, nil, false, fmt.Errorf("dataspace of %d dimensions", nd)
	}
	dims = make([]uint64, nd)
	for i := range dims {
		dims[i] = c.uN(sl)
	}
	if flags&1 != 0 {
		maxd = make([]uint64, nd)
		for i := range maxd {
			maxd[i] = c.uN(sl)
		}
	}
	if c.err != nil {
		return nil, nil, false, errors.New("dataspace message truncated")
	}
	return dims, maxd, null, nil
}

// Datatype classes.
const (
	ClassFixed     = 0
	ClassFloat     = 1
	ClassString    = 3
	ClassReference = 7
	ClassVlen      = 9
)

// Datatype describes an element type.
type Datatype struct {
	Class     int
	Size      int
	Signed    bool
	BigEndian bool
	// VlenString is true for a variable-length string (class 9, type 1);
	// Base is the element type of a variable-length sequence.
	VlenString bool
	Base       *Datatype
	// half is true for a 2-byte float laid out as IEEE 754 binary16
	// (numpy's float16): 10 mantissa bits, 5 exponent bits, bias 15.
	half bool
}

// Numeric reports whether the type is an integer or a float the reader decodes.
func (t Datatype) Numeric() bool {
	switch t.Class {
	case ClassFixed:
		return t.Size == 1 || t.Size == 2 || t.Size == 4 || t.Size == 8
	case ClassFloat:
		return t.Size == 4 || t.Size == 8 || t.Size == 2 && t.half
	}
	return false
}

// String names the type like NumPy ("uint16", "float32").
func (t Datatype) String() string {
	switch t.Class {
	case ClassFixed:
		if t.Signed {
			return fmt.Sprintf("int%d", 8*t.Size)
		}
		return fmt.Sprintf("uint%d", 8*t.Size)
	case ClassFloat:
		return fmt.Sprintf("float%d", 8*t.Size)
	case ClassString:
		return "string"
	}
	return fmt.Sprintf("class-%d", t.Class)
}

func parseDatatype(b []byte) (Datatype, error) { return parseDatatypeDepth(b, 0) }

func parseDatatypeDepth(b []byte, depth int) (Datatype, error) {
	c := &cursor{b: b}
	cv := c.u8()
	bf := c.bytes(3)
	size := c.u32()
	if c.err != nil {
		return Datatype{}, errors.New("datatype message truncated")
	}
	t := Datatype{Class: int(cv & 0x0F), Size: int(size)}
	if size > 1<<20 {
		return Datatype{}, fmt.Errorf("datatype of %d bytes", size)
	}
	switch t.Class {
	case ClassFixed:
		t.BigEndian = bf[0]&1 != 0
		t.Signed = bf[0]&8 != 0
	case ClassFloat:
		t.BigEndian = bf[0]&1 != 0
		if bf[0]&0x40 != 0 {
			return Datatype{}, errors.New("VAX floating-point byte order is not supported")
		}
		if size == 2 {
			// properties: bit offset, precision, exponent location and
			// size, mantissa location and size, exponent bias
			off, prec := c.u16(), c.u16()
			eloc, esz, mloc, msz := c.u8(), c.u8(), c.u8(), c.u8()
			bias := c.u32()
			t.half = c.err == nil && off == 0 && prec == 16 && eloc == 10 && esz == 5 && mloc == 0 && msz == 10 && bias == 15
		}
	case ClassVlen:
		t.VlenString = bf[0]&0x0F == 1
		if !t.VlenString && depth < 4 && len(b) > 8 {
			base, err := parseDatatypeDepth(b[8:], depth+1)
			if err != nil {
				return Datatype{}, err
			}
			t.Base = &base
		}
	}
	return t, nil
}

// Sample returns the sample type of a numeric datatype (sample.Invalid
// for the others).
func (t Datatype) Sample() sample.Type {
	if !t.Numeric() {
		return sample.Invalid
	}
	if t.Class == ClassFloat {
		if t.Size == 4 {
			return sample.Float32
		}
		return sample.Float64
	}
	signed := []sample.Type{1: sample.Int8, 2: sample.Int16, 4: sample.Int32, 8: sample.Int64}
	unsigned := []sample.Type{1: sample.Uint8, 2: sample.Uint16, 4: sample.Uint32, 8: sample.Uint64}
	if t.Signed {
		return signed[t.Size]
	}
	return unsigned[t.Size]
}

// Decode converts n = len(dst) raw elements of type t to float64 with the
// sample codec (float16 here); it leaves dst alone when t is not numeric.
func (t Datatype) Decode(raw []byte, dst []float64) {
	if t.Class == ClassFloat && t.Size == 2 && t.half {
		for i := range dst {
			h := uint16(raw[2*i]) | uint16(raw[2*i+1])<<8
			if t.BigEndian {
				h = uint16(raw[2*i])<<8 | uint16(raw[2*i+1])
			}
			dst[i] = halfToFloat(h)
		}
		return
	}
	if st := t.Sample(); st != sample.Invalid {
		sample.DecodeFloat64(dst, raw, st, t.BigEndian)
	}
}

// maxAttrElems bounds the elements of one attribute that are decoded.
const maxAttrElems = 1 << 20

func (f *File) parseAttribute(b []byte) (string, Attr, error) {
	c := &cursor{b: b}
	ver := c.u8()
	c.u8()
	nsize := int(c.u16())
	tsize := int(c.u16())
	ssize := int(c.u16())
	pad := func(n int) int { return n }
	switch ver {
	case 1:
		pad = func(n int) int { return (n + 7) &^ 7 }
	case 2:
	case 3:
		c.skip(1)
	default:
		return "", Attr{}, fmt.Errorf("attribute message version %d", ver)
	}
	name := cstring(c.bytes(pad(nsize)))
	tb := c.bytes(pad(tsize))
	sb := c.bytes(pad(ssize))
	if c.err != nil {
		return "", Attr{}, errors.New("attribute message truncated")
	}
	t, err := parseDatatype(tb)
	if err != nil {
		return name, Attr{}, err
	}
	dims, null, err := parseDataspace(sb, f.sl)
	if err != nil || null {
		return name, Attr{}, err
	}
	n := uint64(1)
	for _, d := range dims {
		n *= d
		if n > maxAttrElems {
			return name, Attr{}, nil
		}
	}
	data := b[c.off:]
	a := Attr{Parsed: true}
	switch {
	case t.Class == ClassString:
		if uint64(t.Size)*n > uint64(len(data)) {
			return name, Attr{}, errors.New("attribute data truncated")
		}
		for i := 0; i < int(n); i++ {
			a.Strs = append(a.Strs, strings.TrimRight(cstring(data[i*t.Size:(i+1)*t.Size]), " "))
		}
		a.IsStr = true
		if len(a.Strs) > 0 {
			a.Str = a.Strs[0]
		}
	case t.Numeric():
		if uint64(t.Size)*n > uint64(len(data)) {
			return name, Attr{}, errors.New("attribute data truncated")
		}
		if err := f.charge(8*n, "attribute "+name); err != nil {
			return name, Attr{}, err
		}
		a.Nums = make([]float64, n)
		t.Decode(data[:uint64(t.Size)*n], a.Nums)
		if n == 1 {
			a.IsNum, a.Num = true, a.Nums[0]
		}
	case t.Class == ClassVlen:
		es := 4 + f.so + 4
		if uint64(es)*n > uint64(len(data)) {
			return name, Attr{}, errors.New("attribute data truncated")
		}
		for i := 0; i < int(n); i++ {
			e := &cursor{b: data[i*es : (i+1)*es]}
			cnt := e.u32()
			coll := e.addr(f.so)
			idx := e.u32()
			var obj []byte
			if cnt > 0 && !f.undef(coll) {
				if obj, err = f.globalHeapObject(coll, idx); err != nil {
					return name, Attr{}, err
				}
			}
			if err := f.charge(uint64(len(obj))+16, "attribute "+name); err != nil {
				return name, Attr{}, err
			}
			switch {
			case t.VlenString:
				a.IsStr = true
				a.Strs = append(a.Strs, cstring(obj))
			case t.Base != nil && t.Base.Class == ClassReference && t.Base.Size == f.so:
				if uint64(cnt)*uint64(f.so) > uint64(len(obj)) {
					return name, Attr{}, errors.New("reference list truncated")
				}
				refs := make([]uint64, cnt)
				for k := range refs {
					refs[k] = le(obj[k*f.so : (k+1)*f.so])
				}
				a.Refs = append(a.Refs, refs)
			}
		}
		if len(a.Strs) > 0 {
			a.Str = a.Strs[0]
		}
	}
	return name, a, nil
}

// denseAttrs reads the attributes an attribute info message points to.
func (f *File) denseAttrs(b []byte, into map[string]Attr) error {
	c := &cursor{b: b}
	c.u8()
	flags := c.u8()
	if flags&1 != 0 {
		c.skip(2)
	}
	heap := c.addr(f.so)
	index := c.addr(f.so)
	if c.err != nil {
		return errors.New("attribute info message truncated")
	}
	if f.undef(heap) {
		return nil
	}
	// Name-index records start with the heap ID.
	return f.denseObjects(heap, index, 0, func(m []byte) error {
		n, a, err := f.parseAttribute(m)
		if err != nil {
			return err
		}
		if n != "" {
			into[n] = a
		}
		return nil
	})
}

// halfToFloat converts an IEEE 754 binary16 value to float64, exactly.
func halfToFloat(h uint16) float64 {
	sign := 1.0
	if h&0x8000 != 0 {
		sign = -1
	}
	exp, man := int(h>>10&0x1f), float64(h&0x3ff)
	switch exp {
	case 0: // zero or subnormal
		return sign * math.Ldexp(man, -24)
	case 0x1f:
		if man != 0 {
			return math.NaN()
		}
		return sign * math.Inf(1)
	}
	return sign * math.Ldexp(1024+man, exp-25)
}
