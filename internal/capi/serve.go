package capi

import (
	"bufio"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/npy"
)

// BackendCommand is the hidden `omnihsr` subcommand that serves one call
// of Python's subprocess backend: `omnihsr _backend DIR`.
const BackendCommand = "_backend"

// Request is one call of the subprocess backend, DIR/request.json. Arrays
// travel as NPY files in DIR: in.npy (the float32 input, C order, H x W x
// B), out.npy (the float32 output), data.npy (a cube read).
type Request struct {
	// Fn is the call: "version", "output_size", "upscale",
	// "upscale_file", "read", "read_rows" or "write".
	Fn string `json:"fn"`
	// Options is the options JSON, as the C functions take it.
	Options string `json:"options"`
	// H and W are the input's size (output_size).
	H int `json:"h"`
	W int `json:"w"`
	// Src and Dst are upscale_file's paths; Path is read's and write's.
	Src  string `json:"src"`
	Dst  string `json:"dst"`
	Path string `json:"path"`
	// Meta is write's metadata JSON (omnihsr_write's).
	Meta string `json:"meta"`
	// Y0 and Y1 are read_rows's rows [Y0, Y1) (rows.npy; none when equal).
	Y0 int `json:"y0"`
	Y1 int `json:"y1"`
}

// failure is DIR/error.json: the status code and message the C functions
// would have returned.
type failure struct {
	Status  int    `json:"status"`
	Message string `json:"message"`
}

// Serve runs the call that dir/request.json describes (args: [dir]),
// writing its result to dir/result.json (and arrays to dir's NPY files),
// or its error to dir/error.json with exit status 1. Progress goes to
// stdout as lines "progress DONE TOTAL". A cancelled ctx (a signal) stops
// the call as the C ABI's cancel flag does (status 3).
func Serve(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) != 1 {
		fmt.Fprintf(stderr, "omnihsr %s: want one argument, the call's directory (used by the Python package)\n", BackendCommand)
		return 2
	}
	dir := args[0]
	res, err := serve(ctx, dir, func(done, total int) { fmt.Fprintf(stdout, "progress %d %d\n", done, total) })
	if err == nil {
		var s string
		if s, err = Marshal(res); err == nil {
			err = os.WriteFile(filepath.Join(dir, "result.json"), []byte(s), 0o600)
		}
	}
	if err != nil {
		b, _ := json.Marshal(failure{Status: StatusOf(err), Message: err.Error()})
		if werr := os.WriteFile(filepath.Join(dir, "error.json"), b, 0o600); werr != nil {
			fmt.Fprintf(stderr, "omnihsr %s: %v (and %v)\n", BackendCommand, err, werr)
		}
		return 1
	}
	return 0
}

// serve runs the request in dir and returns the result to write.
func serve(ctx context.Context, dir string, progress func(done, total int)) (any, error) {
	b, err := os.ReadFile(filepath.Join(dir, "request.json"))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", BackendCommand, err)
	}
	var r Request
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("%s: %w: request: %v", BackendCommand, ErrOption, err)
	}
	switch r.Fn {
	case "version":
		return map[string]string{"version": Version()}, nil
	case "output_size":
		h, w, err := OutputSize(r.H, r.W, r.Options)
		return map[string]int{"height": h, "width": w}, err
	case "upscale":
		in, err := readArray(filepath.Join(dir, "in.npy"))
		if err != nil {
			return nil, err
		}
		sr, res, err := UpscaleArray(ctx, in.Data, in.H, in.W, in.B, r.Options, progress)
		if err != nil {
			return nil, err
		}
		out := &hsi.Cube{H: res.Height, W: res.Width, B: res.Bands, Data: sr}
		if err := npy.Write(filepath.Join(dir, "out.npy"), out, hsi.WriteOptions{}); err != nil {
			return nil, err
		}
		return ResultOf(res, false), nil
	case "upscale_file":
		res, err := UpscaleFile(ctx, r.Src, r.Dst, r.Options, progress)
		if err != nil {
			return nil, err
		}
		return ResultOf(res, true), nil
	case "read":
		c, info, err := ReadFile(r.Path, r.Options)
		if err != nil {
			return nil, err
		}
		if err := npy.Write(filepath.Join(dir, "data.npy"), &hsi.Cube{H: c.H, W: c.W, B: c.B, Data: c.Data}, hsi.WriteOptions{}); err != nil {
			return nil, err
		}
		return MetaOf(c, info), nil
	case "read_rows":
		var dst []float32
		if r.Y1 > r.Y0 && r.Y0 >= 0 {
			// The shape, from a read of no rows (the header).
			hd, err := ReadRows(r.Path, r.Options, r.Y0, r.Y0, nil)
			if err != nil || r.Y1 > hd.(metaJSON).Shape[0] {
				_, err := ReadRows(r.Path, r.Options, r.Y0, r.Y1, nil) // its error
				return nil, err
			}
			shape := hd.(metaJSON).Shape
			n, err := hsi.Elems(r.Y1-r.Y0, shape[1], shape[2])
			if err != nil {
				return nil, fmt.Errorf("libomnihsr: %w: %w", ErrOption, err)
			}
			dst = make([]float32, n)
		}
		meta, err := ReadRows(r.Path, r.Options, r.Y0, r.Y1, dst)
		if err != nil {
			return nil, err
		}
		if dst != nil {
			m := meta.(metaJSON)
			rows := &hsi.Cube{H: r.Y1 - r.Y0, W: m.Shape[1], B: m.Shape[2], Data: dst}
			if err := npy.Write(filepath.Join(dir, "rows.npy"), rows, hsi.WriteOptions{}); err != nil {
				return nil, err
			}
		}
		return meta, nil
	case "write":
		in, err := readArray(filepath.Join(dir, "in.npy"))
		if err != nil {
			return nil, err
		}
		return WriteArray(ctx, in.Data, in.H, in.W, in.B, r.Meta, r.Path, r.Options)
	}
	return nil, fmt.Errorf("%s: %w: unknown call %q", BackendCommand, ErrOption, r.Fn)
}

