#!/usr/bin/env python3
"""Goldens for georeferencing and CRS across formats, checked with GDAL.

Creates tiny inputs with GDAL (and one ENVI header by hand), converts each
to ENVI and TIFF, and upscales it x2, with the omnihsr binary given as the
first argument, and records in hsi/formats/testdata/georef/goldens.json
what GDAL reads from every input and output: the geotransform, the corner
coordinates, the CRS (WKT and EPSG code) and whether the output's CRS is the
same as the input's (OSR IsSame). It fails when GDAL reads an output's
georeferencing differently from the input's, or when a converted output's
physical values differ from the input's: read with SPy (stored values over
the reflectance scale factor) for ENVI and with GDAL (stored values times
the band scale plus offset) for TIFF; GDAL on an ENVI output of a TIFF
(data gain and offset values) too.

Run from the repository root with Debian's python3-gdal:
    go build -o /tmp/omnihsr ./cmd/omnihsr
    /usr/bin/python3 scripts/goldens/georef.py /tmp/omnihsr
"""
import json
import os
import subprocess
import sys
import tempfile

import numpy as np
from osgeo import gdal, osr
import spectral.io.envi as envi

gdal.UseExceptions()
OUT = "hsi/formats/testdata/georef"
H, W, B = 4, 5, 3


def data():
    return (np.arange(H * W * B, dtype="f4").reshape(B, H, W) + 1) * 10


def gtiff(name, crs, gt, point=False):
    """A GeoTIFF as GDAL writes it: an EPSG code (int) as EPSG geokeys, a
    PROJ string as user-defined projection keys."""
    path = os.path.join(OUT, name)
    ds = gdal.GetDriverByName("GTiff").Create(path, W, H, B, gdal.GDT_Float32)
    s = osr.SpatialReference()
    if isinstance(crs, int):
        s.ImportFromEPSG(crs)
    else:
        s.ImportFromProj4(crs)
    ds.SetSpatialRef(s)
    ds.SetGeoTransform(gt)
    if point:
        ds.SetMetadataItem("AREA_OR_POINT", "Point")
    for b, band in enumerate(data()):
        ds.GetRasterBand(b + 1).WriteArray(band)
        ds.GetRasterBand(b + 1).SetScale(1e-4)
        ds.GetRasterBand(b + 1).SetOffset(0)
    ds = None
    return path


def envi_albers(name):
    path = os.path.join(OUT, name)
    ds = gdal.GetDriverByName("ENVI").Create(path, W, H, B, gdal.GDT_Float32)
    s = osr.SpatialReference()
    s.ImportFromProj4("+proj=aea +lat_1=29.5 +lat_2=45.5 +lat_0=23 +lon_0=-96 +x_0=0 +y_0=0 +datum=WGS84 +units=m +no_defs")
    ds.SetSpatialRef(s)
    ds.SetGeoTransform([-1000000.0, 30.0, 0.0, 2000000.0, 0.0, -30.0])
    for b, band in enumerate(data()):
        ds.GetRasterBand(b + 1).WriteArray(band)
    ds = None
    aux = path + ".aux.xml"
    if os.path.exists(aux):
        os.remove(aux)
    return path


def envi_rotated(name):
    path = os.path.join(OUT, name)
    data().tofile(path)
    with open(os.path.splitext(path)[0] + ".hdr", "w") as f:
        f.write(f"""ENVI
samples = {W}
lines = {H}
bands = {B}
header offset = 0
file type = ENVI Standard
data type = 4
interleave = bsq
byte order = 0
wavelength units = Nanometers
wavelength = {{450, 550, 650}}
fwhm = {{10, 10, 12}}
bbl = {{1, 0, 1}}
reflectance scale factor = 10000
sensor type = AVIRIS
default bands = {{3, 2, 1}}
acquisition time = 2021-06-01T10:30:00Z
map info = {{UTM, 1, 1, 500000, 4200000, 30, 30, 33, North, WGS-84, rotation=30}}
""")
    return path


def gdal_view(path, ref=None):
    ds = gdal.Open(path)
    gt = list(ds.GetGeoTransform())
    srs = ds.GetSpatialRef()
    corner = lambda c, r: [gt[0] + c * gt[1] + r * gt[2], gt[3] + c * gt[4] + r * gt[5]]
    v = {
        "geotransform": gt,
        "corners": {"upper_left": corner(0, 0), "upper_right": corner(ds.RasterXSize, 0),
                    "lower_left": corner(0, ds.RasterYSize), "lower_right": corner(ds.RasterXSize, ds.RasterYSize)},
        "size": [ds.RasterYSize, ds.RasterXSize],
        "wkt": srs.ExportToWkt() if srs else "",
        "epsg": 0,
        "scale": [ds.GetRasterBand(b + 1).GetScale() for b in range(ds.RasterCount)],
        "bbl": ds.GetMetadataItem("bbl", "ENVI"),
    }
    if srs is not None:
        s = srs.Clone()
        s.AutoIdentifyEPSG()
        code = s.GetAuthorityCode(None)
        v["epsg"] = int(code) if code else 0
    if ref is not None:
        rs = gdal.Open(ref).GetSpatialRef()
        v["is_same_crs_as_input"] = bool(srs is not None and rs is not None and srs.IsSame(rs))
    return v


