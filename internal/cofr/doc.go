// Package cofr is Continuous Operator-Field Reconstruction, the rendering
// half of OmniHSR (paper Section "Continuous Operator-Field Reconstruction"
// and Appendix A; docs/CONVENTIONS.md sections 3 and 4): it turns one primitive per
// low-resolution pixel and the raw low-resolution cube X (h x w x B) into
// the high-resolution cube
//
//	Y(p) = (U_s X)(p) + sum_n w_n(p) r_n,
//	r_n  = sum_{q in 5x5 window of q_n} k_nq x(q)        (replicate border, all B bands),
//	w_n(p) = alpha_n G_n(p) / (sum_j alpha_j G_j(p) + 1e-6),
//	G_n(p) = exp(-(p - mu_n)^T Sigma_n^{-1} (p - mu_n) / 2),
//
// on any target grid H x W. The network's head produces the primitives;
// this package only renders them, forward (Render, RenderRows) and backward
// (Backward).
//
// # Geometry
//
// Positions are in low-res pixel units with half-pixel centres: low-res
// pixel (i, j) has centre (i+0.5, j+0.5), and target pixel (u, v) of an
// H x W grid has centre ((u+0.5) h/H, (v+0.5) w/W). The effective factor is
// s = (H/h + W/w)/2. Primitive n = i*w + j has centre
// mu_n = (i + 0.5 + OffY, j + 0.5 + OffX), covariance
// Sigma = R(Theta) diag(se1^2, se2^2) R(Theta)^T with the rendering widths
// se_i = sqrt(sigma_i^2 + (a/s)^2), a = 0.5 (Options.A), and principal axis 1
// along (dx, dy) = (cos Theta, sin Theta) (x = column, y = row). U_s is
// PyTorch's bicubic interpolation (align_corners=False, a = -0.75,
// replicate border), bit for bit equal to resample.Upsample.
//
// # Which primitives count for a target pixel
//
// Default (docs/CONVENTIONS.md section 3, "Truncation"): the K x K block of
// primitives around the low-res cell containing p (the cell is the floor of
// p's low-res coordinates), clipped at the image border; K = 7 unless
// Options.Neighbourhood says otherwise. Options.PaperRule selects the
// paper's rule instead: every primitive whose centre is within Chebyshev
// distance ceil(3 sigma_max s) high-res pixels of p (per axis, distances in
// low-res units times H/h or W/w), sigma_max the largest rendering width in
// the image. Numerator and denominator use the same set.
//
// Measured difference between the rules on primitives drawn like a trained
// model's (widths 0.3..1.5 low-res pixels, random angles, opacities 0.2..1;
// TestNeighbourhoodVersusPaperRule, 14x14 inputs, x2, x4, x8): the L1
// distance between the weight vectors of a pixel is at most 0.16 (mean
// 0.012) for K = 7 and at most 0.016 (mean 0.0007) for K = 9, so
// |Y_K - Y_paper| <= that distance times max_n |r_n|; on renders the largest
// difference was 2.7% of max |r_n| for K = 7 and 0.57% for K = 9. Wide
// primitives (sigma near 1.5) reach beyond the 7 x 7 block; the two rules
// agree more closely the narrower the primitives.
//
// # Speed
//
// The weights do not depend on the band, so all bands are handled by dense
// products. Target pixels are processed in groups of gy x gx low-res cells
// (one cell at factors of 8 and more, 2 x 2 at x4, 4 x 4 at x2: about 8 x 8
// target pixels), which share their candidate primitives (the union of the
// cells' K x K neighbourhoods; each candidate's weight is zero outside the
// cells whose neighbourhood holds it). Per group the weights form a
// (P x Kc) matrix and the field is one product with the (Kc x B) matrix of
// the candidates' r_n, run by gemm.SgemmSerial on
// one goroutine per core; r_n is computed once per low-res pixel (25
// multiply-adds per value) and laid out so that every group's block is
// contiguous. G follows a product recurrence over the group's pixels (three
// exponentials per primitive and group instead of one per pixel; see fill).
// U_s is computed row-windowed and fused with the field, so the output is
// written once. The field is always added on top of U_s X, never mixed into
// the same product: with every operator zero the output is U_s X bit for bit
// (and the field is skipped). Weights below 1e-30 are flushed to zero
// (denormal numbers made a product 2.8 times slower).
//
// Memory: RenderRows(u0, u1) needs r_n and the geometry of the low-res
// rows its target rows can see (rows of cells +- K/2), plus per goroutine
// a few horizontally interpolated rows and one group's buffers; it never
// holds the whole output, so callers can stream any size in bands of rows.
// Backward recomputes the weights group by group and keeps nothing from the
// forward pass; it holds dL/dr (h*w*B floats) per goroutine.
//
// # Figures
//
// BenchmarkRender (32x32 input, trained-like primitives, output buffer
// reused, measured with OpenBLAS, since removed; min of 6 runs on this project's 2-core machine while a
// training run held about one core): B = 145 at x4 6.2 ms, x8 21 ms, x16
// 66 ms, against 0.85, 4.2 and 24.9 ms for U_s alone (ratio 2.6 at x16;
// 2.5 for B = 128, 3.0 for B = 103, 6.5 for B = 31, where the weights,
// whose cost does not depend on B, dominate). Render, which allocates its
// output, against resample.Upsample, which does too: 1.85x at x16, B = 145.
// BenchmarkBackward: 64x64 to x2, B = 31 / 200: 13 / 31 ms; 16x16 to x8:
// 5.5 / 11 ms.
package cofr
