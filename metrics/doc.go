// Package metrics scores a super-resolved hyperspectral cube against its
// reference with the figures of docs/CONVENTIONS.md section 7: PSNR, SSIM, SAM, ERGAS and
// per-band RMSE.
//
// Both cubes must have the same size, finite values, and (for PSNR and
// SSIM, whose data range is 1) values in [0, 1]: callers clip estimates
// with Clip01 first, as the protocol says. All sums are in float64 and are
// reduced in a fixed order, so a score does not depend on the number of
// workers.
//
// # Definitions
//
//   - PSNR = 10 log10(1 / MSE), MSE over all pixels and bands; +Inf when the
//     cubes are equal.
//   - SSIM: per band, skimage.metrics.structural_similarity(ref, est,
//     gaussian_weights=True, sigma=1.5, use_sample_covariance=False,
//     data_range=1): an 11 x 11 Gaussian window (sigma 1.5, truncated at
//     radius int(3.5*1.5+0.5) = 5 and normalised), K1 = 0.01, K2 = 0.03,
//     the SSIM map averaged over the pixels at least 5 pixels from the border
//     (skimage filters with scipy.ndimage's 'reflect' border and then crops
//     (win_size-1)/2 = 5 pixels, so no border value reaches the mean; this
//     package computes only those pixels). Averaged over bands. Images must
//     be at least 11 x 11, as in skimage.
//   - SAM: the mean over pixels of the angle, in degrees, between the true
//     and the estimated spectrum, arccos of the cosine clipped to
//     [-1+1e-6, 1-1e-6]. Pixels whose true spectrum is all zero are skipped
//     (Scores.SAMPixels counts the others); an all-zero estimated spectrum
//     has cosine 0 (90 degrees). NaN when every true spectrum is zero.
//   - ERGAS = 100/s * sqrt(mean_b (RMSE_b / mu_b)^2), mu_b the mean of
//     reference band b and s the resolution ratio (the factor of the
//     super-resolution, e.g. 4; the effective factor when the axes differ).
//     Bands whose reference mean is 0 are skipped; NaN when all are.
//   - RMSE_b = sqrt(mean over pixels of (ref - est)^2) in band b; RMSE over
//     all pixels and bands.
package metrics
