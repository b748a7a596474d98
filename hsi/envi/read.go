package envi

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/internal/raw"
	"github.com/omnihsr/omnihsr/hsi/sample"
	"github.com/omnihsr/omnihsr/internal/par"
	"github.com/omnihsr/omnihsr/internal/regfile"
)

// DataExts returns the data-file extensions searched beside a header, in
// order after the bare stem (spectral's order, plus .bsq/.bil/.bip/.bin).
// The slice is the caller's.
func DataExts() []string { return slices.Clone(dataExts[:]) }

var dataExts = [...]string{".img", ".IMG", ".dat", ".DAT", ".raw", ".RAW", ".bsq", ".bil", ".bip", ".bin", ".BSQ", ".BIL", ".BIP"}

// IsHeader reports whether path names an ENVI header (by extension).
func IsHeader(path string) bool { return strings.EqualFold(filepath.Ext(path), ".hdr") }

// HeaderFor returns the header of an ENVI data file: path+".hdr" or the
// stem with .hdr, whichever exists ("" when neither does).
func HeaderFor(dataPath string) string {
	ext := filepath.Ext(dataPath)
	stem := strings.TrimSuffix(dataPath, ext)
	for _, p := range []string{dataPath + ".hdr", dataPath + ".HDR", stem + ".hdr", stem + ".HDR"} {
		if p != dataPath && isFile(p) {
			return p
		}
	}
	return ""
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

// Pair returns the header and data file of the ENVI image that path names
// (either of the two).
func Pair(path string) (hdrPath, dataPath string, err error) {
	if IsHeader(path) {
		st, err := os.Stat(path)
		if err != nil {
			return "", "", fmt.Errorf("envi: header %w", err)
		}
		if !st.Mode().IsRegular() {
			return "", "", fmt.Errorf("envi: %s is not a header file but %s", path, regfile.Kind(st.Mode()))
		}
		stem := path[:len(path)-len(filepath.Ext(path))]
		tried := []string{stem}
		if isFile(stem) {
			return path, stem, nil
		}
		for _, e := range dataExts {
			p := stem + e
			tried = append(tried, filepath.Base(p))
			if isFile(p) {
				return path, p, nil
			}
		}
		return "", "", fmt.Errorf("envi: %s: no data file beside the header (tried %s): %w",
			path, strings.Join(tried, ", "), errNoPartner)
	}
	h := HeaderFor(path)
	if h == "" {
		ext := filepath.Ext(path)
		return "", "", fmt.Errorf("envi: %s: no header beside the data file (tried %s.hdr and %s.hdr): %w",
			path, filepath.Base(path), filepath.Base(strings.TrimSuffix(path, ext)), errNoPartner)
	}
	return h, path, nil
}

// Read reads an ENVI image given its header or data file. See the package
// documentation for what it accepts. On NaN or infinite samples it returns
// the cube together with a *hsi.NonFiniteError.
func Read(path string, opt hsi.ReadOptions) (*hsi.Cube, hsi.SourceInfo, error) {
	var info hsi.SourceInfo
	hdrPath, dataPath, err := Pair(path)
	if err != nil {
		return nil, info, err
	}
	hf, err := regfile.Open(hdrPath)
	if err != nil {
		return nil, info, fmt.Errorf("envi: %w", err)
	}
	text, err := readHeaderBytes(hf)
	hf.Close()
	if err != nil {
		return nil, info, errHeader(hdrPath, err)
	}
	h, err := parseHeader(text)
	if err != nil {
		return nil, info, errHeader(hdrPath, err)
	}
	meta, err := h.meta()
	if err != nil {
		return nil, info, errHeader(hdrPath, err)
	}
	df, err := regfile.Open(dataPath)
	if err != nil {
		return nil, info, fmt.Errorf("envi: %w", err)
	}
	defer df.Close()
	st, err := df.Stat()
	if err != nil {
		return nil, info, fmt.Errorf("envi: %w", err)
	}
	if st.IsDir() {
		return nil, info, fmt.Errorf("envi: %s is a directory", dataPath)
	}
	c, err := readData(df, st.Size(), h, dataPath, hdrPath)
	if c == nil {
		return nil, info, err
	}
	c.Meta = meta
	info = sourceInfo(h, hdrPath, dataPath)
	return c, info, err
}

func sourceInfo(h *header, hdrPath, dataPath string) hsi.SourceInfo {
	order := "0 (little-endian)"
	if h.bigEndian {
		order = "1 (big-endian)"
	}
	d := fmt.Sprintf("data type %d, byte order %s, header offset %d, data file %s", h.dataType, order, h.offset, filepath.Base(dataPath))
	return hsi.SourceInfo{Format: "ENVI", DataType: h.typ.String(), Layout: h.interleave, Detail: d}
}

// ReadHeader parses the header of the ENVI image that path names and
// returns its metadata, size and sample type without reading the data.
func ReadHeader(path string) (h, w, b int, meta hsi.Meta, info hsi.SourceInfo, err error) {
	hdrPath, dataPath, err := Pair(path)
	if err != nil {
		return
	}
	hd, meta, err := parseHeaderFile(hdrPath)
	if err != nil {
		return
	}
	return hd.lines, hd.samples, hd.bands, meta, sourceInfo(hd, hdrPath, dataPath), nil
}

// HeaderMeta parses the ENVI header file hdrPath alone (no data file is
// needed: a header that describes another format's file, as DESIS
// deliveries add beside their GeoTIFF) and returns its size and metadata.
func HeaderMeta(hdrPath string) (h, w, b int, meta hsi.Meta, err error) {
	hd, meta, err := parseHeaderFile(hdrPath)
	if err != nil {
		return
	}
	return hd.lines, hd.samples, hd.bands, meta, nil
}

func parseHeaderFile(hdrPath string) (*header, hsi.Meta, error) {
	f, err := regfile.Open(hdrPath)
	if err != nil {
		return nil, hsi.Meta{}, fmt.Errorf("envi: %w", err)
	}
	text, err := readHeaderBytes(f)
	f.Close()
	if err != nil {
		return nil, hsi.Meta{}, errHeader(hdrPath, err)
	}
	hd, err := parseHeader(text)
	if err != nil {
		return nil, hsi.Meta{}, errHeader(hdrPath, err)
	}
	meta, err := hd.meta()
	if err != nil {
		return nil, hsi.Meta{}, errHeader(hdrPath, err)
	}
	return hd, meta, nil
}

// readData converts the samples of r (size bytes, the data file name, with
// header hdrName) into a new cube. On non-finite samples it returns the
// cube and a *hsi.NonFiniteError.
func readData(r io.ReaderAt, size int64, h *header, name, hdrName string) (*hsi.Cube, error) {
	H, W, B := h.lines, h.samples, h.bands
	if err := checkDataSize(size, h, name, hdrName); err != nil {
		return nil, err
	}
	c, err := raw.NewCube(H, W, B)
	if err != nil {
		return nil, fmt.Errorf("envi: %s: %w", name, err)
	}
	var tr raw.FiniteTracker
	if err := readRows(r, h, c, 0, &tr); err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, fmt.Errorf("envi: %s: data ends early (file changed while reading?): %w", name, err)
		}
		return nil, fmt.Errorf("envi: %s: %w", name, err)
	}
	return c, tr.Err(name)
}

