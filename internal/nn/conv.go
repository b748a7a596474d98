package nn

import (
	"fmt"
	"sync"

	"github.com/omnihsr/omnihsr/gemm"
	"github.com/omnihsr/omnihsr/internal/par"
)

// Padding is the border rule of a convolution.
type Padding int

const (
	// PadZero reads zeros outside the image.
	PadZero Padding = iota
	// PadReplicate reads the nearest border pixel (PyTorch
	// padding_mode='replicate').
	PadReplicate
)

func (p Padding) String() string {
	if p == PadReplicate {
		return "replicate"
	}
	return "zero"
}

// Conv2D is a stride-1 "same" convolution (cross-correlation, as PyTorch's
// Conv2d) of x (N x H x W x Cin) with w (Cout x K x K x Cin, K odd) plus the
// bias b (1 x 1 x 1 x Cout, or nil), padded by K/2 pixels with the given
// rule. K = 1 is a per-pixel linear map (Linear).
//
// It is computed as im2col + GEMM on chunks of output pixels, one chunk
// per goroutine at a time, so the im2col buffer stays small (about 1 MB
// per core) whatever the image size.
func (g *Graph) Conv2D(x, w, b *Tensor, pad Padding) *Tensor {
	k := w.H
	if w.W != k || k%2 == 0 || w.C != x.C {
		panic(fmt.Sprintf("nn: Conv2D: weight %v for input %v: want Cout x K x K x %d with K odd", w, x, x.C))
	}
	if b != nil && b.Len() != w.N {
		panic(fmt.Sprintf("nn: Conv2D: bias %v for %d output channels", b, w.N))
	}
	if k == 1 {
		return g.Linear(x, w, b)
	}
	out := g.conv2D(x, w, b, pad, false)
	g.record(out, func() {
		gy := out.Grad
		if w.needsGrad || (b != nil && b.needsGrad) {
			convGradW(g, x, w, b, gy, k, k/2, pad == PadReplicate)
		}
		if x.needsGrad {
			convGradX(g, x, w, gy, k, pad == PadReplicate)
		}
	}, x, w, b)
	return out
}

// Conv2DGELU is GELU(Conv2D(x, w, b, pad)). On an inference graph (or
// when no input needs a gradient), with K > 1, the GELU is applied to each
// chunk of output pixels right after its product, while the chunk is in
// cache, instead of in a second pass over the whole output; on a training
// graph it is the two ops.
func (g *Graph) Conv2DGELU(x, w, b *Tensor, pad Padding) *Tensor {
	if (g.train && (x.needsGrad || w.needsGrad || (b != nil && b.needsGrad))) || w.H == 1 {
		return g.GELU(g.Conv2D(x, w, b, pad))
	}
	if w.W != w.H || w.H%2 == 0 || w.C != x.C {
		panic(fmt.Sprintf("nn: Conv2DGELU: weight %v for input %v: want Cout x K x K x %d with K odd", w, x, x.C))
	}
	if b != nil && b.Len() != w.N {
		panic(fmt.Sprintf("nn: Conv2DGELU: bias %v for %d output channels", b, w.N))
	}
	out := g.conv2D(x, w, b, pad, true)
	g.record(out, nil, x, w, b)
	return out
}

// conv2D is Conv2D's forward pass (arguments checked, K > 1), with GELU
// applied to every chunk of the output when gelu is set.
func (g *Graph) conv2D(x, w, b *Tensor, pad Padding, gelu bool) *Tensor {
	k := w.H
	cin, cout := x.C, w.N
	kc := k * k * cin
	off := k / 2
	rep := pad == PadReplicate
	np := x.Pixels()
	out := g.out(x.N, x.H, x.W, cout)
	wt, ldw, transW := g.weightsFor(w.Data, cout, kc, ceilDiv(np, chunkRows(np, kc)))
	defer g.freeWeights(wt, transW)
	forChunks(np, kc, func(p0, p1 int, col []float32) {
		im2col(col, x.Data, x.H, x.W, cin, x.H, x.W, k, off, rep, p0, p1)
		// The bias goes in first and the product is added to it (beta 1):
		// one vectorised fill instead of a second pass over the output.
		var beta float32
		if b != nil {
			fillRows(out.Data[p0*cout:p1*cout], b.Data)
			beta = 1
		}
		gemm.SgemmSerial(false, transW, p1-p0, cout, kc, 1, col, kc, wt, ldw, beta, out.Data[p0*cout:], cout)
		if gelu {
			o := out.Data[p0*cout : p1*cout]
			phiSlice(o, o, true)
		}
	})
	return out
}

