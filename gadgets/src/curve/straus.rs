//! `s * G + c * P` in one custom-gate ladder (Straus: one chain of doublings for both scalars),
//! sixteen advice cells per bit, and Schnorr verification on it.
//!
//! ```text
//! row i:  xa ya | xp yp | acc prod | bs bc | ld xd | l1 x1 y1 | l2 x2 y2
//!         D = 2A:           2 ya ld = 3 xa^2,  xd = ld^2 - 2 xa,  yd := ld (xa - xd) - ya
//!         S = D + G:        l1 (gx - xd) = gy - yd,  x1 = l1^2 - xd - gx,  y1 = l1 (xd - x1) - yd
//!         M = bs ? S : D    (xm, ym as expressions)
//!         T = M + P:        l2 (xp - xm) = yp - ym,  x2 = l2^2 - xm - xp,  y2 = l2 (xm - x2) - ym
//!         A' = bc ? T : M;  P' = P;  acc' = 2 acc + bc;  prod' = prod (gx - xd) (xp - xm)
//!         bs, bc in {0, 1}
//! ```
//! `G` is the Grumpkin generator, a constant of the gate. A ladder is 254 such rows, most
//! significant bit first, from `A = O` ([`offset_point`]), `acc = 0`, `prod = 1`, then an output
//! row: `A = s G + c P + 2^254 O`, `acc = c`, and `prod` must be nonzero.
//!
//! # Why each formula is right
//! - Doubling is complete on Grumpkin: `ya = 0` would be a point of order 2, and the group has
//!   prime order; `ld` is then determined by its equation.
//! - The two incomplete additions need `gx != xd` and `xp != xm`. Their product over all rows is
//!   accumulated in `prod` and the circuit constrains the last `prod` to be invertible, so a proof
//!   exists only where every `lambda` is determined and every addition is correct. Honest inputs
//!   meet `x = x` with negligible probability: `O` is a hash to curve whose discrete logarithm to
//!   `G` and to any key nobody knows.
//! - The accumulator is therefore always a genuine point; `P` must be on the curve (the caller
//!   loads it with a curve check), `O` and `G` are constants.
//!
//! # Scalars
//! `s` only enters through its bits, which need no other constraint: any integer `s'` with
//! `s' G = s G` gives the same point. `c` is a circuit-field element (a hash output) used as a
//! Grumpkin scalar, so its bits must be **canonical**: `acc` recomposes them, the last `acc` is
//! copy-constrained to `c`, and `acc` after the top 126 bits (`hi`, an exact integer below
//! `2^126`) is constrained below `floor(r / 2^128)`. Then the bits' integer is
//! `hi 2^128 + lo < r` (the low part `lo < 2^128` is exact because `c - hi 2^128` is reduced
//! below `r`), so it is `c` itself and not `c + r`. An honest `c` fails this bound only if its
//! top 126 bits equal those of `r`, with probability about `2^-125`.

use halo2_base::{
    gates::{RangeChip, RangeInstructions},
    halo2_proofs::{
        halo2curves::ff::{Field, PrimeField},
        plonk::{Advice, Column, ConstraintSystem, Expression, Selector},
    },
    utils::biguint_to_fe,
    AssignedValue, Context,
    QuantumCell::Constant,
};

use super::{
    fr_modulus, ladder_step, offset_point, xy, AssignedPoint, GrumpkinAffine, GrumpkinScalar,
    ShiftedPoint, SCALAR_BITS,
};
use crate::{
    bank::{BankQuery, CustomRegion, RowGate, COLUMNS},
    Fr,
};

const XA: usize = 0;
const YA: usize = 1;
const XP: usize = 2;
const YP: usize = 3;
const ACC: usize = 4;
const PROD: usize = 5;
const BS: usize = 6;
const BC: usize = 7;
const LD: usize = 8;
const XD: usize = 9;
const L1: usize = 10;
const X1: usize = 11;
const Y1: usize = 12;
const L2: usize = 13;
const X2: usize = 14;
const Y2: usize = 15;

/// Bits of `c` above the canonicity checkpoint (`254 - 128`).
const HI_BITS: usize = SCALAR_BITS - 128;
/// Rows of one ladder: a row per bit and the output row.
pub const LADDER_ROWS: usize = SCALAR_BITS + 1;
/// Advice cells of one ladder.
pub const LADDER_CELLS: usize = SCALAR_BITS * COLUMNS + 6;

fn generator() -> (Fr, Fr) {
    xy(&GrumpkinAffine::generator())
}

