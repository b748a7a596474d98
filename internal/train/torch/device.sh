#!/usr/bin/env bash
# One call on a lent GPU machine (the `run` tool): installs nothing, checks
# the PyTorch forward pass against the Go goldens on the GPU, trains for at
# most $MINUTES minutes (default 8) sized to the card, and writes to $OUT:
#
#   run/last.omw run/best.omw   weights the Go code reads (omnihsr -weights)
#   run/log.csv                 losses, learning rate, samples/s, validation curve
#   run/run.json                settings, device, throughput, timings
#   run/checkpoint.pt           to continue the run in a later call (RESUME=1)
#   device.txt                  nvidia-smi, torch and Python versions
#   train.log                   the trainer's output
#
# The whole call ends within about MINUTES + 1 minutes (hard stop at
# LIMIT_S seconds: the trainer saves and exits on SIGTERM).
#
# Environment (all optional):
#   MODE     finetune (default: from internal/model/weights/default.omw, lr 5e-5,
#            patches 32-128, the settings of the shipped stage 3),
#            scratch (fresh model, lr 2e-4, patch 128),
#            noise (the noise-aware companion: from default.omw with the
#            noise input, noise probability 0.5, lr 5e-5, patches 32-128)
#   MINUTES  training budget of this call (default 8; at most 9)
#   PACK     the training pack (default internal/train/torch/pack/pack.zip)
#   BATCH    samples per step; GROUP samples per batched forward pass
#            (default: by GPU memory, 16/16 from 60 GiB, else 8/8; a group
#            runs as a few subgroups: natural images, scenes, limited sides)
#   LR       base learning rate (default: the mode's)
#   RESUME   1: continue $RUNDIR/checkpoint.pt (carry it in) instead of starting
#   RUNDIR   where a resumed run's checkpoint lies (default: $OUT/run)
#   EXTRA    more train.py flags
#   DEVICE   torch device (default cuda; cpu only to try the script)
#
#   run: bash internal/train/torch/device.sh            (carry internal/train/torch/pack)
set -euo pipefail
cd "$(dirname "$0")/../../.."
: "${OUT:?set OUT to the output directory}"
MODE=${MODE:-finetune}
MINUTES=${MINUTES:-8}
PACK=${PACK:-internal/train/torch/pack/pack.zip}
RUNDIR=${RUNDIR:-$OUT/run}
LIMIT_S=${LIMIT_S:-$(python3 -c "print(int(${MINUTES}*60 + 50))")}
PY=${PY:-python3}
DEVICE=${DEVICE:-cuda}

if python3 -c "import sys; sys.exit(0 if float('${MINUTES}') <= 9 else 1)"; then :; else
  echo "device.sh: MINUTES=${MINUTES}: at most 9" >&2; exit 2
fi
[ -f "$PACK" ] || { echo "device.sh: no training pack at $PACK (build it with internal/train/torch/pack.py and carry internal/train/torch/pack)" >&2; exit 2; }
mkdir -p "$OUT" "$RUNDIR"
{
  date -u +%FT%TZ
  nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader 2>/dev/null || echo "nvidia-smi: none"
  $PY -c "import torch, sys; print('python', sys.version.split()[0], 'torch', torch.__version__, 'cuda', torch.version.cuda, 'available', torch.cuda.is_available())"
  nproc
} > "$OUT/device.txt" 2>&1 || true
cat "$OUT/device.txt"

MEM_GIB=$($PY -c "import torch; print(int(torch.cuda.get_device_properties(0).total_memory / 2**30) if torch.cuda.is_available() else 0)")
if [ -z "${BATCH:-}" ]; then
  if [ "$MEM_GIB" -ge 60 ]; then BATCH=16; else BATCH=8; fi
fi
GROUP=${GROUP:-$BATCH}

case "$MODE" in
  finetune) ARGS=(--init internal/model/weights/default.omw --lr 5e-5 --patch 128 --patch-min 32) ;;
  scratch)  ARGS=(--lr 2e-4 --patch 128) ;;
  noise)    ARGS=(--init internal/model/weights/default.omw --noise-input --noise-prob 0.5 --lr 5e-5 --patch 128 --patch-min 32) ;;
  *) echo "device.sh: MODE=$MODE: want finetune, scratch or noise" >&2; exit 2 ;;
esac
if [ -n "${LR:-}" ]; then ARGS+=(--lr "$LR"); fi
if [ "${RESUME:-0}" = 1 ]; then ARGS=(--resume); fi

# The schedule is fitted to the measured speed after 30 steps (--fit-steps):
# the learning rate halves at 30/60/80 % of the steps this call can take.
# Validation on the pack's 40 held-out samples every 200 steps.
set -x
timeout -s TERM -k 20 "$LIMIT_S" $PY internal/train/torch/train.py --pack "$PACK" --out "$RUNDIR" --device "$DEVICE" \
  --minutes "$MINUTES" --steps 1000000 --batch "$BATCH" --group "$GROUP" --val-every 200 --log-every 20 \
  --checkpoint-minutes 3 "${ARGS[@]}" ${EXTRA:-} 2>&1 | tee "$OUT/train.log"
set +x
ls -la "$RUNDIR"
