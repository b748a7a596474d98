package nn

import (
	"bytes"
	"fmt"
	"slices"
	"sync"
	"unsafe"

	"github.com/omnihsr/omnihsr/gemm"
	"github.com/omnihsr/omnihsr/internal/fma"
)

// Winograd convolution: the 3 x 3 stride-1 convolution as Winograd's
// minimal filtering F(4x4, 3x3) (Lavin and Gray, "Fast Algorithms for
// Convolutional Neural Networks", 2016). Each 4 x 4 tile of output pixels
// comes from the 6 x 6 input pixels around it: the input tile is
// transformed (V = B^T D B, per channel), multiplied position by position
// with the transformed weights (U = G w G^T, per input and output
// channel: 36 products of tiles x Cin by Cin x Cout, on the GEMM), and
// transformed back (Y = A^T M A). That is 36 multiply-adds per input and
// output channel for 16 output pixels where the direct convolution takes
// 144: the same result up to float32 rounding (the transforms add and
// subtract values up to about 100 times larger than the result, so the
// error is a few units in the last place of the largest inputs).

// winoTiles is the most tiles transformed and multiplied together (one
// work item): 36 x winoTiles x (Cin + Cout) floats of scratch (1.3 MiB at
// 32 and 128 channels), about a core's L2 cache.
const winoTiles = 48

// Conv2DWinograd is Conv2D(x, w, b, pad) computed by Winograd's F(4x4,
// 3x3) when it applies: an inference graph, a 3 x 3 kernel and channel
// counts that are multiples of 8. Otherwise it is Conv2D itself. The
// result equals Conv2D's up to float32 rounding and depends on where x's
// rows and columns start (the tiles are aligned to x's first pixel).
func (g *Graph) Conv2DWinograd(x, w, b *Tensor, pad Padding) *Tensor {
	if !g.winogradApplies(x, w, b) {
		return g.Conv2D(x, w, b, pad)
	}
	out := g.conv2DWinograd(x, w, b, pad, false)
	g.record(out, nil, x, w, b)
	return out
}

// Conv2DWinogradGELU is GELU(Conv2DWinograd(x, w, b, pad)), the GELU
// applied to each row of tiles while it is in cache; where Winograd does
// not apply it is Conv2DGELU.
func (g *Graph) Conv2DWinogradGELU(x, w, b *Tensor, pad Padding) *Tensor {
	if !g.winogradApplies(x, w, b) {
		return g.Conv2DGELU(x, w, b, pad)
	}
	out := g.conv2DWinograd(x, w, b, pad, true)
	g.record(out, nil, x, w, b)
	return out
}

func (g *Graph) winogradApplies(x, w, b *Tensor) bool {
	if g.train || w.H != 3 || w.W != 3 || w.C != x.C || x.C%8 != 0 || w.N%8 != 0 {
		return false
	}
	if b != nil && b.Len() != w.N {
		panic(fmt.Sprintf("nn: Conv2DWinograd: bias %v for %d output channels", b, w.N))
	}
	return true
}

