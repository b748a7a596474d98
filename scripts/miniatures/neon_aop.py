#!/usr/bin/python3
"""Write miniature NEON AOP reflectance files (HDF5) and their goldens.

Run with Debian's python3 (python3-h5py, python3-numpy):

    /usr/bin/python3 scripts/miniatures/neon_aop.py hsi/products/testdata

Structure, from NEON's public tutorials on its reflectance HDF5 files
(NEON-Data-Skills "Intro to Working with Hyperspectral Remote Sensing Data
in HDF5 Format in R", DP3.30006.001, and the Python tutorials of the same
series), for a real tile NEON_D17_SJER_DP3_257000_4112000_reflectance.h5
(1000 x 1000 pixels of 1 m, 426 bands):
- one root group named after the site ("SJER"), holding the group
  Reflectance;
- Reflectance/Reflectance_Data: int16, (lines, samples, bands), attributes
  Scale_Factor (10000: reflectance = value / 10000), Data_Ignore_Value
  (-9999), Spatial_Extent_meters (xmin, xmax, ymin, ymax),
  Spatial_Resolution_X_Y, Dimensions, Dimension_Labels, Units and the bad
  band windows Band_Window_1_Nanometers / Band_Window_2_Nanometers (the
  water-vapour absorptions, about 1340-1445 and 1790-1955 nm);
- Reflectance/Metadata/Spectral_Data/Wavelength and FWHM, in nanometres;
- Reflectance/Metadata/Coordinate_System/EPSG Code (a string dataset, as
  "32611"), Map_Info (an ENVI map info string: projection, reference pixel
  x, y = 1, 1 at the upper-left corner, its easting and northing, pixel
  sizes, zone, hemisphere, datum, units), Coordinate_System_String (WKT)
  and Proj4;
- Reflectance/Metadata/Ancillary_Imagery: 2-D rasters of the same grid
  (here Water_Vapor_Column) that a reader must not take for the cube.
The tutorials do not say how the strings are stored, so the tile stores
them fixed-length and the flight line variable-length; nor whether the
cube is chunked: the tile's is chunked with gzip, the flight line's
contiguous. The DP1 flight line (NEON_D17_SJER_DP1_20210316_181536_
reflectance.h5) has the same layout; here it has no Band_Window attributes
(the reader then flags no band) and a border of -9999 pixels, as a
flight line's north-up raster has around the swath.

goldens (neon_golden.json), per file: the cube (rows, cols, bands) as
stored (the reader keeps stored values and states the scale factor), the
wavelengths, FWHM, the bad bands (centre wavelength within a window), the
geotransform as the tutorials build it (xmin = Map_Info[3], ymax =
Map_Info[4], pixel sizes Map_Info[5], Map_Info[6]) and the EPSG code.
"""
import json
import os
import sys

import h5py
import numpy as np

OUT = sys.argv[1] if len(sys.argv) > 1 else "."
TILE = "NEON_D17_SJER_DP3_257000_4112000_reflectance.h5"
LINE = "NEON_D17_SJER_DP1_20210316_181536_reflectance.h5"
SITE = "SJER"
# 14 bands over NEON's 380-2510 nm: three fall in the first water-vapour
# window, two in the second.
WL = np.array([381.4, 500.2, 650.6, 800.9, 1000.3, 1300.8, 1345.0, 1400.1, 1445.0,
               1600.4, 1800.2, 1950.7, 2200.5, 2510.0])
FWHM = np.full(WL.shape, 5.0) + np.arange(WL.size) * 0.01
WINDOWS = ([1340.0, 1445.0], [1790.0, 1955.0])
WKT = ('PROJCS["WGS 84 / UTM zone 11N",GEOGCS["WGS 84",DATUM["WGS_1984",SPHEROID["WGS 84",6378137,298.257223563]],'
       'PRIMEM["Greenwich",0],UNIT["degree",0.0174532925199433]],PROJECTION["Transverse_Mercator"],'
       'PARAMETER["latitude_of_origin",0],PARAMETER["central_meridian",-117],PARAMETER["scale_factor",0.9996],'
       'PARAMETER["false_easting",500000],PARAMETER["false_northing",0],UNIT["metre",1]]')


def string(g, name, s, vlen):
    if vlen:
        g.create_dataset(name, data=s, dtype=h5py.string_dtype("ascii"))
    else:
        g.create_dataset(name, data=np.bytes_(s))


