#!/usr/bin/python3
"""Validate the STAC items of hsi/stac and keep them as its goldens.

Run from the repository root with Debian's python3 (python3-jsonschema,
python3-gdal) and Go on the PATH, with ../shared present:

    /usr/bin/python3 scripts/goldens/stac.py

1. The Go test TestItems, run with -stac-dir DIR, writes its items into DIR.
2. Each item is validated, with Draft 7 and every $ref resolved locally,
   against the STAC item schema of ../shared/schemas/stac/stac-spec and the
   schema of every extension the item declares (eo, raster and projection
   v2.0.0, from the same folder).
3. The footprint (geometry) of each item is checked against GDAL's
   transformation of the corners of proj:transform and proj:shape from
   proj:code to EPSG:4326, to 1e-7 degrees.
4. The validated items are copied into hsi/stac/testdata/, which the Go test
   compares with, byte for byte.

Two things the stored schemas do not hold are supplied here:
- The stored stac-spec snapshot is 1.1.0-beta.1: its item schema requires
  stac_version to be that string. Our items say 1.1.0 (the released
  version); the copy validated against the core schema carries the
  snapshot's version string, and nothing else is changed.
- The item schema refers to GeoJSON's Feature and Geometry schemas
  (geojson.org), which are not stored. The minimal stand-ins below are
  written from RFC 7946: a Feature is an object of type "Feature" with
  geometry (null or a geometry) and properties; a Polygon is a list of
  closed rings of at least four [lon, lat] positions.
"""
import copy
import json
import os
import shutil
import subprocess
import sys
import tempfile

import jsonschema
from osgeo import osr

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCHEMAS = os.path.join(ROOT, "..", "shared", "schemas", "stac")
GOLDEN = os.path.join(ROOT, "hsi", "stac", "testdata")

POSITION = {"type": "array", "minItems": 2, "items": {"type": "number"}}
RING = {"type": "array", "minItems": 4, "items": POSITION}
GEOMETRY = {
    "$id": "https://geojson.org/schema/Geometry.json",
    "type": "object",
    "required": ["type", "coordinates"],
    "oneOf": [
        {"properties": {"type": {"const": "Point"}, "coordinates": POSITION}},
        {"properties": {"type": {"const": "Polygon"}, "coordinates": {"type": "array", "items": RING}}},
        {"properties": {"type": {"const": "MultiPolygon"},
                        "coordinates": {"type": "array", "items": {"type": "array", "items": RING}}}},
    ],
}
FEATURE = {
    "$id": "https://geojson.org/schema/Feature.json",
    "type": "object",
    "required": ["type", "properties", "geometry"],
    "properties": {
        "type": {"const": "Feature"},
        "properties": {"oneOf": [{"type": "null"}, {"type": "object"}]},
        "geometry": {"oneOf": [{"type": "null"}, {"$ref": "https://geojson.org/schema/Geometry.json"}]},
        "bbox": {"type": "array", "minItems": 4, "items": {"type": "number"}},
    },
}


def load_store():
    """Every stored schema under its $id and under the URL its folder gives
    (the core's common.json has "commonjson" in its $id)."""
    store = {}
    core = None
    exts = {}
    for dirpath, _, files in os.walk(SCHEMAS):
        for f in files:
            if not f.endswith(".json") or "json-schema" not in dirpath:
                continue
            with open(os.path.join(dirpath, f)) as fh:
                s = json.load(fh)
            sid = s.get("$id", "").rstrip("#")
            store[sid] = s
            if "/stac-spec/item-spec/" in os.path.join(dirpath, f):
                store[sid.rsplit("/", 1)[0] + "/" + f] = s
                if f == "item.json":
                    core = s
            elif "stac-extensions.github.io" in sid:
                exts[sid] = s
    store[GEOMETRY["$id"]] = GEOMETRY
    store[FEATURE["$id"]] = FEATURE
    return store, core, exts


def stac_version_const(core):
    """The stac_version the stored core schema requires."""
    def walk(s):
        if isinstance(s, dict):
            if "stac_version" in s.get("properties", {}) and "const" in s["properties"]["stac_version"]:
                return s["properties"]["stac_version"]["const"]
            for v in s.values():
                r = walk(v)
                if r:
                    return r
        elif isinstance(s, list):
            for v in s:
                r = walk(v)
                if r:
                    return r
        return None
    return walk(core)


def check_footprint(item):
    p = item["properties"]
    if item.get("geometry") is None:
        return
    code = int(p["proj:code"].split(":")[1])
    a, b, c, d, e, f = p["proj:transform"]
    h, w = p["proj:shape"]
    src, dst = osr.SpatialReference(), osr.SpatialReference()
    src.ImportFromEPSG(code)
    dst.ImportFromEPSG(4326)
    for s in (src, dst):
        s.SetAxisMappingStrategy(osr.OAMS_TRADITIONAL_GIS_ORDER)
    tr = osr.CoordinateTransformation(src, dst)
    ring = item["geometry"]["coordinates"][0]
    for k, (row, col) in enumerate([(0, 0), (0, w), (h, w), (h, 0)]):
        x, y = a * col + b * row + c, d * col + e * row + f
        lon, lat, _ = tr.TransformPoint(x, y)
        if abs(lon - ring[k][0]) > 1e-7 or abs(lat - ring[k][1]) > 1e-7:
            raise SystemExit("%s: corner %d at %r, GDAL says %r" % (item["id"], k, ring[k], (lon, lat)))


def main():
    store, core, exts = load_store()
    version = stac_version_const(core)
    with tempfile.TemporaryDirectory() as d:
        subprocess.check_call(["go", "test", "./hsi/stac/", "-run", "^TestItems$", "-count=1", "-stac-dir", d], cwd=ROOT)
        os.makedirs(GOLDEN, exist_ok=True)
        for name in sorted(os.listdir(d)):
            with open(os.path.join(d, name)) as fh:
                item = json.load(fh)
            c = copy.deepcopy(item)
            c["stac_version"] = version
            for schema, doc in [(core, c)] + [(exts[u], item) for u in item["stac_extensions"]]:
                resolver = jsonschema.RefResolver(schema.get("$id", ""), schema, store=store)
                jsonschema.Draft7Validator(schema, resolver=resolver).validate(doc)
            check_footprint(item)
            shutil.copy(os.path.join(d, name), os.path.join(GOLDEN, name))
            print("%s: valid (core schema %s, %s)" % (name, version, ", ".join(u.split("/")[3] for u in item["stac_extensions"])))


if __name__ == "__main__":
    sys.exit(main())
