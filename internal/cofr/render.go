package cofr

import (
	"errors"
	"fmt"
	"math"

	"github.com/omnihsr/omnihsr/gemm"
	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/internal/par"
	"github.com/omnihsr/omnihsr/resample"
)

// sgemm is the matrix multiply used from the worker goroutines (each worker
// runs its own small products, so a single-threaded GEMM is what fits).
var sgemm = gemm.SgemmSerial

// gemmRows is the largest number of target pixels per product: bigger cells
// are split (measured: see the package documentation).
var gemmRows = 64

// Renderer renders one set of primitives on one target grid. It validates
// its inputs once; RenderRows can then be called for any bands of rows (to
// stream a large output), Render for the whole cube and Backward for the
// gradients. A Renderer is safe for concurrent use.
type Renderer struct {
	x   *hsi.Cube
	p   *Primitives
	opt Options

	h, w, nb int     // low-res size and bands
	oh, ow   int     // target size
	hy, hx   float64 // low-res units per high-res pixel (h/H, w/W)
	sy, sx   float64 // per-axis factors H/h, W/w
	s        float64 // effective factor, the mean of sy and sx
	a2       float64 // (a/s)^2

	radY, radX int     // candidate neighbourhood radius in low-res cells
	gy, gx     int     // cells per group (see groupCells)
	radius     float64 // paper rule: window radius in high-res pixels
	sigmaMax   float64 // paper rule: largest sigma_eff

	rowStart, colStart []int     // cell i holds target rows [rowStart[i], rowStart[i+1])
	px                 []float64 // centre of target column v, low-res units
	ty, tx             resample.Taps4
	zeroK              bool // every operator is zero: the output is U_s X
}

