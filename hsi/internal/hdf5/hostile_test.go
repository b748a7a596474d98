package hdf5

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/omnihsr/omnihsr/internal/memlimit"
)

// countingReader counts the bytes read through it.
type countingReader struct {
	r *bytes.Reader
	n atomic.Int64
}

func (c *countingReader) ReadAt(p []byte, off int64) (int, error) {
	c.n.Add(int64(len(p)))
	return c.r.ReadAt(p, off)
}

func openBytes(t *testing.T, b []byte) *File {
	t.Helper()
	f, err := Open(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func member(t *testing.T, f *File, name string) *Object {
	t.Helper()
	o, err := f.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// leafKey is one entry of a chunk B-tree v1 leaf: the file offset of its
// key, the chunk's stored size and address.
type leafKey struct {
	keyAt      int64
	size, addr uint64
}

// leafKeys returns the entries of the chunk B-tree of o, whose root must
// be a leaf.
func leafKeys(t *testing.T, b []byte, o *Object) []leafKey {
	t.Helper()
	f := o.f
	a := int64(o.layout.addr) + f.base
	if string(b[a:a+4]) != "TREE" || b[a+5] != 0 {
		t.Fatalf("%s: chunk B-tree root is not a leaf", o.Name)
	}
	n := int(binary.LittleEndian.Uint16(b[a+6:]))
	rank := len(o.Dims)
	keySize := int64(8 + 8*(rank+1))
	p := a + 8 + 2*int64(f.so)
	var out []leafKey
	for i := 0; i < n; i++ {
		out = append(out, leafKey{keyAt: p, size: uint64(binary.LittleEndian.Uint32(b[p:])), addr: binary.LittleEndian.Uint64(b[p+keySize:])})
		p += keySize + int64(f.so)
	}
	return out
}

func plainBytes(t *testing.T) []byte {
	b, err := os.ReadFile(filepath.Join("..", "..", "matfile", "testdata", "v73_earliest.mat.golden"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestFletcher32: a chunk whose Fletcher-32 checksum does not match is
// refused (as h5py refuses it); the intact file reads.
func TestFletcher32(t *testing.T) {
	b := plainBytes(t)
	o := member(t, openBytes(t, b), "fl32_i16")
	if o.FilterNames() != "fletcher32" {
		t.Fatalf("fl32_i16 filters %q", o.FilterNames())
	}
	if _, err := readAll(o); err != nil {
		t.Fatal(err)
	}
	keys := leafKeys(t, b, o)
	bad := bytes.Clone(b)
	bad[int64(keys[1].addr)+o.f.base] ^= 0x10 // a data byte of the second chunk
	_, err := readAll(member(t, openBytes(t, bad), "fl32_i16"))
	if !errors.Is(err, ErrChecksum) {
		t.Fatalf("corrupted chunk: error %v, want ErrChecksum", err)
	}
	// An odd length, worked by hand from H5_checksum_fletcher32: the word
	// 0x0102, then the last byte as 0x0300; sum1 = 0x0402, sum2 = 0x0504.
	if got := fletcher32([]byte{0x01, 0x02, 0x03}); got != (0x0102+0x0102+0x0300)<<16|(0x0102+0x0300) {
		t.Errorf("fletcher32 odd length: %#x", got)
	}
}

// TestDuplicateChunkKeys: a chunk B-tree leaf that lists one chunk twice
// (the red team's 60,000 keys pointing at one 16 MiB deflated chunk) is an
// error, not thousands of decompressions.
func TestDuplicateChunkKeys(t *testing.T) {
	b := plainBytes(t)
	f := openBytes(t, b)
	for _, name := range []string{"chunk_f32", "gzip_f32", "fl32_i16"} {
		o, err := f.Open(name)
		if err != nil {
			continue
		}
		keys := leafKeys(t, b, o)
		if len(keys) < 2 {
			continue
		}
		bad := bytes.Clone(b)
		rank := len(o.Dims)
		// key 1 gets key 0's chunk offsets (its size and mask stay)
		copy(bad[keys[1].keyAt+8:keys[1].keyAt+8+int64(8*rank)], b[keys[0].keyAt+8:])
		_, err = readAll(member(t, openBytes(t, bad), name))
		if !errors.Is(err, ErrDuplicateChunk) {
			t.Fatalf("%s: error %v, want ErrDuplicateChunk", name, err)
		}
		return
	}
	t.Fatal("v73_earliest.mat.golden has no chunked dataset with a leaf of two chunks")
}

// TestChunkMemLimit: a chunk larger than the memory limit is refused
// before its buffers are allocated (a 2 GiB deflate chunk fits in a 2 MB
// file), with an error matching memlimit.ErrTooLarge.
func TestChunkMemLimit(t *testing.T) {
	o := member(t, openBytes(t, plainBytes(t)), "fl32_i16")
	t.Setenv(memlimit.Env, "16") // bytes: the 16-byte chunk needs three buffers
	if _, err := readAll(o); !errors.Is(err, memlimit.ErrTooLarge) {
		t.Fatalf("error %v, want memlimit.ErrTooLarge", err)
	}
}

// Issue 39: `info` on a file whose 8-sample dataset declares one 2 GiB
// chunk took 4 GiB and 14 s. A chunk over 64 MiB and four times its
// dataset is refused before anything is allocated.
func TestChunkLargerThanDataset(t *testing.T) {
	for _, name := range []string{"gzip_f32", "chunk_f32"} {
		o, err := openBytes(t, plainBytes(t)).Open(name)
		if err != nil {
			continue
		}
		ch := o.layout.chunk
		rest := uint64(o.Type.Size)
		for _, c := range ch[1:len(o.Dims)] {
			rest *= c
		}
		ch[0] = (2 << 30) / rest // one chunk of about 2 GiB
		_, err = readAll(o)
		if err == nil || !strings.Contains(err.Error(), "may not exceed four times its dataset") {
			t.Fatalf("%s with a 2 GiB chunk: %v", name, err)
		}
		return
	}
	t.Fatal("v73_earliest.mat.golden has no chunked dataset")
}

// TestParsedOnce: hard links to one object parse its header once, and a
// variable-length string attribute reads its global heap collection once,
// so reading the file reads about the file, not hundreds of times it.
func TestParsedOnce(t *testing.T) {
	for _, tc := range []struct {
		name string
		use  func(t *testing.T, f *File)
	}{
		{"hardlinks.h5", func(t *testing.T, f *File) {
			g := member(t, f, "/links")
			mem, err := g.Members()
			if err != nil || len(mem) != 500 {
				t.Fatalf("%d members, %v", len(mem), err)
			}
			for _, m := range mem {
				if len(m.Attrs) != 200 {
					t.Fatalf("%s: %d attributes", m.Path, len(m.Attrs))
				}
			}
		}},
		{"vlen_attr.h5", func(t *testing.T, f *File) {
			if a := member(t, f, "/cube").Attrs["names"]; len(a.Strs) != 1000 {
				t.Fatalf("%d names", len(a.Strs))
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join("..", "..", "products", "testdata", "hostile", tc.name))
			if err != nil {
				t.Fatal(err)
			}
			cr := &countingReader{r: bytes.NewReader(b)}
			f, err := Open(cr, int64(len(b)))
			if err != nil {
				t.Fatal(err)
			}
			tc.use(t, f)
			if n := cr.n.Load(); n > 4*int64(len(b)) {
				t.Errorf("read %d bytes of a %d-byte file", n, len(b))
			}
		})
	}
}

// TestMetadataBound: the metadata one File parses is bounded by
// metaBase + metaPerByte x its size.
func TestMetadataBound(t *testing.T) {
	f := openBytes(t, plainBytes(t))
	lim := uint64(metaBase) + metaPerByte*uint64(f.size)
	if err := f.charge(lim-f.meta, "test"); err != nil {
		t.Fatalf("at the bound: %v", err)
	}
	if err := f.charge(1, "test"); !errors.Is(err, ErrMetadata) {
		t.Fatalf("past the bound: %v, want ErrMetadata", err)
	}
}
