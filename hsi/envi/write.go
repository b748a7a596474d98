package envi

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/internal/raw"
	"github.com/omnihsr/omnihsr/hsi/sample"
	"github.com/omnihsr/omnihsr/internal/atomicfile"
)

// WritePaths returns the header and data file that Write creates for path.
func WritePaths(path string) (hdrPath, dataPath string) {
	ext := filepath.Ext(path)
	stem := strings.TrimSuffix(path, ext)
	if strings.EqualFold(ext, ".hdr") {
		return path, stem + ".img"
	}
	return stem + ".hdr", path
}

// Write stores c as an ENVI image. See the package documentation.
func Write(path string, c *hsi.Cube, opt hsi.WriteOptions) error {
	if err := c.Validate(); err != nil {
		return fmt.Errorf("envi: write %s: %w", path, err)
	}
	t, il, err := writeParams(opt)
	if err != nil {
		return fmt.Errorf("envi: write %s: %w", path, err)
	}
	hdrPath, dataPath := WritePaths(path)
	hdr, err := formatHeader(c, t, il)
	if err != nil {
		return fmt.Errorf("envi: write %s: %w", path, err)
	}
	df, err := atomicfile.Create(dataPath)
	if err != nil {
		return fmt.Errorf("envi: %w", err)
	}
	defer df.Abort()
	if err := writeData(df, c, t, il); err != nil {
		return fmt.Errorf("envi: write %s: %w", dataPath, err)
	}
	return publish(df, hdrPath, hdr)
}

// writeParams checks the data type and interleave of a write and returns
// them, the interleave in lower case with bsq for "".
func writeParams(opt hsi.WriteOptions) (sample.Type, string, error) {
	t, err := raw.WriteType(opt.DataType)
	if err != nil {
		return 0, "", err
	}
	if _, ok := t.ENVI(); !ok {
		return 0, "", fmt.Errorf("data type %s cannot be stored in ENVI (use uint8, int16, uint16, int32, uint32, int64, uint64, float32 or float64)", t)
	}
	il, err := hsi.ParseInterleave(string(opt.Interleave))
	if err != nil {
		return 0, "", err
	}
	if il == "" {
		il = hsi.BSQ
	}
	return t, string(il), nil
}

// publish writes hdr to hdrPath beside the complete data file df and
// renames both into place, data first and header last, under the lock of
// hdrPath (atomicfile.CommitAll), so that two processes writing the same
// image leave the pair of one of them. On error neither is left behind (the
// caller still aborts df, which is then a no-op).
func publish(df *atomicfile.File, hdrPath string, hdr []byte) error {
	hf, err := atomicfile.Create(hdrPath)
	if err != nil {
		return fmt.Errorf("envi: %w", err)
	}
	defer hf.Abort()
	if _, err := hf.Write(hdr); err != nil {
		return fmt.Errorf("envi: write %s: %w", hdrPath, err)
	}
	if err := atomicfile.CommitAll(hdrPath, df, hf); err != nil {
		return fmt.Errorf("envi: %w", err)
	}
	return nil
}

// writeData writes the samples of c in the given interleave at offset 0,
// as a StreamWriter given all rows in one call would.
func writeData(f io.WriterAt, c *hsi.Cube, t sample.Type, il string) error {
	d := dataWriter{f: f, h: c.H, w: c.W, b: c.B, t: t, il: il}
	return d.writeRows(c.Data, 0, c.H)
}
