#!/usr/bin/env bash
# Build the omnihsr Python wheels, offline:
#
#   python/build.sh             the wheel of this machine (linux-x86_64 or linux-aarch64)
#   python/build.sh --all       the five wheels below
#   python/build.sh TARGET...   the named ones
#
# into python/dist/omnihsr-VERSION-py3-none-PLATFORM.whl (dist/ is emptied
# of wheels first). Targets, each with binaries of its own architecture:
#
#   linux-x86_64    manylinux_2_M_x86_64   libomnihsr.so (cgo: gcc) + omnihsr
#   linux-aarch64   manylinux_2_M_aarch64  libomnihsr.so (cgo: aarch64-linux-gnu-gcc) + omnihsr
#   macos-arm64     macosx_12_0_arm64      omnihsr only (no C cross-compiler for macOS: the
#   macos-x86_64    macosx_12_0_x86_64       package runs the executable, its subprocess backend)
#   windows-amd64   win_amd64              omnihsr.dll (cgo: x86_64-w64-mingw32-gcc) + omnihsr.exe
#
# For each target:
# 1. the C ABI library (go build -buildmode=c-shared ./cmd/libomnihsr, cgo
#    with the target's C compiler) and its header into python/omnihsr/_bin/;
# 2. the omnihsr executable (CGO_ENABLED=0, static) into python/build/bin/,
#    installed by the wheel as a script (on PATH);
# 3. pip wheel --no-build-isolation --no-index with Debian's setuptools and
#    wheel (python3-setuptools, python3-wheel, python3-pip), tagged
#    py3-none-PLATFORM (ctypes: any Python 3, no Python ABI). M in the
#    manylinux tags is the newest glibc symbol version the library needs
#    (objdump -T); OMNIHSR_PLAT overrides the tag of a one-target build.
# The LICENSE at the repository's root goes into every wheel's .dist-info.
# With more than one target, python/wheelcheck.py then checks every wheel
# (tag, `file` of each binary, glibc versions and libraries of the linux
# ones, the licence) and runs what this machine can run: the x86_64
# executable, and the aarch64 one and a C program over the aarch64
# library under qemu-aarch64-static.
#
# Go's macOS port needs macOS 12 or later (Go 1.25 on), hence macosx_12_0.
#
# Environment: PYTHON (default /usr/bin/python3), GO (default go), VERSION
# (stamped into the Go builds; default the package's __version__),
# OMNIHSR_PLAT (see above).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
py=${PYTHON:-/usr/bin/python3}
go=${GO:-go}
version=${VERSION:-$(sed -n 's/^__version__ = "\(.*\)"$/\1/p' "$here/omnihsr/__init__.py")}
[ -n "$version" ] || { echo "build.sh: no __version__ in omnihsr/__init__.py" >&2; exit 1; }
stamp="-X github.com/omnihsr/omnihsr/internal/buildinfo.stamp=$version"
all_targets=(linux-x86_64 linux-aarch64 macos-arm64 macos-x86_64 windows-amd64)

targets=()
for a in "$@"; do
  case $a in
    --all) targets+=("${all_targets[@]}") ;;
    linux-x86_64|linux-aarch64|macos-arm64|macos-x86_64|windows-amd64) targets+=("$a") ;;
    *) echo "build.sh: unknown target $a (want --all or one of ${all_targets[*]})" >&2; exit 2 ;;
  esac
done
if [ ${#targets[@]} -eq 0 ]; then
  case $(uname -m) in
    x86_64) targets=(linux-x86_64) ;;
    aarch64) targets=(linux-aarch64) ;;
    *) echo "build.sh: no wheel target for $(uname -m); name one of ${all_targets[*]}" >&2; exit 2 ;;
  esac
