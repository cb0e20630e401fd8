#!/bin/bash
# A ceremony of 3 + 3 contributions for a real program, end to end on one machine, with each
# step's time and peak memory (README.md, "The ceremony"): init, three phase-1 contributions,
# phase 1 verified and sealed, three phase-2 contributions, the keys extracted (phase 1 pinned by
# the digest printed when it was verified), a proof with the keys and its verifier exported, then
# TestCeremonyOnDisk (a tampered phase-2 contribution and a changed commons.bin refused).
# Run it again after an interruption: it goes on from the last step that finished.
# On one machine every contributor is the same party: this shows the commands work on a real
# domain and what they cost, not a trustworthy setup.
#
#   bash ceremony_program.sh PROGRAM WITNESS DIR
#
# PROGRAM and WITNESS as `program-prove` takes them (TMS_GROTH16_OUT=... cargo test
# --workspace --test groth16_program writes the twins'); DIR gets ceremony/ (about 7 GB on a
# 2^22 domain), out/ (the proof, the keys, Groth16Verifier.sol) and log.txt.
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: $0 PROGRAM WITNESS DIR" >&2; exit 2; }
P=$(realpath "$1"); W=$(realpath "$2"); mkdir -p "$3"; DIR=$(realpath "$3")
D=$DIR/ceremony; OUT=$DIR/out; LOG=$DIR/log.txt; mkdir -p "$OUT"
# The beacons (BEACON1, BEACON2), kept in DIR/beacons.env by the first run for the runs after it.
if [ ! -f "$DIR/beacons.env" ]; then
  printf 'B1=%q\nB2=%q\n' "${BEACON1:-phase 1 beacon (public, drawn after the last phase-1 contribution)}" \
    "${BEACON2:-phase 2 beacon (public, drawn after the last phase-2 contribution)}" > "$DIR/beacons.env"
fi
. "$DIR/beacons.env"
cd "$(dirname "$0")"
G=$DIR/groth16; go build -o "$G" .
step() {
  local name=$1; shift
  echo "== step $name start $(date -u +%FT%TZ)" >> "$LOG"
  /usr/bin/time -f "time step=$name wall_s=%e user_s=%U sys_s=%S peak_rss_kb=%M" -a -o "$LOG" "$@" >> "$LOG" 2>&1
}
count() { local k=0; while [ -f "$D/phase$1-$((k+1)).bin" ]; do k=$((k+1)); done; echo $k; }
# Resumable: each step is skipped when its output is there (files are written whole or not at all).
[ -f "$D/ceremony.json" ] || step init "$G" ceremony-init -program "$P" -dir "$D"
if [ ! -f "$D/commons.bin" ]; then
  while [ "$(count 1)" -lt 3 ]; do step "phase1-contribute-$(( $(count 1) + 1 ))" "$G" ceremony-contribute -dir "$D"; done
  step verify-phase1 "$G" ceremony-verify -program "$P" -dir "$D" -beacon1 "$B1"
fi
H=$(grep -o 'commons.bin sha256=[0-9a-f]*' "$LOG" | tail -1 | cut -d= -f2)
[ -n "$H" ] || { echo "no commons.bin digest in $LOG: verify phase 1 (ceremony-verify) and keep what it prints" >&2; exit 1; }
# A verification cut off after the seal: phase 2's initial state from the pinned commons (both
# kept files: phase2-0.bin is written before phase2-evals.bin).
[ -f "$D/phase2-0.bin" ] && [ -f "$D/phase2-evals.bin" ] || step phase2-init "$G" ceremony-verify -program "$P" -dir "$D" -beacon1 "$B1" -phase1-sha256 "$H"
while [ "$(count 2)" -lt 3 ]; do step "phase2-contribute-$(( $(count 2) + 1 ))" "$G" ceremony-contribute -dir "$D"; done
# Phase 2's initial state as ceremony-verify kept it (absent for ceremonies verified before it
# was kept: ceremony-extract then computes it once and prints its digest for the steps after it).
H2() { grep -o 'phase2-init sha256=[0-9a-f]*' "$LOG" | tail -1 | cut -d= -f2 || true; }
pin2=(); [ -z "$(H2)" ] || pin2=(-phase2-sha256 "$(H2)")
[ -f "$OUT/verifying_key.bin" ] || step extract "$G" ceremony-extract -program "$P" -dir "$D" -beacon1 "$B1" -beacon2 "$B2" \
  -phase1-sha256 "$H" "${pin2[@]}" -vk "$OUT/verifying_key.bin" -pk "$D/proving_key.bin"
[ -f "$OUT/proof.json" ] || step prove "$G" program-prove -program "$P" -witness "$W" -out "$OUT" -pk "$D/proving_key.bin" -vk "$OUT/verifying_key.bin"
TMS_CEREMONY_DIR=$D TMS_CEREMONY_PROGRAM=$P TMS_CEREMONY_PHASE1=$H TMS_CEREMONY_PHASE2=$(H2) \
  step tampered go test -run 'TestCeremonyOnDisk$' -count=1 -v -timeout 120m .
echo "== done $(date -u +%FT%TZ)" >> "$LOG"
