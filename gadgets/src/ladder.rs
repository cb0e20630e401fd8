//! A custom-gate Grumpkin double-and-add ladder: one row per scalar bit, twelve advice columns.
//!
//! **Status: a measured building block, not yet used by the circuits.** The circuits still use
//! [`crate::ecc::GrumpkinChip`], whose variable-base ladder costs about 90 advice cells per bit on
//! halo2-base's single generic gate. This chip does a bit in 12 cells. Wiring it beside
//! halo2-base's columns (linking cells through the copy manager's external cells) is the next
//! step toward the Schnorr ATMS performance target.
//!
//! ```text
//! row i:   b | xa ya | ld xd yd | ls inv xs ys | xp yp
//!          D = 2A:     2 ya ld = 3 xa^2,  xd = ld^2 - 2 xa,  yd = ld (xa - xd) - ya
//!          S = D + P:  ls (xp - xd) = yp - yd,  inv (xp - xd) = 1,
//!                      xs = ls^2 - xd - xp,  ys = ls (xd - xs) - yd
//!          b (b - 1) = 0;  A' = b ? S : D  (xa, ya of row i + 1);  P' = P
//! ```
//! Every constraint has degree 2 before the selector. Doubling is complete on Grumpkin: the
//! curve has prime order, so `ya != 0`. The addition constrains `xp != xd`, so a proof exists only
//! where the incomplete formula is right (see [`crate::ecc`]). The ladder starts from a constant
//! offset point `O`. After `n` bits (most significant first) it holds `k P + 2^n O`.

use halo2_base::halo2_proofs::{
    circuit::{AssignedCell, Region, Value},
    halo2curves::{
        ff::Field,
        group::{Curve, Group},
        CurveAffine,
    },
    plonk::{Advice, Column, ConstraintSystem, Error, Expression, Selector},
    poly::Rotation,
};

use crate::{
    ecc::{Grumpkin, GrumpkinAffine},
    Fr,
};

const B: usize = 0;
const XA: usize = 1;
const YA: usize = 2;
const LD: usize = 3;
const XD: usize = 4;
const YD: usize = 5;
const LS: usize = 6;
const INV: usize = 7;
const XS: usize = 8;
const YS: usize = 9;
const XP: usize = 10;
const YP: usize = 11;
/// Advice columns of the ladder (cells per bit).
pub const COLUMNS: usize = 12;

/// Columns and gate of the ladder.
#[derive(Clone, Debug)]
pub struct LadderConfig {
    q: Selector,
    cols: [Column<Advice>; COLUMNS],
}

