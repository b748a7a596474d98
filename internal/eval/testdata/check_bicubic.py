#!/usr/bin/env python3
"""Independent check of the bicubic rows of docs/bicubic_*.md.

Recomputes a few cells of the evaluation protocol (docs/CONVENTIONS.md section 6) with
PyTorch (Debian python3-torch) and numpy, without any Go code: normalise by
the maximum, crop or tile, antialiased bicubic downsampling to round(side/s)
(half away from zero), bicubic upsampling, clip to [0, 1], PSNR and SAM.
Run from the repository root with ../shared present:

    /usr/bin/python3 internal/eval/testdata/check_bicubic.py   (Debian python3-torch, python3-scipy)

Expected output (as in docs/bicubic_seven.md and docs/bicubic_twelve.md):
    CAVE crop x4        34.90 dB  2.27 deg
    CAVE crop x8        30.26 dB  3.66 deg
    Pavia tile x4       32.65 dB 13.44 deg
    Pavia crop x3.7     34.11 dB 10.80 deg
    satellite tiles x2  59.28 dB  1.93 deg (18 tiles)
"""
import os
import numpy as np
import scipy.io as sio
import torch
import torch.nn.functional as F

D = os.environ.get("OMNIHSR_SHARED", "../shared") + "/data/hsi/eval/"


def load(name, var):
    x = sio.loadmat(D + name)[var].astype(np.float64)
    x = np.maximum(x, 0)
    return (x / x.max()).astype(np.float32).astype(np.float64)


def bicubic(x, s):
    h, w, _ = x.shape
    t = torch.from_numpy(x.astype(np.float32)).permute(2, 0, 1)[None]
    lh, lw = int(np.floor(h / s + 0.5)), int(np.floor(w / s + 0.5))
    lr = F.interpolate(t, size=(lh, lw), mode="bicubic", align_corners=False, antialias=True)
    sr = F.interpolate(lr, size=(h, w), mode="bicubic", align_corners=False).clamp(0, 1)
    sr = sr[0].permute(1, 2, 0).double().numpy()
    psnr = 10 * np.log10(1 / ((sr - x) ** 2).mean())
    nx, ns = np.linalg.norm(x, axis=-1), np.linalg.norm(sr, axis=-1)
    den = nx * ns
    cos = np.where(den > 0, (sr * x).sum(-1) / np.where(den > 0, den, 1), 0)
    sam = np.degrees(np.arccos(np.clip(cos, -1 + 1e-6, 1 - 1e-6)))[nx > 0].mean()
    return psnr, sam


cave = load("balloons_ms_256x256x31_STP.mat", "Omsi")
for s in (4, 8):
    print("CAVE crop x%d        %.2f dB %5.2f deg" % ((s,) + bicubic(cave, s)))
pavia = load("dataPavia_PaviaCenter_105x120x102.mat", "PaviaCenter")
print("Pavia tile x4       %.2f dB %5.2f deg" % bicubic(pavia[:64, :64], 4))
print("Pavia crop x3.7     %.2f dB %5.2f deg" % bicubic(pavia[:, 7:112], 3.7))
sat = load("satellite17_IMAGE.mat", "img")
r = [bicubic(sat[y:y + 64, x:x + 64], 2) for y in range(0, 229 - 63, 64) for x in range(0, 394 - 63, 64)]
print("satellite tiles x2  %.2f dB %5.2f deg (%d tiles)" % (np.mean([a for a, _ in r]), np.mean([b for _, b in r]), len(r)))
