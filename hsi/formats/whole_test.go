package formats

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/internal/memlimit"
	"github.com/omnihsr/omnihsr/internal/testfiles"
)

// ReadAll of the Source Open gives is Read, for every committed file of
// every format: the same cube (metadata and samples) and, for a file with
// an infinite sample, the same error, located and counted over the whole
// image; a Source read whole hands its cube over once.
func TestReadAllMatchesRead(t *testing.T) {
	paths := testfiles.Committed(filepath.Join("..", ".."))
	dir := t.TempDir()
	c := hsi.MustNew(6, 5, 3)
	for i := range c.Data {
		c.Data[i] = float32(i%7) / 7
	}
	c.Data[40], c.Data[71] = infMark, infMark
	for _, name := range []string{"inf.hdr", "inf.npy", "inf.tif"} {
		p := filepath.Join(dir, name)
		if err := Write(p, c, hsi.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		if name == "inf.hdr" {
			p = filepath.Join(dir, "inf.img")
		}
		markInf(t, p)
		paths = append(paths, filepath.Join(dir, name))
	}
	n, nonFinite, products := 0, 0, 0
	for _, p := range paths {
		want, _, rerr := Read(p, hsi.ReadOptions{})
		var nf *hsi.NonFiniteError
		if rerr != nil && !errors.As(rerr, &nf) {
			continue // a file Read refuses (the hostile miniatures)
		}
		src, err := Open(p, hsi.ReadOptions{})
		if err != nil {
			t.Errorf("%s: %v", p, err)
			continue
		}
		got, err := ReadAll(p, src)
		if nf != nil {
			nonFinite++
			var g *hsi.NonFiniteError
			if !errors.As(err, &g) || *g != *nf || got == nil {
				t.Errorf("%s: ReadAll error %v, Read's %v", p, err, nf)
			}
		} else if err != nil {
			t.Errorf("%s: %v", p, err)
		}
		if got == nil {
			src.Close()
			continue
		}
		n++
		if got.H != want.H || got.W != want.W || got.B != want.B || !reflect.DeepEqual(got.Meta, want.Meta) ||
			!slices.EqualFunc(got.Data, want.Data, func(x, y float32) bool { return x == y || x != x && y != y }) {
			t.Errorf("%s: ReadAll's cube differs from Read's", p)
		}
		handed := false
		switch s := src.(type) {
		case *cubeSource:
			handed = true
		case *rowsSource:
			_, handed = s.r.(cubeHolder)
			products += btoi(handed)
		}
		if handed {
			if _, err := ReadAll(p, src); err == nil || !strings.Contains(err.Error(), p) {
				t.Errorf("%s: a second ReadAll of a Source read whole: %v, want an error naming the file", p, err)
			}
		}
		src.Close()
	}
	if n < 100 || nonFinite < 3 || products < 3 {
		t.Fatalf("%d files read, %d with a non-finite sample, %d products handed over", n, nonFinite, products)
	}
}

// ReadAll of a streamed Source checks the cube's memory first: an error
// matching hsi.ErrTooLarge that names the file.
func TestReadAllMemoryChecked(t *testing.T) {
	p := filepath.Join(t.TempDir(), "a.hdr")
	if err := Write(p, hsi.MustNew(64, 64, 8), hsi.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Setenv(memlimit.Env, "64K")
	src, err := Open(p, hsi.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	if _, ok := src.(*cubeSource); ok {
		t.Fatal("an ENVI image is read whole")
	}
	hd := src.Header()
	if 4*hd.H*hd.W*hd.B <= 64<<10 {
		t.Fatalf("%dx%dx%d fits in 64 KiB: the test tests nothing", hd.H, hd.W, hd.B)
	}
	if _, err := ReadAll(p, src); !errors.Is(err, hsi.ErrTooLarge) || !strings.Contains(err.Error(), p) {
		t.Fatalf("ReadAll under a 64 KiB limit: %v", err)
	}
}

// infMark is a value markInf turns into +Inf in a file's uncompressed
// float32 data, which no writer writes.
const infMark = 7777.5

// markInf replaces every little-endian float32 infMark of the file at p by
// +Inf.
func markInf(t *testing.T, p string) {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var mark, inf [4]byte
	binary.LittleEndian.PutUint32(mark[:], math.Float32bits(infMark))
	binary.LittleEndian.PutUint32(inf[:], math.Float32bits(float32(math.Inf(1))))
	if bytes.Count(b, mark[:]) == 0 {
		t.Fatalf("%s: no mark to replace", p)
	}
	if err := os.WriteFile(p, bytes.ReplaceAll(b, mark[:], inf[:]), 0o644); err != nil {
		t.Fatal(err)
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
