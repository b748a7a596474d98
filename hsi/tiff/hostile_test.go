package tiff

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/klauspost/compress/zlib"
	"github.com/klauspost/compress/zstd"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/internal/memlimit"
)

// TestSharedTileBomb: a tiled float32 image whose tile offsets all point at
// one small ZSTD tile (the red team's 116 KB BigTIFF that decoded to
// 6.4 GiB) is refused before anything is decoded: the stored bytes are
// counted once per distinct offset.
func TestSharedTileBomb(t *testing.T) {
	t.Setenv(memlimit.Env, "64G") // the bound, not the memory, must refuse it
	const side, tile = 4096, 256  // 64 MiB of float32 from one tile
	zenc, err := zstd.NewWriter(nil)
	if err != nil {
		t.Fatal(err)
	}
	zs := zenc.EncodeAll(make([]byte, tile*tile*4), nil)
	zenc.Close()
	var zb bytes.Buffer
	zw := zlib.NewWriter(&zb)
	zw.Write(make([]byte, tile*tile*4))
	zw.Close()
	for _, tc := range []struct {
		name        string
		compression uint64
		tile        []byte
		pad         int // enough that the old bound (4096 or 65,536 x the file size) let it through
	}{
		{"zstd", cZSTD, zs, 2 << 10},
		{"deflate", cDeflate, zb.Bytes(), 20 << 10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := (side / tile) * (side / tile)
			offs, counts := make([]uint64, n), make([]uint64, n)
			for i := range offs {
				offs[i], counts[i] = 8, uint64(len(tc.tile))
			}
			data := append(bytes.Clone(tc.tile), make([]byte, tc.pad)...)
			b := craft(data,
				longs(tImageWidth, side), longs(tImageLength, side), shorts(tBitsPerSample, 32),
				shorts(tSamplesPerPixel, 1), shorts(tSampleFormat, 3), shorts(tPhotometric, 1),
				shorts(tCompression, tc.compression), longs(tTileWidth, tile), longs(tTileLength, tile),
				longs(tTileOffsets, offs...), longs(tTileByteCounts, counts...))
			p := writeTemp(t, b)
			c, _, err := Read(p, hsi.ReadOptions{})
			if err == nil || c != nil {
				t.Fatalf("%d-byte file of %d tiles sharing one %d-byte tile: read, want an error", len(b), n, len(tc.tile))
			}
			if !strings.Contains(err.Error(), "cannot come from") || !strings.Contains(err.Error(), p) {
				t.Errorf("error %q: want it to name %s and say \"cannot come from\"", err, p)
			}
		})
	}
}

// TestGeoFinite: a NaN or zero GeoTIFF pixel scale, a NaN tie point or a
// singular transformation is refused on read.
func TestGeoFinite(t *testing.T) {
	data := make([]byte, 2*2*2)
	for _, tc := range []struct {
		name string
		tags []tagValue
	}{
		{"nan scale", []tagValue{doubles(tModelPixelScale, []float64{math.NaN(), 30, 0}), doubles(tModelTiepoint, []float64{0, 0, 0, 500000, 4e6, 0})}},
		{"zero scale", []tagValue{doubles(tModelPixelScale, []float64{0, 30, 0}), doubles(tModelTiepoint, []float64{0, 0, 0, 500000, 4e6, 0})}},
		{"inf tiepoint", []tagValue{doubles(tModelPixelScale, []float64{30, 30, 0}), doubles(tModelTiepoint, []float64{0, 0, 0, math.Inf(1), 4e6, 0})}},
		{"nan transformation", []tagValue{doubles(tModelTransform, []float64{30, 0, 0, 500000, 0, math.NaN(), 0, 4e6, 0, 0, 0, 0, 0, 0, 0, 1})}},
		{"singular transformation", []tagValue{doubles(tModelTransform, []float64{30, 0, 0, 500000, 0, 0, 0, 4e6, 0, 0, 0, 0, 0, 0, 0, 1})}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := writeTemp(t, craft(data, stripTags(2, 2, 1, uint64(len(data)), tc.tags...)...))
			if _, _, err := Read(p, hsi.ReadOptions{}); err == nil || !strings.Contains(err.Error(), p) {
				t.Fatalf("error %v, want one naming %s", err, p)
			}
		})
	}
}
