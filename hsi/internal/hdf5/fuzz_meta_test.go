package hdf5

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// metaSignatures are the structures FuzzMetadata parses, by signature.
var metaSignatures = []string{"OHDR", "TREE", "BTHD", "FRHP", "GCOL", "HEAP", "SNOD", "FAHD", "EAHD"}

// FuzzMetadata feeds arbitrary bytes to the parsers of single metadata
// structures (object headers of both versions, group and chunk B-trees v1,
// B-trees v2, fractal heaps, global heaps, local heaps with their symbol
// table nodes, fixed and extensible arrays, and the messages an object
// header holds, the fill value messages among them), each at address 0 of
// a file made of those bytes. It is
// seeded with the structures found in the MAT-file goldens and the product
// miniatures, cut out at their signatures. Every parser must return an
// error or a result, never panic, loop or allocate beyond the file.
func FuzzMetadata(f *testing.F) {
	for _, pat := range []string{"matfile/testdata/*.mat.golden", "matfile/testdata/*.h5", "products/testdata/*.h5", "products/testdata/*.nc", "products/testdata/fill/*"} {
		paths, _ := filepath.Glob(filepath.Join("..", "..", filepath.FromSlash(pat)))
		for _, p := range paths {
			b, err := os.ReadFile(p)
			if err != nil || len(b) > 64<<10 {
				continue
			}
			for _, sig := range metaSignatures {
				if i := bytes.Index(b, []byte(sig)); i >= 0 {
					f.Add(b[i:min(len(b), i+1024)])
				}
			}
			// a version 1 object header: the root group's, after the superblock
			if i := bytes.Index(b, Signature); i >= 0 && len(b) > i+96+1024 {
				f.Add(b[i+96 : i+96+1024])
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 8 {
			return
		}
		file := &File{r: bytes.NewReader(data), size: int64(len(data)), so: 8, sl: 8}
		if msgs, err := file.objectHeader(0); err == nil {
			_, _ = file.groupLinks(msgs)
			for _, m := range msgs {
				_, _, _, _ = parseDataspaceMax(m.data, 8)
				_, _ = parseDatatype(m.data)
				_, _ = file.parseLayout(m.data)
				_, _ = parseFilters(m.data)
				_, _, _ = file.parseAttribute(m.data)
				_, _, _ = file.parseLink(m.data)
				_ = file.denseAttrs(m.data, map[string]Attr{})
				_, _ = parseFill(msgFill, m.flags, m.data)
				_, _ = parseFill(msgFillOld, m.flags, m.data)
			}
		}
		if o, err := file.parseObject("x", 0); err == nil && o.Kind == KindDataset {
			_, _ = o.Fill()
		}
		_, _ = file.symbolTable(0, 0)
		_, _ = file.snod(0, data)
		_ = file.btree2(0, func([]byte) error { return nil })
		if h, err := file.fractalHeap(0); err == nil {
			_, _ = h.get(data[:min(len(data), 16)])
		}
		_, _ = file.globalHeap(0)
		// a chunked 3-D dataset whose chunk index is at address 0
		for _, idx := range []int{indexBTree1, indexFixedArr, indexExtArr, indexBTree2} {
			o := &Object{Name: "d", Kind: KindDataset, f: file, Dims: []uint64{4, 4, 2}, maxDims: []uint64{unlimitedDim, 4, 2},
				Type:   Datatype{Class: ClassFixed, Size: 2},
				layout: layout{class: layoutChunked, version: 4, chunk: []uint64{2, 2, 2, 2}, index: idx}}
			_ = o.Read(func(start uint64, raw []byte) error {
				if start+uint64(len(raw)/2) > 32 {
					t.Fatalf("run %d+%d outside 32 elements", start, len(raw)/2)
				}
				return nil
			})
		}
	})
}
