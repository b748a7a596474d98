package envi

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/formats/raw"
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
	if err := writeData(df.File, c, t, il); err != nil {
		return fmt.Errorf("envi: write %s: %w", dataPath, err)
	}
	return publish(df, hdrPath, hdr)
}

// writeParams checks the data type and interleave of a write and returns
// them, the interleave in lower case with bsq for "".
func writeParams(opt hsi.WriteOptions) (raw.Type, string, error) {
	t, err := raw.ParseType(opt.DataType)
	if err != nil {
		return 0, "", err
	}
	if _, ok := enviCode(t); !ok {
		return 0, "", fmt.Errorf("data type %s cannot be stored in ENVI (use uint8, int16, uint16, int32, uint32, int64, uint64, float32 or float64)", t)
	}
	il := strings.ToLower(opt.Interleave)
	switch il {
	case "":
		il = "bsq"
	case "bsq", "bil", "bip":
	default:
		return 0, "", fmt.Errorf("interleave %q (want bsq, bil or bip)", opt.Interleave)
	}
	return t, il, nil
}

// publish writes hdr to hdrPath beside the complete data file df and
// renames both into place, data first and header last. On error neither is
// left behind (the caller still aborts df, which is then a no-op).
func publish(df *atomicfile.File, hdrPath string, hdr []byte) error {
	hf, err := atomicfile.Create(hdrPath)
	if err != nil {
		return fmt.Errorf("envi: %w", err)
	}
	defer hf.Abort()
	if _, err := hf.Write(hdr); err != nil {
		return fmt.Errorf("envi: write %s: %w", hdrPath, err)
	}
	if err := df.Commit(); err != nil {
		return fmt.Errorf("envi: %w", err)
	}
	if err := hf.Commit(); err != nil {
		os.Remove(df.Path)
		return fmt.Errorf("envi: %w", err)
	}
	return nil
}

// badValue describes a value that Encode rejected.
func badValue(c *hsi.Cube, i int, t raw.Type) error {
	return badAt(c.Data, c.W, c.B, 0, i, t)
}

// badAt describes the value data[i] that Encode rejected, where data holds
// whole rows of w pixels of b bands starting at row y0.
func badAt(data []float32, w, b, y0, i int, t raw.Type) error {
	p := i / b
	v := data[i]
	if v-v != 0 {
		return fmt.Errorf("the cube holds %v at row %d, column %d, band %d (0-based); non-finite values cannot be written", v, y0+p/w, p%w, i%b)
	}
	lo, hi := t.Range()
	return fmt.Errorf("value %v at row %d, column %d, band %d (0-based) does not fit %s (%g..%g); choose another data type",
		v, y0+p/w, p%w, i%b, t, lo, hi)
}

// writeData writes the samples of c in the given interleave at offset 0.
func writeData(f *os.File, c *hsi.Cube, t raw.Type, il string) error {
	es := t.Size()
	H, W, B := c.H, c.W, c.B
	switch il {
	case "bip":
		chunk := max(raw.ChunkBytes/es, 1)
		total := len(c.Data)
		buf := make([]byte, min(chunk, total)*es)
		for i := 0; i < total; i += chunk {
			n := min(chunk, total-i)
			if bad := raw.Encode(buf, c.Data[i:], 1, n, t, false); bad >= 0 {
				return badValue(c, i+bad, t)
			}
			if _, err := f.WriteAt(buf[:n*es], int64(i)*int64(es)); err != nil {
				return err
			}
		}
	case "bil":
		lineBytes := W * B * es
		k := max(raw.ChunkBytes/lineBytes, 1)
		buf := make([]byte, min(k, H)*lineBytes)
		rows := make([]float32, min(B, raw.GroupBands)*W)
		for y0 := 0; y0 < H; y0 += k {
			n := min(k, H-y0)
			for l := 0; l < n; l++ {
				y := y0 + l
				for g := 0; g < B; g += raw.GroupBands {
					kb := min(raw.GroupBands, B-g)
					raw.FromPixels(rows, c.Data[y*W*B:], B, g, W, kb)
					for j := 0; j < kb; j++ {
						if bad := raw.Encode(buf[(l*B+g+j)*W*es:], rows[j*W:], 1, W, t, false); bad >= 0 {
							return badValue(c, (y*W+bad)*B+g+j, t)
						}
					}
				}
			}
			if _, err := f.WriteAt(buf[:n*lineBytes], int64(y0)*int64(lineBytes)); err != nil {
				return err
			}
		}
	default: // bsq
		HW := H * W
		np := bsqPixels(HW)
		buf := make([]byte, np*es)
		rows := make([]float32, min(B, raw.GroupBands)*np)
		for p0 := 0; p0 < HW; p0 += np {
			n := min(np, HW-p0)
			for g := 0; g < B; g += raw.GroupBands {
				kb := min(raw.GroupBands, B-g)
				raw.FromPixels(rows, c.Data[p0*B:], B, g, n, kb)
				for j := 0; j < kb; j++ {
					if bad := raw.Encode(buf, rows[j*n:], 1, n, t, false); bad >= 0 {
						return badValue(c, (p0+bad)*B+g+j, t)
					}
					off := (int64(g+j)*int64(HW) + int64(p0)) * int64(es)
					if _, err := f.WriteAt(buf[:n*es], off); err != nil {
						return err
					}
				}
			}
		}
	}
	return nil
}