// convGradW accumulates dL/dw = sum over pixels of dy^T col(x), and dL/db.
// Each goroutine sums its own (static) range of chunks; the partial sums
// are added in order, so the result does not depend on timing.
func convGradW(g *Graph, x, w, b *Tensor, gy []float32, k, off int, rep bool) {
	cin, cout := x.C, w.N
	kc := k * k * cin
	np := x.Pixels()
	nc := (np + chunkRows(np, kc) - 1) / chunkRows(np, kc)
	nw := parts(nc, 1)
	accW := make([][]float32, nw)
	accB := make([][]float64, nw)
	forChunksWorker(np, kc, nw, func(wk, p0, p1 int, col []float32) {
		if accW[wk] == nil {
			accW[wk] = g.tmp(cout * kc)
			accB[wk] = make([]float64, cout)
		}
		im2col(col, x.Data, x.H, x.W, cin, x.H, x.W, k, off, rep, p0, p1)
		gemm.SgemmSerial(true, false, cout, kc, p1-p0, 1, gy[p0*cout:], cout, col, kc, 1, accW[wk], kc)
		ab := accB[wk]
		for p := p0; p < p1; p++ {
			for j, v := range gy[p*cout : (p+1)*cout] {
				ab[j] += float64(v)
			}
		}
	})
	addConvPartials(g, w, b, cout, accW, accB)
}

// addConvPartials adds the per-goroutine partial sums of a convolution's
// weight gradient (accW) and bias gradient (accB, cout sums each) to the
// gradients of w and b, in goroutine order, and frees accW. A goroutine
// that got no work may have nil sums.
func addConvPartials(g *Graph, w, b *Tensor, cout int, accW [][]float32, accB [][]float64) {
	if w.needsGrad {
		gw := g.gradOf(w)
		for _, a := range accW {
			for i, v := range a {
				gw[i] += v
			}
		}
	}
	for _, a := range accW {
		g.free(a)
	}
	if b != nil && b.needsGrad {
		gb := g.gradOf(b)
		tot := make([]float64, cout)
		for _, a := range accB {
			for j, v := range a {
				tot[j] += v
			}
		}
		for j, v := range tot {
			gb[j] += float32(v)
		}
	}
}

// convGradX accumulates dL/dx. dL/dx_pad(i, j) = sum_{ky,kx} dy(i-ky, j-kx)
// w[ky,kx]^T is a correlation of dy (zero outside the image) with the
// flipped, transposed kernel, computed with the same im2col + GEMM. With
// zero padding only the interior of x_pad is needed; with replicate
// padding the whole padded grid is computed and its border folded onto
// the edge pixels it replicates.
func convGradX(g *Graph, x, w *Tensor, gy []float32, k int, rep bool) {
	cin, cout := x.C, w.N
	kk := k * k * cout
	// wf[(ky*K+kx)*Cout+co][ci] = w[co][K-1-ky][K-1-kx][ci]
	wf := g.tmp(kk * cin)
	defer g.free(wf)
	for ky := 0; ky < k; ky++ {
		for kx := 0; kx < k; kx++ {
			for co := 0; co < cout; co++ {
				src := w.Data[((co*k+(k-1-ky))*k+(k-1-kx))*cin:][:cin]
				copy(wf[((ky*k+kx)*cout+co)*cin:][:cin], src)
			}
		}
	}
	gx, fresh := g.gradFresh(x)
	var beta float32 = 1
	if fresh {
		beta = 0
	}
	p := k / 2
	if !rep {
		forChunks(x.Pixels(), kk, func(p0, p1 int, col []float32) {
			im2col(col, gy, x.H, x.W, cout, x.H, x.W, k, p, false, p0, p1)
			gemm.SgemmSerial(false, false, p1-p0, cin, kk, 1, col, kk, wf, cin, beta, gx[p0*cin:], cin)
		})
		return
	}
	hp, wp := x.H+2*p, x.W+2*p
	gpad := g.tmp(x.N * hp * wp * cin)
	defer g.free(gpad)
	forChunks(x.N*hp*wp, kk, func(p0, p1 int, col []float32) {
		im2col(col, gy, x.H, x.W, cout, hp, wp, k, 2*p, false, p0, p1)
		gemm.SgemmSerial(false, false, p1-p0, cin, kk, 1, col, kk, wf, cin, 0, gpad[p0*cin:], cin)
	})
	// Fold: x(y, x) receives every padded position that clamps to it.
	h, wd := x.H, x.W
	parFor(x.N*h, max(1, minElems/max(wd*cin, 1)), func(lo, hi int) {
		for r := lo; r < hi; r++ {
			n, y := r/h, r%h
			ya, yb := y+p, y+p // padded rows folding onto row y
			if y == 0 {
				ya = 0
			}
			if y == h-1 {
				yb = hp - 1
			}
			for xx := 0; xx < wd; xx++ {
				xa, xb := xx+p, xx+p
				if xx == 0 {
					xa = 0
				}
				if xx == wd-1 {
					xb = wp - 1
				}
				dst := gx[((n*h+y)*wd+xx)*cin:][:cin]
				if fresh {
					clear(dst)
				}
				for py := ya; py <= yb; py++ {
					for px := xa; px <= xb; px++ {
						src := gpad[((n*hp+py)*wp+px)*cin:][:cin]
						for j, v := range src {
							dst[j] += v
						}
					}
				}
			}
		}
	})
}

