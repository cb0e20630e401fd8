#!/usr/bin/env bash
# Mutation check of the GLV ladder (gadgets/src/curve/glv.rs): each run removes one constraint
# and runs `cargo test --release -p tms-gadgets --test glv`; every mutation must make a test fail
# ("killed"). Not in CI (about 15 builds of the gadgets crate); run it after changing the gadget:
#   bash tests/mutants/glv.sh
# Known survivor, an equivalent mutant: carry-u0-range (the low carry's range check). The two
# limb equations give S0 + 2^68 S1 = 2^136 (u1 - 2^70) in the field; every term is below 2^209 in
# absolute value (68-bit limbs, u1's 71-bit range check), far below r, so it holds over the
# integers: S0 is a multiple of 2^68 below 2^137, and u0 - 2^69 = S0 / 2^68 is within 70 bits
# without the check. It stays as defence in depth (halo2-ecc range-checks every carry).
set -uo pipefail
cd "$(dirname "$0")/../.."
F=gadgets/src/curve/glv.rs
ORIG=$(mktemp)
cp $F "$ORIG"
trap 'cp "$ORIG" $F' EXIT
run() {
  name="$1"; shift
  cp "$ORIG" $F
  python3 - "$@" <<'PY'
import sys
p='gadgets/src/curve/glv.rs'
s=open(p).read()
old,new=sys.argv[1],sys.argv[2]
assert s.count(old)==1, old
open(p,'w').write(s.replace(old,new))
PY
  out=$(cargo test --release -p tms-gadgets --test glv 2>&1)
  failed=$(echo "$out" | grep -E "^test [a-z0-9_]+ \.\.\. FAILED" | sed 's/^test //; s/ \.\.\. FAILED//' | tr '\n' ' ')
  if echo "$out" | grep -q "could not compile"; then
    echo "BROKEN   $name (does not compile)"
  elif [ -n "$failed" ]; then
    echo "killed   $name: $failed"
  else
    echo "SURVIVED $name"
  fi
}
run bc1-boolean "            bc1.clone() * (bc1.clone() - k(1)),
" "            k(0),
"
run sidx-range "            sidx.clone() * (sidx.clone() - k(1)) * (sidx.clone() - k(2)) * (sidx - k(3)),
" "            k(0) * sidx,
"
run slope-l1 "            l1.clone() * (xt.clone() - xa.clone()) - (yt - ya.clone()),
" "            k(0) * yt,
"
run acc1-update "            acc1_n - (k(2) * acc1 + bc1),
" "            k(0) * acc1_n * acc1,
"
run prod-update "            prod_n - prod * (xt - xa.clone()) * (xa - x3),
" "            k(0) * prod_n * prod * xt,
"
run table-inverse "            inv * (xq - kx) - e,
" "            k(0) * inv,
"
run table-x "            e.clone() * (x.clone() - (l.clone() * l.clone() - kx.clone() - xq.clone())),
" "            k(0) * x.clone(),
"
run lookup-bc2 "+ k(2) * b.cur(BC2) + k(4)" "+ k(4)"
run canonical-c "        range.check_less_than(ctx, ch, Constant(r_top), top_bits);" "        let _ = (r_top, top_bits);"
run mod-r-identity "        gate.assert_is_const(ctx, &mod_r, &Fr::ZERO);" "        let _ = mod_r;"
run carry-u0-range "        range.range_check(ctx, u0, LIMB_BITS + 2);" "        let _ = u0;"
run bc2-boolean "            bc2.clone() * (bc2.clone() - k(1)),
" "            k(0),
"
run prod-invertible "        ctx.constrain_equal(&product, &enabled);" "        let _ = (product, enabled);"
run table-y "            e.clone() * (y - (l * (kx.clone() - x) - ky))," "            k(0) * y * l * x * ky,"
echo DONE
