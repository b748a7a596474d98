#!/usr/bin/env python3
"""The ESRI WKT of every EPSG geographic 2D and projected CRS, as GDAL
writes it in an ENVI header's "coordinate system string".

The pure-Go CRS package has no EPSG database. It writes WGS 84 and its UTM
zones itself and takes every other code's text from the table this script
records from GDAL/PROJ (hsi/crs/epsg_esri.txt.gz), so that a GeoTIFF in any
EPSG CRS keeps its CRS in ENVI, and an ENVI header GDAL wrote is known by
its code again.

Every EPSG geographic 2D and projected CRS that PROJ's database lists
(deprecated ones too: files still carry them; each code once) and that OSR
can morph to one ESRI WKT1 element is recorded; the few it cannot (methods
WKT1 has no name for, projected CRSs with a vertical part) are counted and
left out. The table is plain text, one record a line, tab
separated, gzip-compressed with a fixed header so that the same GDAL/PROJ
give the same bytes:

    C <code> <0|1 deprecated> <ESRI WKT>
    D <datum code> <code of a geographic CRS on that datum>
    E <ellipsoid code> <code of a geographic CRS on that ellipsoid>
    P <prime meridian code> <code of a geographic CRS with that meridian>

C lines come first, non-deprecated codes in ascending order, then the
deprecated ones; a text shared by several codes is therefore known by the
smallest current code. The D, E and P lines let a GeoTIFF's user-defined
geographic keys (GeogGeodeticDatumGeoKey, GeogEllipsoidGeoKey,
GeogPrimeMeridianGeoKey) name an EPSG datum, ellipsoid or prime meridian:
its ESRI element is that of the geographic CRS given (the smallest current
code on it).

Run from the repository root with Debian's python3-gdal:
    /usr/bin/python3 scripts/goldens/epsg.py
"""
import gzip
import io

from osgeo import gdal, osr

gdal.UseExceptions()
OUT = "hsi/crs/epsg_esri.txt.gz"
KINDS = (osr.OSR_CRS_TYPE_GEOGRAPHIC_2D, osr.OSR_CRS_TYPE_PROJECTED)


def esri(code):
    srs = osr.SpatialReference()
    try:
        srs.ImportFromEPSG(code)
        morphed = srs.Clone()
        morphed.MorphToESRI()
        wkt = morphed.ExportToWkt()
    except RuntimeError:
        return None, None
    if not one_element(wkt):
        return None, None
    return srs, wkt


def one_element(wkt):
    """Whether the text is one WKT1 GEOGCS or PROJCS element: OSR exports
    WKT2 for a method WKT1 cannot name, and a projected CRS with a vertical
    part as PROJCS followed by VERTCS."""
    if not wkt.startswith(("GEOGCS[", "PROJCS[")) or "\t" in wkt or "\n" in wkt:
        return False
    depth, quoted = 0, False
    for i, ch in enumerate(wkt):
        if ch == '"':
            quoted = not quoted
        elif not quoted and ch == "[":
            depth += 1
        elif not quoted and ch == "]":
            depth -= 1
            if depth == 0:
                return i == len(wkt) - 1
    return False


def main():
    infos = [i for i in osr.GetCRSInfoListFromDatabase("EPSG") if i.type in KINDS]
    infos.sort(key=lambda i: (i.deprecated, int(i.code)))
    seen = set()  # PROJ lists a few codes twice
    infos = [i for i in infos if not (i.code in seen or seen.add(i.code))]
    lines = []
    parts = {"D": {}, "E": {}, "P": {}}
    skipped = 0
    for info in infos:
        code = int(info.code)
        srs, wkt = esri(code)
        if wkt is None:
            skipped += 1
            continue
        lines.append(f"C\t{code}\t{int(info.deprecated)}\t{wkt}")
        if info.type != osr.OSR_CRS_TYPE_GEOGRAPHIC_2D or info.deprecated:
            continue
        for kind, node in (("D", "DATUM"), ("E", "SPHEROID"), ("P", "PRIMEM")):
            if srs.GetAuthorityName(node) == "EPSG":
                c = int(srs.GetAuthorityCode(node))
                parts[kind].setdefault(c, code)
    for kind in "DEP":
        for c, geog in sorted(parts[kind].items()):
            lines.append(f"{kind}\t{c}\t{geog}")
    raw = ("\n".join(lines) + "\n").encode()
    buf = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buf, compresslevel=9, mtime=0) as f:
        f.write(raw)
    with open(OUT, "wb") as f:
        f.write(buf.getvalue())
    n = sum(1 for l in lines if l.startswith("C"))
    print(f"GDAL {gdal.__version__}: {n} codes ({skipped} skipped), {len(parts['D'])} datums, "
          f"{len(parts['E'])} ellipsoids, {len(parts['P'])} prime meridians; "
          f"{len(raw)} bytes of text, {len(buf.getvalue())} gzip'd")


if __name__ == "__main__":
    main()