/// Creates the Straus gate on the advice bank.
pub(crate) fn create_gate(
    meta: &mut ConstraintSystem<Fr>,
    q: Selector,
    advice: &[Column<Advice>; COLUMNS],
) {
    meta.create_gate("grumpkin straus s*G + c*P", |m| {
        let q = m.query_selector(q);
        let mut b = BankQuery { meta: m, advice };
        let (xa, ya, xp, yp) = (b.cur(XA), b.cur(YA), b.cur(XP), b.cur(YP));
        let (acc, prod, bs, bc) = (b.cur(ACC), b.cur(PROD), b.cur(BS), b.cur(BC));
        let (ld, xd, l1, x1, y1) = (b.cur(LD), b.cur(XD), b.cur(L1), b.cur(X1), b.cur(Y1));
        let (l2, x2, y2) = (b.cur(L2), b.cur(X2), b.cur(Y2));
        let (xa_n, ya_n, xp_n, yp_n) = (b.next(XA), b.next(YA), b.next(XP), b.next(YP));
        let (acc_n, prod_n) = (b.next(ACC), b.next(PROD));
        let k = |v: u64| Expression::Constant(Fr::from(v));
        let (gx, gy) = generator();
        let (gx, gy) = (Expression::Constant(gx), Expression::Constant(gy));
        let one = k(1);

        let yd = ld.clone() * (xa.clone() - xd.clone()) - ya.clone();
        let xm = xd.clone() + bs.clone() * (x1.clone() - xd.clone());
        let ym = yd.clone() + bs.clone() * (y1.clone() - yd.clone());
        let constraints = vec![
            bs.clone() * (bs.clone() - one.clone()),
            bc.clone() * (bc.clone() - one),
            k(2) * ya.clone() * ld.clone() - k(3) * xa.clone() * xa.clone(),
            xd.clone() - (ld.clone() * ld - k(2) * xa),
            l1.clone() * (gx.clone() - xd.clone()) - (gy - yd.clone()),
            x1.clone() - (l1.clone() * l1.clone() - xd.clone() - gx.clone()),
            y1 - (l1 * (xd.clone() - x1) - yd),
            l2.clone() * (xp.clone() - xm.clone()) - (yp.clone() - ym.clone()),
            x2.clone() - (l2.clone() * l2.clone() - xm.clone() - xp.clone()),
            y2.clone() - (l2 * (xm.clone() - x2.clone()) - ym.clone()),
            xa_n - (xm.clone() + bc.clone() * (x2 - xm.clone())),
            ya_n - (ym.clone() + bc.clone() * (y2 - ym)),
            prod_n - prod * (gx - xd) * (xp.clone() - xm),
            acc_n - (k(2) * acc + bc),
            xp_n - xp,
            yp_n - yp,
        ];
        constraints
            .into_iter()
            .map(|e| q.clone() * e)
            .collect::<Vec<_>>()
    });
}

/// The most significant `SCALAR_BITS` bits of a little-endian representation, first first.
fn bits_msb_first(repr: &[u8]) -> Vec<bool> {
    (0..SCALAR_BITS)
        .rev()
        .map(|i| (repr[i / 8] >> (i % 8)) & 1 == 1)
        .collect()
}

/// The honest rows of a ladder for `s G + c P` (bits most significant first), output row last.
pub fn ladder_rows(p: GrumpkinAffine, s_bits: &[bool], c_bits: &[bool]) -> Vec<[Fr; COLUMNS]> {
    let (gx, gy) = generator();
    let (xp, yp) = xy(&p);
    let (mut xa, mut ya) = xy(&offset_point());
    let (mut acc, mut prod) = (Fr::ZERO, Fr::ONE);
    let mut rows = Vec::with_capacity(LADDER_ROWS);
    for (&bs, &bc) in s_bits.iter().zip(c_bits) {
        let step = ladder_step((xa, ya), (gx, gy), bs, (xp, yp), bc);
        let bit = |b: bool| Fr::from(b as u64);
        let mut row = [Fr::ZERO; COLUMNS];
        row[..LD].copy_from_slice(&[xa, ya, xp, yp, acc, prod, bit(bs), bit(bc)]);
        row[LD..].copy_from_slice(&step.witnesses());
        rows.push(row);
        prod *= (gx - step.xd) * (xp - step.xm);
        (xa, ya) = step.next;
        acc = acc.double() + bit(bc);
    }
    let mut last = [Fr::ZERO; COLUMNS];
    (
        last[XA], last[YA], last[XP], last[YP], last[ACC], last[PROD],
    ) = (xa, ya, xp, yp, acc, prod);
    rows.push(last);
    rows
}

