#!/usr/bin/python3
"""GDAL goldens for package tiff's compression, predictors and layouts.

Run from the repository root with Debian's python3 (python3-gdal,
python3-numpy) and Go on the PATH:

    /usr/bin/python3 scripts/goldens/tiff.py

1. GDAL writes small GeoTIFFs in hsi/tiff/testdata/gdal/: COMPRESS=ZSTD, LZW
   and DEFLATE, PREDICTOR=1, 2 and 3, strips and 16x16 tiles, pixel- and
   band-interleaved, little- and big-endian, TIFF and BigTIFF, every sample
   type. Their values go into hsi/tiff/testdata/gdal/expected.json, which
   the Go reader test (TestGDALWrittenCodecs) decodes exactly.
2. The Go test TestGDALReadsOurFiles, run with -gdal-dir DIR, writes every
   combination of hsi/tiff's writer (type x compression x predictor x
   layout x BigTIFF, and COGs) into DIR with the source values. GDAL reads
   each file back; every value must equal the source bit for bit, and
   every COG must pass GDAL's validate_cloud_optimized_geotiff. The files'
   SHA-256 and what GDAL saw go into hsi/tiff/testdata/gdal_reads.json: the
   Go test then checks that the writer still writes exactly those bytes.
"""
import hashlib
import json
import os
import subprocess
import sys
import tempfile

import numpy as np
from osgeo import gdal, osr
from osgeo_utils.samples import validate_cloud_optimized_geotiff as cogval

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TESTDATA = os.path.join(ROOT, "hsi", "tiff", "testdata")
GDAL_DIR = os.path.join(TESTDATA, "gdal")
H, W, B = 19, 21, 3  # 16x16 tiles: partial tiles on both edges

gdal.UseExceptions()

GDT = {
    "uint8": gdal.GDT_Byte,
    "uint16": gdal.GDT_UInt16,
    "int16": gdal.GDT_Int16,
    "uint32": gdal.GDT_UInt32,
    "int32": gdal.GDT_Int32,
    "float32": gdal.GDT_Float32,
    "float64": gdal.GDT_Float64,
}

SOURCES = {}
EXPECTED = {"sources": {}, "files": {}}


def source(dtype):
    """Values over the type's range (at most 2^24 in magnitude) with a
    smooth ramp in band 0 for the predictors; normal values x 1000 for
    floats."""
    if dtype in SOURCES:
        return SOURCES[dtype]
    rng = np.random.default_rng(len(SOURCES) + 11)
    dt = np.dtype(dtype)
    if dt.kind == "f":
        a = (rng.standard_normal((H, W, B)) * 1000).astype(dt)
        a[0, 0, 0] = -0.0
    else:
        info = np.iinfo(dt)
        lo, hi = max(info.min, -(2**24)), min(info.max, 2**24)
        a = rng.integers(lo, hi, (H, W, B), endpoint=True, dtype=np.int64).astype(dt)
        a[0, 0, 0], a[0, 1, 0] = lo, hi
        a[:, :, 0] = (np.add.outer(np.arange(H), np.arange(W)) * 3 + max(lo, 0)).astype(dt)
    SOURCES[dtype] = a
    EXPECTED["sources"][dtype] = {"shape": list(a.shape), "values": [float(x) for x in a.ravel()]}
    return a


def gdal_golden(dtype, compress, pred, tiled, interleave, big=False, endian="LITTLE"):
    name = "%s_%s_p%d_%s_%s%s%s.tif" % (dtype, compress.lower(), pred, "tiled" if tiled else "strips",
                                        interleave.lower(), "_bigtiff" if big else "", "_be" if endian == "BIG" else "")
    opts = ["COMPRESS=" + compress, "PREDICTOR=%d" % pred, "INTERLEAVE=" + interleave, "ENDIANNESS=" + endian]
    opts += ["TILED=YES", "BLOCKXSIZE=16", "BLOCKYSIZE=16"] if tiled else ["BLOCKYSIZE=5"]
    if big:
        opts.append("BIGTIFF=YES")
    a = source(dtype)
    mem = gdal.GetDriverByName("MEM").Create("", W, H, B, GDT[dtype])
    for b in range(B):
        mem.GetRasterBand(b + 1).WriteArray(a[:, :, b])
    mem.SetGeoTransform([500000.0, 30.0, 0.0, 4200000.0, 0.0, -30.0])
    srs = osr.SpatialReference()
    srs.ImportFromEPSG(32613)
    mem.SetProjection(srs.ExportToWkt())
    path = os.path.join(GDAL_DIR, name)
    gdal.GetDriverByName("GTiff").CreateCopy(path, mem, options=opts)
    mem = None
    assert values_equal(read_gdal(path), a), name
    EXPECTED["files"][name] = {"source": dtype, "compression": compress, "predictor": pred, "tiled": tiled,
                               "interleave": interleave, "bigtiff": big, "big_endian": endian == "BIG"}


