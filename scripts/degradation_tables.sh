#!/usr/bin/env bash
# Regenerates the test-time degradation tables of the evaluation report
# (paper Tables "test-time degradations" and "Blur that grows along the
# spectrum") and the band-redefinition table with the embedded model:
#   docs/degrade/*.md|json   noise 0.01/0.02/0.03, blur 0.25s/0.40s/0.55s, area
#                            on the twelve-protocol crops at x4 and x8
#   docs/degrade/kappa_*.md  band-dependent blur kappa 0.25 and 0.5, seven protocol at x4
#   docs/banddef.md|json     subset / merge / gain / offset at x4
# Until `omnihsr eval -report` exists (issue 7) this script is the command
# that regenerates them. Usage: scripts/degradation_tables.sh (repo root or anywhere).
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p docs/degrade runs
BIN=runs/omnihsr-report
go build -o "$BIN" ./cmd/omnihsr
run() { "$BIN" eval -methods omnihsr "$@"; }
run -protocol twelve -factors 4,8 -out docs/degrade/clean.json
for s in 0.01 0.02 0.03; do run -protocol twelve -factors 4,8 -noise "$s" -out "docs/degrade/noise_$s.json"; done
for c in 0.25 0.40 0.55; do run -protocol twelve -factors 4,8 -blur "$c" -out "docs/degrade/blur_$c.json"; done
run -protocol twelve -factors 4,8 -area -out docs/degrade/area.json
for k in 0.25 0.5; do run -protocol seven -factors 4 -kappa "$k" -out "docs/degrade/kappa_$k.json"; done
"$BIN" banddef -out docs/banddef.json
