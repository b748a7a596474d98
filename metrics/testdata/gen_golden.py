#!/usr/bin/python3
"""Generate the golden files of package metrics.

Run with Debian's interpreter (python3-skimage, python3-numpy, python3-scipy):

    /usr/bin/python3 metrics/testdata/gen_golden.py

It writes golden.json (every case's scores) and NAME_ref.bin / NAME_est.bin
(the cubes, little-endian float32, H x W x B pixel-interleaved). SSIM is
skimage.metrics.structural_similarity on each band (as float64, so that
skimage computes in float64) with gaussian_weights=True, sigma=1.5,
use_sample_covariance=False, data_range=1, averaged over bands; PSNR, SAM,
ERGAS and RMSE follow docs/CONVENTIONS.md section 7 in numpy (float64).
"""
import json
import os

import numpy as np
import scipy.ndimage as ndi
import skimage
from skimage.metrics import structural_similarity

HERE = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(2026)


def ssim(ref, est):
    vals = [structural_similarity(ref[:, :, b], est[:, :, b], gaussian_weights=True, sigma=1.5,
                                  use_sample_covariance=False, data_range=1.0)
            for b in range(ref.shape[2])]
    return float(np.mean(vals)), [float(v) for v in vals]


def psnr(ref, est):
    mse = np.mean((ref - est) ** 2)
    return float(10 * np.log10(1.0 / mse))


def sam(ref, est):
    t = ref.reshape(-1, ref.shape[2])
    p = est.reshape(-1, est.shape[2])
    nt = np.sqrt((t * t).sum(1))
    npp = np.sqrt((p * p).sum(1))
    keep = nt > 0
    dot = (t * p).sum(1)[keep]
    den = nt[keep] * npp[keep]
    cos = np.where(den > 0, dot / np.where(den > 0, den, 1), 0.0)
    cos = np.clip(cos, -1 + 1e-6, 1 - 1e-6)
    return float(np.degrees(np.arccos(cos)).mean()), int(keep.sum())


def band_rmse(ref, est):
    return np.sqrt(((ref - est) ** 2).mean(axis=(0, 1)))


def ergas(ref, est, s):
    rm = band_rmse(ref, est)
    mu = ref.mean(axis=(0, 1))
    keep = mu != 0
    return float(100.0 / s * np.sqrt(np.mean((rm[keep] / mu[keep]) ** 2)))


cases = []


def add(a, name):
    """Writes one cube to its own file (each well under 100 KB)."""
    a = np.ascontiguousarray(a, dtype="<f4")
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(a.tobytes())
    return {"file": name, "shape": list(a.shape)}


def case(name, ref, est, scale):
    ref = ref.astype(np.float32)
    est = est.astype(np.float32)
    r64, e64 = ref.astype(np.float64), est.astype(np.float64)
    m, per = ssim(r64, e64)
    sm, npx = sam(r64, e64)
    cases.append({
        "name": name, "scale": scale, "ref": add(ref, name + "_ref.bin"), "est": add(est, name + "_est.bin"),
        "psnr": psnr(r64, e64), "ssim": m, "ssim_bands": per,
        # skimage on the float32 arrays themselves (it then computes in float32)
        "ssim_f32": ssim(ref, est)[0], "sam": sm, "sam_pixels": npx,
        "ergas": ergas(r64, e64, scale), "rmse": float(np.sqrt(np.mean((r64 - e64) ** 2))),
        "band_rmse": [float(v) for v in band_rmse(r64, e64)],
    })


def smooth(h, w, b, sigma):
    x = rng.random((h, w, b))
    for k in range(b):
        x[:, :, k] = ndi.gaussian_filter(x[:, :, k], sigma, mode="reflect")
    x -= x.min()
    return x / x.max()


# Random reference, noisy estimate, clipped to [0, 1].
r = rng.random((37, 41, 3))
case("noise_37x41x3", r, np.clip(r + rng.normal(0, 0.05, r.shape), 0, 1), 4.0)
# Smooth reference (structure), blurred estimate.
r = smooth(40, 33, 4, 2.0)
e = np.stack([ndi.gaussian_filter(r[:, :, k], 1.2) for k in range(4)], axis=2)
case("blur_40x33x4", r, e, 2.0)
# The smallest size skimage accepts (11x11), strong differences.
r = rng.random((11, 11, 2))
case("tiny_11x11x2", r, rng.random((11, 11, 2)), 3.7)
# Zero pixels (skipped by SAM), a zero estimate pixel, a constant band.
r = smooth(24, 30, 5, 1.5)
r[3:6, 4:9, :] = 0
r[:, :, 2] = 0.5
e = np.clip(r + rng.normal(0, 0.02, r.shape), 0, 1)
e[10, 10, :] = 0
case("zeros_24x30x5", r, e, 8.0)
# Non-square, many bands, close estimate.
r = smooth(12, 40, 16, 3.0)
case("close_12x40x16", r, np.clip(r + rng.normal(0, 0.005, r.shape), 0, 1), 2.5)

with open(os.path.join(HERE, "golden.json"), "w") as f:
    json.dump({"skimage": skimage.__version__, "numpy": np.__version__, "cases": cases}, f, indent=1)
    f.write("\n")
print("wrote", len(cases), "cases")