// Linear applies w (Cout x 1 x 1 x Cin) to every pixel's channel vector,
// plus the bias b (1 x 1 x 1 x Cout, or nil): y = x w^T + b, a 1x1
// convolution. Like Conv2D it works on chunks of pixels, one goroutine per
// core, so the bias is added while a chunk's output is in cache.
func (g *Graph) Linear(x, w, b *Tensor) *Tensor {
	if w.H != 1 || w.W != 1 || w.C != x.C {
		panic(fmt.Sprintf("nn: Linear: weight %v for input %v: want Cout x 1 x 1 x %d", w, x, x.C))
	}
	if b != nil && b.Len() != w.N {
		panic(fmt.Sprintf("nn: Linear: bias %v for %d outputs", b, w.N))
	}
	cin, cout := x.C, w.N
	np := x.Pixels()
	out := g.out(x.N, x.H, x.W, cout)
	rows := linearRows(np, cin, cout)
	g.linearForward(x, w, b, out)
	g.record(out, func() {
		gy := out.Grad
		nc := (np + rows - 1) / rows
		if w.needsGrad || (b != nil && b.needsGrad) {
			// Per-goroutine partial sums over static ranges of chunks,
			// added in order.
			nw := parts(nc, 1)
			accW := make([][]float32, nw)
			accB := make([][]float64, nw)
			parForIdx(nc, 1, func(wk, c0, c1 int) {
				aw, ab := g.tmp(cout*cin), make([]float64, cout)
				accW[wk], accB[wk] = aw, ab
				for p0 := c0 * rows; p0 < min(c1*rows, np); p0 += rows {
					p1 := min(p0+rows, np)
					gemm.SgemmSerial(true, false, cout, cin, p1-p0, 1, gy[p0*cout:], cout, x.Data[p0*cin:], cin, 1, aw, cin)
					for p := p0; p < p1; p++ {
						for j, v := range gy[p*cout : (p+1)*cout] {
							ab[j] += float64(v)
						}
					}
				}
			})
			addConvPartials(g, w, b, cout, accW, accB)
		}
		if x.needsGrad {
			gx, fresh := g.gradFresh(x)
			var beta float32 = 1
			if fresh {
				beta = 0
			}
			parFor(nc, 1, func(c0, c1 int) {
				for p0 := c0 * rows; p0 < min(c1*rows, np); p0 += rows {
					p1 := min(p0+rows, np)
					gemm.SgemmSerial(false, false, p1-p0, cin, cout, 1, gy[p0*cout:], cout, w.Data, cin, beta, gx[p0*cin:], cin)
				}
			})
		}
	}, x, w, b)
	return out
}