// checkDataSize checks that a data file of size bytes (name, with header
// hdrName) holds exactly the samples the header promises.
func checkDataSize(size int64, h *header, name, hdrName string) error {
	H, W, B := h.lines, h.samples, h.bands
	es := h.typ.Size()
	if h.offset > size {
		return fmt.Errorf("envi: %s: header %s gives header offset = %d, beyond the end of the data file (%d bytes)", name, hdrName, h.offset, size)
	}
	dataBytes, ok := raw.MulSize(int64(H), int64(W), int64(B), int64(es))
	if !ok || dataBytes > (1<<62)-h.offset {
		return fmt.Errorf("envi: %s: %d samples x %d lines x %d bands is too large", name, W, H, B)
	}
	if need := h.offset + dataBytes; size != need {
		why := "truncated file or wrong header"
		if size > need {
			why = "the header does not describe this data file (another header's data, or a header and data file from two different writes)"
		}
		return fmt.Errorf("envi: %s: data file holds %d bytes, but header %s promises %d (%d samples x %d lines x %d bands x %d bytes + header offset %d): %s",
			name, size, hdrName, need, W, H, B, es, h.offset, why)
	}
	return nil
}

// readFull reads len(buf) bytes at off.
func readFull(r io.ReaderAt, buf []byte, off int64) error {
	n, err := r.ReadAt(buf, off)
	if n == len(buf) {
		return nil
	}
	if err == nil || errors.Is(err, fs.ErrClosed) {
		err = io.ErrUnexpectedEOF
	}
	return err
}

