//! Chaum-Pedersen DLEQ verification, `s G = A + c P` and `s H = B + c Q`, on two custom-gate
//! ladders that share the bits of `s` and `c`; `H` is a **variable** base (a witness point).
//!
//! The first equation is the Straus ladder of [`crate::curve::straus`] (`s G + c (-P)`, `G` constant).
//! The second is a variable-base variant laid out on the rows **right after** the first ladder,
//! [`crate::curve::straus::LADDER_ROWS`] rows below it, so that each of its rows reads the bits `bs`, `bc`
//! of the same bit position from the first ladder with the fixed rotation `-LADDER_ROWS`:
//!
//! ```text
//! row i of the second ladder (bits from row i - LADDER_ROWS, columns bs = 6, bc = 7):
//!   xa ya | xq yq | xh yh | ld xd | l1 x1 y1 | l2 x2 y2 | inv
//!   D = 2A:       2 ya ld = 3 xa^2,  xd = ld^2 - 2 xa,  yd := ld (xa - xd) - ya
//!   S = D + H:    l1 (xh - xd) = yh - yd,  x1 = l1^2 - xd - xh,  y1 = l1 (xd - x1) - yd
//!   M = bs ? S : D
//!   T = M + Q:    l2 (xq - xm) = yq - ym,  x2 = l2^2 - xm - xq,  y2 = l2 (xm - x2) - ym
//!   A' = bc ? T : M;  Q' = Q;  H' = H;  inv (xh - xd) (xq - xm) = 1
//! ```
//! 254 gate rows from `A = O` ([`offset_point`]) and an output row: `A = s H + c Q + 2^254 O`.
//!
//! # Soundness
//! - **Same scalars in both ladders.** The second ladder has no bit columns: its gate reads the
//!   first ladder's `bs`, `bc` cells at the same bit position (a fixed rotation, so the prover
//!   cannot point it elsewhere). The first ladder constrains them boolean, recomposes the bits of
//!   `c` into its accumulator, copy-constrains the result to `c` and bounds its top bits, so they
//!   are `c`'s canonical bits ([`crate::curve::straus`], "Scalars"). `s` enters both ladders as one
//!   integer `S < 2^254` (its bits): `S G = A + c P` and `S H = B + c Q`, which is the DLEQ
//!   relation with the response `S mod q`.
//! - **Additions.** Doubling is complete (Grumpkin has prime order, no point of order 2). Both
//!   additions are incomplete; every row witnesses `inv` with `inv (xh - xd) (xq - xm) = 1`, so a
//!   proof exists only where both x differences are nonzero and each slope is determined. Honest
//!   inputs meet an equality with negligible probability (`O` is a hash to curve whose discrete
//!   logarithm to `H` and `Q` nobody knows).
//! - **Inputs.** `H` and `Q` are held constant row to row and copy-constrained at the first row to
//!   the caller's points, which must be on the curve (loaded with a curve check, or computed by
//!   constrained curve arithmetic: Mithril's `H` is a hash to curve); `A` starts at
//!   the constant `O`. The result is compared with `B + 2^254 O` (an incomplete addition with
//!   its own x-difference check).
//! - **Layout.** [`DleqChip::verify`] pushes the second ladder immediately after the first (it
//!   asserts the row count), so the rotation always lands on the first ladder's bit rows.
//!
//! The gate's degree is 5 with its selector (`inv (xh - xd) (xq - xm)`, `xm` being of degree 2).
//! Cells: a Straus ladder ([`crate::curve::straus::LADDER_CELLS`]) plus [`VARIABLE_LADDER_CELLS`].

use halo2_base::{
    gates::RangeChip,
    halo2_proofs::{
        halo2curves::ff::Field,
        plonk::{Advice, Column, ConstraintSystem, Expression, Selector},
        poly::Rotation,
    },
    AssignedValue, Context,
};

use super::{
    ladder_shift, ladder_step, offset_point,
    straus::{LadderPosition, StrausChip, LADDER_ROWS},
    xy, AssignedPoint, GrumpkinChip, GrumpkinScalar, ShiftedPoint, SCALAR_BITS,
};
use crate::{
    bank::{BankQuery, CustomRegion, RowGate, COLUMNS},
    Fr,
};

const XA: usize = 0;
const YA: usize = 1;
const XQ: usize = 2;
const YQ: usize = 3;
const XH: usize = 4;
const YH: usize = 5;
const LD: usize = 6;
const XD: usize = 7;
const L1: usize = 8;
const X1: usize = 9;
const Y1: usize = 10;
const L2: usize = 11;
const X2: usize = 12;
const Y2: usize = 13;
const INV: usize = 14;
/// Columns of the second ladder's gate rows.
const USED: usize = (1 << (INV + 1)) - 1;
/// Columns of its output row.
const OUTPUT_USED: usize = (1 << 6) - 1;

