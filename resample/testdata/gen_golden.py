#!/usr/bin/python3
"""Generate the golden files of package resample.

Run with Debian's interpreter (python3-torch, python3-scipy, python3-numpy):

    /usr/bin/python3 resample/testdata/gen_golden.py

It writes golden.json (the index) and golden_*.bin (little-endian float32
arrays, concatenated). Every array is stored in the Go cube's order, H x W x B
(pixel-interleaved). The inputs are random float32 cubes drawn from a fixed
seed; the outputs are PyTorch's F.interpolate / adaptive_avg_pool2d and
scipy.ndimage.gaussian_filter results on those inputs.
"""
import json
import math
import os

import numpy as np
import scipy
import scipy.ndimage as ndi
import torch
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(2026)


def out_size(side, s):
    """round(side / s), half away from zero (the Go OutSize)."""
    q = side / s
    n = math.floor(q)
    if q - n >= 0.5:
        n += 1
    return n


def rand_cube(h, w, b):
    return rng.random((h, w, b), dtype=np.float32)


def to_t(c):  # H x W x B -> 1 x B x H x W
    return torch.from_numpy(np.ascontiguousarray(c.transpose(2, 0, 1)[None]))


def from_t(t):  # 1 x B x H x W -> H x W x B
    return np.ascontiguousarray(t[0].numpy().transpose(1, 2, 0)).astype(np.float32)


def aa(c, h, w):
    return from_t(F.interpolate(to_t(c), size=(h, w), mode="bicubic", align_corners=False, antialias=True))


def bic(c, h, w):
    return from_t(F.interpolate(to_t(c), size=(h, w), mode="bicubic", align_corners=False, antialias=False))


def area(c, h, w):
    return from_t(F.interpolate(to_t(c), size=(h, w), mode="area"))


def gauss(c, sigma):
    out = np.empty_like(c)
    for b in range(c.shape[2]):
        out[:, :, b] = ndi.gaussian_filter(c[:, :, b].astype(np.float64), sigma, mode="reflect", truncate=4.0)
    return out.astype(np.float32)


class Writer:
    """Packs arrays into files of at most ~90 KB each."""

    def __init__(self):
        self.files = []
        self.cases = []
        self.buf = []
        self.size = 0
        self.seen = {}  # id(array) -> ref, so that a shared input is stored once
        self.keep = []

    def _flush(self):
        if not self.buf:
            return
        name = "golden_%d.bin" % len(self.files)
        with open(os.path.join(HERE, name), "wb") as f:
            for a in self.buf:
                f.write(a.astype("<f4").tobytes())
        self.files.append(name)
        self.buf, self.size = [], 0

    def arr(self, a):
        if id(a) in self.seen:
            return self.seen[id(a)]
        key = a
        a = np.ascontiguousarray(a, dtype=np.float32)
        if self.size + a.nbytes > 90_000:
            self._flush()
        ref = {"file": "golden_%d.bin" % len(self.files), "offset": self.size // 4, "shape": list(a.shape)}
        self.buf.append(a)
        self.size += a.nbytes
        self.seen[id(key)] = ref
        self.keep.append(key)  # keep it alive: ids of freed arrays are reused
        return ref

    def case(self, name, op, inp, out, **kw):
        c = {"name": name, "op": op, "in": self.arr(inp), "out": self.arr(out)}
        c.update(kw)
        self.cases.append(c)

    def close(self):
        self._flush()
        with open(os.path.join(HERE, "golden.json"), "w") as f:
            json.dump({"torch": torch.__version__, "scipy": scipy.__version__, "numpy": np.__version__,
                       "cases": self.cases}, f, indent=1)
            f.write("\n")


wr = Writer()

# Degradation by each factor below (fractional, integer, up to x16) and bicubic upsampling back to the
# high-res size, on an odd non-square cube.
A = rand_cube(37, 41, 3)
for s in [1.5, 2, 2.5, 3.7, 4, 7.6, 16]:
    h, w = out_size(37, s), out_size(41, s)
    lr = aa(A, h, w)
    wr.case("down_x%g_37x41x3" % s, "down", A, lr, scale=s)
    wr.case("up_x%g_%dx%dx3" % (s, h, w), "up", lr, bic(lr, 37, 41), scale=s)

# One 64x64 cube at x16 and back.
Bc = rand_cube(64, 64, 2)
lr = aa(Bc, 4, 4)
wr.case("down_x16_64x64x2", "down", Bc, lr, scale=16)
wr.case("up_x16_4x4x2", "up", lr, bic(lr, 64, 64), scale=16)

# Different factors per axis, and one axis unchanged.
for h, w in [(15, 9), (37, 13), (11, 41), (1, 1), (2, 40)]:
    lr = aa(A, h, w)
    wr.case("down_37x41_to_%dx%d" % (h, w), "down", A, lr)
    wr.case("up_%dx%d_to_37x41" % (h, w), "up", lr, bic(lr, 37, 41))

# Upsampling of a small cube to various sizes, fractional and per axis.
C = rand_cube(9, 7, 4)
for h, w in [(36, 28), (31, 50), (9, 20), (13, 7)]:
    wr.case("up_9x7_to_%dx%d" % (h, w), "up", C, bic(C, h, w))
C1 = rand_cube(9, 7, 1)
wr.case("up_9x7x1_to_144x112", "up", C1, bic(C1, 144, 112), scale=16)
for shp, (h, w) in [((1, 1, 2), (3, 5)), ((2, 3, 2), (7, 11)), ((1, 4, 1), (5, 16))]:
    x = rand_cube(*shp)
    wr.case("up_%dx%d_to_%dx%d" % (shp[0], shp[1], h, w), "up", x, bic(x, h, w))

# The kernels used the other way round: antialias=True to a larger size (PIL
# a = -0.5 kernel, no widening) and plain bicubic to a smaller size.
wr.case("down_kernel_up_9x7_to_20x15", "down", C, aa(C, 20, 15))
wr.case("down_kernel_mixed_9x7_to_4x15", "down", C, aa(C, 4, 15))
wr.case("up_kernel_down_37x41_to_10x11", "up", A, bic(A, 10, 11))

# Area (adaptive average pooling): integer and fractional.
A36 = A[:36, :40].copy()
wr.case("area_36x40_to_9x10", "area", A36, area(A36, 9, 10), scale=4)
wr.case("area_37x41_to_12x13", "area", A, area(A, 12, 13))
wr.case("area_37x41_to_5x41", "area", A, area(A, 5, 41))

# Gaussian blur, scipy.ndimage.gaussian_filter(mode='reflect', truncate=4).
G = rand_cube(23, 19, 2)
for sg in [0.6, 2.5, 7.0]:
    wr.case("blur_%g_23x19x2" % sg, "blur", G, gauss(G, sg), sigma=sg)

wr.close()
print("wrote", len(wr.cases), "cases in", len(wr.files), "files")