// conv2DWinograd is the forward pass of Conv2DWinograd (arguments checked).
func (g *Graph) conv2DWinograd(x, w, b *Tensor, pad Padding, gelu bool) *Tensor {
	cin, cout := x.C, w.N
	h, wd := x.H, x.W
	u := winoWeights(w.Data, cout, cin)
	bias := make([]float32, cout) // zeros for a convolution without one
	if b != nil {
		bias = b.Data
	}
	out := g.out(x.N, h, wd, cout)
	th, tw := ceilDiv(h, 4), ceilDiv(wd, 4)
	tiles := x.N * th * tw
	// tile returns the sample and the first output pixel of tile t.
	tile := func(t int) (n, y0, x0 int) { return t / (th * tw), t / tw % th * 4, t % tw * 4 }
	rep := pad == PadReplicate
	per := winoItem(tiles, workers())
	items := ceilDiv(tiles, per)
	parFor(items, 1, func(lo, hi int) {
		need := 36*(per*(cin+cout)+2*winoSkew) + 36*cin + 36*8 + 16*cout
		buf := getCol(need)
		defer putCol(buf)
		s := *buf
		v, s := s[:36*(per*cin+winoSkew)], s[36*(per*cin+winoSkew):]
		m, s := s[:36*(per*cout+winoSkew)], s[36*(per*cout+winoSkew):]
		d, s := s[:36*cin], s[36*cin:]
		tmp, edge := s[:36*8], s[36*8:36*8+16*cout]
		for it := lo; it < hi; it++ {
			t0 := it * per
			nt := min(per, tiles-t0)
			// The products run on mt rows, nt rounded up to the GEMM
			// kernel's 12: the rows past nt are zeros whose results are
			// not read, cheaper than the kernel's partial row tile.
			mt := min(per, ceilDiv(nt, 12)*12)
			vs, ms := mt*cin+winoSkew, mt*cout+winoSkew // position strides
			if mt > nt {
				for p := range 36 {
					clear(v[p*vs+nt*cin : p*vs+mt*cin])
				}
			}
			for t := range nt {
				n, y0, x0 := tile(t0 + t)
				if y0 >= 1 && y0+5 <= h && x0 >= 1 && x0+5 <= wd {
					// Inside the image: read the tile in place.
					winoIn(x.Data[((n*h+y0-1)*wd+x0-1)*cin:], cin, wd*cin, v[t*cin:], vs, tmp)
					continue
				}
				// The 6 x 6 input pixels around the output tile are the
				// im2col row of its first pixel for a 6 x 6 kernel.
				p := (n*h+y0)*wd + x0
				im2col(d, x.Data, h, wd, cin, h, wd, 6, 1, rep, p, p+1)
				winoIn(d, cin, 6*cin, v[t*cin:], vs, tmp)
			}
			for p := range 36 {
				gemm.SgemmSerial(false, false, mt, cout, cin, 1, v[p*vs:], cin, u[p*cin*cout:], cout, 0, m[p*ms:], cout)
			}
			for t := range nt {
				n, y0, x0 := tile(t0 + t)
				rows, cols := min(4, h-y0), min(4, wd-x0)
				dst := out.Data[((n*h+y0)*wd+x0)*cout:]
				if rows == 4 && cols == 4 {
					winoOut(m[t*cout:], ms, cout, bias, dst, wd*cout, tmp)
				} else {
					winoOut(m[t*cout:], ms, cout, bias, edge, 4*cout, tmp)
					for k := range rows {
						copy(dst[k*wd*cout:][:cols*cout], edge[k*4*cout:])
					}
				}
				if gelu {
					for k := range rows {
						o := dst[k*wd*cout:][:cols*cout]
						phiSlice(o, o, true)
					}
				}
			}
		}
	})
	return out
}

// winoSkew separates the 36 positions of a transformed item by a further
// 64 bytes: their strides would otherwise be multiples of 4 KB at
// multiples of 32 tiles and 32 channels, and the 36 values of one tile,
// read and written together, would all fall in one set of the L1 cache.
const winoSkew = 16

// winoItem is the number of tiles of one work item: items of consecutive
// tiles in row-major order (an item may span rows of tiles), at most
// winoTiles, at least one per worker when there are tiles enough, and a
// multiple of the GEMM kernel's 12 rows.
func winoItem(tiles, workers int) int {
	items := max(ceilDiv(tiles, winoTiles), min(workers, ceilDiv(tiles, 12)))
	return min(winoTiles, ceilDiv(ceilDiv(tiles, items), 12)*12)
}

// winoG is G of F(4x4, 3x3), the weight transform (6 x 3).
var winoG = [6][3]float64{
	{1.0 / 4, 0, 0},
	{-1.0 / 6, -1.0 / 6, -1.0 / 6},
	{-1.0 / 6, 1.0 / 6, -1.0 / 6},
	{1.0 / 24, 1.0 / 12, 1.0 / 6},
	{1.0 / 24, -1.0 / 12, 1.0 / 6},
	{0, 0, 1},
}

// winoTransform returns U = G w G^T of the weights w (Cout x 3 x 3 x Cin)
// as 36 matrices Cin x Cout, u[(p*cin+ci)*cout+co], computed in float64.
func winoTransform(w []float32, cout, cin int) []float32 {
	u := make([]float32, 36*cin*cout)
	for co := range cout {
		for ci := range cin {
			var k [3][3]float64
			for ky := range 3 {
				for kx := range 3 {
					k[ky][kx] = float64(w[((co*3+ky)*3+kx)*cin+ci])
				}
			}
			var gk [6][3]float64 // G k
			for i := range 6 {
				for j := range 3 {
					for l := range 3 {
						gk[i][j] += winoG[i][l] * k[l][j]
					}
				}
			}
			for i := range 6 {
				for j := range 6 {
					var s float64
					for l := range 3 {
						s += gk[i][l] * winoG[j][l]
					}
					u[((i*6+j)*cin+ci)*cout+co] = float32(s)
				}
			}
		}
	}
	return u
}

