#!/usr/bin/python3
"""Write a miniature HDF5 cube with two garbage bands nobody flagged.

Run with Debian's python3 (python3-h5py, python3-numpy):

    /usr/bin/python3 scripts/miniatures/noisy_hdf5.py hsi/products/testdata

File noisy_bands.h5: /cube int16 stored (band, y, x) = 16 x 32 x 30, chunked
(4, 16, 16) with shuffle + gzip, CF packing scale_factor 1e-4 and
_FillValue -9999 (six pixels are fill in every band), a sibling
/wavelength in nm (1000 to 1750), /y and /x, attached as the dimension
scales. Bands 8 and 9 (1-based; 1350 and 1400 nm)
are a water-vapour band after atmospheric correction: 0.03 plus noise of
0.1, where the other bands are a smooth pattern plus noise of 0.001. The
band-first layout makes a streamed reader see the samples in another order
than the cube's (rows, columns, bands).
"""
import os
import sys

import h5py
import numpy as np

OUT = sys.argv[1] if len(sys.argv) > 1 else "."


def main():
    B, H, W = 16, 32, 30
    rng = np.random.default_rng(11)
    b, y, x = np.meshgrid(np.arange(B), np.arange(H), np.arange(W), indexing="ij")
    v = 0.3 + 0.2 * np.sin(x / 4 + b / 6) * np.cos(y / 5) + 0.001 * rng.standard_normal((B, H, W))
    garbage = 0.03 + 0.1 * rng.standard_normal((2, H, W))
    v[7:9] = garbage
    raw = np.round(v / 1e-4).astype(np.int16)
    for (py, px) in [(0, 0), (5, 7), (12, 29), (20, 3), (31, 15), (16, 16)]:
        raw[:, py, px] = -9999
    os.makedirs(OUT, exist_ok=True)
    with h5py.File(os.path.join(OUT, "noisy_bands.h5"), "w") as f:
        d = f.create_dataset("cube", data=raw, chunks=(4, 16, 16), compression="gzip", shuffle=True)
        d.attrs["scale_factor"] = np.float32(1e-4)
        d.attrs["_FillValue"] = np.int16(-9999)
        w = f.create_dataset("wavelength", data=1000 + 50 * np.arange(B, dtype=np.float64))
        w.attrs["units"] = np.bytes_("nm")
        w.make_scale("wavelength")
        d.dims[0].attach_scale(w)
        for k, name, n in [(1, "y", H), (2, "x", W)]:
            a = f.create_dataset(name, data=np.arange(n, dtype=np.float64))
            a.make_scale(name)
            d.dims[k].attach_scale(a)


if __name__ == "__main__":
    main()
