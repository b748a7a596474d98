#!/usr/bin/env python3
"""The ESRI WKT of common EPSG coordinate reference systems, as GDAL writes
it in an ENVI header's "coordinate system string".

The pure-Go CRS package has no EPSG database. It writes WGS 84 and its UTM
zones itself; for the codes below, the projected and geographic CRSs that
hyperspectral products and GIS users meet most (national grids, ETRS89,
NAD83 and GDA UTM/MGA zones, polar stereographic, equal-area grids), it
takes the text this script records from GDAL/PROJ, so that a GeoTIFF in one
of them keeps its CRS in ENVI.

Run from the repository root with Debian's python3-gdal:
    /usr/bin/python3 scripts/goldens/epsg.py
"""
import json

from osgeo import osr

CODES = (
    [4258, 4269, 4283, 4490, 4617, 6318, 7844,  # geographic: ETRS89, NAD83, GDA94, CGCS2000, NAD83(CSRS), NAD83(2011), GDA2020
     3035, 3034, 3857, 3395, 5070, 5071, 6933, 2154, 27700, 2056, 28992, 31370, 3067, 3006,
     3031, 3413, 3976, 3995]
    + list(range(25828, 25839))   # ETRS89 / UTM zones 28N-38N
    + list(range(26901, 26924))   # NAD83 / UTM zones 1N-23N
    + list(range(28348, 28359))   # GDA94 / MGA zones 48-58
    + list(range(7846, 7860))     # GDA2020 / MGA zones 46-59
)


def main():
    out = {}
    for code in sorted(set(CODES)):
        srs = osr.SpatialReference()
        try:
            if srs.ImportFromEPSG(code) != 0:
                continue
        except RuntimeError:
            continue
        srs.MorphToESRI()
        out[str(code)] = srs.ExportToWkt()
    with open("hsi/crs/epsg_esri.json", "w") as f:
        json.dump(out, f, indent=0, sort_keys=True)
        f.write("\n")
    print(len(out), "codes")


if __name__ == "__main__":
    main()