// winoCache keeps the transformed weights of the layers in use, keyed by
// the address of the weights and checked against a copy of them, so a
// layer's weights changed in place (a training step) are transformed
// again.
var winoCache struct {
	sync.Mutex
	m map[*float32]*winoEntry
}

type winoEntry struct {
	w, u []float32
}

// winoCacheLen bounds the cache: two models of 6 blocks of two layers,
// with room to spare; past it the cache starts again empty.
const winoCacheLen = 64

func winoWeights(w []float32, cout, cin int) []float32 {
	key := &w[0]
	winoCache.Lock()
	e := winoCache.m[key]
	winoCache.Unlock()
	if e != nil && len(e.w) == len(w) && bytes.Equal(floatBytes(e.w), floatBytes(w)) {
		return e.u
	}
	e = &winoEntry{w: slices.Clone(w), u: winoTransform(w, cout, cin)}
	winoCache.Lock()
	if winoCache.m == nil || len(winoCache.m) >= winoCacheLen {
		winoCache.m = make(map[*float32]*winoEntry)
	}
	winoCache.m[key] = e
	winoCache.Unlock()
	return e.u
}

func floatBytes(f []float32) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(f))), 4*len(f))
}

// winoInGo is V = B^T D B for c channels: d[i*rs + j*c + ch] in,
// v[(i*6+j)*vs + ch] out. It evaluates the same expressions as the
// assembly (which fuses the multiply-adds).
func winoInGo(d []float32, c, rs int, v []float32, vs int) {
	var t [36]float32
	for ch := range c {
		for j := range 6 {
			var col [6]float32
			for i := range 6 {
				col[i] = d[i*rs+j*c+ch]
			}
			r := winoBT(col)
			for i := range 6 {
				t[i*6+j] = r[i]
			}
		}
		for i := range 6 {
			r := winoBT([6]float32(t[i*6 : i*6+6]))
			for j := range 6 {
				v[(i*6+j)*vs+ch] = r[j]
			}
		}
	}
}

// winoBT is B^T d. The products by 2 and 4 are exact, so fused or not
// they round the same; the two by 5 are fused (fma.F32), as in the
// assembly, so both give the same bits.
func winoBT(d [6]float32) [6]float32 {
	a, b := d[3]-d[1], d[4]-d[2]
	return [6]float32{
		fma.F32(-5, d[2], d[4]+4*d[0]),
		(d[3] + d[4]) - 4*(d[1]+d[2]),
		(d[4] - d[3]) + 4*(d[1]-d[2]),
		b + 2*a,
		b - 2*a,
		fma.F32(-5, d[3], d[5]+4*d[1]),
	}
}

// winoOutGo is Y = A^T M A + bias for c channels: m[(i*6+j)*ms + ch] in,
// output pixel (k, l) to dst[k*rs + l*c + ch].
func winoOutGo(m []float32, ms, c int, bias, dst []float32, rs int) {
	var t [24]float32
	for ch := range c {
		for j := range 6 {
			var col [6]float32
			for i := range 6 {
				col[i] = m[(i*6+j)*ms+ch]
			}
			o := winoAT(col)
			for k := range 4 {
				t[k*6+j] = o[k]
			}
		}
		for k := range 4 {
			o := winoAT([6]float32(t[k*6 : k*6+6]))
			for l := range 4 {
				dst[k*rs+l*c+ch] = o[l] + bias[ch]
			}
		}
	}
}

func winoAT(m [6]float32) [4]float32 {
	s1, d1 := m[1]+m[2], m[1]-m[2]
	s2, d2 := m[3]+m[4], m[3]-m[4]
	return [4]float32{
		m[0] + s1 + s2,
		d1 + 2*d2,
		s1 + 4*s2,
		(m[5] + d1) + 2*(4*d2),
	}
}
