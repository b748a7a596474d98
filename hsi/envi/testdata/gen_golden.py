#!/usr/bin/python3
"""Generate the ENVI golden files of package envi.

Run from this directory with Debian's python3 (python3-spectral,
python3-numpy, python3-gdal, gdal-bin):

    /usr/bin/python3 gen_golden.py

It writes small ENVI images with three independent writers and golden.json,
which lists each image's expected shape, values (row-major H x W x B, exact
numbers) and metadata. The Go tests read the images and compare; they never
need Python.

  spectral_<dtype>_<interleave>_<byteorder>.hdr/.img  spectral.envi.save_image,
      every ENVI data type x bsq/bil/bip x byte order 0/1
  spectral_meta.hdr/.img   spectral with wavelength, fwhm, bbl, band names,
      wavelength units, data ignore value, description, map info
  gdal_<dtype>_<interleave>.hdr/.img   gdal_translate -of ENVI from a GeoTIFF
      with a UTM geotransform, band descriptions and a nodata value
  handmade_offset.hdr/.dat  a hand-written header: header offset 100, comment
      lines, values in braces over several lines, byte order 1, CRLF ends
"""
import json
import os
import subprocess

import numpy as np
import spectral.io.envi as envi
from osgeo import gdal, osr

H, W, B = 5, 7, 4  # lines, samples, bands: all different to catch swapped axes
rng = np.random.default_rng(2026)
golden = []
value_sets = {}  # name -> flat values, shared by the images that hold them

TYPES = ["uint8", "int16", "int32", "float32", "float64", "uint16", "uint32", "int64", "uint64"]


def values(dtype):
    """A cube that spans the type's range, with the extremes included."""
    dt = np.dtype(dtype)
    if dt.kind == "f":
        a = rng.normal(0, 1000, size=(H, W, B)).astype(dt)
        a[0, 0, 0] = 0.5
        a[1, 2, 3] = -1e-3
        a[4, 6, 3] = 3.0e5 if dt.itemsize == 4 else 1.0e30  # float64: rounded to float32 on reading
        return a
    info = np.iinfo(dt)
    lo, hi = max(info.min, -(2 ** 40)), min(info.max, 2 ** 40)
    a = rng.integers(lo, hi, size=(H, W, B), dtype=dt, endpoint=True)
    a[0, 0, 0] = info.min
    a[4, 6, 3] = info.max
    a[2, 3, 1] = 0
    return a


def as_list(a, name):
    """Store a's values (exact: Python ints, or repr-exact floats) under name."""
    if a.dtype.kind == "f":
        value_sets[name] = [float(v) for v in a.reshape(-1)]
    else:
        value_sets[name] = [int(v) for v in a.reshape(-1)]
    return name


def clean(name):
    for ext in (".hdr", ".img", ".img.aux.xml", ".dat"):
        if os.path.exists(name + ext):
            os.remove(name + ext)


# 1. spectral: every type x interleave x byte order.
for dtype in TYPES:
    a = values(dtype)
    for il in ("bsq", "bil", "bip"):
        for bo in (0, 1):
            name = "spectral_%s_%s_%d" % (dtype, il, bo)
            clean(name)
            envi.save_image(name + ".hdr", a, dtype=dtype, interleave=il, byteorder=bo, ext=".img", force=True)
            golden.append({"file": name + ".hdr", "writer": "spectral", "shape": [H, W, B], "dtype": dtype,
                           "interleave": il, "byteorder": bo, "values": as_list(a, "spectral_" + dtype)})

# 2. spectral with band metadata.
a = values("int16")
meta = {
    "wavelength": [450.5, 550.25, 650.0, 850.125],
    "wavelength units": "Nanometers",
    "fwhm": [10.0, 10.5, 11.0, 12.0],
    "bbl": [1, 1, 0, 1],
    "band names": ["blue", "green", "red", "nir"],
    "data ignore value": -32768,
    "description": "OmniHSR golden, written by spectral",
    "map info": ["UTM", "1.000", "1.000", "620000.000", "4200000.000", "3.0000000000e+01",
                 "3.0000000000e+01", "33", "North", "WGS-84", "units=Meters"],
}
clean("spectral_meta")
envi.save_image("spectral_meta.hdr", a, dtype="int16", interleave="bil", metadata=meta, ext=".img", force=True)
golden.append({"file": "spectral_meta.hdr", "writer": "spectral", "shape": [H, W, B], "dtype": "int16",
               "interleave": "bil", "byteorder": 0, "values": as_list(a, "spectral_meta"),
               "meta": {"wavelength": meta["wavelength"], "wavelength units": "Nanometers", "fwhm": meta["fwhm"],
                        "bad": [False, False, True, False], "band names": meta["band names"],
                        "data ignore value": -32768.0, "description": meta["description"],
                        "map info": ", ".join(meta["map info"])}})

