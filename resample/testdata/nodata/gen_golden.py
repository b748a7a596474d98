#!/usr/bin/python3
"""Generate the GDAL golden of the per-band no-data test (nodata_test.go).

Run with Debian's interpreter (python3-gdal, python3-numpy, gdal-bin):

    /usr/bin/python3 resample/testdata/nodata/gen_golden.py

It writes column.img/.hdr, a 12 x 10 x 16 float32 ENVI cube (bsq) of
random values in [0.1, 1) with one column (column 4) at -9999 in bands 6-9
only, all of band 12 NaN, and "data ignore value = -9999"; then runs

    gdal_translate -of ENVI -r cubic -outsize 400% 400% column.hdr out.img

and stores in golden.json, per band, the number of output samples that are
the no-data value (or NaN) and the number that leaked: finite, not the
no-data value, and below -10 (the valid data lie in [0.1, 1), so a sample
below -10 holds at least 0.1 % of -9999; GDAL's cubic, renormalised over
the valid taps, rings down to about -1.03 next to the column).
"""
import json
import os
import subprocess
import tempfile

import numpy as np
from osgeo import gdal

HERE = os.path.dirname(os.path.abspath(__file__))
H, W, B, COL = 12, 10, 16, 4
ND_BANDS = range(6, 10)
NAN_BAND = 12
FILL = -9999.0

rng = np.random.default_rng(16)
cube = rng.uniform(0.1, 1.0, size=(B, H, W)).astype("<f4")  # bsq
for b in ND_BANDS:
    cube[b, :, COL] = FILL
cube[NAN_BAND] = np.nan
cube.tofile(os.path.join(HERE, "column.img"))
with open(os.path.join(HERE, "column.hdr"), "w") as f:
    f.write(
        "ENVI\n"
        "description = {per-band no-data column for the GDAL comparison}\n"
        f"samples = {W}\nlines = {H}\nbands = {B}\n"
        "header offset = 0\nfile type = ENVI Standard\ndata type = 4\n"
        "interleave = bsq\nbyte order = 0\n"
        f"data ignore value = {FILL:g}\n"
    )

with tempfile.TemporaryDirectory() as tmp:
    out = os.path.join(tmp, "out.img")
    subprocess.run(
        ["gdal_translate", "-q", "-of", "ENVI", "-r", "cubic", "-outsize", "400%", "400%",
         os.path.join(HERE, "column.img"), out],
        check=True,
    )
    ds = gdal.Open(out)
    bands = []
    for b in range(B):
        band = ds.GetRasterBand(b + 1)
        a = band.ReadAsArray().astype(np.float64)
        nodata = int(np.sum((a == FILL) | np.isnan(a)))
        leaked = int(np.sum(np.isfinite(a) & (a != FILL) & (a < -10)))
        bands.append({"nodata": nodata, "leaked": leaked})
    golden = {
        "gdal": gdal.__version__,
        "command": "gdal_translate -of ENVI -r cubic -outsize 400% 400% column.hdr out.img",
        "out_h": ds.RasterYSize,
        "out_w": ds.RasterXSize,
        "nodata_value": ds.GetRasterBand(1).GetNoDataValue(),
        "bands": bands,
    }
with open(os.path.join(HERE, "golden.json"), "w") as f:
    json.dump(golden, f, indent=1)
    f.write("\n")
print(json.dumps({k: v for k, v in golden.items() if k != "bands"}))
for b, r in enumerate(golden["bands"]):
    print(b, r)
