#!/usr/bin/python3
"""Write the small hostile HDF5 files of issue 29 (a red team's cases, made
small enough to commit) into hsi/products/testdata/hostile/.

Run with Debian's python3 (python3-h5py, python3-numpy), after the
miniatures (emit_l2a_rfl.py, prisma_l2d.py) it copies:

    /usr/bin/python3 scripts/miniatures/hostile_hdf5.py hsi/products/testdata

Files (every one a few KB):
- huge.h5: /cube declared (200000, 200000, 300) float32, never written
  (contiguous, no storage allocated): 179 TiB declared in 1.4 KB.
- huge_gzip.h5: the same chunked (64, 64, 16) with gzip.
- huge2.h5: /cube declared (50000, 50000, 2) float32 (19 GiB).
- sparse_big.h5: /cube declared (100000, 100000, 4) float32 (149 GiB),
  chunked (16, 16, 4) with gzip, one chunk written: rows 50000-50015,
  columns 0-15, all bands, holding 1 .. 1024.
- wide_written.h5: huge_gzip.h5 with its first chunk written (all 1): a
  written row of 200000 x 300 samples (240 MB).
- partial_chunks.h5: /cube (10, 8, 2) float32 chunked (4, 4, 2), written
  in rows 0-3 columns 0-3 (1 .. 32) and rows 8-9 columns 4-7 (-1 .. -16):
  chunk rows written in part, and one (rows 4-7) not at all; no fill value
  (HDF5 then reads the rest as 0).
- emit_huge_glt.nc: the EMIT miniature with location/glt_x and glt_y
  replaced by int32 datasets declared 16000 x 16000 and never written.
- prisma_huge.he5: the PRISMA miniature with VNIR_Cube and SWIR_Cube
  replaced by uint16 datasets declared (100000, bands, 100000).
- prisma_minmax.he5, prisma_flat.he5: L2ScaleVnirMin > L2ScaleVnirMax,
  and Min == Max.
- prisma_epsg_{huge,neg,unknown}.he5: Epsg_Code 1e20 (float64),
  -4326 and 99999.
- emit_gt_nan.nc, emit_gt_zero.nc: geotransform with a NaN, all zero.
- emit_wl_nan.nc, emit_wl_unsorted.nc: wavelengths all NaN, and two
  wavelengths swapped.
- nested100.h5: /cube (2, 3, 4) float32 at the root and a chain of 100
  nested groups /g/g/.../g holding /deep (2, 2) float32.
- float16.h5: /cube (2, 3, 4) float16 holding i/8 - 1 (exact in float16).
- hardlinks.h5: /g, a group with 200 attributes, and 500 hard links to it
  (/links/l0 .. l499).
- vlen_attr.h5: /cube (2, 2, 2) float32 with an attribute of 1000
  variable-length strings (one global heap collection).
- huge_attr.h5: /cube (2, 2, 2) float32 with 10 small attributes (dense
  storage, creation order tracked) and one 80 KB string attribute, which
  libhdf5 stores as a huge fractal-heap object.
"""
import os
import shutil
import sys

import h5py
import numpy as np

EMIT = "EMIT_L2A_RFL_001_20230801T101112_2321307_002.nc"
PRISMA = "PRS_L2D_STD_20210615102030_20210615102034_0001.he5"
FIELDS = "HDFEOS/SWATHS/PRS_L2D_HCO/Data Fields/"


def copy(src, dst):
    shutil.copyfile(src, dst)
    return h5py.File(dst, "r+")


