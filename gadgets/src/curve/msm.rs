//! `a P + b Q` for two variable points in one custom-gate chain (Straus: one chain of doublings
//! for both scalars), sixteen advice cells per bit: the building block of a multi-scalar
//! multiplication whose terms are added pairwise ([`MsmPairChip`]).
//!
//! ```text
//! row i:  xa ya | xp yp | xq yq | accp accq prod | bp bq | ld xd | l1 x1 | l2
//!         (columns 0..8 take part in copy constraints)
//!         D = 2A:        2 ya ld = 3 xa^2,  xd = ld^2 - 2 xa,  yd := ld (xa - xd) - ya
//!         S = D + Q:     l1 (xq - xd) = yq - yd,  x1 = l1^2 - xd - xq,  y1 := l1 (xd - x1) - yd
//!         M = bq ? S : D (xm, ym as expressions)
//!         T = M + P:     l2 (xp - xm) = yp - ym,  x2 := l2^2 - xm - xp,  y2 := l2 (xm - x2) - ym
//!         A' = bp ? T : M;  P' = P;  Q' = Q;  accp' = 2 accp + bp;  accq' = 2 accq + bq
//!         prod' = prod (xq - xd) (xp - xm);  bp, bq in {0, 1}
//! ```
//! A chain of `L` rows (most significant bit first) from `A = O` ([`offset_point`]),
//! `accp = accq = 0`, `prod = 1` ends in an output row `A = a P + b Q + 2^L O`, `accp = a`,
//! `accq = b`, where `prod` must be invertible. The `:=` values are expressions, not cells, which
//! keeps the row at 16 cells; the highest degree is 4 (`ya'`), 5 with the selector.
//!
//! # Why each formula is right
//! As in [`crate::curve::straus`]: doubling is complete on Grumpkin (no point of order 2); the two
//! incomplete additions need `xq != xd` and `xp != xm`, whose product over the chain is
//! accumulated in `prod` and constrained invertible, so every slope is determined and every
//! addition correct. `P` and `Q` must be on the curve (the caller loads them with a curve check);
//! `A` starts at the constant `O`, so every accumulator is a genuine point. Honest inputs meet an
//! equal `x` with negligible probability, as `O` is a hash to curve with unknown discrete logs.
//! Not any inputs: the additions hold on every row whatever the bits, and a chain whose scalars
//! are both zero walks `2^i O`, which the point `+-[2^j] O` meets at row `j - 1`, with no slope
//! to satisfy the gate. Callers give points whose discrete logarithm to `G` somebody knows (a
//! signer's key, a nonce) or hashes to curve ([`crate::signature::batch`] replaces a disabled
//! slot's key by one).
//!
//! # Scalars
//! Each scalar is given as limbs, most significant first, which the caller has range checked to
//! their widths. `acc` recomposes the bits, and at every limb boundary it is copy-constrained to
//! the running value `V_j = V_{j-1} 2^{w_j} + limb_j` computed on halo2-base. Every boundary but
//! the last is below 2^253 < r, so there `acc` and `V_j` are equal integers; at the last one the
//! two differ by the difference of the last limb and the last bits' integer, both below
//! `2^{w_last} < r`, so they are equal too. The bits are then exactly the limbs' integer (no
//! wrap-around modulo r), which matters because the scalars are Grumpkin scalars, not field
//! elements. That needs every limb at most [`MAX_LIMB_BITS`] wide (`2^253 < r < 2^254`), which
//! the chip asserts: a single 254-bit limb holding 0 would also admit the bits of r.

use halo2_base::{
    gates::{GateInstructions, RangeChip, RangeInstructions},
    halo2_proofs::{
        halo2curves::ff::{Field, PrimeField},
        plonk::{Advice, Column, ConstraintSystem, Expression, Selector},
    },
    AssignedValue, Context,
    QuantumCell::Constant,
};

use super::{ladder_step, offset_point, xy, AssignedPoint, GrumpkinAffine};
use crate::{
    bank::{BankQuery, CustomRegion, RowGate, COLUMNS, MSM_EQUALITY_COLUMNS},
    Fr,
};

const XA: usize = 0;
const YA: usize = 1;
const XP: usize = 2;
const YP: usize = 3;
const XQ: usize = 4;
const YQ: usize = 5;
const ACCP: usize = 6;
const ACCQ: usize = 7;
const PROD: usize = 8;
const BP: usize = 9;
const BQ: usize = 10;
const LD: usize = 11;
const XD: usize = 12;
const L1: usize = 13;
const X1: usize = 14;
const L2: usize = 15;

/// The widest limb a chain binds: `2^253 < r`, so a limb and the integer of its bits, both below
/// `2^253`, cannot differ by a multiple of r.
pub const MAX_LIMB_BITS: usize = 253;

/// Advice cells of one chain of `bits` rows and its output row.
pub fn chain_cells(bits: usize) -> usize {
    bits * COLUMNS + MSM_EQUALITY_COLUMNS
}

