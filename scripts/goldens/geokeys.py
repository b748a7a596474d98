#!/usr/bin/env python3
"""Goldens for the user-defined GeoTIFF keys omnihsr writes, checked with GDAL.

For every golden input of scripts/goldens/georef.py whose CRS has no EPSG
code (user-defined GeoTIFF keys, and the ENVI Albers header), and for a few
more CRSs (custom projections on EPSG geographic CRSs, and two the standard
keys cannot hold: Mollweide, kilometres), takes the ESRI WKT GDAL makes of
its CRS (the text an ENVI header holds) and records in
hsi/formats/testdata/georef/geokeys.json:

  - the GeoKeyDirectory, GeoDoubleParams and GeoAsciiParams GDAL writes when
    it creates a GeoTIFF in that CRS (default GEOTIFF_KEYS_FLAVOR=STANDARD);
  - the ones omnihsr writes when it converts an ENVI file in that CRS (made
    by GDAL's ENVI driver) to TIFF, with the omnihsr binary given as the
    first argument;
  - whether GDAL reads omnihsr's TIFF as the same CRS (OSR IsSame) as the
    ESRI WKT, and as GDAL's own GeoTIFF; one of the two must hold, and the
    corners must be the input's, or the script fails;
  - what libgeotiff's listgeo reads from omnihsr's TIFF (projection method,
    datum, ellipsoid, linear units), when Debian's geotiff-bin is installed.

The keys are read from the TIFF tags directly (first IFD, classic TIFF).

Run from the repository root with Debian's python3-gdal:
    go build -o /tmp/omnihsr ./cmd/omnihsr
    /usr/bin/python3 scripts/goldens/geokeys.py /tmp/omnihsr
"""
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile

import numpy as np
from osgeo import gdal, osr

gdal.UseExceptions()
DIR = "hsi/formats/testdata/georef"
GEOKEY_DIRECTORY, GEO_DOUBLES, GEO_ASCII = 34735, 34736, 34737


def geo_tags(path):
    """The three GeoTIFF key tags of the first IFD of a classic TIFF."""
    b = open(path, "rb").read()
    bo = "<" if b[:2] == b"II" else ">"
    if struct.unpack(bo + "H", b[2:4])[0] != 42:
        sys.exit(f"{path}: not a classic TIFF")
    off = struct.unpack(bo + "I", b[4:8])[0]
    n = struct.unpack(bo + "H", b[off:off + 2])[0]
    size = {2: 1, 3: 2, 12: 8}
    fmt = {3: "H", 12: "d"}
    tags = {}
    for i in range(n):
        e = b[off + 2 + 12 * i: off + 14 + 12 * i]
        tag, typ, cnt = struct.unpack(bo + "HHI", e[:8])
        if tag not in (GEOKEY_DIRECTORY, GEO_DOUBLES, GEO_ASCII):
            continue
        nbytes = size[typ] * cnt
        data = e[8:8 + nbytes] if nbytes <= 4 else b[struct.unpack(bo + "I", e[8:12])[0]:][:nbytes]
        tags[tag] = data.decode("latin1") if typ == 2 else list(struct.unpack(bo + fmt[typ] * cnt, data))
    return tags


def keys(path):
    """The keys of a GeoTIFF as [id, location, value]: a short, a double (or
    list of doubles) or the text without its '|' terminator."""
    t = geo_tags(path)
    d, dbl, asc = t.get(GEOKEY_DIRECTORY, []), t.get(GEO_DOUBLES, []), t.get(GEO_ASCII, "")
    out = []
    for i in range(d[3] if d else 0):
        k, loc, cnt, val = d[4 + 4 * i: 8 + 4 * i]
        if loc == 0:
            v = val
        elif loc == GEO_DOUBLES:
            v = dbl[val:val + cnt] if cnt > 1 else dbl[val]
        else:
            v = asc[val:val + cnt]
            v = v[:-1] if v.endswith("|") else v
        out.append([k, loc, v])
    return out


def corners(ds):
    gt = ds.GetGeoTransform()
    return [[gt[0] + c * gt[1] + r * gt[2], gt[3] + c * gt[4] + r * gt[5]]
            for c, r in [(0, 0), (ds.RasterXSize, 0), (0, ds.RasterYSize), (ds.RasterXSize, ds.RasterYSize)]]


def listgeo(path):
    """What libgeotiff's listgeo normalises from the keys, or None."""
    if shutil.which("listgeo") is None:
        return None
    r = subprocess.run(["listgeo", path], capture_output=True, text=True)
    out = {}
    for line in r.stdout.splitlines():
        for k in ("Projection Method", "Datum", "Ellipsoid", "Projection Linear Units", "Prime Meridian"):
            if line.startswith(k + ":"):
                out[k] = line.split(":", 1)[1].strip()
    return out


def user_defined_inputs():
    names = sorted(f for f in os.listdir(DIR) if f.startswith("ud_") and f.endswith(".tif"))
    return names + ["albers_gdal.tif", "lcc_gdal.tif", "laea_gdal.tif", "tm_gdal.tif", "albers.img"]


