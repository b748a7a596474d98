#!/bin/sh
# Headless test of the QGIS Processing provider (qgis/omnihsr) with Debian's
# qgis 3.22 and python3-qgis; run from anywhere, as root where packages are
# missing (it installs them). Prints the time of every step.
#   1. installs qgis, python3-qgis, python3-pytest, python3-gdal, python3-netcdf4,
#      gdal-bin if missing;
#   2. builds omnihsr and a small GeoTIFF (the sample degraded x2, 176 x 175 x 6);
#   3. qgis_process.bin (not the /usr/bin/qgis_process wrapper, whose
#      --noversioncheck 3.22 rejects): plugins enable omnihsr, then
#      omnihsr:upscale, omnihsr:degrade and omnihsr:info, checked with
#      python3-gdal (size, CRS, pixel size, origin), and a bad input that
#      must fail with omnihsr's message;
#      omnihsr:upscale of an ENVI .hdr and of a .npy file (INPUT_FILE) with a
#      data type and compression, checked in the outputs;
#   4. the zip of build.sh, unpacked as "Install from ZIP" does, lists the algorithms;
#   5. pytest qgis/tests (the algorithms in a QgsApplication: same bytes as
#      the CLI, layers with their CRS, errors, cancel, timeout; the zip as the
#      QGIS plugin repository's validator checks it).
set -eu
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
start=$(date +%s.%N)
step() { awk -v what="$1" -v a="$(date +%s.%N)" -v b="$2" 'BEGIN { printf "qgis/ci.sh: %-58s %6.1f s\n", what, a - b }'; }
now() { date +%s.%N; }

t=$(now)
need=""
for p in qgis python3-qgis python3-pytest python3-gdal python3-netcdf4 gdal-bin; do
	dpkg -s "$p" >/dev/null 2>&1 || need="$need $p"
done
if [ -n "$need" ]; then
	export DEBIAN_FRONTEND=noninteractive
	# shellcheck disable=SC2086
	apt-get install -y --no-install-recommends $need >/dev/null ||
		{ apt-get update >/dev/null && apt-get install -y --no-install-recommends $need >/dev/null; }
fi
echo "qgis/ci.sh: packages ready (installed:${need:- none}) in $(($(date +%s) - ${t%.*})) s"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
t=$(now)
go build -o "$tmp/omnihsr" ./cmd/omnihsr
step "go build ./cmd/omnihsr" "$t"

# QGIS keeps its profile (enabled plugins, settings) under HOME: a fresh one.
export QT_QPA_PLATFORM=offscreen QGIS_PLUGINPATH="$repo/qgis" OMNIHSR_BIN="$tmp/omnihsr"
export HOME="$tmp/home" XDG_RUNTIME_DIR="$tmp/run"
mkdir -p "$HOME" "$XDG_RUNTIME_DIR"
chmod 700 "$XDG_RUNTIME_DIR"
qp() { qgis_process.bin "$@" 2>"$tmp/qp.err"; }
cd "$tmp"
"$OMNIHSR_BIN" degrade -in "$repo/sample/L7_ETMs.tif" -out g.tif -scale 2 >/dev/null

t=$(now)
qp plugins enable omnihsr >/dev/null || { echo "qgis/ci.sh: plugins enable omnihsr failed" >&2; cat "$tmp/qp.err" >&2; exit 1; }
qp list | grep -q 'omnihsr:upscale' || { echo "qgis/ci.sh: omnihsr:upscale not listed" >&2; cat "$tmp/qp.err" >&2; exit 1; }
step "plugins enable omnihsr, list" "$t"