/// Creates the pair-MSM gate on the advice bank.
pub(crate) fn create_gate(
    meta: &mut ConstraintSystem<Fr>,
    q: Selector,
    advice: &[Column<Advice>; COLUMNS],
) {
    meta.create_gate("grumpkin msm pair a*P + b*Q", |m| {
        let q = m.query_selector(q);
        let mut b = BankQuery { meta: m, advice };
        let (xa, ya, xp, yp, xq, yq) = (
            b.cur(XA),
            b.cur(YA),
            b.cur(XP),
            b.cur(YP),
            b.cur(XQ),
            b.cur(YQ),
        );
        let (accp, accq, prod, bp, bq) =
            (b.cur(ACCP), b.cur(ACCQ), b.cur(PROD), b.cur(BP), b.cur(BQ));
        let (ld, xd, l1, x1, l2) = (b.cur(LD), b.cur(XD), b.cur(L1), b.cur(X1), b.cur(L2));
        let next: Vec<_> = [XA, YA, XP, YP, XQ, YQ, ACCP, ACCQ, PROD]
            .iter()
            .map(|&c| b.next(c))
            .collect();
        let k = |v: u64| Expression::Constant(Fr::from(v));
        let one = k(1);

        let yd = ld.clone() * (xa.clone() - xd.clone()) - ya.clone();
        let y1 = l1.clone() * (xd.clone() - x1.clone()) - yd.clone();
        let xm = xd.clone() + bq.clone() * (x1.clone() - xd.clone());
        let ym = yd.clone() + bq.clone() * (y1 - yd.clone());
        let x2 = l2.clone() * l2.clone() - xm.clone() - xp.clone();
        let y2 = l2.clone() * (xm.clone() - x2.clone()) - ym.clone();
        let constraints = vec![
            bp.clone() * (bp.clone() - one.clone()),
            bq.clone() * (bq.clone() - one),
            k(2) * ya.clone() * ld.clone() - k(3) * xa.clone() * xa.clone(),
            xd.clone() - (ld.clone() * ld - k(2) * xa),
            l1.clone() * (xq.clone() - xd.clone()) - (yq.clone() - yd),
            x1 - (l1.clone() * l1 - xd.clone() - xq.clone()),
            l2 * (xp.clone() - xm.clone()) - (yp.clone() - ym.clone()),
            next[0].clone() - (xm.clone() + bp.clone() * (x2 - xm.clone())),
            next[1].clone() - (ym.clone() + bp.clone() * (y2 - ym)),
            next[2].clone() - xp.clone(),
            next[3].clone() - yp,
            next[4].clone() - xq.clone(),
            next[5].clone() - yq,
            next[6].clone() - (k(2) * accp + bp),
            next[7].clone() - (k(2) * accq + bq),
            next[8].clone() - prod * (xq - xd) * (xp - xm),
        ];
        constraints
            .into_iter()
            .map(|e| q.clone() * e)
            .collect::<Vec<_>>()
    });
}

/// The honest rows of a chain for `a P + b Q` (bits most significant first, equal lengths),
/// output row last.
pub fn chain_rows(
    p: GrumpkinAffine,
    q: GrumpkinAffine,
    p_bits: &[bool],
    q_bits: &[bool],
) -> Vec<[Fr; COLUMNS]> {
    assert_eq!(p_bits.len(), q_bits.len(), "one bit of each scalar per row");
    let (xp, yp) = xy(&p);
    let (xq, yq) = xy(&q);
    let (mut xa, mut ya) = xy(&offset_point());
    let (mut accp, mut accq, mut prod) = (Fr::ZERO, Fr::ZERO, Fr::ONE);
    let bit = |b: bool| Fr::from(b as u64);
    let mut rows = Vec::with_capacity(p_bits.len() + 1);
    for (&bp, &bq) in p_bits.iter().zip(q_bits) {
        let step = ladder_step((xa, ya), (xq, yq), bq, (xp, yp), bp);
        rows.push([
            xa,
            ya,
            xp,
            yp,
            xq,
            yq,
            accp,
            accq,
            prod,
            bit(bp),
            bit(bq),
            step.ld,
            step.xd,
            step.l1,
            step.x1,
            step.l2,
        ]);
        (xa, ya) = step.next;
        prod *= (xq - step.xd) * (xp - step.xm);
        accp = accp.double() + bit(bp);
        accq = accq.double() + bit(bq);
    }
    let mut last = [Fr::ZERO; COLUMNS];
    last[..MSM_EQUALITY_COLUMNS].copy_from_slice(&[xa, ya, xp, yp, xq, yq, accp, accq, prod]);
    rows.push(last);
    rows
}

/// One term `scalar * point` of a multi-scalar multiplication. The scalar is given by limbs,
/// most significant first, each with its width in bits (at most [`MAX_LIMB_BITS`]); the caller
/// must have range checked every limb to its width, and the widths must sum to the chain length.
#[derive(Clone, Debug)]
pub struct MsmTerm {
    /// The point (on the curve, checked by the caller).
    pub point: AssignedPoint,
    /// The scalar's limbs, most significant first, with their widths in bits.
    pub limbs: Vec<(AssignedValue<Fr>, usize)>,
}