// weightsFor returns the weights w (Cout x K) of a forward product over
// chunks products as the GEMM's op(B) = w^T: transposed (K x Cout, from g's
// arena, trans = false) when there are at least four chunks, so that the
// GEMM copies (or, at 32 outputs, reads in place) contiguous rows of them
// instead of gathering a column per output for every chunk; w itself
// (trans = true) for fewer, where one transposition costs more than the
// gathers it saves. Either way the products are the same, bit for bit.
// Give the result back with freeWeights.
func (g *Graph) weightsFor(w []float32, cout, k, chunks int) (b []float32, ldb int, trans bool) {
	if chunks < 4 {
		return w, k, true
	}
	return g.transposed(w, cout, k), cout, false
}

func (g *Graph) freeWeights(b []float32, trans bool) {
	if !trans {
		g.free(b)
	}
}

// transposed returns the rows x cols matrix m transposed (cols x rows) in
// a buffer from g's arena; give it back with g.free.
func (g *Graph) transposed(m []float32, rows, cols int) []float32 {
	var t []float32
	if g.arena != nil {
		t = g.arena.get(rows * cols)
	} else {
		t = make([]float32, rows*cols)
	}
	for r := 0; r < rows; r++ {
		for c, v := range m[r*cols : (r+1)*cols] {
			t[c*rows+r] = v
		}
	}
	return t
}

// LinearTo is Linear for inference: it writes x w^T + b into out (a
// tensor with x's pixels and w.N channels) instead of a new tensor, with
// the values Linear gives, and records nothing.
func (g *Graph) LinearTo(x, w, b, out *Tensor) {
	if w.H != 1 || w.W != 1 || w.C != x.C {
		panic(fmt.Sprintf("nn: LinearTo: weight %v for input %v: want Cout x 1 x 1 x %d", w, x, x.C))
	}
	if b != nil && b.Len() != w.N {
		panic(fmt.Sprintf("nn: LinearTo: bias %v for %d outputs", b, w.N))
	}
	if out.C != w.N || out.Pixels() != x.Pixels() {
		panic(fmt.Sprintf("nn: LinearTo: output %v for input %v and %d outputs", out, x, w.N))
	}
	g.linearForward(x, w, b, out)
}

// linearForward computes out = x w^T + b for Linear and LinearTo.
func (g *Graph) linearForward(x, w, b, out *Tensor) {
	cin, cout := x.C, w.N
	np := x.Pixels()
	rows := linearRows(np, cin, cout)
	wt, ldw, transW := g.weightsFor(w.Data, cout, cin, ceilDiv(np, rows))
	defer g.freeWeights(wt, transW)
	parFor((np+rows-1)/rows, 1, func(c0, c1 int) {
		for p0 := c0 * rows; p0 < min(c1*rows, np); p0 += rows {
			p1 := min(p0+rows, np)
			var beta float32
			if b != nil {
				fillRows(out.Data[p0*cout:p1*cout], b.Data)
				beta = 1
			}
			gemm.SgemmSerial(false, transW, p1-p0, cout, cin, 1, x.Data[p0*cin:], cin, wt, ldw, beta, out.Data[p0*cout:], cout)
		}
	})
}

// linearRows is the number of pixels per chunk of Linear: about 256 KiB of
// output or input per chunk, and no more than an even share of the np
// pixels per goroutine, so that a small image keeps every core busy.
func linearRows(np, cin, cout int) int {
	return min(max(64, (colFloats/4)/max(cin, cout, 1)), max(64, ceilDiv(np, workers())))
}

func ceilDiv(a, b int) int { return (a + max(b, 1) - 1) / max(b, 1) }

// fillRows sets every row of len(bias) values of rows to bias, by copies
// that double in length (memmove is vectorised; a per-value loop is not).
func fillRows(rows, bias []float32) {
	c := len(bias)
	n := len(rows) / c * c
	if n == 0 {
		return
	}
	copy(rows[:c], bias)
	for done := c; done < n; done *= 2 {
		copy(rows[done:n], rows[:done])
	}
}

// colBytes is the target size of one goroutine's im2col buffer.
var colFloats = 1 << 18 // 1 MiB