def projected_on(geog_epsg, name, setter):
    """A projected CRS named name on an EPSG geographic CRS."""
    g = osr.SpatialReference()
    g.ImportFromEPSG(geog_epsg)
    s = osr.SpatialReference()
    s.SetProjCS(name)
    s.CopyGeogCSFrom(g)
    setter(s)
    return s


# CRSs beyond the georef inputs: custom projections on EPSG geographic CRSs
# GDAL cites by their EPSG name, and projections the standard keys cannot
# hold (GDAL writes the ESRI PE citation).
def extra_crs():
    out = {}
    out["extra_tm_ed50"] = projected_on(4230, "custom tm", lambda s: s.SetTM(0, 7, 0.9999, 100000, 0))
    out["extra_lcc_etrs89"] = projected_on(4258, "custom lcc", lambda s: s.SetLCC(35, 65, 52, 10, 4000000, 2800000))
    for name, proj in [("extra_mollweide", "+proj=moll +lon_0=10 +datum=WGS84 +units=m"),
                       ("extra_km", "+proj=sinu +lon_0=10 +datum=WGS84 +units=km")]:
        s = osr.SpatialReference()
        s.ImportFromProj4(proj)
        out[name] = s
    return out


def main():
    exe = sys.argv[1]
    cases = []
    with tempfile.TemporaryDirectory() as tmp:
        extra = extra_crs()
        for name in user_defined_inputs() + sorted(extra):
            if name in extra:
                path = os.path.join(tmp, name + ".tif")
                ds = gdal.GetDriverByName("GTiff").Create(path, 5, 4, 1, gdal.GDT_Float32)
                ds.SetSpatialRef(extra[name])
                ds.SetGeoTransform([100000.0, 10.0, 0.0, 200000.0, 0.0, -10.0])
                ds = None
                src = gdal.Open(path)
            else:
                src = gdal.Open(os.path.join(DIR, name))
            srs = src.GetSpatialRef()
            esri = srs.Clone()
            esri.MorphToESRI()
            wkt = esri.ExportToWkt()
            given = osr.SpatialReference()
            given.ImportFromWkt(wkt)
            base = os.path.join(tmp, os.path.splitext(name)[0])
            # GDAL's GeoTIFF in the CRS of the ESRI WKT.
            ds = gdal.GetDriverByName("GTiff").Create(base + "_gdal.tif", src.RasterXSize, src.RasterYSize, 1, gdal.GDT_Float32)
            ds.SetSpatialRef(given)
            ds.SetGeoTransform(src.GetGeoTransform())
            ds = None
            # An ENVI file in that CRS, converted by omnihsr.
            ds = gdal.GetDriverByName("ENVI").Create(base + ".img", src.RasterXSize, src.RasterYSize, 1, gdal.GDT_Float32)
            ds.SetSpatialRef(given)
            ds.SetGeoTransform(src.GetGeoTransform())
            ds.GetRasterBand(1).WriteArray(np.zeros((src.RasterYSize, src.RasterXSize), "f4"))
            ds = None
            hdr = open(base + ".hdr").read()
            if "coordinate system string = {" + wkt + "}" not in hdr:
                sys.exit(f"{name}: GDAL's ENVI header holds another WKT than {wkt}")
            ours = base + "_omnihsr.tif"
            r = subprocess.run([exe, "convert", "-in", base + ".img", "-out", ours], capture_output=True, text=True)
            if r.returncode != 0 or r.stderr.strip():
                sys.exit(f"{name}: omnihsr convert: {r.returncode} {r.stderr}")
            out = gdal.Open(ours)
            same = bool(out.GetSpatialRef().IsSame(given))
            same_gdal = bool(out.GetSpatialRef().IsSame(gdal.Open(base + "_gdal.tif").GetSpatialRef()))
            if not same and not same_gdal:
                sys.exit(f"{name}: GDAL reads omnihsr's TIFF as another CRS:\n{out.GetSpatialRef().ExportToWkt()}\n{srs.ExportToWkt()}")
            want = corners(src)
            for a, b in zip(corners(out), want):
                if max(abs(x - y) for x, y in zip(a, b)) > 1e-6 * max(1, abs(b[0]), abs(b[1])):
                    sys.exit(f"{name}: corner {a}, want {b}")
            case = {
                "input": name,
                "esri_wkt": wkt,
                "gdal_keys": keys(base + "_gdal.tif"),
                "omnihsr_keys": keys(ours),
                "gdal_reads_omnihsr_same_as_wkt": same,
                "gdal_reads_omnihsr_same_as_gdal_geotiff": same_gdal,
                "gdal_geotiff_same_as_wkt": bool(gdal.Open(base + "_gdal.tif").GetSpatialRef().IsSame(given)),
            }
            lg = listgeo(ours)
            if lg is not None:
                case["listgeo_omnihsr"] = lg
            cases.append(case)
    with open(os.path.join(DIR, "geokeys.json"), "w") as f:
        json.dump({"gdal_version": gdal.__version__, "cases": cases}, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