fi
if [ -n "${OMNIHSR_PLAT:-}" ] && [ ${#targets[@]} -gt 1 ]; then
  echo "build.sh: OMNIHSR_PLAT names the tag of one target only" >&2
  exit 2
fi

# glibc_tag LIB ARCH OBJDUMP: manylinux_2_M_ARCH, M the newest GLIBC_2.M
# symbol version LIB needs.
glibc_tag() {
  local glibc minor
  if ! command -v "$3" >/dev/null; then
    echo "build.sh: $3 not found (apt-get install binutils / gcc-aarch64-linux-gnu), or set OMNIHSR_PLAT" >&2
    return 1
  fi
  glibc=$("$3" -T "$1" | grep -o 'GLIBC_2\.[0-9]*' | sort -t. -k2 -n | tail -1)
  minor=${glibc#GLIBC_2.}
  echo "manylinux_2_${minor:-17}_$2"
}

need_cc() {
  command -v "$1" >/dev/null && return 0
  echo "build.sh: $1 not found: apt-get install $2" >&2
  exit 1
}

# The host's own target last, so that omnihsr/_bin/ is left holding the
# library this machine loads (what a test against the sources uses).
case $(uname -m) in x86_64) host=linux-x86_64 ;; aarch64) host=linux-aarch64 ;; *) host= ;; esac
ordered=()
for t in "${targets[@]}"; do [ "$t" = "$host" ] || ordered+=("$t"); done
for t in "${targets[@]}"; do [ "$t" != "$host" ] || ordered+=("$t"); done
targets=("${ordered[@]}")

cp "$root/LICENSE" "$here/LICENSE"
trap 'rm -f "$here/LICENSE"' EXIT
mkdir -p "$here/dist"
rm -f "$here"/dist/omnihsr-*.whl
for target in "${targets[@]}"; do
  lib= exe=omnihsr cc= goos= goarch= plat=
  case $target in
    linux-x86_64) goos=linux goarch=amd64 lib=libomnihsr.so cc=gcc
      [ "$(uname -m)" = x86_64 ] || cc=x86_64-linux-gnu-gcc
      need_cc "$cc" gcc-x86-64-linux-gnu ;;
    linux-aarch64) goos=linux goarch=arm64 lib=libomnihsr.so cc=aarch64-linux-gnu-gcc
      [ "$(uname -m)" != aarch64 ] || cc=gcc
      need_cc "$cc" gcc-aarch64-linux-gnu ;;
    macos-arm64) goos=darwin goarch=arm64 plat=macosx_12_0_arm64 ;;
    macos-x86_64) goos=darwin goarch=amd64 plat=macosx_12_0_x86_64 ;;
    windows-amd64) goos=windows goarch=amd64 lib=omnihsr.dll cc=x86_64-w64-mingw32-gcc exe=omnihsr.exe plat=win_amd64
      need_cc "$cc" gcc-mingw-w64-x86-64 ;;
  esac
  rm -rf "$here/omnihsr/_bin" "$here/build"
  mkdir -p "$here/omnihsr/_bin" "$here/build/bin"
  if [ -n "$lib" ]; then
    echo "build.sh: $target: $lib"
    (cd "$root" && CGO_ENABLED=1 GOOS=$goos GOARCH=$goarch CC=$cc "$go" build -trimpath -buildmode=c-shared \
      -ldflags "-s -w $stamp" -o "$here/omnihsr/_bin/$lib" ./cmd/libomnihsr)
  fi
  echo "build.sh: $target: $exe"
  (cd "$root" && CGO_ENABLED=0 GOOS=$goos GOARCH=$goarch "$go" build -trimpath -ldflags "-s -w $stamp" \
    -o "$here/build/bin/$exe" ./cmd/omnihsr)
  if [ "$goos" = linux ]; then
    objdump=objdump
    [ "$goarch" = arm64 ] && [ "$(uname -m)" != aarch64 ] && objdump=aarch64-linux-gnu-objdump
    plat=$(glibc_tag "$here/omnihsr/_bin/$lib" "$([ "$goarch" = arm64 ] && echo aarch64 || echo x86_64)" "$objdump")
  fi
  [ ${#targets[@]} -gt 1 ] || plat=${OMNIHSR_PLAT:-$plat}
  echo "build.sh: $target: wheel for $plat"
  (cd "$here" && OMNIHSR_PLAT=$plat OMNIHSR_EXE=$exe "$py" -m pip wheel --no-build-isolation --no-index --no-deps \
    --disable-pip-version-check -q -w dist .)
  rm -rf "$here"/omnihsr.egg-info
done
ls "$here"/dist/omnihsr-*.whl
if [ ${#targets[@]} -gt 1 ]; then
  "$py" "$here/wheelcheck.py" "$here"/dist/omnihsr-*.whl
fi