# 3. gdal_translate -of ENVI from a georeferenced GeoTIFF.
srs = osr.SpatialReference()
srs.ImportFromEPSG(32633)
for dtype, gdt in (("int16", gdal.GDT_Int16), ("float32", gdal.GDT_Float32), ("uint16", gdal.GDT_UInt16)):
    a = values(dtype)
    src = "gdal_src.tif"
    ds = gdal.GetDriverByName("GTiff").Create(src, W, H, B, gdt)
    ds.SetGeoTransform([620000.0, 30.0, 0.0, 4200000.0, 0.0, -30.0])
    ds.SetProjection(srs.ExportToWkt())
    for b in range(B):
        band = ds.GetRasterBand(b + 1)
        band.WriteArray(a[:, :, b])
        band.SetDescription("band %d" % (b + 1))
        band.SetNoDataValue(-9999 if dtype != "uint16" else 65535)
    ds = None
    for il in ("bsq", "bil", "bip"):
        name = "gdal_%s_%s" % (dtype, il)
        clean(name)
        subprocess.run(["gdal_translate", "-q", "-of", "ENVI", "-co", "INTERLEAVE=" + il.upper(), src, name + ".img"],
                       check=True)
        if os.path.exists(name + ".img.aux.xml"):
            os.remove(name + ".img.aux.xml")
        text = open(name + ".hdr").read()
        hdr = envi.read_envi_header(name + ".hdr")

        def braced(key):
            i = text.index(key + " = {") + len(key) + 4
            return text[i:text.index("}", i)].strip()

        golden.append({"file": name + ".img", "writer": "gdal_translate", "shape": [H, W, B], "dtype": dtype,
                       "interleave": il, "byteorder": 0, "values": as_list(a, "gdal_" + dtype),
                       "meta": {"band names": hdr["band names"], "data ignore value": float(hdr["data ignore value"]),
                                "map info": braced("map info"),
                                "coordinate system string": braced("coordinate system string")}})
    os.remove(src)

# 4. A hand-written header: offset, comments, multi-line braces, big-endian float32, CRLF.
a = values("float32")
name = "handmade_offset"
clean(name)
with open(name + ".dat", "wb") as f:
    f.write(b"\xAB" * 100)  # 100 bytes of junk before the data
    f.write(np.ascontiguousarray(a.transpose(2, 0, 1)).astype(">f4").tobytes())  # bsq
hdr = "\r\n".join([
    "ENVI",
    "; a comment line",
    "description = {A header written by hand,",
    "  over two lines}",
    "samples = %d" % W,
    "Lines   = %d" % H,
    "bands = %d" % B,
    "; another comment",
    "header offset = 100",
    "file type = ENVI Standard",
    "data type = 4",
    "interleave = BSQ",
    "byte order = 1",
    "wavelength units = Micrometers",
    "wavelength = {",
    " 0.45,  0.55,",
    " 0.65,",
    " 0.85 }",
    "sensor type = Unknown",
    "",
])
with open(name + ".hdr", "w", newline="") as f:
    f.write(hdr)
golden.append({"file": name + ".hdr", "writer": "hand", "shape": [H, W, B], "dtype": "float32", "interleave": "bsq",
               "byteorder": 1, "values": as_list(a, "handmade"),
               "meta": {"wavelength": [0.45, 0.55, 0.65, 0.85], "wavelength units": "Micrometers",
                        "description": "A header written by hand,\n  over two lines"}})

with open("golden.json", "w") as f:
    f.write('{"values": {\n')
    f.write(",\n".join(json.dumps(k) + ": " + json.dumps(v, separators=(",", ":")) for k, v in value_sets.items()))
    f.write('},\n"images": [\n')
    f.write(",\n".join(json.dumps(g) for g in golden))
    f.write("]}\n")
print("wrote %d golden images" % len(golden))