// readRows reads lines [y0, y0+c.H) of the image into c, noting
// non-finite samples in tr at rows relative to y0.
func readRows(r io.ReaderAt, h *header, c *hsi.Cube, y0 int, tr *raw.FiniteTracker) error {
	switch h.interleave {
	case "bip":
		return readBIP(r, h, c, y0, tr)
	case "bil":
		return readBIL(r, h, c, y0, tr)
	}
	return readBSQ(r, h, c, y0, tr)
}

// readBIP: the file order is the cube order.
func readBIP(r io.ReaderAt, h *header, c *hsi.Cube, y0 int, tr *raw.FiniteTracker) error {
	read := func(b []byte, off int64) error { return readFull(r, b, off) }
	return raw.DecodePixels(read, h.offset+int64(y0)*int64(c.W)*int64(c.B)*int64(h.typ.Size()), c, h.typ, h.bigEndian, tr)
}

// readBIL: each line holds band 0's samples, then band 1's, ... Lines
// are read a few MiB at a time and moved into the cube in groups of bands.
func readBIL(r io.ReaderAt, h *header, c *hsi.Cube, yc int, tr *raw.FiniteTracker) error {
	es := h.typ.Size()
	W, B := c.W, c.B
	lineBytes := W * B * es
	k := max(raw.ChunkBytes/lineBytes, 1)
	buf := make([]byte, min(k, c.H)*lineBytes)
	rows := make([]float32, min(B, raw.GroupBands)*W)
	for y0 := 0; y0 < c.H; y0 += k {
		n := min(k, c.H-y0)
		b := buf[:n*lineBytes]
		if err := readFull(r, b, h.offset+int64(yc+y0)*int64(lineBytes)); err != nil {
			return err
		}
		for l := 0; l < n; l++ {
			y := y0 + l
			line := b[l*lineBytes:]
			for g := 0; g < B; g += raw.GroupBands {
				kb := min(raw.GroupBands, B-g)
				for j := 0; j < kb; j++ {
					first, nbad := sample.Decode(rows[j*W:], 1, line[(g+j)*W*es:], W, h.typ, h.bigEndian)
					if nbad > 0 {
						tr.Note(nbad, y, first, g+j, rows[j*W+first])
					}
				}
				raw.ToPixels(c.Data[y*W*B:], B, g, rows, W, kb)
			}
		}
	}
	return nil
}

// bsqPixels returns the number of pixels per block for band-sequential
// I/O: each band segment is read or written whole, at most ChunkBytes/4
// float32 values per group of bands.
func bsqPixels(hw int) int {
	return min(raw.ChunkBytes/(4*raw.GroupBands), hw)
}

// readBSQ: band 0's whole image, then band 1's, ... The cube is filled in
// blocks of pixels, the blocks spread over the cores (io.ReaderAt allows
// parallel reads); for each block and group of 16 bands, one read per band
// and one transposition into the pixels' spectra.
func readBSQ(r io.ReaderAt, h *header, c *hsi.Cube, y0 int, tr *raw.FiniteTracker) error {
	es := h.typ.Size()
	HW, B := c.H*c.W, c.B
	plane := int64(h.lines) * int64(c.W) // a band's samples in the file
	first := int64(y0) * int64(c.W)      // the file pixel of c's first
	np := bsqPixels(HW)
	blocks := (HW + np - 1) / np
	workers := min(runtime.GOMAXPROCS(0), blocks)
	type scratch struct {
		buf  []byte
		rows []float32
		tr   raw.FiniteTracker
	}
	ws := make([]scratch, workers)
	err := par.ForEachErr(blocks, workers, func(wk, k int) error {
		w := &ws[wk]
		if w.buf == nil {
			w.buf = make([]byte, np*es)
			w.rows = make([]float32, min(B, raw.GroupBands)*np)
		}
		p0 := k * np
		n := min(np, HW-p0)
		b := w.buf[:n*es]
		for g := 0; g < B; g += raw.GroupBands {
			kb := min(raw.GroupBands, B-g)
			for j := 0; j < kb; j++ {
				off := h.offset + (int64(g+j)*plane+first+int64(p0))*int64(es)
				if err := readFull(r, b, off); err != nil {
					return err
				}
				first, nbad := sample.Decode(w.rows[j*n:], 1, b, n, h.typ, h.bigEndian)
				if nbad > 0 {
					p := p0 + first
					w.tr.Note(nbad, p/c.W, p%c.W, g+j, w.rows[j*n+first])
				}
			}
			raw.ToPixels(c.Data[p0*B:], B, g, w.rows, n, kb)
		}
		return nil
	})
	for _, w := range ws {
		if w.tr.Count > 0 {
			tr.Merge(&w.tr)
		}
	}
	return err
}
