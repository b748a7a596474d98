#!/usr/bin/python3
"""Generate the PNG golden files of package png.

Run from this directory with Debian's python3 (python3-numpy, python3-pil):

    /usr/bin/python3 gen_golden.py

Images written by PIL (grey 1/8/16-bit, RGB, RGBA, grey+alpha, palette)
and by a minimal encoder written here with zlib (16-bit RGB and RGBA, which
PIL cannot write), with their expected cubes in golden.json; and a preview
golden: a small cube, the bands the preview must show and the 8-bit image
numpy computes with np.percentile (linear) and round-half-even.
"""
import json
import struct
import zlib

import numpy as np
from PIL import Image

rng = np.random.default_rng(2026)
H, W = 6, 9
images = []


def record(name, cube, dtype):
    images.append({"file": name, "shape": list(cube.shape), "dtype": dtype,
                   "values": [int(v) for v in cube.reshape(-1)]})


def raw_png(name, arr, colour_type):
    """Write a 16-bit PNG by hand: filter 0 on every row."""
    h, w = arr.shape[:2]
    rows = b"".join(b"\x00" + arr[y].astype(">u2").tobytes() for y in range(h))

    def chunk(kind, data):
        c = struct.pack(">I", len(data)) + kind + data
        return c + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    with open(name, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n")
        f.write(chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 16, colour_type, 0, 0, 0)))
        f.write(chunk(b"IDAT", zlib.compress(rows, 9)))
        f.write(chunk(b"IEND", b""))


grey = rng.integers(0, 256, size=(H, W), dtype=np.uint8)
Image.fromarray(grey, mode="L").save("grey8.png")
record("grey8.png", grey[:, :, None], "uint8")

g16 = rng.integers(0, 65536, size=(H, W), dtype=np.uint16)
Image.fromarray(g16.astype(np.int32), mode="I").convert("I;16").save("grey16.png")
record("grey16.png", g16[:, :, None], "uint16")

bits = rng.integers(0, 2, size=(H, W), dtype=np.uint8)
Image.fromarray(bits * 255, mode="L").convert("1").save("grey1.png")
record("grey1.png", (bits * 255)[:, :, None], "uint8")

rgb = rng.integers(0, 256, size=(H, W, 3), dtype=np.uint8)
Image.fromarray(rgb, mode="RGB").save("rgb8.png")
record("rgb8.png", rgb, "uint8")

alpha = rng.integers(0, 256, size=(H, W, 1), dtype=np.uint8)
Image.fromarray(np.concatenate([rgb, alpha], axis=2), mode="RGBA").save("rgba8.png")
record("rgba8.png", rgb, "uint8")

Image.fromarray(np.concatenate([grey[:, :, None], alpha], axis=2), mode="LA").save("greyalpha8.png")
record("greyalpha8.png", grey[:, :, None], "uint8")

pal_rgb = rng.integers(0, 256, size=(16, 3), dtype=np.uint8)
idx = rng.integers(0, 16, size=(H, W), dtype=np.uint8)
p = Image.fromarray(idx, mode="P")
p.putpalette(pal_rgb.reshape(-1).tolist())
p.save("palette.png")
record("palette.png", pal_rgb[idx], "uint8")

rgb16 = rng.integers(0, 65536, size=(H, W, 3), dtype=np.uint16)
raw_png("rgb16.png", rgb16, 2)
record("rgb16.png", rgb16, "uint16")
rgba16 = rng.integers(0, 65536, size=(H, W, 4), dtype=np.uint16)
raw_png("rgba16.png", rgba16, 6)
record("rgba16.png", rgba16[:, :, :3], "uint16")

# Preview golden: 7 x 10 x 5 float cube, wavelengths in nm, one ignored pixel.
ph, pw, pb = 7, 10, 5
cube = (rng.normal(0, 1, size=(ph, pw, pb)) * np.array([1, 10, 100, 1000, 5]) + 50).astype(np.float32)
ignore = -9999.0
cube[3, 4, :] = ignore
wl = [410.0, 505.0, 560.0, 655.0, 790.0]
bands = [3, 2, 0]  # nearest 650, 550, 450 nm
out = np.zeros((ph, pw, 3), dtype=np.uint8)
mask = cube[:, :, 0] != ignore
for ch, b in enumerate(bands):
    v = cube[:, :, b].astype(np.float64)
    lo, hi = np.percentile(v[mask], [2, 98])
    s = np.clip((v - lo) * (255 / (hi - lo)), 0, 255)
    o = np.round(s).astype(np.uint8)
    o[~mask] = 0
    out[:, :, ch] = o
preview = {"shape": [ph, pw, pb], "values": [float(v) for v in cube.reshape(-1)], "wavelengths": wl,
           "ignore": ignore, "bands": bands, "rgb": [int(v) for v in out.reshape(-1)]}

with open("golden.json", "w") as f:
    f.write('{"images": [\n')
    f.write(",\n".join(json.dumps(g, separators=(",", ":")) for g in images))
    f.write('],\n"preview": ' + json.dumps(preview, separators=(",", ":")) + "}\n")
print("wrote %d images and a preview golden" % len(images))