// NewRenderer validates x, p, the target size and the options.
func NewRenderer(x *hsi.Cube, p *Primitives, outH, outW int, opt Options) (*Renderer, error) {
	if x == nil {
		return nil, errors.New("cofr: nil input cube")
	}
	if err := x.Validate(); err != nil {
		return nil, fmt.Errorf("cofr: input cube: %w", err)
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if err := x.CheckFinite(); err != nil {
		return nil, fmt.Errorf("cofr: input cube: %w", err)
	}
	if p.H != x.H || p.W != x.W {
		return nil, fmt.Errorf("cofr: %dx%d primitives for a %dx%d input", p.H, p.W, x.H, x.W)
	}
	if outH <= 0 || outW <= 0 {
		return nil, fmt.Errorf("cofr: target size %dx%d: sizes must be positive", outH, outW)
	}
	if _, err := hsi.Elems(outH, outW, x.B); err != nil {
		return nil, fmt.Errorf("cofr: target size %dx%dx%d: %w", outH, outW, x.B, err)
	}
	// Cell arithmetic computes (2u+1)*h and 2*H*i in int.
	if outH > math.MaxInt32 || outW > math.MaxInt32 || x.H > math.MaxInt32 || x.W > math.MaxInt32 {
		return nil, fmt.Errorf("cofr: target size %dx%d from %dx%d is too large", outH, outW, x.H, x.W)
	}
	opt, err := opt.resolve()
	if err != nil {
		return nil, err
	}
	r := &Renderer{x: x, p: p, opt: opt, h: x.H, w: x.W, nb: x.B, oh: outH, ow: outW}
	r.hy, r.hx = float64(r.h)/float64(outH), float64(r.w)/float64(outW)
	r.sy, r.sx = float64(outH)/float64(r.h), float64(outW)/float64(r.w)
	r.s = (r.sy + r.sx) / 2
	r.a2 = (opt.A / r.s) * (opt.A / r.s)
	r.rowStart = cellStarts(r.h, outH)
	r.colStart = cellStarts(r.w, outW)
	r.px = make([]float64, outW)
	for v := range r.px {
		r.px[v] = (float64(v) + 0.5) * r.hx
	}
	r.ty = resample.CubicTaps(r.h, outH)
	r.tx = resample.CubicTaps(r.w, outW)
	r.zeroK = true
	for _, v := range p.K {
		if v != 0 {
			r.zeroK = false
			break
		}
	}
	if opt.PaperRule {
		var smax, oy, ox float64
		for n := range p.Sigma1 {
			s := math.Max(float64(p.Sigma1[n]), float64(p.Sigma2[n]))
			smax = math.Max(smax, math.Sqrt(s*s+r.a2))
			oy = math.Max(oy, math.Abs(float64(p.OffY[n])))
			ox = math.Max(ox, math.Abs(float64(p.OffX[n])))
		}
		r.sigmaMax = smax
		r.radius = math.Ceil(3 * smax * r.s)
		r.radY = int(math.Min(math.Ceil(r.radius/r.sy+oy)+1, float64(r.h)))
		r.radX = int(math.Min(math.Ceil(r.radius/r.sx+ox)+1, float64(r.w)))
	} else {
		r.radY, r.radX = opt.Neighbourhood/2, opt.Neighbourhood/2
	}
	r.gy, r.gx = groupCells(r.sy), groupCells(r.sx)
	return r, nil
}

// Input returns the cube the renderer renders.
func (r *Renderer) Input() *hsi.Cube { return r.x }

// WithInput returns a renderer of the same primitives on the same target
// grid over another input of the same height and width, such as some of
// the bands of this one's input (hsi.Cube.SelectBands): every band is
// rendered on its own, so band k of its output is the output this
// renderer would give for that band, within float32 rounding (the
// products are shaped by the band count).
func (r *Renderer) WithInput(x *hsi.Cube) (*Renderer, error) {
	if x == nil {
		return nil, errors.New("cofr: nil input cube")
	}
	if err := x.Validate(); err != nil {
		return nil, fmt.Errorf("cofr: input cube: %w", err)
	}
	if x.H != r.h || x.W != r.w {
		return nil, fmt.Errorf("cofr: %dx%d input for a renderer of %dx%d", x.H, x.W, r.h, r.w)
	}
	if err := x.CheckFinite(); err != nil {
		return nil, fmt.Errorf("cofr: input cube: %w", err)
	}
	if _, err := hsi.Elems(r.oh, r.ow, x.B); err != nil {
		return nil, fmt.Errorf("cofr: target size %dx%dx%d: %w", r.oh, r.ow, x.B, err)
	}
	c := *r
	c.x, c.nb = x, x.B
	return &c, nil
}

// cellStarts returns, for n low-res cells and m target samples, the first
// target index of every cell (len n+1, last = m). Target index u lies in cell
// floor((u+0.5)*n/m) = floor((2u+1)n / 2m), computed exactly in integers.
func cellStarts(n, m int) []int {
	st := make([]int, n+1)
	for i := 0; i <= n; i++ {
		num := 2*m*i - n
		u := 0
		if num > 0 {
			u = (num + 2*n - 1) / (2 * n)
		}
		st[i] = min(u, m)
	}
	st[n] = m
	return st
}

// cellOf returns the low-res cell of target index u (n cells, m samples).
func cellOf(u, n, m int) int { return ((2*u + 1) * n) / (2 * m) }

// Size returns the target size.
func (r *Renderer) Size() (outH, outW int) { return r.oh, r.ow }

// RowCut returns the first target row of the row of groups of cells that
// holds target row u (0 when u <= 0, outH when u >= outH). Bands of rows
// (RenderRows) that begin and end at such rows compute the weights of every
// group once; a band boundary inside a row of groups computes them for the
// bands on both sides. The result is the same either way.
func (r *Renderer) RowCut(u int) int {
	if u <= 0 {
		return 0
	}
	if u >= r.oh {
		return r.oh
	}
	return r.rowStart[cellOf(u, r.h, r.oh)/r.gy*r.gy]
}

// Factor returns the effective factor s (the mean of the two axes' factors).
func (r *Renderer) Factor() float64 { return r.s }

// Render returns the whole target cube, with x's metadata and its
// georeferencing scaled to the target grid.
func (r *Renderer) Render() (*hsi.Cube, error) {
	out, err := hsi.New(r.oh, r.ow, r.nb)
	if err != nil {
		return nil, fmt.Errorf("cofr: %w", err)
	}
	if err := r.RenderRows(0, r.oh, out.Data); err != nil {
		return nil, err
	}
	if out.Meta, err = r.x.Meta.Resized(r.h, r.w, r.oh, r.ow); err != nil {
		return nil, fmt.Errorf("cofr: %w", err)
	}
	return out, nil
}

// RenderRows renders target rows [u0, u1) into dst, which holds
// (u1-u0)*outW*B values in the cube's pixel-interleaved order.
func (r *Renderer) RenderRows(u0, u1 int, dst []float32) error {
	return r.renderRows(u0, u1, dst, !r.zeroK)
}

func (r *Renderer) renderRows(u0, u1 int, dst []float32, field bool) error {
	if u0 < 0 || u1 > r.oh || u0 >= u1 {
		return fmt.Errorf("cofr: rows [%d, %d) outside a %d-row target", u0, u1, r.oh)
	}
	if want := (u1 - u0) * r.ow * r.nb; len(dst) != want {
		return fmt.Errorf("cofr: rows [%d, %d): destination holds %d values, want %d", u0, u1, len(dst), want)
	}
	gLo, gHi := cellOf(u0, r.h, r.oh)/r.gy, cellOf(u1-1, r.h, r.oh)/r.gy
	var fs *fieldState
	if field {
		fs = r.newFieldState(max(0, gLo*r.gy-r.radY), min(r.h, (gHi+1)*r.gy+r.radY))
	}
	items := r.renderSplit(u0, u1, gLo, gHi)
	r.runAny(len(items), func(wk *worker, k int) {
		r.renderItem(wk, fs, items[k], u0, u1, dst, r.ow, 0)
	})
	return nil
}

// RenderWindow renders target rows [u0, u1), columns [v0, v1) into dst,
// which holds (u1-u0)*(v1-v0)*B values in the cube's pixel-interleaved
// order: the same values as RenderRows, computing only the groups of
// cells that cover the window.
func (r *Renderer) RenderWindow(u0, u1, v0, v1 int, dst []float32) error {
	if u0 < 0 || u1 > r.oh || u0 >= u1 || v0 < 0 || v1 > r.ow || v0 >= v1 {
		return fmt.Errorf("cofr: window rows [%d, %d), columns [%d, %d) outside a %dx%d target", u0, u1, v0, v1, r.oh, r.ow)
	}
	w := v1 - v0
	if want := (u1 - u0) * w * r.nb; len(dst) != want {
		return fmt.Errorf("cofr: window %dx%d: destination holds %d values, want %d", u1-u0, w, len(dst), want)
	}
	gLo, gHi := cellOf(u0, r.h, r.oh)/r.gy, cellOf(u1-1, r.h, r.oh)/r.gy
	cLo, cHi := cellOf(v0, r.w, r.ow)/r.gx, cellOf(v1-1, r.w, r.ow)/r.gx+1
	// The groups render whole: into a buffer as wide as their columns.
	va, vb := r.colStart[cLo*r.gx], r.colStart[min(r.w, cHi*r.gx)]
	bw := vb - va
	buf := dst
	if va != v0 || vb != v1 {
		buf = make([]float32, (u1-u0)*bw*r.nb)
	}
	var fs *fieldState
	if !r.zeroK {
		fs = r.newFieldStateCols(max(0, gLo*r.gy-r.radY), min(r.h, (gHi+1)*r.gy+r.radY),
			max(0, cLo*r.gx-r.radX), min(r.w, cHi*r.gx+r.radX))
	}
	items := r.splitCols(u0, u1, gLo, gHi, cLo, cHi)
	r.run(len(items), func(wk *worker, k int) {
		r.renderItem(wk, fs, items[k], u0, u1, buf, bw, va)
	})
	if va != v0 || vb != v1 {
		for u := 0; u < u1-u0; u++ {
			copy(dst[u*w*r.nb:(u+1)*w*r.nb], buf[(u*bw+v0-va)*r.nb:])
		}
	}
	return nil
}

// fieldState holds r_n and the geometry of the primitives of low-res rows
// [r0, r1), columns [c0, c0+cw).
type fieldState struct {
	r0, r1 int
	c0, cw int
	rr     []float32 // r_n, idx(i, j)*B
	geo    []geom    // idx(i, j)
}

// idx returns the index of primitive (i, j) in the state.
func (fs *fieldState) idx(i, j int) int { return (i-fs.r0)*fs.cw + j - fs.c0 }

func (r *Renderer) newFieldState(r0, r1 int) *fieldState {
	return r.newFieldStateCols(r0, r1, 0, r.w)
}

// newFieldStateCols computes r_n and the geometry of the primitives of
// low-res rows [r0, r1), columns [c0, c1) only.
func (r *Renderer) newFieldStateCols(r0, r1, c0, c1 int) *fieldState {
	cw := c1 - c0
	fs := &fieldState{r0: r0, r1: r1, c0: c0, cw: cw,
		rr:  make([]float32, (r1-r0)*cw*r.nb),
		geo: make([]geom, (r1-r0)*cw)}
	rowLen := cw * r.nb
	par.ForEach(r1-r0, r.opt.Workers, func(k int) {
		i := r0 + k
		operatorRowCols(r.x, r.p.K, i, c0, c1, fs.rr[k*rowLen:(k+1)*rowLen])
		for j := c0; j < c1; j++ {
			fs.geo[k*cw+j-c0] = makeGeom(r.p, i*r.w+j, i, j, r.a2, r.hy, r.hx)
		}
	})
	return fs
}

// Target pixels are processed in groups: gy x gx low-res cells (one cell
// when the factor is 8 or more, more cells at smaller factors, so that a
// group holds about groupSide x groupSide target pixels). The candidate
// primitives of a group are the union of its cells' neighbourhoods; each
// candidate's weight is zero outside the cells (a rectangle of them) whose
// neighbourhood holds it. Larger groups spread the fixed cost of each
// (candidate, group) pair over more pixels at the price of a wider product.
const (
	groupSide = 8
	groupMax  = 8
)

func groupCells(s float64) int {
	return max(1, min(groupMax, int(math.Ceil(groupSide/s-1e-9))))
}

// group is a block of cells: cell rows [i0, i1), columns [j0, j1), with
// target rows [fa, fb) and columns [va, vb).
type group struct {
	i0, i1, j0, j1 int
	fa, fb, va, vb int
}

func (r *Renderer) group(gr, gc int) group {
	g := group{i0: gr * r.gy, i1: min(r.h, (gr+1)*r.gy), j0: gc * r.gx, j1: min(r.w, (gc+1)*r.gx)}
	g.fa, g.fb = r.rowStart[g.i0], r.rowStart[g.i1]
	g.va, g.vb = r.colStart[g.j0], r.colStart[g.j1]
	return g
}

// item is a unit of work: group rows [g0, g1), group columns [c0, c1).
type item struct{ g0, g1, c0, c1 int }

// split divides the group rows gLo..gHi among the workers: contiguous runs
// with about equal numbers of target rows, or, when there are too few group
// rows, every group row cut into column chunks.
func (r *Renderer) split(u0, u1, gLo, gHi int) []item {
	return r.splitCols(u0, u1, gLo, gHi, 0, (r.w+r.gx-1)/r.gx)
}

// splitCols is split over group columns [cLo, cHi) only.
func (r *Renderer) splitCols(u0, u1, gLo, gHi, cLo, cHi int) []item {
	nw := r.opt.Workers
	ngc := cHi - cLo
	rows := u1 - u0
	if nw == 1 {
		return []item{{gLo, gHi + 1, cLo, cHi}}
	}
	if gHi-gLo+1 >= 2*nw && rows >= 2*nw {
		var its []item
		start := gLo
		for k := 1; k <= nw && start <= gHi; k++ {
			end := gHi + 1
			if k < nw {
				u := u0 + rows*k/nw
				end = max(cellOf(u, r.h, r.oh)/r.gy, start+1)
			}
			if end > start {
				its = append(its, item{start, min(end, gHi+1), cLo, cHi})
				start = end
			}
		}
		return its
	}
	nc := min(nw, ngc)
	var its []item
	for g := gLo; g <= gHi; g++ {
		for c := 0; c < nc; c++ {
			its = append(its, item{g, g + 1, cLo + ngc*c/nc, cLo + ngc*(c+1)/nc})
		}
	}
	return its
}

// itemsPerWorker is about how many items a render of rows is cut into per
// worker (renderSplit).
const itemsPerWorker = 4

// renderSplit divides target rows [u0, u1) of a render into items that the
// workers take in any order (runAny): the runs of group rows of split, each
// cut into column chunks so that there are about itemsPerWorker items per
// worker. A worker that finishes early (runs of unequal height, or a core
// shared with another goroutine such as a writer) then takes what is left.
// Every item writes pixels of its own, computed as in any other split, so
// the result does not depend on it.
func (r *Renderer) renderSplit(u0, u1, gLo, gHi int) []item {
	its := r.split(u0, u1, gLo, gHi)
	want := itemsPerWorker * r.opt.Workers
	if r.opt.Workers == 1 || len(its) >= want {
		return its
	}
	cc := (want + len(its) - 1) / len(its)
	out := make([]item, 0, cc*len(its))
	for _, it := range its {
		n := it.c1 - it.c0
		c := min(cc, n)
		for k := 0; k < c; k++ {
			out = append(out, item{it.g0, it.g1, it.c0 + n*k/c, it.c0 + n*(k+1)/c})
		}
	}
	return out
}

// runAny calls f(worker, k) for k in [0, n) on the renderer's goroutines,
// each taking the next k when it is free: for work whose result does not
// depend on which worker does it.
func (r *Renderer) runAny(n int, f func(*worker, int)) {
	nw := min(r.opt.Workers, n)
	wks := make([]*worker, nw)
	for t := range wks {
		wks[t] = &worker{}
	}
	par.ForEachErr(n, nw, func(t, k int) error {
		f(wks[t], k)
		return nil
	})
}

// worker holds one goroutine's scratch buffers.
type worker struct {
	g64   []float64 // G, candidate-major (Kc x P)
	sum   []float64 // sum_j alpha_j G_j per pixel
	nz    []bool
	wt    []float32 // normalised weights (Kc x P)
	inv   []float32 // 1/(sum_j alpha_j G_j + eps) per pixel
	tmp   []float32 // P x B
	chunk []float32 // one product's rows, when only some of them are wanted
	nbuf  []float32 // neighbour block: r_n of the candidate rows, interleaved
	gt    []float32 // backward: <r_n, dY(p)> (Kc x P)
	dyc   []float32 // backward: dY of one group (P x B)
	dnb   []float32 // backward: dL/d(neighbour block)
	dr    []float32 // backward: this worker's dL/dr (h*w*B)
	acc   []float64 // backward: this worker's per-primitive sums (accN per primitive)
	dot   []float64 // backward: sum_n w_n(p) <r_n, dY(p)> per pixel
}

func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// run calls f(worker, k) for k in [0, n) on the renderer's goroutines.
// Worker t takes items t, t+nw, t+2nw, ... in order: a fixed assignment,
// so that sums a worker accumulates (Backward) are the same on every run.
func (r *Renderer) run(n int, f func(*worker, int)) []*worker {
	nw := min(r.opt.Workers, n)
	wks := make([]*worker, nw)
	for t := range wks {
		wks[t] = &worker{}
	}
	par.Strided(n, nw, func(t, k int) { f(wks[t], k) })
	return wks
}

// renderItem renders one item into dst, whose rows are W target pixels
// wide starting at target column vOff.
func (r *Renderer) renderItem(wk *worker, fs *fieldState, it item, u0, u1 int, dst []float32, W, vOff int) {
	B := r.nb
	first, last := r.group(it.g0, it.c0), r.group(it.g0, it.c1-1)
	vA, vB := first.va, last.vb
	if vA >= vB {
		return
	}
	// The ring must hold every low-res row one group row needs at once.
	slots := 1
	for gr := it.g0; gr < it.g1; gr++ {
		g := r.group(gr, it.c0)
		ua, ub := max(g.fa, u0), min(g.fb, u1)
		if ua < ub {
			slots = max(slots, r.ty.Idx[ub-1][3]-r.ty.Idx[ua][0]+1)
		}
	}
	ring := newHring(r.x, &r.tx, slots, vA, vB)
	for gr := it.g0; gr < it.g1; gr++ {
		row := r.group(gr, it.c0)
		ua, ub := max(row.fa, u0), min(row.fb, u1)
		if ua >= ub {
			continue
		}
		for k := r.ty.Idx[ua][0]; k <= r.ty.Idx[ub-1][3]; k++ {
			ring.get(k)
		}
		var blk neighbours
		if fs != nil {
			blk = r.buildNeighbours(wk, fs, row.i0, row.i1, first.j0, last.j1)
		}
		for gc := it.c0; gc < it.c1; gc++ {
			g := r.group(gr, gc)
			if g.va >= g.vb {
				continue
			}
			var tmp []float32
			if fs != nil {
				tmp = r.groupField(wk, fs, &blk, g, ua, ub)
			}
			seg := (g.vb - g.va) * B
			o := (g.va - vA) * B
			for u := ua; u < ub; u++ {
				idx := r.ty.Idx[u]
				d := dst[((u-u0)*W+g.va-vOff)*B : ((u-u0)*W+g.vb-vOff)*B]
				var t []float32
				if tmp != nil {
					t = tmp[(u-ua)*seg : (u-ua+1)*seg]
				}
				sum4(d, ring.get(idx[0])[o:o+seg], ring.get(idx[1])[o:o+seg], ring.get(idx[2])[o:o+seg], ring.get(idx[3])[o:o+seg], t, &r.ty.W[u])
			}
		}
	}
}

// neighbours is the block of r_n for the candidate primitives of one group
// row: rows i0..i0+kr-1 of primitives, columns c0..c1, stored interleaved so
// that the candidates of every group are contiguous: entry
// ((j-c0)*kr + (i-i0)).
type neighbours struct {
	i0, kr, c0, c1 int
	buf            []float32
}

// buildNeighbours gathers the block for cell rows [i0, i1) and cell
// columns [j0, j1).
func (r *Renderer) buildNeighbours(wk *worker, fs *fieldState, i0, i1, j0, j1 int) neighbours {
	B := r.nb
	nb := neighbours{i0: max(0, i0-r.radY), c0: max(0, j0-r.radX), c1: min(r.w-1, j1-1+r.radX)}
	nb.kr = min(r.h-1, i1-1+r.radY) - nb.i0 + 1
	wk.nbuf = grow(wk.nbuf, (nb.c1-nb.c0+1)*nb.kr*B)
	nb.buf = wk.nbuf
	for c := nb.c0; c <= nb.c1; c++ {
		for k := 0; k < nb.kr; k++ {
			src := fs.rr[fs.idx(nb.i0+k, c)*B:][:B]
			copy(nb.buf[((c-nb.c0)*nb.kr+k)*B:][:B], src)
		}
	}
	return nb
}

// candidates returns the first candidate column of group g, the number of
// candidates and their block of r_n.
func (r *Renderer) candidates(blk *neighbours, g group) (cj0, kc int, nbm []float32) {
	cj0, cj1 := max(blk.c0, g.j0-r.radX), min(blk.c1, g.j1-1+r.radX)
	return cj0, (cj1 - cj0 + 1) * blk.kr, blk.buf[(cj0-blk.c0)*blk.kr*r.nb:]
}

// support returns the local target rows [a0, a1) and columns [b0, b1) of
// group g where candidate (pi, pj) counts: the cells whose neighbourhood
// holds it, and under the paper's rule the pixels within its window.
func (r *Renderer) support(g group, pi, pj int, gm *geom) (a0, a1, b0, b1 int) {
	il, ih := max(g.i0, pi-r.radY), min(g.i1-1, pi+r.radY)
	jl, jh := max(g.j0, pj-r.radX), min(g.j1-1, pj+r.radX)
	if il > ih || jl > jh {
		return 0, 0, 0, 0
	}
	a0, a1 = r.rowStart[il]-g.fa, r.rowStart[ih+1]-g.fa
	b0, b1 = r.colStart[jl]-g.va, r.colStart[jh+1]-g.va
	if r.opt.PaperRule && a0 < a1 && b0 < b1 {
		wa0, wa1 := r.window(g.fa+a0, g.fa+a1, gm.muY, r.hy, r.sy, nil)
		wb0, wb1 := r.window(g.va+b0, g.va+b1, gm.muX, r.hx, r.sx, r.px)
		a0, a1, b0, b1 = a0+wa0, a0+wa1, b0+wb0, b0+wb1
	}
	return a0, a1, b0, b1
}

// weights computes, for group g, the normalised weights of every candidate
// (wk.wt, Kc x P, P the group's target pixels in row-major order) and which
// candidates are non-zero (wk.nz). With keepG (the backward pass) it also
// leaves G in wk.g64 (Kc x P) and 1/(sum_j alpha_j G_j + eps) in wk.sum;
// otherwise alpha*G is written straight into wk.wt in float32 and
// normalised in place.
func (r *Renderer) weights(wk *worker, fs *fieldState, blk *neighbours, g group, keepG bool) (kc, P int) {
	cj0, kc, _ := r.candidates(blk, g)
	na, nbc := g.fb-g.fa, g.vb-g.va
	P = na * nbc
	if keepG {
		wk.g64 = grow(wk.g64, kc*P)
	}
	wk.sum = grow(wk.sum, P)
	wk.nz = grow(wk.nz, kc)
	wk.wt = grow(wk.wt, kc*P)
	clear(wk.sum)
	for c := 0; c < kc; c++ {
		pi, pj := blk.i0+c%blk.kr, cj0+c/blk.kr
		gm := &fs.geo[fs.idx(pi, pj)]
		a0, a1, b0, b1 := r.support(g, pi, pj, gm)
		a0, a1 = max(a0, 0), min(a1, na) // g may be a block of a group's rows
		ok := a0 < a1 && b0 < b1
		if ok {
			part := a0 > 0 || a1 < na || b0 > 0 || b1 < nbc
			dy0 := (float64(g.fa+a0)+0.5)*r.hy - gm.muY
			dx0 := r.px[g.va+b0] - gm.muX
			if keepG {
				gg := wk.g64[c*P : (c+1)*P]
				if part {
					clear(gg)
				}
				ok = fill(gm, gg, wk.sum, 1, gm.alpha, nbc, a0, a1, b0, b1, dy0, dx0, r.hy, r.hx)
			} else {
				gg := wk.wt[c*P : (c+1)*P]
				if part {
					clear(gg)
				}
				ok = fill(gm, gg, wk.sum, gm.alpha, gm.alpha, nbc, a0, a1, b0, b1, dy0, dx0, r.hy, r.hx)
			}
		}
		wk.nz[c] = ok
		if !ok {
			clear(wk.wt[c*P : (c+1)*P])
		}
	}
	for p, s := range wk.sum {
		wk.sum[p] = 1 / (s + Eps) // now the inverse denominator
	}
	if !keepG {
		wk.inv = grow(wk.inv, P)
		for p, s := range wk.sum {
			wk.inv[p] = float32(s)
		}
		for c := 0; c < kc; c++ {
			if wk.nz[c] {
				mulVec(wk.wt[c*P:(c+1)*P], wk.inv)
			}
		}
		return kc, P
	}
	for c := 0; c < kc; c++ {
		if !wk.nz[c] {
			continue
		}
		pi, pj := blk.i0+c%blk.kr, cj0+c/blk.kr
		al := fs.geo[fs.idx(pi, pj)].alpha
		gg := wk.g64[c*P : (c+1)*P]
		inv := wk.sum[:len(gg)]
		wt := wk.wt[c*P : (c+1)*P]
		for p, v := range gg {
			x := float32(al * v * inv[p])
			if x < tinyWeight {
				x = 0
			}
			wt[p] = x
		}
	}
	return kc, P
}

// tinyWeight: normalised weights below it are set to zero. Denormal
// numbers slow a product down by an order of magnitude (measured: 2.8x for
// a whole render of narrow primitives), and such weights change nothing.
const tinyWeight = 1e-30

// mulVec sets d[k] *= s[k] and flushes results below tinyWeight to zero
// (d and s non-negative).
func mulVec(d, s []float32) {
	s = s[:len(d)]
	if useAVX && len(d) >= 8 {
		mulAVX(&d[0], &s[0], len(d), tinyWeight)
		return
	}
	for k := range d {
		v := d[k] * s[k]
		if !(v >= tinyWeight) {
			v = 0
		}
		d[k] = v
	}
}

// window returns the local index range [k0, k1) of target samples
// [t0, t1) whose centre lies within the paper's window of a primitive
// centred at mu: |centre - mu| * factor <= radius.
func (r *Renderer) window(t0, t1 int, mu, pitch, factor float64, centres []float64) (int, int) {
	k0, k1 := -1, -1
	for t := t0; t < t1; t++ {
		var c float64
		if centres != nil {
			c = centres[t]
		} else {
			c = (float64(t) + 0.5) * pitch
		}
		if math.Abs(c-mu)*factor <= r.radius {
			if k0 < 0 {
				k0 = t - t0
			}
			k1 = t - t0 + 1
		}
	}
	if k0 < 0 {
		return 0, 0
	}
	return k0, k1
}

// groupField returns the field sum_n w_n(p) r_n of group g at its target
// rows [ua, ub) as a matrix of (ub-ua)*(vb-va) pixels x B. The weights are
// computed for whole blocks of the group's rows (blockRows) whatever
// [ua, ub), so that rendering in bands of rows gives the same bits as
// rendering the whole image.
func (r *Renderer) groupField(wk *worker, fs *fieldState, blk *neighbours, g group, ua, ub int) []float32 {
	B := r.nb
	nbc := g.vb - g.va
	wk.tmp = grow(wk.tmp, (ub-ua)*nbc*B)
	rows := r.blockRows(blk, g)
	for ba := g.fa + (ua-g.fa)/rows*rows; ba < ub; ba += rows {
		sub := g
		sub.fa, sub.fb = ba, min(g.fb, ba+rows)
		kc, P := r.weights(wk, fs, blk, sub, false)
		_, _, nbm := r.candidates(blk, sub)
		ra, rb := max(ua, sub.fa), min(ub, sub.fb)
		pA, pB := (ra-sub.fa)*nbc, (rb-sub.fa)*nbc
		out := wk.tmp[(ra-ua)*nbc*B:]
		// Products over fixed chunks of gemmRows pixels whatever [pA, pB):
		// a GEMM library's result for a row may depend on the rows beside
		// it, and bands of rows must give the bits of the whole image.
		for c0 := pA / gemmRows * gemmRows; c0 < pB; c0 += gemmRows {
			c1 := min(P, c0+gemmRows)
			if c0 >= pA && c1 <= pB {
				sgemm(true, false, c1-c0, B, kc, 1, wk.wt[c0:], P, nbm, B, 0, out[(c0-pA)*B:], B)
				continue
			}
			wk.chunk = grow(wk.chunk, (c1-c0)*B)
			sgemm(true, false, c1-c0, B, kc, 1, wk.wt[c0:], P, nbm, B, 0, wk.chunk, B)
			lo, hi := max(c0, pA), min(c1, pB)
			copy(out[(lo-pA)*B:(hi-pA)*B], wk.chunk[(lo-c0)*B:(hi-c0)*B])
		}
	}
	return wk.tmp
}

// maxBlockWeights bounds the weights of one block of a group's rows
// (candidates x pixels, float32), so that a worker's scratch stays about
// 8 MiB at any factor. Groups of up to this many weights (every group at
// factors up to a few hundred) are one block.
var maxBlockWeights = 2 << 20

// blockRows returns the number of target rows of group g whose weights are
// computed together: all of them, unless that exceeds maxBlockWeights.
func (r *Renderer) blockRows(blk *neighbours, g group) int {
	_, kc, _ := r.candidates(blk, g)
	na, nbc := g.fb-g.fa, g.vb-g.va
	if na*nbc*kc <= maxBlockWeights {
		return max(na, 1)
	}
	return max(1, maxBlockWeights/(nbc*kc))
}

// Render renders primitives p over input x on an outH x outW grid:
// Y = U_s X + sum_n w_n r_n.
func Render(x *hsi.Cube, p *Primitives, outH, outW int, opt Options) (*hsi.Cube, error) {
	r, err := NewRenderer(x, p, outH, outW, opt)
	if err != nil {
		return nil, err
	}
	return r.Render()
}

// RenderRows renders target rows [u0, u1) into dst ((u1-u0)*outW*B values).
// To render many bands of rows of one image, make one Renderer and call its
// RenderRows: this function validates the primitives on every call.
func RenderRows(x *hsi.Cube, p *Primitives, outH, outW, u0, u1 int, dst []float32, opt Options) error {
	r, err := NewRenderer(x, p, outH, outW, opt)
	if err != nil {
		return err
	}
	return r.RenderRows(u0, u1, dst)
}

// upsample returns U_s x alone (the bicubic path of the renderer), for tests
// and benchmarks.
func upsample(x *hsi.Cube, outH, outW int, workers int) (*hsi.Cube, error) {
	p, err := NewPrimitives(x.H, x.W)
	if err != nil {
		return nil, err
	}
	r, err := NewRenderer(x, p, outH, outW, Options{Workers: workers})
	if err != nil {
		return nil, err
	}
	out, err := hsi.New(outH, outW, x.B)
	if err != nil {
		return nil, err
	}
	if err := r.renderRows(0, outH, out.Data, false); err != nil {
		return nil, err
	}
	return out, nil
}
