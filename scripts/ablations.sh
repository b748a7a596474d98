#!/usr/bin/env bash
# Trains the ablation runs (the paper's Table "Ablation") at one
# equal, short budget, one after another, then scores them with
# `omnihsr ablation` and writes docs/ablation.md and docs/ablation.json.
#
#   omnihsr      the model itself (natural images + HSI training scenes)
#   spectral     the head predicts 31 spectral values instead of operators
#   free-kernel  operators without the zero-sum constraint
#   lowres       operators on the low-res grid, then bicubic (without COFR)
#   natural-only the model trained on the natural images only
#   mN           the model with M = N reference band positions (paper Table
#                "positions"; the model itself is M = 31), e.g.
#                RUNS="omnihsr m1 m4 m8 m16 m62" OUT_MD=runs/positions.md \
#                OUT_JSON=docs/positions.json scripts/ablations.sh
#                (the report, `omnihsr eval -report docs/`, reads docs/positions.json;
#                the Markdown of `omnihsr ablation` is not needed for this study)
#
# Every run uses the same seed, steps, patch, batch and schedule, in its own
# directory under $ROOT (default runs/ablation). The script is resumable:
# a run that finished (marker file "done") is skipped, a run with a
# checkpoint continues with -resume, so after Ctrl-C just start it again.
#
# Settings (environment): STEPS (2000), PATCH (128), BATCH (2), SEED (2026),
# VAL_EVERY (250), ROOT (runs/ablation), RUNS (the names above, space
# separated, to train a subset), SHARED (the shared data directory;
# default: found by omnihsr), FACTORS (2,4,8), OUT_MD (docs/ablation.md),
# OUT_JSON (docs/ablation.json), NOTES (docs/ablation_notes.md: when it
# exists, its text becomes the "Discussion" section of OUT_MD, so the
# paragraph comparing the table with the paper's survives regeneration).
#
# Usage: scripts/ablations.sh            (from the repository root or anywhere)
#        STEPS=500 scripts/ablations.sh  (a shorter budget)
set -euo pipefail

cd "$(dirname "$0")/.."
STEPS=${STEPS:-2000}
PATCH=${PATCH:-128}
BATCH=${BATCH:-2}
SEED=${SEED:-2026}
VAL_EVERY=${VAL_EVERY:-250}
ROOT=${ROOT:-runs/ablation}
RUNS=${RUNS:-"omnihsr spectral free-kernel lowres natural-only"}
FACTORS=${FACTORS:-2,4,8}
OUT_MD=${OUT_MD:-docs/ablation.md}
OUT_JSON=${OUT_JSON:-docs/ablation.json}
NOTES=${NOTES:-docs/ablation_notes.md}

mkdir -p "$ROOT/bin"
BIN="$ROOT/bin/omnihsr"
echo "ablations: building $BIN" >&2
go build -o "$BIN" ./cmd/omnihsr

shared=()
if [[ -n "${SHARED:-}" ]]; then
	shared=(-shared "$SHARED")
fi

# extra_flags NAME prints the flags that make run NAME differ from the model.
extra_flags() {
	case "$1" in
	omnihsr) ;;
	spectral | free-kernel | lowres) echo "-variant $1" ;;
	natural-only) echo "-natural-only" ;;
	m[0-9]*) echo "-positions ${1#m}" ;; # the number M of reference positions
	*)
		echo "ablations: unknown run $1" >&2
		return 1
		;;
	esac
}

weights=()
for name in $RUNS; do
	flags=$(extra_flags "$name")
	dir="$ROOT/$name"
	if [[ -f "$dir/done" ]]; then
		echo "ablations: $name finished earlier ($dir/done), skipped" >&2
		continue
	fi
	mkdir -p "$dir"
	resume=()
	if [[ -f "$dir/checkpoint.ckpt" ]]; then
		resume=(-resume)
	fi
	echo "ablations: training $name ($STEPS steps${resume:+, resumed}) into $dir" >&2
	# shellcheck disable=SC2086 # $flags is a list of flags
	"$BIN" train -out "$dir" -steps "$STEPS" -patch "$PATCH" -batch "$BATCH" -seed "$SEED" \
		-val-every "$VAL_EVERY" "${shared[@]}" "${resume[@]}" $flags 2>&1 | tee -a "$dir/train.log"
	# train exits non-zero when interrupted; pipefail and -e stop the script then.
	date -u +"%Y-%m-%dT%H:%M:%SZ" >"$dir/done"
done

# best.omw: the weights of the best validation gain (last.omw without validation).
for name in $RUNS; do
	w="$ROOT/$name/best.omw"
	[[ -f "$w" ]] || w="$ROOT/$name/last.omw"
	weights+=("$name=$w")
done
list=$(
	IFS=,
	echo "${weights[*]}"
)
echo "ablations: scoring $list" >&2
notes=()
if [[ -f "$NOTES" ]]; then
	notes=(-notes "$NOTES")
fi
"$BIN" ablation -weights "$list" -factors "$FACTORS" -out "$OUT_JSON" -md "$OUT_MD" "${notes[@]}"
