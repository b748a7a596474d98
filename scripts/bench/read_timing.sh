#!/bin/sh
# Time omnihsr's NetCDF-4/HDF5 reader against GDAL's netCDF and HDF5
# drivers, h5py and netCDF4-python on one EMIT-sized granule (written by
# scripts/bench/emit_sized.py), RUNS times each (default 3; GDAL_RUNS sets
# the GDAL commands' count apart), printing each run's wall seconds and
# peak RSS (KiB) and CPU seconds, and the median wall time of the runs
# that finished (a GDAL run past GDAL_TIMEOUT_S, default 900, is stopped
# and reported as failed). With PRODUCTS_TEST naming a test binary of
# hsi/products (go test -c -o products.test ./hsi/products), the read alone
# (BenchmarkReadHDF5) is timed too. Outputs go to a scratch folder
# (default /tmp/omnihsr-read-timing) and are removed after each run. The
# file is read once first, so every run finds it in the page cache.
#
#   scripts/bench/read_timing.sh /tmp/emit_deflate.nc ./omnihsr [RUNS] [GDAL_TIMEOUT_S]
set -eu
nc=$1
bin=$2
runs=${3:-3}
gdal_timeout=${4:-900}
gdal_runs=${GDAL_RUNS:-$runs}
tmp=${TMPDIR:-/tmp}/omnihsr-read-timing
mkdir -p "$tmp"
cat "$nc" >/dev/null

run() { # name, runs, command...
	name=$1
	n=$2
	shift 2
	ts=""
	for i in $(seq "$n"); do
		if /usr/bin/time -f "%e %M %U %S" -o "$tmp/time" "$@" >"$tmp/log" 2>&1; then
			read -r s kib us ss <"$tmp/time"
			ts="$ts $s"
		else
			s="failed($(tail -c 300 "$tmp/log" | tr '\n' ' '))"
			kib=- us=- ss=-
		fi
		rm -f "$tmp"/out*
		echo "$name run $i: $s s, peak RSS $kib KiB, CPU $us s user + $ss s system"
	done
	echo "$name median:" $(echo "$ts" | tr ' ' '\n' | grep -v '^$' | sort -g | awk '{a[NR]=$1} END {if (NR) print a[int((NR+1)/2)] " s"; else print "none finished"}')
}

if [ -n "${PRODUCTS_TEST:-}" ]; then
	run "omnihsr read (BenchmarkReadHDF5, one read)" "$runs" env OMNIHSR_BENCH_HDF5="$nc" "$PRODUCTS_TEST" -test.run '^$' -test.bench ReadHDF5 -test.benchtime 1x
fi
run "omnihsr convert to ENVI" "$runs" "$bin" convert -in "$nc" -out "$tmp/out.hdr"
run "gdal_translate NETCDF: to ENVI" "$gdal_runs" timeout "$gdal_timeout" gdal_translate -q -of ENVI "NETCDF:\"$nc\":reflectance" "$tmp/out.img"
run "gdal_translate HDF5: to ENVI" "$gdal_runs" timeout "$gdal_timeout" gdal_translate -q -of ENVI "HDF5:\"$nc\"://reflectance" "$tmp/out.img"
run "h5py read" "$runs" /usr/bin/python3 -c "import h5py,sys; f=h5py.File(sys.argv[1]); a=f['reflectance'][()]; print(a.shape)" "$nc"
run "netCDF4-python read" "$runs" /usr/bin/python3 -c "import netCDF4,sys; d=netCDF4.Dataset(sys.argv[1]); d.set_auto_mask(False); a=d['reflectance'][:]; print(a.shape)" "$nc"