/// The columns of the Straus ladder's bits `bs` and `bc` (see [`crate::curve::straus`]'s row layout).
pub const STRAUS_BS: usize = 6;
/// See [`STRAUS_BS`].
pub const STRAUS_BC: usize = 7;

/// Advice cells of the variable-base ladder (gate rows and output row).
pub const VARIABLE_LADDER_CELLS: usize = SCALAR_BITS * (INV + 1) + 6;

/// Creates the variable-base ladder gate on the advice bank.
pub(crate) fn create_gate(
    meta: &mut ConstraintSystem<Fr>,
    q: Selector,
    advice: &[Column<Advice>; COLUMNS],
) {
    meta.create_gate("grumpkin dleq s*H + c*Q (variable H)", |m| {
        let q = m.query_selector(q);
        let back = Rotation(-(LADDER_ROWS as i32));
        let bs = m.query_advice(advice[STRAUS_BS], back);
        let bc = m.query_advice(advice[STRAUS_BC], back);
        let mut b = BankQuery { meta: m, advice };
        let (xa, ya, xq, yq, xh, yh) = (
            b.cur(XA),
            b.cur(YA),
            b.cur(XQ),
            b.cur(YQ),
            b.cur(XH),
            b.cur(YH),
        );
        let (ld, xd, l1, x1, y1) = (b.cur(LD), b.cur(XD), b.cur(L1), b.cur(X1), b.cur(Y1));
        let (l2, x2, y2, inv) = (b.cur(L2), b.cur(X2), b.cur(Y2), b.cur(INV));
        let (xa_n, ya_n) = (b.next(XA), b.next(YA));
        let (xq_n, yq_n, xh_n, yh_n) = (b.next(XQ), b.next(YQ), b.next(XH), b.next(YH));
        let k = |v: u64| Expression::Constant(Fr::from(v));

        let yd = ld.clone() * (xa.clone() - xd.clone()) - ya.clone();
        let xm = xd.clone() + bs.clone() * (x1.clone() - xd.clone());
        let ym = yd.clone() + bs * (y1.clone() - yd.clone());
        let constraints = vec![
            k(2) * ya.clone() * ld.clone() - k(3) * xa.clone() * xa.clone(),
            xd.clone() - (ld.clone() * ld - k(2) * xa),
            l1.clone() * (xh.clone() - xd.clone()) - (yh.clone() - yd.clone()),
            x1.clone() - (l1.clone() * l1.clone() - xd.clone() - xh.clone()),
            y1 - (l1 * (xd.clone() - x1) - yd),
            l2.clone() * (xq.clone() - xm.clone()) - (yq.clone() - ym.clone()),
            x2.clone() - (l2.clone() * l2.clone() - xm.clone() - xq.clone()),
            y2.clone() - (l2 * (xm.clone() - x2.clone()) - ym.clone()),
            xa_n - (xm.clone() + bc.clone() * (x2 - xm.clone())),
            ya_n - (ym.clone() + bc * (y2 - ym)),
            inv * (xh.clone() - xd) * (xq.clone() - xm) - k(1),
            xq_n - xq,
            yq_n - yq,
            xh_n - xh,
            yh_n - yh,
        ];
        constraints
            .into_iter()
            .map(|e| q.clone() * e)
            .collect::<Vec<_>>()
    });
}

/// The honest rows of the variable-base ladder `s H + c Q` for the given bits (most significant
/// first), output row last. `H` and `Q` are given by their coordinates: a computed `H` is off the
/// curve under a cheating witness, and the rows must still be laid out (and then rejected).
pub fn variable_ladder_rows(
    (xh, yh): (Fr, Fr),
    (xq, yq): (Fr, Fr),
    s_bits: &[bool],
    c_bits: &[bool],
) -> Vec<[Fr; COLUMNS]> {
    let (mut xa, mut ya) = xy(&offset_point());
    let inv = |x: Fr| x.invert().unwrap_or(Fr::ZERO);
    let mut rows = Vec::with_capacity(LADDER_ROWS);
    for (&bs, &bc) in s_bits.iter().zip(c_bits) {
        let step = ladder_step((xa, ya), (xh, yh), bs, (xq, yq), bc);
        let mut row = [Fr::ZERO; COLUMNS];
        row[..LD].copy_from_slice(&[xa, ya, xq, yq, xh, yh]);
        row[LD..INV].copy_from_slice(&step.witnesses());
        row[INV] = inv((xh - step.xd) * (xq - step.xm));
        rows.push(row);
        (xa, ya) = step.next;
    }
    let mut last = [Fr::ZERO; COLUMNS];
    last[..6].copy_from_slice(&[xa, ya, xq, yq, xh, yh]);
    rows.push(last);
    rows
}

/// Where the two ladders of one DLEQ check sit in the custom region.
#[derive(Clone, Copy, Debug)]
pub struct DleqPosition {
    /// The fixed-base ladder `s G + c (-P)`.
    pub fixed: LadderPosition,
    /// The variable-base ladder `s H + c (-Q)`, [`LADDER_ROWS`] rows below.
    pub variable: LadderPosition,
}

