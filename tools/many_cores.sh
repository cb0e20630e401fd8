#!/usr/bin/env bash
# Issue 35 step 4: keygen and prove wall time at 16, 4 and 1 threads on a many-core machine, for
# the Schnorr ATMS 1602-of-2001, the BLS ATMS 1024-of-2048 and SNARK-Mithril on mainnet's
# parameters, in one prepared run. Steps go most-wanted first (16 threads of each circuit, then
# 4, then 1) and each step's table lands in $OUT as soon as it ends, so a run cut short by its
# deadline still reports what it measured.
#
#   BIN_DIR=DIR OUT=DIR DEADLINE_S=540 bash tools/many_cores.sh
#
# BIN_DIR holds `tms` (release, `--features profile`) and `mithril-large` (the release test
# binary of `cargo test --release -p mithril-snark --features tms-gadgets/profile --test large`).
# Parameters are the insecure test ones, made on the machine (TMS_PARAMS_DIR under $WORK). The
# committees and certificates can be made beforehand on another machine, so that this one spends
# no time signing: `python3 tools/phases.py --prepare-only --workdir $BIN_DIR/work/schnorr ...`
# (and `.../bls`), with the sizes below; they are copied to $WORK.
set -u
BIN_DIR=${BIN_DIR:-.device}
OUT=${OUT:-/tmp/many-cores}
DEADLINE_S=${DEADLINE_S:-540}
WORK=${WORK:-/tmp/many-cores-work}
mkdir -p "$OUT" "$WORK"
[ -d "$BIN_DIR/work" ] && cp -r "$BIN_DIR/work/." "$WORK/"
export TMS_PARAMS_DIR="$WORK/params" PYTHONUNBUFFERED=1
mkdir -p "$TMS_PARAMS_DIR"
start=$(date +%s)
left() { echo $((DEADLINE_S - ($(date +%s) - start))); }

{
  date -u
  nproc
  grep -m1 "model name" /proc/cpuinfo
  free -g | head -2
} > "$OUT/machine.txt" 2>&1

# step NAME MIN_SECONDS COMMAND...: runs COMMAND if at least MIN_SECONDS are left, cut at the
# deadline; its output goes to $OUT/NAME.txt.
step() {
  local name=$1 need=$2
  shift 2
  local budget
  budget=$(left)
  if [ "$budget" -lt "$need" ]; then
    echo "$name: skipped ($budget s left, needs about $need)" | tee -a "$OUT/steps.txt"
    return
  fi
  local t0=$(date +%s)
  echo "## $name" >> "$OUT/${name%%-*}.txt"
  timeout "$budget" bash -c '"$@"' _ "$@" >> "$OUT/${name%%-*}.txt" 2>&1
  local rc=$?
  echo "$name: rc=$rc wall_s=$(($(date +%s) - t0))" | tee -a "$OUT/steps.txt"
}

phases() { python3 tools/phases.py --bin "$BIN_DIR/tms" "$@"; }
schnorr() { phases --n 2001 --t 1602 --k 19 --workdir "$WORK/schnorr" "$@"; }
bls() { phases --scheme bls-atms --n 2048 --t 1024 --k 20 --workdir "$WORK/bls" "$@"; }
mithril() {
  RAYON_NUM_THREADS=$1 "$BIN_DIR/mithril-large" --ignored --nocapture --exact mainnet
}

export -f phases schnorr bls mithril
export BIN_DIR WORK
step schnorr-16 40 schnorr --threads 16
step bls-16 90 bls --threads 16
step mithril-16 30 mithril 16
step schnorr-4 70 schnorr --threads 4
step mithril-4 40 mithril 4
step bls-4 180 bls --threads 4
step schnorr-1-prove 200 schnorr --threads 1 --no-keygen
step mithril-1 100 mithril 1
