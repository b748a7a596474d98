#!/usr/bin/env bash
# Build the omnihsr Python wheel, offline:
#
#   python/build.sh            ->  python/dist/omnihsr-VERSION-py3-none-PLATFORM.whl
#
# 1. libomnihsr.so and libomnihsr.h (go build -buildmode=c-shared ./cmd/libomnihsr,
#    cgo: needs a C compiler) into python/omnihsr/_bin/;
# 2. the omnihsr command (CGO_ENABLED=0, static) into python/build/bin/;
# 3. pip wheel --no-build-isolation --no-index with Debian's setuptools and wheel
#    (python3-setuptools, python3-wheel, python3-pip), tagged py3-none-PLATFORM:
#    PLATFORM is manylinux_2_M_ARCH, M the newest glibc symbol version the library
#    needs (objdump -T), or OMNIHSR_PLAT when set.
#
# Other targets: the library needs cgo, so each platform's wheel is built on
# that platform (or with a cross C compiler: CC=aarch64-linux-gnu-gcc
# GOARCH=arm64 CGO_ENABLED=1 for linux/arm64, tag manylinux_2_M_aarch64;
# macOS: the library is libomnihsr.dylib, built on a Mac, tag
# macosx_11_0_arm64 or macosx_10_15_x86_64; Windows: omnihsr.dll with
# MinGW-w64, tag win_amd64), each into omnihsr/_bin/ under the name
# _lib.py loads on that platform, with the command as build/bin/omnihsr (.exe
# on Windows: setup.py's BIN). The omnihsr command itself cross-compiles
# (scripts/release).
#
# Environment: PYTHON (default /usr/bin/python3), GO (default go),
# OMNIHSR_PLAT (the platform tag), VERSION (stamped into the Go build;
# default the package's __version__).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
py=${PYTHON:-/usr/bin/python3}
go=${GO:-go}
version=${VERSION:-$(sed -n 's/^__version__ = "\(.*\)"$/\1/p' "$here/omnihsr/__init__.py")}
[ -n "$version" ] || { echo "build.sh: no __version__ in omnihsr/__init__.py" >&2; exit 1; }
stamp="-X github.com/omnihsr/omnihsr/internal/buildinfo.stamp=$version"

rm -rf "$here/build/lib" "$here"/build/scripts-* "$here/build/bdist."*
mkdir -p "$here/omnihsr/_bin" "$here/build/bin" "$here/dist"
echo "build.sh: libomnihsr.so"
(cd "$root" && CGO_ENABLED=1 "$go" build -trimpath -buildmode=c-shared -ldflags "-s -w $stamp" \
  -o "$here/omnihsr/_bin/libomnihsr.so" ./cmd/libomnihsr)
echo "build.sh: omnihsr"
(cd "$root" && CGO_ENABLED=0 "$go" build -trimpath -ldflags "-s -w $stamp" -o "$here/build/bin/omnihsr" ./cmd/omnihsr)

plat=${OMNIHSR_PLAT:-}
if [ -z "$plat" ]; then
  arch=$(uname -m)
  if ! command -v objdump >/dev/null; then
    echo "build.sh: objdump not found (apt-get install binutils), or set OMNIHSR_PLAT" >&2
    exit 1
  fi
  glibc=$(objdump -T "$here/omnihsr/_bin/libomnihsr.so" | grep -o 'GLIBC_2\.[0-9]*' | sort -t. -k2 -n | tail -1)
  minor=${glibc#GLIBC_2.}
  plat=manylinux_2_${minor:-17}_$arch
fi
echo "build.sh: wheel for $plat"
rm -f "$here"/dist/omnihsr-*.whl
(cd "$here" && OMNIHSR_PLAT=$plat "$py" -m pip wheel --no-build-isolation --no-index --no-deps \
  --disable-pip-version-check -q -w dist .)
rm -rf "$here"/omnihsr.egg-info
ls "$here"/dist/omnihsr-*.whl
