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
    PROJ string or a WKT text as user-defined keys."""
    path = os.path.join(OUT, name)
    ds = gdal.GetDriverByName("GTiff").Create(path, W, H, B, gdal.GDT_Float32)
    s = osr.SpatialReference()
    if isinstance(crs, int):
        s.ImportFromEPSG(crs)
    elif crs.startswith("+"):
        s.ImportFromProj4(crs)
    else:
        s.ImportFromWkt(crs)
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


# EPSG codes across kinds, beyond WGS 84: UTM zones of other datums, state
# plane, national grids (Hotine oblique Mercator among them), polar
# stereographic (variants A and B) and geographic CRSs of other datums (one
# with the Paris meridian in grads).
EPSG_SAMPLE = [
    23032, 31983, 26717,                      # ED50, SIRGAS 2000, NAD27 UTM zones
    2227, 26985,                              # NAD83 California zone 3 (US feet), Maryland
    2193, 31468, 2180, 21781, 29902, 3375,    # NZTM, DHDN GK 4, Poland CS92, Swiss LV03, Irish Grid, Malaysia RSO
    32661, 3032,                              # UPS North, Australian Antarctic polar stereographic
    4267, 4230, 4612, 4674, 4807, 4301,       # NAD27, ED50, JGD2000, SIRGAS 2000, NTF (Paris), Tokyo
]

# CRSs GDAL writes as user-defined GeoTIFF keys (ProjectedCSTypeGeoKey
# 32767, user-defined datum or ellipsoid): each coordinate transformation
# omnihsr reads, on user-defined and EPSG ellipsoids, datums and prime
# meridians, in metres and US feet.
ED50_CASSINI = ('PROJCS["custom cass",GEOGCS["my geog",DATUM["European_Datum_1950",SPHEROID["International 1924",6378388,297,'
                'AUTHORITY["EPSG","7022"]],AUTHORITY["EPSG","6230"]],PRIMEM["Greenwich",0],UNIT["degree",0.0174532925199433]],'
                'PROJECTION["Cassini_Soldner"],PARAMETER["latitude_of_origin",40],PARAMETER["central_meridian",3],'
                'PARAMETER["false_easting",100000],PARAMETER["false_northing",200000],UNIT["metre",1]]')
NTF_PARIS_LCC1SP = ('PROJCS["custom lcc",GEOGCS["my paris",DATUM["Nouvelle_Triangulation_Francaise_Paris",SPHEROID["Clarke 1880 (IGN)",'
                    '6378249.2,293.466021293627,AUTHORITY["EPSG","7011"]],AUTHORITY["EPSG","6807"]],PRIMEM["Paris",2.33722917,'
                    'AUTHORITY["EPSG","8903"]],UNIT["degree",0.0174532925199433]],PROJECTION["Lambert_Conformal_Conic_1SP"],'
                    'PARAMETER["latitude_of_origin",46.8],PARAMETER["central_meridian",0],PARAMETER["scale_factor",0.99987742],'
                    'PARAMETER["false_easting",600000],PARAMETER["false_northing",2200000],UNIT["metre",1]]')
GRS80_MERCATOR = ('PROJCS["custom merc",GEOGCS["my ell",DATUM["my datum",SPHEROID["GRS 1980",6378137,298.257222101,AUTHORITY["EPSG","7019"]]],'
                  'PRIMEM["Greenwich",0],UNIT["degree",0.0174532925199433]],PROJECTION["Mercator_1SP"],PARAMETER["central_meridian",10],'
                  'PARAMETER["scale_factor",0.99],PARAMETER["false_easting",0],PARAMETER["false_northing",0],UNIT["metre",1]]')
USER_DEFINED = {
    "merc1sp": "+proj=merc +lon_0=100 +k=0.997 +x_0=3900000 +y_0=900000 +ellps=bessel +units=m",
    "merc2sp": "+proj=merc +lat_ts=41 +lon_0=51 +x_0=0 +y_0=0 +ellps=krass +units=m",
    "merc1sp_grs80": GRS80_MERCATOR,
    "polar_a": "+proj=stere +lat_0=90 +lon_0=-45 +k=0.994 +x_0=2000000 +y_0=2000000 +datum=WGS84 +units=m",
    "polar_b": "+proj=stere +lat_0=-90 +lat_ts=-71 +lon_0=0 +x_0=0 +y_0=0 +ellps=intl +units=m",
    "oblique_stereo": "+proj=sterea +lat_0=52.15616055555555 +lon_0=5.38763888888889 +k=0.9999079 +x_0=155000 +y_0=463000 +ellps=bessel +units=m",
    "stereo": "+proj=stere +lat_0=40 +lon_0=10 +k=0.9999 +x_0=100 +y_0=200 +datum=WGS84 +units=m",
    "lcc1sp": "+proj=lcc +lat_1=18 +lat_0=18 +lon_0=-77 +k_0=1 +x_0=250000 +y_0=150000 +ellps=clrk66 +units=m",
    "lcc1sp_paris": NTF_PARIS_LCC1SP,
    "lcc2sp_usft": "+proj=lcc +lat_1=33 +lat_2=45 +lat_0=39 +lon_0=-96 +x_0=2000000 +y_0=0 +datum=NAD83 +units=us-ft",
    "eqc": "+proj=eqc +lat_ts=30 +lat_0=0 +lon_0=10 +x_0=0 +y_0=0 +datum=WGS84 +units=m",
    "hom_a": "+proj=omerc +lat_0=4 +lonc=102.25 +alpha=30 +k=0.99984 +x_0=804671 +y_0=0 +no_uoff +ellps=evrst69 +units=m",
    "hom_a_rso": "+proj=omerc +lat_0=4 +lonc=102.25 +alpha=323.0257905 +k=0.99984 +x_0=804671 +y_0=0 +no_uoff +gamma=323.1301023611111 +ellps=evrst69 +units=m",
    "hom_b": "+proj=omerc +lat_0=46.95 +lonc=7.43 +alpha=90 +gamma=90 +k=1 +x_0=600000 +y_0=200000 +ellps=bessel +units=m",
    "hom_b_rso": "+proj=omerc +lat_0=4 +lonc=102.25 +alpha=30 +gamma=20 +k=0.99984 +x_0=804671 +y_0=0 +ellps=evrst69 +units=m",
    "cassini": "+proj=cass +lat_0=10.44166666666667 +lon_0=-61.33333333333334 +x_0=86501.46392051999 +y_0=65379.0134283 +ellps=clrk80 +units=m",
    "cassini_ed50": ED50_CASSINI,
    "polyconic": "+proj=poly +lat_0=0 +lon_0=-54 +x_0=5000000 +y_0=10000000 +ellps=GRS80 +units=m",
    "sinusoidal": "+proj=sinu +lon_0=0 +x_0=0 +y_0=0 +R=6371007.181 +units=m",
    "aeqd": "+proj=aeqd +lat_0=40 +lon_0=-100 +x_0=0 +y_0=0 +datum=WGS84 +units=m",
    "eqdc": "+proj=eqdc +lat_0=40 +lon_0=10 +lat_1=30 +lat_2=50 +x_0=1 +y_0=2 +datum=WGS84 +units=m",
    "gnomonic": "+proj=gnom +lat_0=40 +lon_0=10 +x_0=1 +y_0=2 +datum=WGS84 +units=m",
    "miller": "+proj=mill +lon_0=10 +x_0=1 +y_0=2 +datum=WGS84 +units=m",
    "robinson": "+proj=robin +lon_0=10 +x_0=1 +y_0=2 +datum=WGS84 +units=m",
    "vandg": "+proj=vandg +lon_0=10 +x_0=1 +y_0=2 +R=6371000 +units=m",
    "cea": "+proj=cea +lat_ts=20 +lon_0=10 +x_0=1 +y_0=2 +datum=WGS84 +units=m",
    "orthographic": "+proj=ortho +lat_0=40 +lon_0=10 +x_0=1 +y_0=2 +datum=WGS84 +units=m",
    "nzmg": "+proj=nzmg +lat_0=-41 +lon_0=173 +x_0=2510000 +y_0=6023150 +ellps=intl +units=m",
    "laborde": "+proj=labrd +lat_0=-18.9 +lon_0=44.1 +azi=18.9 +k=0.9995 +x_0=400000 +y_0=800000 +ellps=intl +units=m",
    "tm_south": "+proj=tmerc +axis=wsu +lat_0=-22 +lon_0=25 +k=1 +x_0=0 +y_0=0 +datum=WGS84 +units=m",
    "utm_rf_paris": "+proj=tmerc +lat_0=0 +lon_0=3 +k=0.9996 +x_0=500000 +y_0=0 +a=6378000 +rf=298.5 +pm=paris +units=m",
    "tm_b_pm": "+proj=tmerc +lat_0=0 +lon_0=4 +k=0.9996 +x_0=500000 +y_0=0 +a=6378000 +b=6357000 +pm=2.5 +units=m",
    "longlat_madrid": "+proj=longlat +ellps=intl +pm=madrid +no_defs",
}


# Not EPSG:2227 (US survey feet) nor EPSG:4807 (NTF Paris, in grads): GDAL
# reads its own ENVI header of them as another CRS than the code (map info
# "units=Feet" taken as international feet; ESRI's D_NTF taken as the
# Greenwich NTF datum), while omnihsr knows the header's text by its code
# and writes that code to GeoTIFF.
ENVI_FROM = [ "epsg3375.tif", "ud_merc1sp.tif", "ud_polar_b.tif", "ud_hom_a_rso.tif",
             "ud_lcc1sp_paris.tif", "ud_sinusoidal.tif", "ud_tm_b_pm.tif"]


def envi_file(name, srs, gt):
    """An ENVI input written by GDAL with the CRS srs and geotransform gt."""
    path = os.path.join(OUT, name)
    ds = gdal.GetDriverByName("ENVI").Create(path, W, H, B, gdal.GDT_Float32)
    ds.SetSpatialRef(srs)
    ds.SetGeoTransform(gt)
    for b, band in enumerate(data()):
        ds.GetRasterBand(b + 1).WriteArray(band)
    ds = None
    aux = path + ".aux.xml"
    if os.path.exists(aux):
        os.remove(aux)
    return path


def gdal_envi(name, src):
    s = gdal.Open(src)
    return envi_file(name, s.GetSpatialRef(), s.GetGeoTransform())


def envi_albers(name):
    s = osr.SpatialReference()
    s.ImportFromProj4("+proj=aea +lat_1=29.5 +lat_2=45.5 +lat_0=23 +lon_0=-96 +x_0=0 +y_0=0 +datum=WGS84 +units=m +no_defs")
    return envi_file(name, s, [-1000000.0, 30.0, 0.0, 2000000.0, 0.0, -30.0])


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
        e = srs.Clone()
        e.MorphToESRI()
        v["esri_wkt"] = e.ExportToWkt()
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
    for code in EPSG_SAMPLE:
        name = f"epsg{code}.tif"
        geog = osr.SpatialReference()
        geog.ImportFromEPSG(code)
        gt = [10.5, 0.001, 0.0, 45.25, 0.0, -0.001] if geog.IsGeographic() else [400000.0, 30.0, 0.0, 4000000.0, 0.0, -30.0]
        inputs[name] = gtiff(name, code, gt)
    for name, crs in USER_DEFINED.items():
        name = f"ud_{name}.tif"
        gt = [10.5, 0.001, 0.0, 45.25, 0.0, -0.001] if "longlat" in crs else [100000.0, 10.0, 0.0, 200000.0, 0.0, -10.0]
        inputs[name] = gtiff(name, crs, gt)
    # ENVI headers GDAL writes for some of them (ESRI WKT), for the way back
    # to GeoTIFF.
    for src in ENVI_FROM:
        name = os.path.splitext(src)[0] + "_envi.img"
        inputs[name] = gdal_envi(name, inputs[src])
    goldens = {"gdal_version": gdal.__version__, "cases": []}
    with tempfile.TemporaryDirectory() as tmp:
        for name, path in inputs.items():
            case = {"input": name, "gdal": gdal_view(path), "outputs": []}
            # GDAL's own ENVI copy: where GDAL does not read it back as the
            # same CRS (OSR IsSame), an output is checked against it instead.
            own = os.path.join(tmp, "gdal_" + os.path.splitext(name)[0] + ".img")
            gdal.Translate(own, path, format="ENVI")
            case["gdal"]["gdal_envi_is_same"] = bool(gdal.Open(own).GetSpatialRef().IsSame(gdal.Open(path).GetSpatialRef()))
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
                # ENVI needs the WKT of a CRS; omnihsr knows it for every EPSG
                # geographic 2D and projected CRS (hsi/crs/epsg_esri.txt.gz)
                # and makes it from user-defined GeoTIFF keys, so no output
                # drops its CRS.
                lost = False
                if lost != bool(r.stderr.strip()):
                    sys.exit(f"{out}: warnings {r.stderr!r}, expected some: {lost}")
                if not case["gdal"]["gdal_envi_is_same"]:
                    view["is_same_crs_as_gdal_envi"] = bool(gdal.Open(out).GetSpatialRef().IsSame(gdal.Open(own).GetSpatialRef()))
                if not lost and not (view["is_same_crs_as_input"] or view.get("is_same_crs_as_gdal_envi")):
                    sys.exit(f"{out}: CRS differs from {name}:\n{view['wkt']}\n{case['gdal']['wkt']}")
                del view["wkt"], view["esri_wkt"]
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
