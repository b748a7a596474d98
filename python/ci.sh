#!/usr/bin/env bash
# The Python package's CI: install Debian's packages it needs, build the
# wheel (build.sh), install it into a fresh venv that sees Debian's numpy,
# xarray and rioxarray, and run pytest against the installed package.
#
#   python/ci.sh          (from anywhere; about 2 min once Go's build cache is warm, then the
#                          suite twice: the library backend, then OMNIHSR_BACKEND=subprocess)
#
# Needs root for apt-get when a package is missing (not for the rest).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
py=/usr/bin/python3
pkgs=(python3-pytest python3-numpy python3-xarray python3-rioxarray python3-rasterio python3-dask python3-tqdm
  python3-setuptools python3-wheel python3-venv python3-pip binutils gcc libc6-dev)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "ci.sh: apt-get install ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y --no-install-recommends "${missing[@]}" >/dev/null ||
    { apt-get update >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y --no-install-recommends "${missing[@]}" >/dev/null; }
fi

PYTHON=$py "$here/build.sh"
whl=$(ls "$here"/dist/omnihsr-*.whl)

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$py" -m venv --system-site-packages "$tmp/venv"
"$tmp/venv/bin/python" -m pip install -q --no-index --no-deps --disable-pip-version-check "$whl"
unset OMNIHSR_LIB OMNIHSR_BIN
export PATH=$tmp/venv/bin:$PATH
# Run from a directory without the package's sources, so that the
# installed wheel is what is tested.
cd "$tmp"
python -c 'import omnihsr, sys; sys.exit(0 if omnihsr.__file__.startswith(sys.prefix) else "ci.sh: omnihsr not imported from the venv: " + omnihsr.__file__)'
python -m pytest -q -p no:cacheprovider "$here/tests"
# The same suite through the subprocess backend (the bundled omnihsr
# command, arrays as NPY files): the same bytes and results.
echo "ci.sh: again with OMNIHSR_BACKEND=subprocess"
OMNIHSR_BACKEND=subprocess python -m pytest -q -p no:cacheprovider "$here/tests"