/// The cells a ladder exposes for copy constraints.
#[derive(Debug)]
pub struct LadderCells<'v> {
    /// The bits, most significant first.
    pub bits: Vec<AssignedCell<&'v halo2_base::halo2_proofs::plonk::Assigned<Fr>, Fr>>,
    /// The base point's coordinates on the first row.
    pub base: [AssignedCell<&'v halo2_base::halo2_proofs::plonk::Assigned<Fr>, Fr>; 2],
    /// The result `k P + 2^n O`.
    pub result: [AssignedCell<&'v halo2_base::halo2_proofs::plonk::Assigned<Fr>, Fr>; 2],
}

/// A row's witness values, for tests that play a cheating prover.
pub type RowValues = [Fr; COLUMNS];

impl LadderConfig {
    /// Allocates the columns and the gate.
    pub fn configure(meta: &mut ConstraintSystem<Fr>) -> Self {
        let cols: [Column<Advice>; COLUMNS] = std::array::from_fn(|_| meta.advice_column());
        for i in [B, XA, YA, XP, YP] {
            meta.enable_equality(cols[i]);
        }
        let q = meta.selector();
        meta.create_gate("grumpkin double-and-add", |m| {
            let q = m.query_selector(q);
            let mut c = |i: usize| m.query_advice(cols[i], Rotation::cur());
            let (b, xa, ya, ld, xd, yd) = (c(B), c(XA), c(YA), c(LD), c(XD), c(YD));
            let (ls, inv, xs, ys, xp, yp) = (c(LS), c(INV), c(XS), c(YS), c(XP), c(YP));
            let mut n = |i: usize| m.query_advice(cols[i], Rotation::next());
            let (xa_n, ya_n, xp_n, yp_n) = (n(XA), n(YA), n(XP), n(YP));
            let one = Expression::Constant(Fr::ONE);
            let k = |v: u64| Expression::Constant(Fr::from(v));
            let constraints = vec![
                b.clone() * (b.clone() - one.clone()),
                k(2) * ya.clone() * ld.clone() - k(3) * xa.clone() * xa.clone(),
                xd.clone() - (ld.clone() * ld.clone() - k(2) * xa.clone()),
                yd.clone() - (ld * (xa - xd.clone()) - ya),
                ls.clone() * (xp.clone() - xd.clone()) - (yp.clone() - yd.clone()),
                inv * (xp.clone() - xd.clone()) - one,
                xs.clone() - (ls.clone() * ls.clone() - xd.clone() - xp.clone()),
                ys.clone() - (ls * (xd.clone() - xs.clone()) - yd.clone()),
                xa_n - (xd.clone() + b.clone() * (xs - xd)),
                ya_n - (yd.clone() + b * (ys - yd)),
                xp_n - xp,
                yp_n - yp,
            ];
            constraints
                .into_iter()
                .map(|e| q.clone() * e)
                .collect::<Vec<_>>()
        });
        Self { q, cols }
    }

    /// The honest witness of the ladder for `bits` (most significant first) on `p` from `start`:
    /// one row per bit and a last row holding the result.
    pub fn witness(p: GrumpkinAffine, start: GrumpkinAffine, bits: &[bool]) -> Vec<RowValues> {
        let pc = p.coordinates().expect("not the identity");
        let (xp, yp) = (*pc.x(), *pc.y());
        let sc = start.coordinates().expect("not the identity");
        let (mut xa, mut ya) = (*sc.x(), *sc.y());
        let mut rows = Vec::with_capacity(bits.len() + 1);
        for bit in bits {
            let ld = Fr::from(3) * xa.square() * (Fr::from(2) * ya).invert().unwrap_or(Fr::ZERO);
            let xd = ld.square() - xa - xa;
            let yd = ld * (xa - xd) - ya;
            let inv = (xp - xd).invert().unwrap_or(Fr::ZERO);
            let ls = (yp - yd) * inv;
            let xs = ls.square() - xd - xp;
            let ys = ls * (xd - xs) - yd;
            rows.push([
                Fr::from(*bit as u64),
                xa,
                ya,
                ld,
                xd,
                yd,
                ls,
                inv,
                xs,
                ys,
                xp,
                yp,
            ]);
            (xa, ya) = if *bit { (xs, ys) } else { (xd, yd) };
        }
        let mut last = [Fr::ZERO; COLUMNS];
        (last[XA], last[YA], last[XP], last[YP]) = (xa, ya, xp, yp);
        rows.push(last);
        rows
    }

    /// Assigns `rows` (from [`Self::witness`], possibly altered by a test) at `offset`; the
    /// first row's accumulator is constrained to the constant `start`.
    pub fn assign<'v>(
        &self,
        region: &mut Region<'_, Fr>,
        offset: usize,
        start: GrumpkinAffine,
        rows: &[RowValues],
    ) -> Result<LadderCells<'v>, Error> {
        let sc = start.coordinates().expect("not the identity");
        let mut bits = Vec::with_capacity(rows.len() - 1);
        let mut base = None;
        let mut result = None;
        for (i, row) in rows.iter().enumerate() {
            let last = i + 1 == rows.len();
            if !last {
                self.q.enable(region, offset + i)?;
            }
            let mut cells: Vec<_> = Vec::with_capacity(COLUMNS);
            for (j, v) in row.iter().enumerate() {
                if last && !matches!(j, XA | YA | XP | YP) {
                    continue;
                }
                if i == 0 && (j == XA || j == YA) {
                    let c = if j == XA { *sc.x() } else { *sc.y() };
                    let cell = region.assign_advice(self.cols[j], offset, Value::known(*v));
                    region.constrain_constant(cell.cell(), c)?;
                    cells.push((j, cell));
                } else {
                    cells.push((
                        j,
                        region.assign_advice(self.cols[j], offset + i, Value::known(*v)),
                    ));
                }
            }
            let take = |j: usize, cells: &mut Vec<(usize, _)>| {
                let pos = cells.iter().position(|(k, _)| *k == j).expect("assigned");
                cells.swap_remove(pos).1
            };
            if i == 0 {
                base = Some([take(XP, &mut cells), take(YP, &mut cells)]);
            }
            if last {
                result = Some([take(XA, &mut cells), take(YA, &mut cells)]);
            } else {
                bits.push(take(B, &mut cells));
            }
        }
        Ok(LadderCells {
            bits,
            base: base.expect("rows"),
            result: result.expect("rows"),
        })
    }
}

/// The native value the ladder computes: `k P + 2^n start`, `k` given by `bits` (MSB first).
pub fn ladder_value(p: GrumpkinAffine, start: GrumpkinAffine, bits: &[bool]) -> GrumpkinAffine {
    let mut acc = Grumpkin::from(start);
    for bit in bits {
        acc = acc.double();
        if *bit {
            acc += p;
        }
    }
    acc.to_affine()
}