// chunkRows is the number of output pixels per im2col chunk for rows of
// kc values.
func chunkRows(np, kc int) int {
	r := colFloats / max(kc, 1)
	// No more than an even share per goroutine: with 1024 pixels and
	// kc = 288 the 1 MiB rule alone gives chunks of 910 and 114 rows,
	// leaving one core idle for most of the product.
	r = min(r, ceilDiv(np, workers()))
	r = max(r, 16)
	return r
}

// colFree keeps im2col buffers between calls (a sync.Pool would lose them
// at every garbage collection, and a fresh megabyte costs page faults).
var colFree struct {
	sync.Mutex
	list []*[]float32
}

func getCol(n int) *[]float32 {
	colFree.Lock()
	for i := len(colFree.list) - 1; i >= 0; i-- {
		if v := colFree.list[i]; cap(*v) >= n {
			colFree.list = append(colFree.list[:i], colFree.list[i+1:]...)
			colFree.Unlock()
			*v = (*v)[:n]
			return v
		}
	}
	colFree.Unlock()
	s := make([]float32, n)
	return &s
}

func putCol(v *[]float32) {
	colFree.Lock()
	defer colFree.Unlock()
	if len(colFree.list) < 16 {
		colFree.list = append(colFree.list, v)
		return
	}
	// Full: keep the larger buffers.
	small := 0
	for i, u := range colFree.list {
		if cap(*u) < cap(*colFree.list[small]) {
			small = i
		}
	}
	if cap(*v) > cap(*colFree.list[small]) {
		colFree.list[small] = v
	}
}

// forChunks calls fn on consecutive chunks [p0, p1) of np output pixels,
// spreading contiguous ranges of chunks over the cores; col is a scratch
// buffer of at least (p1-p0)*kc values owned by the calling goroutine.
func forChunks(np, kc int, fn func(p0, p1 int, col []float32)) {
	rows := chunkRows(np, kc)
	nc := (np + rows - 1) / rows
	forChunksWorker(np, kc, parts(nc, 1), func(_, p0, p1 int, col []float32) { fn(p0, p1, col) })
}

// forChunksWorker is forChunks with nw goroutines, worker wk getting the
// static range of chunks [wk*nc/nw, (wk+1)*nc/nw).
func forChunksWorker(np, kc, nw int, fn func(wk, p0, p1 int, col []float32)) {
	rows := chunkRows(np, kc)
	nc := (np + rows - 1) / rows
	par.Ranges(nc, nw, func(wk, c0, c1 int) {
		cp := getCol(rows * kc)
		defer putCol(cp)
		for ci := c0; ci < c1; ci++ {
			p0 := ci * rows
			p1 := min(p0+rows, np)
			fn(wk, p0, p1, (*cp)[:(p1-p0)*kc])
		}
	})
}

// im2col writes rows p0..p1-1 of the im2col matrix of the source src
// (N x hs x ws x cs) for an output grid of oh x ow pixels per sample:
// the row of output pixel (n, i, j) holds src(n, i+ky-off, j+kx-off, :)
// for ky, kx in [0, k), in that order, with zeros outside the source or,
// if rep, the nearest source pixel.
func im2col(dst, src []float32, hs, ws, cs, oh, ow, k, off int, rep bool, p0, p1 int) {
	kc := k * k * cs
	for p := p0; p < p1; p++ {
		n := p / (oh * ow)
		r := p % (oh * ow)
		i, j := r/ow, r%ow
		row := dst[(p-p0)*kc : (p-p0+1)*kc]
		x0 := j - off
		for ky := 0; ky < k; ky++ {
			sy := i + ky - off
			seg := row[ky*k*cs : (ky+1)*k*cs]
			if sy < 0 || sy >= hs {
				if !rep {
					clear(seg)
					continue
				}
				sy = min(max(sy, 0), hs-1)
			}
			base := (n*hs + sy) * ws
			if x0 >= 0 && x0+k <= ws {
				copy(seg, src[(base+x0)*cs:(base+x0+k)*cs])
				continue
			}
			for kx := 0; kx < k; kx++ {
				sx := x0 + kx
				d := seg[kx*cs : (kx+1)*cs]
				if sx < 0 || sx >= ws {
					if !rep {
						clear(d)
						continue
					}
					sx = min(max(sx, 0), ws-1)
				}
				copy(d, src[(base+sx)*cs:(base+sx+1)*cs])
			}
		}
	}
}