check() { # python3-gdal checks of $1 against $2: $3 = the factor (output side = factor x input side)
	/usr/bin/python3 - "$@" <<'PY'
import sys
from osgeo import gdal, osr
out, ref, f = sys.argv[1], sys.argv[2], float(sys.argv[3])
o, r = gdal.Open(out), gdal.Open(ref)
def fail(msg):
    sys.exit("qgis/ci.sh: %s: %s" % (out, msg))
want = (round(r.RasterXSize * f), round(r.RasterYSize * f), r.RasterCount)
if (o.RasterXSize, o.RasterYSize, o.RasterCount) != want:
    fail("size %d x %d x %d, want %d x %d x %d" % ((o.RasterXSize, o.RasterYSize, o.RasterCount) + want))
so, sr = osr.SpatialReference(o.GetProjection()), osr.SpatialReference(r.GetProjection())
if not so.IsSame(sr) or sr.GetAuthorityCode(None) != "31985":
    fail("CRS %s, want the input's %s" % (so.GetAuthorityCode(None), sr.GetAuthorityCode(None)))
go, gr = o.GetGeoTransform(), r.GetGeoTransform()
# Pixel size: the input's divided by the per-axis factor actually applied.
fx, fy = o.RasterXSize / r.RasterXSize, o.RasterYSize / r.RasterYSize
for got, exp, what in ((go[1], gr[1] / fx, "pixel width"), (go[5], gr[5] / fy, "pixel height"), (go[0], gr[0], "x origin"), (go[3], gr[3], "y origin")):
    if abs(got - exp) > 1e-9 * max(1, abs(exp)):
        fail("%s %.12g, want %.12g" % (what, got, exp))
print("qgis/ci.sh: %s: %d x %d x %d, EPSG:%s, pixel %.6g x %.6g (input %.6g): ok" % (out, o.RasterXSize, o.RasterYSize, o.RasterCount, so.GetAuthorityCode(None), go[1], -go[5], gr[1]))
PY
}

t=$(now)
qp run omnihsr:upscale -- INPUT=g.tif SCALE=2 OUTPUT=q.tif >"$tmp/qp.out" || { cat "$tmp/qp.out" "$tmp/qp.err" >&2; exit 1; }
step "qgis_process.bin run omnihsr:upscale SCALE=2" "$t"
check q.tif g.tif 2

# Files QGIS cannot open as layers, through INPUT_FILE: an ENVI header
# (georeferenced) and an NPY array (no georeferencing to carry), with a
# data type, a compression and a creation option that must reach the output.
"$OMNIHSR_BIN" convert -in g.tif -out g.hdr >/dev/null
"$OMNIHSR_BIN" convert -in g.tif -out g.npy >/dev/null
t=$(now)
qp run omnihsr:upscale -- INPUT_FILE=g.hdr SCALE=2 TYPE=4 COMPRESS=3 OPTIONS='PREDICTOR=2|TILED=YES' OUTPUT=qe.tif >"$tmp/qp.out" ||
	{ cat "$tmp/qp.out" "$tmp/qp.err" >&2; exit 1; }
qp run omnihsr:upscale -- INPUT_FILE=g.npy SCALE=2 COMPRESS=1 OUTPUT=qn.tif >"$tmp/qp.out" || { cat "$tmp/qp.out" "$tmp/qp.err" >&2; exit 1; }
step "qgis_process.bin run omnihsr:upscale INPUT_FILE=g.hdr, g.npy" "$t"
grep -q "omnihsr executable: $OMNIHSR_BIN (from the environment variable OMNIHSR_BIN)" "$tmp/qp.out" ||
	{ echo "qgis/ci.sh: the log does not name the executable and its source:" >&2; cat "$tmp/qp.out" >&2; exit 1; }
check qe.tif g.tif 2
/usr/bin/python3 - <<'PY'
import sys
from osgeo import gdal
def fail(msg):
    sys.exit("qgis/ci.sh: " + msg)
for path, typ, comp, pred, crs in (("qe.tif", "UInt16", "ZSTD", "2", True), ("qn.tif", "Float32", "DEFLATE", None, False)):
    ds = gdal.Open(path)
    md = ds.GetMetadata("IMAGE_STRUCTURE")
    got = (gdal.GetDataTypeName(ds.GetRasterBand(1).DataType), md.get("COMPRESSION"), md.get("PREDICTOR"), bool(ds.GetProjection()))
    if got != (typ, comp, pred, crs) or (ds.RasterXSize, ds.RasterYSize, ds.RasterCount) != (350, 352, 6):
        fail("%s: %s, %d x %d x %d; want %s, 350 x 352 x 6" % (path, got, ds.RasterXSize, ds.RasterYSize, ds.RasterCount, (typ, comp, pred, crs)))
    print("qgis/ci.sh: %s: %d x %d x %d, %s, COMPRESSION=%s PREDICTOR=%s, CRS %s: ok" % ((path, ds.RasterXSize, ds.RasterYSize, ds.RasterCount) + got[:3] + ("yes" if got[3] else "none (NPY)",)))