def physical(path):
    """The values a reader family sees: SPy (stored / reflectance scale
    factor) for ENVI, GDAL (stored * scale + offset) for TIFF."""
    if path.endswith(".img"):
        img = envi.open(os.path.splitext(path)[0] + ".hdr", path)
        return np.transpose(img.load(), (2, 0, 1)).astype("f8"), float(img.scale_factor)
    ds = gdal.Open(path)
    out = []
    for b in range(ds.RasterCount):
        band = ds.GetRasterBand(b + 1)
        out.append(band.ReadAsArray().astype("f8") * (band.GetScale() or 1) + (band.GetOffset() or 0))
    return np.array(out), None


def gdal_physical(path):
    ds = gdal.Open(path)
    return np.array([ds.GetRasterBand(b + 1).ReadAsArray().astype("f8") * (ds.GetRasterBand(b + 1).GetScale() or 1)
                     + (ds.GetRasterBand(b + 1).GetOffset() or 0) for b in range(ds.RasterCount)])


def main():
    exe = sys.argv[1]
    os.makedirs(OUT, exist_ok=True)
    inputs = {
        "utm32633.tif": gtiff("utm32633.tif", 32633, [500000.0, 30.0, 0.0, 4200000.0, 0.0, -30.0]),
        "point32633.tif": gtiff("point32633.tif", 32633, [500000.0, 30.0, 0.0, 4200000.0, 0.0, -30.0], point=True),
        "geog4326.tif": gtiff("geog4326.tif", 4326, [10.5, 0.001, 0.0, 45.25, 0.0, -0.001]),
        "albers.img": envi_albers("albers.img"),
        "albers_gdal.tif": gtiff("albers_gdal.tif", "+proj=aea +lat_1=29.5 +lat_2=45.5 +lat_0=23 +lon_0=-96 +x_0=0 +y_0=0 +datum=WGS84 +units=m", [-1000000.0, 30.0, 0.0, 2000000.0, 0.0, -30.0]),
        "lcc_gdal.tif": gtiff("lcc_gdal.tif", "+proj=lcc +lat_1=33 +lat_2=45 +lat_0=39 +lon_0=-96 +x_0=0 +y_0=0 +datum=WGS84 +units=m", [10000.0, 20.0, 0.0, -5000.0, 0.0, -20.0]),
        "laea_gdal.tif": gtiff("laea_gdal.tif", "+proj=laea +lat_0=52 +lon_0=10 +x_0=4321000 +y_0=3210000 +datum=WGS84 +units=m", [4000000.0, 10.0, 0.0, 3000000.0, 0.0, -10.0]),
        "tm_gdal.tif": gtiff("tm_gdal.tif", "+proj=tmerc +lat_0=0 +lon_0=9 +k=0.9999 +x_0=500000 +y_0=0 +datum=WGS84 +units=m", [600000.0, 5.0, 0.0, 5000000.0, 0.0, -5.0]),
        "epsg3035.tif": gtiff("epsg3035.tif", 3035, [4000000.0, 10.0, 0.0, 3000000.0, 0.0, -10.0]),
        "rotated.img": envi_rotated("rotated.img"),
    }
    goldens = {"gdal_version": gdal.__version__, "cases": []}
    with tempfile.TemporaryDirectory() as tmp:
        for name, path in inputs.items():
            case = {"input": name, "gdal": gdal_view(path), "outputs": []}
            for op, ext in [("convert", ".img"), ("convert", ".tif"), ("upscale", ".img"), ("upscale", ".tif")]:
                out = os.path.join(tmp, os.path.splitext(name)[0] + "_" + op + ext)
                cmd = [exe, op, "-in", path, "-out", out]
                if op == "upscale":
                    cmd += ["-scale", "2", "-method", "bicubic"]
                r = subprocess.run(cmd, capture_output=True, text=True)
                if r.returncode != 0:
                    sys.exit(f"{cmd}: {r.stderr}")
                view = gdal_view(out, ref=path)
                f = 2 if op == "upscale" else 1
                want = case["gdal"]["corners"]
                for k, xy in view["corners"].items():
                    if max(abs(a - b) for a, b in zip(xy, want[k])) > 1e-6 * max(1, abs(want[k][0]), abs(want[k][1])):
                        sys.exit(f"{out}: corner {k} {xy}, want {want[k]}")
                # ENVI needs the WKT of a CRS; omnihsr knows it for WGS 84, its
                # UTM zones and the codes of hsi/crs/epsg_esri.json (EPSG:3035
                # among them), so no output drops its CRS.
                lost = False
                if lost != bool(r.stderr.strip()):
                    sys.exit(f"{out}: warnings {r.stderr!r}, expected some: {lost}")
                if not lost and not view["is_same_crs_as_input"]:
                    sys.exit(f"{out}: CRS differs from {name}:\n{view['wkt']}\n{case['gdal']['wkt']}")
                phys = {}
                if op == "convert":
                    want, _ = physical(path)
                    got, spy_scale = physical(out)
                    if not np.allclose(got, want, rtol=1e-6, atol=0):
                        sys.exit(f"{out}: physical values differ from {name}")
                    phys["same_physical_values"] = True
                    if spy_scale is not None:
                        phys["spy_scale_factor"] = spy_scale
                    if path.endswith(".tif") and not np.allclose(gdal_physical(out), want, rtol=1e-6, atol=0):
                        sys.exit(f"{out}: GDAL reads other physical values than from {name}")
                view.update(phys)
                case["outputs"].append({"op": op, "format": "ENVI" if ext == ".img" else "TIFF", "factor": f,
                                        "warnings": r.stderr.strip().replace(tmp + os.sep, ""), "gdal": view})
            goldens["cases"].append(case)
    with open(os.path.join(OUT, "goldens.json"), "w") as f:
        json.dump(goldens, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