// readArray reads an NPY file the Python package wrote (np.save of a
// C-contiguous float32 H x W x B array): its samples as they are, NaN
// included (no-data), checked by the call as the C ABI checks the
// caller's memory.
func readArray(path string) (*hsi.Cube, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", BackendCommand, err)
	}
	defer f.Close()
	bad := func(why string) error {
		return fmt.Errorf("%s: %w: %s: %s (want np.save of a C-contiguous float32 3-D array)", BackendCommand, ErrOption, path, why)
	}
	r := bufio.NewReaderSize(f, 1<<20)
	pre := make([]byte, 12)
	if _, err := io.ReadFull(r, pre[:10]); err != nil || string(pre[:6]) != "\x93NUMPY" {
		return nil, bad("not an NPY file")
	}
	var hlen int
	switch pre[6] {
	case 1:
		hlen = int(binary.LittleEndian.Uint16(pre[8:10]))
	case 2, 3:
		if _, err := io.ReadFull(r, pre[10:12]); err != nil {
			return nil, bad("short header")
		}
		hlen = int(binary.LittleEndian.Uint32(pre[8:12]))
	default:
		return nil, bad(fmt.Sprintf("NPY version %d", pre[6]))
	}
	if hlen > 1<<16 {
		return nil, bad("header too long")
	}
	hb := make([]byte, hlen)
	if _, err := io.ReadFull(r, hb); err != nil {
		return nil, bad("short header")
	}
	hdr := string(hb)
	if !strings.Contains(hdr, "'descr': '<f4'") || !strings.Contains(hdr, "'fortran_order': False") {
		return nil, bad("header " + strings.TrimSpace(hdr))
	}
	var h, w, c int
	i := strings.Index(hdr, "'shape': (")
	if i < 0 {
		return nil, bad("no shape")
	}
	if _, err := fmt.Sscanf(hdr[i+len("'shape': ("):], "%d, %d, %d)", &h, &w, &c); err != nil {
		return nil, bad("shape: " + err.Error())
	}
	n, err := hsi.Elems(h, w, c)
	st, serr := f.Stat()
	if err != nil || serr != nil || st.Size() != int64(len(pre[:6]))+int64(len(hb))+int64(4+2*int(pre[6]/2))+int64(n)*4 {
		return nil, bad(fmt.Sprintf("shape %d x %d x %d does not match the file's size", h, w, c))
	}
	if err := CheckAlloc(n, "the input"); err != nil {
		return nil, err
	}
	out := make([]float32, n)
	buf := make([]byte, 1<<20)
	for k := 0; k < n; {
		m := min(len(buf)/4, n-k)
		if _, err := io.ReadFull(r, buf[:4*m]); err != nil {
			return nil, fmt.Errorf("%s: %s: %w", BackendCommand, path, err)
		}
		for j := range m {
			out[k+j] = math.Float32frombits(binary.LittleEndian.Uint32(buf[4*j:]))
		}
		k += m
	}
	return &hsi.Cube{H: h, W: w, B: c, Data: out}, nil
}
