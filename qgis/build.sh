#!/bin/sh
# Builds the QGIS plugin zip for "Plugins > Manage and Install Plugins >
# Install from ZIP": qgis/dist/omnihsr-qgis-VERSION.zip, VERSION from
# omnihsr/metadata.txt. The zip holds the folder omnihsr/ (no caches) and
# the repository's LICENSE as omnihsr/LICENSE (the QGIS plugin repository
# requires it there). Needs python3 (its zipfile module); no network.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
version=$(sed -n 's/^version=//p' "$here/omnihsr/metadata.txt")
[ -n "$version" ] || { echo "qgis/build.sh: no version= in omnihsr/metadata.txt" >&2; exit 1; }
mkdir -p "$here/dist"
out="$here/dist/omnihsr-qgis-$version.zip"
python3 - "$here" "$out" <<'PY'
import os, sys, zipfile
here, out = sys.argv[1], sys.argv[2]
def entry(name):
    info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))  # reproducible
    info.external_attr = 0o644 << 16
    info.compress_type = zipfile.ZIP_DEFLATED
    return info
tmp = out + ".tmp"
names = []
with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as z:
    for root, dirs, files in os.walk(os.path.join(here, "omnihsr")):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for f in sorted(files):
            if f.endswith((".pyc", ".pyo")):
                continue
            p = os.path.join(root, f)
            name = os.path.relpath(p, here)
            with open(p, "rb") as fh:
                z.writestr(entry(name), fh.read())
            names.append(name)
    with open(os.path.join(here, "..", "LICENSE"), "rb") as fh:
        z.writestr(entry("omnihsr/LICENSE"), fh.read())
    names.append("omnihsr/LICENSE")
os.replace(tmp, out)
print("wrote %s: %d files (%s)" % (out, len(names), ", ".join(names)))
PY
