#!/usr/bin/env python3
"""The name of every EPSG geographic 2D and projected CRS, as GDAL prints it.

`gdalinfo` names a CRS by its EPSG name ("SIRGAS 2000 / UTM zone 25S");
the ESRI WKT of hsi/crs/epsg_esri.txt.gz carries ESRI's spelling
("SIRGAS_2000_UTM_Zone_25S"). `omnihsr info` prints the EPSG name, taken
from the table this script reads from PROJ's database (the proj.db that
GDAL uses, Debian's proj-data), deprecated codes included:

    <code> TAB <name>

one line per code, ascending, gzip-compressed with a fixed header so that
the same proj.db gives the same bytes.

Run from the repository root:
    /usr/bin/python3 scripts/goldens/epsg_names.py [/usr/share/proj/proj.db]
"""
import gzip
import io
import sqlite3
import sys

OUT = "hsi/crs/epsg_names.txt.gz"


def main():
    db = sys.argv[1] if len(sys.argv) > 1 else "/usr/share/proj/proj.db"
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    rows = con.execute(
        "SELECT CAST(code AS INTEGER), name FROM projected_crs WHERE auth_name = 'EPSG' "
        "UNION SELECT CAST(code AS INTEGER), name FROM geodetic_crs WHERE auth_name = 'EPSG' AND type = 'geographic 2D' "
        "ORDER BY 1").fetchall()
    version = con.execute("SELECT value FROM metadata WHERE key = 'EPSG.VERSION'").fetchone()[0]
    raw = "".join(f"{code}\t{name}\n" for code, name in rows if "\t" not in name and "\n" not in name).encode()
    buf = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buf, compresslevel=9, mtime=0) as f:
        f.write(raw)
    with open(OUT, "wb") as f:
        f.write(buf.getvalue())
    print(f"{OUT}: {len(rows)} names from EPSG {version}, {len(raw)} bytes of text, {len(buf.getvalue())} gzip'd")


if __name__ == "__main__":
    main()