/// DLEQ verification on the custom gates.
#[derive(Clone, Debug)]
pub struct DleqChip<'r> {
    range: &'r RangeChip<Fr>,
    region: CustomRegion,
}

impl<'r> DleqChip<'r> {
    /// A chip appending to `region`.
    pub fn new(range: &'r RangeChip<Fr>, region: CustomRegion) -> Self {
        Self { range, region }
    }

    /// Constrains `s G = A + c P` and `s H = B + c Q`: `log_G P = log_H Q` when `c` is a
    /// challenge hashed from all the points. All points must be on the curve (loaded with a curve
    /// check, or computed with constrained curve arithmetic such as
    /// [`crate::curve::HashToCurveChip`]); `c` is read canonically (below r); `s` is the prover's
    /// response.
    #[allow(clippy::too_many_arguments)]
    pub fn verify(
        &self,
        ctx: &mut Context<Fr>,
        p: &AssignedPoint,
        h: &AssignedPoint,
        q: &AssignedPoint,
        a: &AssignedPoint,
        b: &AssignedPoint,
        c: AssignedValue<Fr>,
        s: &GrumpkinScalar,
    ) -> DleqPosition {
        let ecc = GrumpkinChip::new(self.range);
        let straus = StrausChip::new(self.range, self.region.clone());
        let shift = ShiftedPoint(ecc.load_constant(ctx, ladder_shift()));

        let minus_p = ecc.negate(ctx, p);
        let (lhs, fixed) = straus.mul_add(ctx, s, c, &minus_p);
        let rhs = ecc.add_to_shifted(ctx, &shift, a);
        ecc.assert_equal(ctx, &lhs.0, &rhs.0);

        let minus_q = ecc.negate(ctx, q);
        let (lhs, variable) = self.variable_ladder(ctx, fixed, h, &minus_q);
        let rhs = ecc.add_to_shifted(ctx, &shift, b);
        ecc.assert_equal(ctx, &lhs.0, &rhs.0);
        DleqPosition { fixed, variable }
    }

    /// Pushes the variable-base ladder `S h + c q + 2^254 O` right after the Straus ladder at
    /// `fixed`, reading its bits from there, and returns its result.
    fn variable_ladder(
        &self,
        ctx: &mut Context<Fr>,
        fixed: LadderPosition,
        h: &AssignedPoint,
        q: &AssignedPoint,
    ) -> (ShiftedPoint, LadderPosition) {
        let region = &self.region;
        let first = region.num_rows();
        assert_eq!(
            first,
            fixed.first_row + LADDER_ROWS,
            "the variable-base ladder must follow its Straus ladder directly"
        );
        let bit = |row: usize, col: usize| region.value(fixed.row(row), col) == Fr::ONE;
        let s_bits: Vec<bool> = (0..SCALAR_BITS).map(|i| bit(i, STRAUS_BS)).collect();
        let c_bits: Vec<bool> = (0..SCALAR_BITS).map(|i| bit(i, STRAUS_BC)).collect();
        for (i, row) in variable_ladder_rows(h.coordinates(), q.coordinates(), &s_bits, &c_bits)
            .into_iter()
            .enumerate()
        {
            if i < SCALAR_BITS {
                region.push_row(RowGate::Dleq, row, USED);
            } else {
                region.push_row(RowGate::None, row, OUTPUT_USED);
            }
        }
        let (ox, oy) = xy(&offset_point());
        region.bind_constant(ctx, ox, first, XA);
        region.bind_constant(ctx, oy, first, YA);
        region.bind(ctx, &q.x, first, XQ);
        region.bind(ctx, &q.y, first, YQ);
        region.bind(ctx, &h.x, first, XH);
        region.bind(ctx, &h.y, first, YH);
        let out = first + SCALAR_BITS;
        let result = AssignedPoint {
            x: region.output(ctx, out, XA),
            y: region.output(ctx, out, YA),
        };
        (ShiftedPoint(result), LadderPosition { first_row: first })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::curve::GrumpkinAffine;
    use halo2_base::halo2_proofs::halo2curves::group::Curve;

    #[test]
    fn straus_bit_columns_are_bs_and_bc() {
        let p = (GrumpkinAffine::generator() * GrumpkinScalar::from(5)).to_affine();
        let s_bits: Vec<bool> = (0..SCALAR_BITS).map(|i| i % 3 == 0).collect();
        let c_bits: Vec<bool> = (0..SCALAR_BITS).map(|i| i % 5 == 1).collect();
        let rows = crate::curve::straus::ladder_rows(p, &s_bits, &c_bits);
        for i in 0..SCALAR_BITS {
            assert_eq!(rows[i][STRAUS_BS], Fr::from(s_bits[i] as u64));
            assert_eq!(rows[i][STRAUS_BC], Fr::from(c_bits[i] as u64));
        }
    }
}