/// Where one ladder sits in the custom region.
#[derive(Clone, Copy, Debug)]
pub struct LadderPosition {
    /// The first row.
    pub first_row: usize,
}

impl LadderPosition {
    /// The row of bit `i` (most significant first), or the output row for `i = 254`.
    pub fn row(&self, i: usize) -> usize {
        self.first_row + i
    }
}

/// The Straus ladder on the custom region, with halo2-base's range chip for the checks around it.
#[derive(Clone, Debug)]
pub struct StrausChip<'r> {
    range: &'r RangeChip<Fr>,
    region: CustomRegion,
}

impl<'r> StrausChip<'r> {
    /// A chip appending to `region`.
    pub fn new(range: &'r RangeChip<Fr>, region: CustomRegion) -> Self {
        Self { range, region }
    }

    /// The custom region.
    pub fn region(&self) -> &CustomRegion {
        &self.region
    }

    /// Constrains and returns `s G + c P + 2^254 O`. `c` is read canonically (below r), `s` is a
    /// witness of the prover (only its point `s G` matters). `p` must be on the curve.
    pub fn mul_add(
        &self,
        ctx: &mut Context<Fr>,
        s: &GrumpkinScalar,
        c: AssignedValue<Fr>,
        p: &AssignedPoint,
    ) -> (ShiftedPoint, LadderPosition) {
        let s_bits = bits_msb_first(s.to_repr().as_ref());
        let c_bits = bits_msb_first(c.value().to_repr().as_ref());
        self.mul_add_with_bits(ctx, &s_bits, &c_bits, c, p)
    }

    /// [`Self::mul_add`] with the bits (most significant first) given by the caller instead of
    /// computed from `s` and `c`. Only a cheating prover passes bits other than the canonical
    /// ones: negative tests use it.
    pub fn mul_add_with_bits(
        &self,
        ctx: &mut Context<Fr>,
        s_bits: &[bool],
        c_bits: &[bool],
        c: AssignedValue<Fr>,
        p: &AssignedPoint,
    ) -> (ShiftedPoint, LadderPosition) {
        assert_eq!(s_bits.len(), SCALAR_BITS, "one bit per ladder row");
        assert_eq!(c_bits.len(), SCALAR_BITS, "one bit per ladder row");
        let rows = ladder_rows(p.value(), s_bits, c_bits);
        let first_row = self.region.num_rows();
        for (i, row) in rows.iter().enumerate() {
            if i < SCALAR_BITS {
                self.region
                    .push_row(RowGate::Straus, *row, (1 << COLUMNS) - 1);
            } else {
                self.region.push_row(RowGate::None, *row, (1 << 6) - 1);
            }
        }
        let pos = LadderPosition { first_row };
        self.constrain_ladder(ctx, pos, c, p)
    }

    /// The constraints that tie a ladder at `pos` to its inputs and outputs.
    fn constrain_ladder(
        &self,
        ctx: &mut Context<Fr>,
        pos: LadderPosition,
        c: AssignedValue<Fr>,
        p: &AssignedPoint,
    ) -> (ShiftedPoint, LadderPosition) {
        let region = &self.region;
        let first = pos.row(0);
        let out = pos.row(SCALAR_BITS);
        let (ox, oy) = xy(&offset_point());
        region.bind_constant(ctx, ox, first, XA);
        region.bind_constant(ctx, oy, first, YA);
        region.bind_constant(ctx, Fr::ZERO, first, ACC);
        region.bind_constant(ctx, Fr::ONE, first, PROD);
        region.bind(ctx, &p.x, first, XP);
        region.bind(ctx, &p.y, first, YP);
        region.bind(ctx, &c, out, ACC);

        // Canonical c: the top HI_BITS bits, an exact integer, below floor(r / 2^128).
        let hi = region.output(ctx, pos.row(HI_BITS), ACC);
        let r_hi: Fr = biguint_to_fe(&(fr_modulus() >> 128u32));
        self.range.check_less_than(ctx, hi, Constant(r_hi), HI_BITS);

        // Every incomplete addition had distinct x.
        let prod = region.output(ctx, out, PROD);
        super::assert_invertible(self.range.gate(), ctx, prod);

        let result = AssignedPoint {
            x: region.output(ctx, out, XA),
            y: region.output(ctx, out, YA),
        };
        (ShiftedPoint(result), pos)
    }
}
