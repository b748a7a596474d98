#!/usr/bin/python3
"""Write a miniature AVIRIS-NG L2 reflectance image (ENVI BIL) and goldens.

Run with Debian's python3 (python3-gdal, python3-numpy):

    /usr/bin/python3 scripts/miniatures/aviris_ng.py hsi/products/testdata

Structure, as in a real ang<date>t<time>_rfl_v2*/..._corr_v2*_img (about
600 x 4000 pixels, 425 bands): a float32 ENVI image, interleave bil, byte
order 0, with a header holding wavelength (nm), fwhm, bbl written as floats
(1.0 / 0.0: the water-vapour bands are 0.0), data ignore value = -9999 and
a UTM map info rotated with "rotation=" (the flight line's heading) -- the
header layout JPL's AVIRIS-NG L2 products use (ENVI header format; GDAL's
ENVI driver reads the rotation into the geotransform).

Values: bands 2 and 4 are flagged bad; pixel (1, 2) is -9999 in every band.

goldens (aviris_golden.json): the cube (rows, cols, bands) as GDAL reads it,
GDAL's geotransform (rotated) and EPSG code, and the header's band lists.
"""
import json
import os
import sys

import numpy as np
from osgeo import gdal, osr

OUT = sys.argv[1] if len(sys.argv) > 1 else "."
NAME = "ang20200712t182253_corr_v2y1_img"
H, W, B = 3, 4, 6


def main():
    os.makedirs(OUT, exist_ok=True)
    rng = np.random.default_rng(5)
    cube = rng.uniform(0.0, 0.6, (H, W, B)).astype(np.float32)
    cube[1, 2, :] = -9999.0
    bil = np.ascontiguousarray(np.transpose(cube, (0, 2, 1)))  # rows, bands, cols
    bil.astype("<f4").tofile(os.path.join(OUT, NAME))
    wl = [377.071821, 382.081803, 387.091785, 1372.0, 1877.5, 2500.0]
    fwhm = [5.58, 5.58, 5.58, 5.6, 5.6, 5.7]
    bbl = [1.0, 1.0, 0.0, 1.0, 0.0, 1.0]
    hdr = (
        "ENVI\n"
        "description = {AVIRIS-NG Atmospherically corrected reflectance}\n"
        f"samples = {W}\nlines = {H}\nbands = {B}\nheader offset = 0\n"
        "file type = ENVI Standard\ndata type = 4\ninterleave = bil\nbyte order = 0\n"
        "map info = { UTM , 1.000 , 1.000 , 724522.127 , 4074620.759 , 4.8000000000e+00 , "
        "4.8000000000e+00 , 11 , North , WGS-84 , units=Meters , rotation=75.00000000 }\n"
        "wavelength units = Nanometers\n"
        "wavelength = { " + " , ".join(f"{v:.6f}" for v in wl) + " }\n"
        "fwhm = { " + " , ".join(f"{v:.6f}" for v in fwhm) + " }\n"
        "bbl = { " + " , ".join(f"{v:.1f}" for v in bbl) + " }\n"
        "data ignore value = -9999\n")
    with open(os.path.join(OUT, NAME + ".hdr"), "w") as fh:
        fh.write(hdr)
    ds = gdal.Open(os.path.join(OUT, NAME))
    arr = np.stack([ds.GetRasterBand(b + 1).ReadAsArray() for b in range(B)], axis=-1)
    srs = osr.SpatialReference(wkt=ds.GetProjection())
    srs.AutoIdentifyEPSG()
    golden = {"file": NAME, "cube": arr.astype(np.float32).tolist(), "wavelengths": wl, "fwhm": fwhm,
              "bad": [v == 0 for v in bbl], "geotransform": list(ds.GetGeoTransform()),
              "epsg": int(srs.GetAuthorityCode(None)),
              "nodata": ds.GetRasterBand(1).GetNoDataValue()}
    with open(os.path.join(OUT, "aviris_golden.json"), "w") as fh:
        json.dump(golden, fh)


if __name__ == "__main__":
    main()