def write(path, h, w, x0, y0, windows, vlen, chunked, border):
    rng = np.random.default_rng(7)
    cube = rng.integers(0, 6000, (h, w, WL.size)).astype(np.int16)
    cube[0, 0, :] = -9999  # one no-data pixel
    if border:
        cube[:, 0, :] = -9999
        cube[-1, :, :] = -9999
    with h5py.File(path, "w") as f:
        refl = f.create_group(SITE + "/Reflectance")
        kw = {"chunks": (2, 2, WL.size), "compression": "gzip"} if chunked else {}
        d = refl.create_dataset("Reflectance_Data", data=cube, **kw)
        d.attrs["Scale_Factor"] = 10000.0
        d.attrs["Data_Ignore_Value"] = -9999.0
        d.attrs["Dimensions"] = np.array([h, w, WL.size], np.int32)
        d.attrs["Dimension_Labels"] = np.bytes_("Line, Sample, Wavelength")
        d.attrs["Spatial_Extent_meters"] = np.array([x0, x0 + w, y0 - h, y0], np.float64)
        d.attrs["Spatial_Resolution_X_Y"] = np.array([1.0, 1.0])
        d.attrs["Units"] = np.bytes_("Unitless")
        d.attrs["Description"] = np.bytes_("Atmospherically corrected reflectance.")
        for i, win in enumerate(windows):
            d.attrs["Band_Window_%d_Nanometers" % (i + 1)] = np.array(win, np.float64)
        md = refl.create_group("Metadata")
        sd = md.create_group("Spectral_Data")
        wl = sd.create_dataset("Wavelength", data=WL.astype(np.float32))
        wl.attrs["Units"] = np.bytes_("nanometers")
        fw = sd.create_dataset("FWHM", data=FWHM.astype(np.float32))
        fw.attrs["Units"] = np.bytes_("nanometers")
        cs = md.create_group("Coordinate_System")
        string(cs, "EPSG Code", "32611", vlen)
        string(cs, "Map_Info", "UTM,  1.000,  1.000,       %.2f,       %.1f,       1.0000000,       1.0000000,  11,  North,  WGS-84,  units=Meters, rotation=0.000" % (x0, y0), vlen)
        string(cs, "Coordinate_System_String", WKT, vlen)
        string(cs, "Proj4", "+proj=UTM +zone=11 +ellps=WGS84 +datum=WGS84 +units=m +no_defs", vlen)
        anc = md.create_group("Ancillary_Imagery")
        anc.create_dataset("Water_Vapor_Column", data=rng.random((h, w)).astype(np.float32) * 30)
    return cube


def golden(path, cube, windows):
    with h5py.File(path, "r") as f:
        mi = f[SITE + "/Reflectance/Metadata/Coordinate_System/Map_Info"][()]
        mi = (mi.decode() if isinstance(mi, bytes) else mi).split(",")
        epsg = f[SITE + "/Reflectance/Metadata/Coordinate_System/EPSG Code"][()]
        epsg = int(epsg.decode() if isinstance(epsg, bytes) else epsg)
        wl = f[SITE + "/Reflectance/Metadata/Spectral_Data/Wavelength"][()].astype(np.float64)
        fw = f[SITE + "/Reflectance/Metadata/Spectral_Data/FWHM"][()].astype(np.float64)
    # the tutorials: xMin = mapInfo[3], yMax = mapInfo[4], res = mapInfo[5], mapInfo[6]
    gt = [float(mi[3]), float(mi[5]), 0.0, float(mi[4]), 0.0, -float(mi[6])]
    bad = [any(lo <= x <= hi for lo, hi in windows) for x in wl]
    short = lambda v: [float(np.format_float_positional(np.float32(x), unique=True)) for x in v]
    return {"file": os.path.basename(path), "cube": cube.astype(np.float64).tolist(),
            "wavelengths": short(wl), "fwhm": short(fw), "bad": bad, "geotransform": gt, "epsg": epsg,
            "scale_factor": 10000.0, "no_data": -9999.0}


def main():
    os.makedirs(OUT, exist_ok=True)
    out = {}
    p = os.path.join(OUT, TILE)
    out["tile"] = golden(p, write(p, 6, 5, 257000.0, 4113000.0, WINDOWS, False, True, False), WINDOWS)
    p = os.path.join(OUT, LINE)
    out["line"] = golden(p, write(p, 5, 7, 256873.0, 4112991.0, (), True, False, True), ())
    # Damaged variants: an EPSG code that is not a number, a wavelength
    # list one short, a pixel size of 0 in Map_Info.
    for name, fix in (("neon_bad_epsg.h5", lambda cs, sd: (cs.__delitem__("EPSG Code"), string(cs, "EPSG Code", "UTM11N", False))),
                      ("neon_short_wl.h5", lambda cs, sd: (sd.__delitem__("Wavelength"), sd.create_dataset("Wavelength", data=WL[:-1]))),
                      ("neon_bad_map_info.h5", lambda cs, sd: (cs.__delitem__("Map_Info"), string(cs, "Map_Info", "UTM, 1, 1, 257000, 4113000, 0, 1, 11, North, WGS-84", False)))):
        p = os.path.join(OUT, name)
        write(p, 2, 2, 257000.0, 4113000.0, WINDOWS, False, False, False)
        with h5py.File(p, "a") as f:
            fix(f[SITE + "/Reflectance/Metadata/Coordinate_System"], f[SITE + "/Reflectance/Metadata/Spectral_Data"])
    with open(os.path.join(OUT, "neon_golden.json"), "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