impl MsmTerm {
    /// Number of bits of the scalar (the sum of the limb widths).
    pub fn bits(&self) -> usize {
        self.limbs.iter().map(|(_, w)| w).sum()
    }

    /// The scalar's bits, most significant first, from the limbs' values.
    pub fn bits_msb_first(&self) -> Vec<bool> {
        self.limbs
            .iter()
            .flat_map(|(limb, width)| {
                let repr = limb.value().to_repr();
                (0..*width)
                    .rev()
                    .map(move |i| i < 256 && (repr.as_ref()[i / 8] >> (i % 8)) & 1 == 1)
            })
            .collect()
    }
}

/// The pair-MSM chains on the custom region, with halo2-base for the checks around them.
#[derive(Clone, Debug)]
pub struct MsmPairChip<'r> {
    range: &'r RangeChip<Fr>,
    region: CustomRegion,
}

impl<'r> MsmPairChip<'r> {
    /// A chip appending to `region`.
    pub fn new(range: &'r RangeChip<Fr>, region: CustomRegion) -> Self {
        Self { range, region }
    }

    /// Constrains and returns `a P + b Q + 2^L O` for the terms `p = (P, a)` and `q = (Q, b)`
    /// of equal length `L` (at most 254 bits), and the index of the chain's first row.
    ///
    /// # Assumptions
    /// - `P` and `Q` are on the curve, and each limb is range checked to its width.
    /// - Nobody can relate `P` or `Q` to `O` (module docs): a point such as `[2^j] O` leaves no
    ///   witness, whatever the scalars.
    pub fn mul_add_pair(
        &self,
        ctx: &mut Context<Fr>,
        p: &MsmTerm,
        q: &MsmTerm,
    ) -> (AssignedPoint, usize) {
        self.mul_add_pair_with_bits(ctx, p, q, &p.bits_msb_first(), &q.bits_msb_first())
    }

    /// [`Self::mul_add_pair`] with the bits given by the caller: only a cheating prover passes
    /// bits other than the limbs' own; negative tests use it.
    pub fn mul_add_pair_with_bits(
        &self,
        ctx: &mut Context<Fr>,
        p: &MsmTerm,
        q: &MsmTerm,
        p_bits: &[bool],
        q_bits: &[bool],
    ) -> (AssignedPoint, usize) {
        let len = p.bits();
        assert_eq!(len, q.bits(), "both terms of a chain have the same length");
        assert!((1..=254).contains(&len), "a chain has 1 to 254 bits");
        assert!(
            p.limbs
                .iter()
                .chain(&q.limbs)
                .all(|(_, w)| *w <= MAX_LIMB_BITS),
            "every limb has at most {MAX_LIMB_BITS} bits (a wider one admits non-canonical bits)"
        );
        let rows = chain_rows(p.point.value(), q.point.value(), p_bits, q_bits);
        let first = self.region.num_rows();
        for (i, row) in rows.iter().enumerate() {
            if i < len {
                self.region
                    .push_row(RowGate::MsmPair, *row, (1 << COLUMNS) - 1);
            } else {
                self.region
                    .push_row(RowGate::None, *row, (1 << MSM_EQUALITY_COLUMNS) - 1);
            }
        }
        let region = &self.region;
        let out = first + len;
        let (ox, oy) = xy(&offset_point());
        region.bind_constant(ctx, ox, first, XA);
        region.bind_constant(ctx, oy, first, YA);
        region.bind_constant(ctx, Fr::ZERO, first, ACCP);
        region.bind_constant(ctx, Fr::ZERO, first, ACCQ);
        region.bind_constant(ctx, Fr::ONE, first, PROD);
        region.bind(ctx, &p.point.x, first, XP);
        region.bind(ctx, &p.point.y, first, YP);
        region.bind(ctx, &q.point.x, first, XQ);
        region.bind(ctx, &q.point.y, first, YQ);
        self.bind_limbs(ctx, first, ACCP, &p.limbs);
        self.bind_limbs(ctx, first, ACCQ, &q.limbs);

        // Every incomplete addition had distinct x.
        let prod = region.output(ctx, out, PROD);
        super::assert_invertible(self.range.gate(), ctx, prod);

        let result = AssignedPoint {
            x: region.output(ctx, out, XA),
            y: region.output(ctx, out, YA),
        };
        (result, first)
    }

    /// Copy-constrains the recomposed bits at every limb boundary to the running value.
    fn bind_limbs(
        &self,
        ctx: &mut Context<Fr>,
        first: usize,
        column: usize,
        limbs: &[(AssignedValue<Fr>, usize)],
    ) {
        let gate = self.range.gate();
        let mut running: Option<AssignedValue<Fr>> = None;
        let mut row = first;
        for (limb, width) in limbs {
            row += width;
            let value = match running {
                None => *limb,
                Some(v) => gate.mul_add(
                    ctx,
                    v,
                    Constant(Fr::from(2).pow_vartime([*width as u64])),
                    *limb,
                ),
            };
            self.region.bind(ctx, &value, row, column);
            running = Some(value);
        }
    }
}