def read_gdal(path):
    ds = gdal.Open(path)
    return np.stack([ds.GetRasterBand(b + 1).ReadAsArray() for b in range(ds.RasterCount)], axis=2)


def values_equal(got, want):
    """Bit for bit (so -0 differs from 0), after casting the source to the
    type GDAL returned."""
    if got.shape != want.shape:
        return False
    return got.tobytes() == want.astype(got.dtype).tobytes()


def write_gdal_goldens():
    os.makedirs(GDAL_DIR, exist_ok=True)
    for f in os.listdir(GDAL_DIR):
        os.remove(os.path.join(GDAL_DIR, f))
    for dtype in ["float32", "uint16"]:
        preds = [1, 2, 3] if dtype == "float32" else [1, 2]
        for compress in ["ZSTD", "LZW", "DEFLATE"]:
            for pred in preds:
                for tiled in [False, True]:
                    gdal_golden(dtype, compress, pred, tiled, "BAND" if (pred + tiled) % 2 else "PIXEL")
    for dtype in ["uint8", "int16", "uint32", "int32", "float64"]:
        preds = [1, 2, 3] if dtype == "float64" else [1, 2]
        for pred in preds:
            for tiled in [False, True]:
                gdal_golden(dtype, "ZSTD", pred, tiled, "PIXEL" if tiled else "BAND")
    for compress in ["ZSTD", "LZW", "DEFLATE"]:
        gdal_golden("float32", compress, 3, True, "BAND", big=True)
        gdal_golden("int16", compress, 2, False, "PIXEL", big=True, endian="BIG")
    # Not written: PREDICTOR=3 with ENDIANNESS=BIG, which GDAL 3.6.2 does not
    # read back to the values it was given.
    with open(os.path.join(GDAL_DIR, "expected.json"), "w") as f:
        json.dump(EXPECTED, f, separators=(",", ":"), sort_keys=True)
        f.write("\n")
    total = sum(os.path.getsize(os.path.join(GDAL_DIR, n)) for n in os.listdir(GDAL_DIR))
    print("GDAL wrote %d files, %d bytes in all" % (len(EXPECTED["files"]), total))


def check_our_files():
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(["go", "test", "./hsi/tiff", "-run", "^TestGDALReadsOurFiles$", "-count=1",
                        "-args", "-gdal-dir", tmp], cwd=ROOT, check=True)
        with open(os.path.join(tmp, "manifest.json")) as f:
            manifest = json.load(f)
        out = {"gdal": gdal.VersionInfo("--version"), "files": {}}
        bad = []
        for name, m in sorted(manifest.items()):
            path = os.path.join(tmp, name)
            want = np.load(os.path.join(tmp, m["source"]))
            got = read_gdal(path)
            ds = gdal.Open(path)
            band = ds.GetRasterBand(1)
            e = {
                "sha256": hashlib.sha256(open(path, "rb").read()).hexdigest(),
                "equal": bool(values_equal(got, want)),
                "checksums": [ds.GetRasterBand(b + 1).Checksum() for b in range(ds.RasterCount)],
                "compression": ds.GetMetadataItem("COMPRESSION", "IMAGE_STRUCTURE") or "NONE",
                "predictor": int(ds.GetMetadataItem("PREDICTOR", "IMAGE_STRUCTURE") or 1),
                "block": list(band.GetBlockSize()),
                "overviews": band.GetOverviewCount(),
            }
            if m.get("cog"):
                errors = cogval.validate(path, full_check=True)[1]
                e["cog_errors"] = errors
                if errors:
                    bad.append("%s: COG: %s" % (name, errors))
            if not e["equal"]:
                bad.append("%s: GDAL reads other values" % name)
            out["files"][name] = e
        if bad:
            sys.exit("\n".join(bad))
    with open(os.path.join(TESTDATA, "gdal_reads.json"), "w") as f:
        json.dump(out, f, indent=0, sort_keys=True)
        f.write("\n")
    print("GDAL read %d files of ours bit for bit" % len(out["files"]))


if __name__ == "__main__":
    write_gdal_goldens()
    check_our_files()