PY

t=$(now)
qp run omnihsr:degrade -- INPUT=q.tif SCALE=2 BLUR=0.4 OUTPUT=d.tif >"$tmp/qp.out" || { cat "$tmp/qp.out" "$tmp/qp.err" >&2; exit 1; }
step "qgis_process.bin run omnihsr:degrade SCALE=2" "$t"
check d.tif q.tif 0.5

t=$(now)
qp run omnihsr:info -- INPUT=g.tif OUTPUT=info.html >"$tmp/qp.out" || { cat "$tmp/qp.out" "$tmp/qp.err" >&2; exit 1; }
step "qgis_process.bin run omnihsr:info" "$t"
grep -q 'EPSG:31985' "$tmp/qp.out" && grep -q '176 x 175 x 6' info.html ||
	{ echo "qgis/ci.sh: omnihsr:info lacks the CRS or the shape:" >&2; cat "$tmp/qp.out" info.html >&2; exit 1; }

# Bad input: a GeoTIFF with an infinite value fails with omnihsr's own message and leaves no output.
/usr/bin/python3 -c '
from osgeo import gdal
import numpy as np
ds = gdal.GetDriverByName("GTiff").Create("inf.tif", 8, 6, 2, gdal.GDT_Float32)
ds.SetGeoTransform((500000, 30, 0, 9000000, 0, -30))
a = np.arange(48, dtype=np.float32).reshape(6, 8)
ds.GetRasterBand(1).WriteArray(a); a[3, 4] = np.inf; ds.GetRasterBand(2).WriteArray(a)'
t=$(now)
if qp run omnihsr:upscale -- INPUT=inf.tif SCALE=2 OUTPUT=bad.tif >"$tmp/qp.out"; then
	echo "qgis/ci.sh: omnihsr:upscale of a file with an infinite value succeeded" >&2
	exit 1
fi
step "qgis_process.bin run omnihsr:upscale of a bad input (fails)" "$t"
msg=$(grep -h 'omnihsr upscale: ' "$tmp/qp.out" "$tmp/qp.err" | head -1)
case "$msg" in
*inf.tif*infinite*) echo "qgis/ci.sh: bad input: $msg" ;;
*) echo "qgis/ci.sh: bad input gave no clear message:" >&2; cat "$tmp/qp.out" "$tmp/qp.err" >&2; exit 1 ;;
esac
[ ! -e bad.tif ] || { echo "qgis/ci.sh: bad.tif left behind" >&2; exit 1; }

# The zip, unpacked as "Install from ZIP" does (into the plugins folder of a
# fresh profile: enabling a plugin twice in one profile is an error).
t=$(now)
sh "$repo/qgis/build.sh" >/dev/null
zip=$(ls "$repo"/qgis/dist/omnihsr-qgis-*.zip)
mkdir -p zipplugins home2
/usr/bin/python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])' "$zip" zipplugins
HOME="$tmp/home2" QGIS_PLUGINPATH="$tmp/zipplugins" qp plugins enable omnihsr >/dev/null ||
	{ echo "qgis/ci.sh: the zip's plugin cannot be enabled" >&2; cat "$tmp/qp.err" >&2; exit 1; }
HOME="$tmp/home2" QGIS_PLUGINPATH="$tmp/zipplugins" qp list | grep -q 'omnihsr:degrade' ||
	{ echo "qgis/ci.sh: the zip's plugin lists no omnihsr:degrade" >&2; exit 1; }
step "build.sh, the zip's plugin enabled and listed ($(basename "$zip"))" "$t"

t=$(now)
cd "$repo"
rc=0
/usr/bin/python3 -m pytest -q -p no:cacheprovider -s qgis/tests >"$tmp/pytest.out" 2>&1 || rc=$?
grep -v -e XDG_RUNTIME_DIR -e 'dfMin and dfMax' "$tmp/pytest.out"
[ "$rc" -eq 0 ] || { echo "qgis/ci.sh: pytest qgis/tests failed (exit $rc)" >&2; exit 1; }
step "pytest qgis/tests" "$t"
step "total" "$start"