def main():
    td = sys.argv[1] if len(sys.argv) > 1 else "hsi/products/testdata"
    out = os.path.join(td, "hostile")
    os.makedirs(out, exist_ok=True)
    p = lambda n: os.path.join(out, n)

    with h5py.File(p("huge.h5"), "w") as f:
        f.create_dataset("cube", shape=(200000, 200000, 300), dtype="f4")
    with h5py.File(p("huge_gzip.h5"), "w") as f:
        f.create_dataset("cube", shape=(200000, 200000, 300), dtype="f4", chunks=(64, 64, 16), compression="gzip")
    with h5py.File(p("huge2.h5"), "w") as f:
        f.create_dataset("cube", shape=(50000, 50000, 2), dtype="f4")

    with h5py.File(p("sparse_big.h5"), "w") as f:
        d = f.create_dataset("cube", shape=(100000, 100000, 4), dtype="f4", chunks=(16, 16, 4), compression="gzip")
        d[50000:50016, 0:16, :] = np.arange(1, 1025, dtype="f4").reshape(16, 16, 4)
    with h5py.File(p("wide_written.h5"), "w") as f:
        d = f.create_dataset("cube", shape=(200000, 200000, 300), dtype="f4", chunks=(64, 64, 16), compression="gzip")
        d[0:64, 0:64, 0:16] = np.ones((64, 64, 16), "f4")
    with h5py.File(p("partial_chunks.h5"), "w") as f:
        d = f.create_dataset("cube", shape=(10, 8, 2), dtype="f4", chunks=(4, 4, 2))
        d[0:4, 0:4, :] = np.arange(1, 33, dtype="f4").reshape(4, 4, 2)
        d[8:10, 4:8, :] = -np.arange(1, 17, dtype="f4").reshape(2, 4, 2)

    with copy(os.path.join(td, EMIT), p("emit_huge_glt.nc")) as f:
        for n in ("glt_x", "glt_y"):
            del f["location"][n]
            f["location"].create_dataset(n, shape=(16000, 16000), dtype="i4")

    with copy(os.path.join(td, PRISMA), p("prisma_huge.he5")) as f:
        for n in ("VNIR_Cube", "SWIR_Cube"):
            nb = f[FIELDS + n].shape[1]
            del f[FIELDS + n]
            f[FIELDS].create_dataset(n, shape=(100000, nb, 100000), dtype="u2")

    with copy(os.path.join(td, PRISMA), p("prisma_minmax.he5")) as f:
        lo, hi = f.attrs["L2ScaleVnirMin"], f.attrs["L2ScaleVnirMax"]
        f.attrs["L2ScaleVnirMin"], f.attrs["L2ScaleVnirMax"] = hi, lo
    with copy(os.path.join(td, PRISMA), p("prisma_flat.he5")) as f:
        f.attrs["L2ScaleVnirMax"] = f.attrs["L2ScaleVnirMin"]
    for name, v in (("huge", np.float64(1e20)), ("neg", np.int32(-4326)), ("unknown", np.int32(99999))):
        with copy(os.path.join(td, PRISMA), p("prisma_epsg_%s.he5" % name)) as f:
            del f.attrs["Epsg_Code"]
            f.attrs["Epsg_Code"] = v

    for name, gt in (("nan", [np.nan, 0.0005, 0, 40.0, 0, -0.0005]), ("zero", [0.0] * 6)):
        with copy(os.path.join(td, EMIT), p("emit_gt_%s.nc" % name)) as f:
            f.attrs["geotransform"] = np.array(gt, np.float64)
    with copy(os.path.join(td, EMIT), p("emit_wl_nan.nc")) as f:
        w = f["sensor_band_parameters"]["wavelengths"]
        w[...] = np.full(w.shape, np.nan, w.dtype)
    with copy(os.path.join(td, EMIT), p("emit_wl_unsorted.nc")) as f:
        w = f["sensor_band_parameters"]["wavelengths"]
        v = np.array(w[...])
        v[0], v[1] = v[1], v[0]
        w[...] = v

    with h5py.File(p("nested100.h5"), "w", libver="latest") as f:
        f.create_dataset("cube", data=np.arange(24, dtype="f4").reshape(2, 3, 4))
        g = f
        for _ in range(100):
            g = g.create_group("g")
        g.create_dataset("deep", data=np.arange(4, dtype="f4").reshape(2, 2))

    with h5py.File(p("float16.h5"), "w") as f:
        f.create_dataset("cube", data=(np.arange(24) / 8 - 1).astype("f2").reshape(2, 3, 4))

    with h5py.File(p("hardlinks.h5"), "w") as f:
        g = f.create_group("g")
        for i in range(200):
            g.attrs["a%03d" % i] = np.float64(i)
        ln = f.create_group("links")
        for i in range(500):
            ln["l%d" % i] = g
        f.create_dataset("cube", data=np.zeros((2, 2, 2), "f4"))

    with h5py.File(p("vlen_attr.h5"), "w") as f:
        d = f.create_dataset("cube", data=np.ones((2, 2, 2), "f4"))
        d.attrs.create("names", data=np.array(["n%d" % i for i in range(1000)], dtype=object), dtype=h5py.string_dtype())

    with h5py.File(p("huge_attr.h5"), "w", track_order=True) as f:
        d = f.create_dataset("cube", data=np.ones((2, 2, 2), "f4"), track_order=True)
        for i in range(10):
            d.attrs["small%d" % i] = np.int32(i)
        d.attrs["spatial_ref"] = np.bytes_(b"PROJCS[" + b"x" * (80 << 10) + b"]")


if __name__ == "__main__":
    main()
