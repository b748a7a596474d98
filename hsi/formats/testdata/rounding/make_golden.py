#!/usr/bin/python3
"""Writes the rounding goldens: float32 GeoTIFFs of halfway and near-halfway
values, and GDAL's conversion of each to integer types with gdal_translate -ot.

Run from this folder with GDAL's Python bindings (Debian: python3-gdal,
gdal-bin); the committed files came from GDAL 3.6.2:

    /usr/bin/python3 make_golden.py

signed.tif (2 x 4 pixels, 3 bands) holds negative and positive ties and is
converted to Int16 and Int32; unsigned.tif holds non-negative ones and is
converted to Byte and UInt16. No value lies within one float32 step of a
tie (where GDAL 3.6.2 rounds in float32 arithmetic) or outside the target
range (where GDAL clamps and OmniHSR refuses).
"""
import subprocess

import numpy as np
from osgeo import gdal

SIGNED = [0.5, 1.5, 2.5, 3.5, -0.5, -1.5, -2.5, -3.5,
          0.25, 0.75, -0.25, -0.75, 127.5, -128.5, 1000.5, -1000.5,
          32766.5, -32767.5, 10.4, 10.6, -10.4, -10.6, 0.0, 7.0]
UNSIGNED = [0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 0.25, 0.75,
            10.4, 10.6, 127.5, 128.5, 253.5, 254.5, 254.4, 0.0,
            100.5, 101.5, 200.5, 201.5, 99.49, 99.51, 1.0, 255.0]


def source(name, values):
    a = np.array(values, dtype=np.float32).reshape(3, 2, 4)  # bands, rows, columns
    ds = gdal.GetDriverByName("GTiff").Create(name, 4, 2, 3, gdal.GDT_Float32, ["INTERLEAVE=BAND"])
    ds.SetGeoTransform([500000, 30, 0, 4000000, 0, -30])
    for b in range(3):
        ds.GetRasterBand(b + 1).WriteArray(a[b])
    ds = None


def translate(src, ot, out):
    subprocess.run(["gdal_translate", "-q", "-ot", ot, "-co", "INTERLEAVE=BAND", src, out], check=True)


source("signed.tif", SIGNED)
source("unsigned.tif", UNSIGNED)
translate("signed.tif", "Int16", "gdal_int16.tif")
translate("signed.tif", "Int32", "gdal_int32.tif")
translate("unsigned.tif", "Byte", "gdal_uint8.tif")
translate("unsigned.tif", "UInt16", "gdal_uint16.tif")
