//! The DLEQ ladder: both equations of a unique signature's Chaum-Pedersen proof in one pass over
//! the scalars' bits, with shared doublings and a per-slot table looked up in the signer table's
//! lookup.
//!
//! A signer slot checks `s G - c pk = A` and `s H - c sigma = B`. midnight-circuits' `mul` costs
//! one row per bit and scalar, so four products cost about 1,020 rows. Here both sums run side by
//! side over the bit pairs `(s_i, c_i)`, most significant first, two rows per pair:
//!
//! ```text
//!   row    0    1    2     3    4    5    6    7    8
//!   2i     T1x  T1y  s_i   a1x  a1y  S1x  S1y  dpi1 dss1    S1 = a1 + T1,  a1' = 2 S1 (row 2i+2)
//!   2i+1   T2x  T2y  c_i   a2x  a2y  S2x  S2y  dpi2 dss2    S2 = a2 + T2,  a2' = 2 S2 (row 2i+3)
//! ```
//!
//! with `T1 = table1[w]`, `T2 = table2[w]`, `w = s_i + 2 c_i`, and the tables
//! `table1 = [O, G, -pk, G - pk]`, `table2 = [O, H, -sigma, H - sigma]`. The accumulators start at
//! `O`; the last pair's sums are `s G - c pk` and `s H - c sigma` (the doublings it also computes
//! land in two extra rows and are not used). One gate, [`LADDER_GATE`], holds on every row: the
//! complete twisted Edwards addition `S = a + T` (with `dpi = d ax ay Tx Ty`) and doubling
//! `a' = 2 S` (with `dss = d Sx^2 Sy^2`), the formulas of midnight-circuits' own Edwards gates
//! with `d` inside the helper cells (the verifier's script spells the constant twice, not four
//! times); Jubjub's `d` is not a square, so `1 +- dpi` and `1 +- dss` never vanish on curve
//! points: the gate holds for every pair of curve points and `S`, `a'` are determined.
//!
//! Which `T` a row adds is checked by the signer table's lookup ([`crate::circuit`]): on the first
//! row of each pair the tuple `tag (s_i + 2 c_i, T1, T2)` (the tag a fixed column, one per signer
//! slot) must be one of the slot's four table entries `tag (w, table1[w], table2[w])`, laid out
//! from the slot's own points. The gate makes every bit cell boolean (`c`'s are also copies of its
//! canonical bits; `s`'s are fresh, `s` being used nowhere else), so `w` is the pair's index.

use ff::Field;
use midnight_circuits::{ecc::curves::EdwardsCurve, types::AssignedNative};
use midnight_curves::JubjubExtended;
use midnight_proofs::{
    circuit::{Region, Value},
    plonk::{Advice, Column, ConstraintSystem, Constraints, Error, Expression, Fixed, Selector},
    poly::Rotation,
};

use crate::native::Base;

/// The name of the ladder's gate (MockProver reports it).
pub const LADDER_GATE: &str = "dleq ladder step";
/// Bits of both scalars the ladder runs over: `c` is a canonical base field element (255 bits),
/// `s` a Jubjub scalar (252 bits, padded with zeros).
pub const LADDER_BITS: usize = 255;

// Columns of a ladder row (module docs): the ladder's nine columns are the circuit's first nine
// advice columns, so these are also the columns' indices MockProver reports.
const T_X: usize = 0;
const T_Y: usize = 1;
/// The column of the bits `s_i` (even rows) and the copies of `c_i` (odd rows).
pub const BIT: usize = 2;
/// The column of the accumulators' x-coordinates (their start `O` copied into rows 0 and 1).
pub const ACC_X: usize = 3;
/// The column of the accumulators' y-coordinates.
pub const ACC_Y: usize = 4;
const S_X: usize = 5;
const S_Y: usize = 6;
const DPI: usize = 7;
const DSS: usize = 8;

/// Affine twisted Edwards coordinates `(x, y)`.
pub type Xy = (Base, Base);

/// The identity `O = (0, 1)`.
pub const IDENTITY: Xy = (Base::ZERO, Base::ONE);

/// `p + q` by the complete addition law of `-x^2 + y^2 = 1 + d x^2 y^2` (the gate's formula).
pub fn edwards_add(p: Xy, q: Xy) -> Xy {
    let d = <JubjubExtended as EdwardsCurve>::D;
    let t = d * p.0 * q.0 * p.1 * q.1;
    let x = (p.0 * q.1 + p.1 * q.0) * (Base::ONE + t).invert().expect("d is not a square");
    let y = (p.1 * q.1 + p.0 * q.0) * (Base::ONE - t).invert().expect("d is not a square");
    (x, y)
}

/// The first [`LADDER_BITS`] bits of a little-endian repr (a scalar's or a base element's), as
/// the ladder reads them.
pub fn ladder_bits(repr: &[u8]) -> Vec<bool> {
    (0..LADDER_BITS)
        .map(|i| (repr[i / 8] >> (i % 8)) & 1 == 1)
        .collect()
}

/// `sum_i 2^i (table1[w_i], table2[w_i])` with `w_i = s_i + 2 c_i` (bits little-endian): what the
/// ladder's last pair holds. The native twin of the ladder, for the agreement tests.
pub fn ladder_sums(s_bits: &[bool], c_bits: &[bool], tables: &[[Xy; 4]; 2]) -> [Xy; 2] {
    let mut acc = [IDENTITY; 2];
    for (i, (&s, &c)) in s_bits.iter().zip(c_bits).enumerate().rev() {
        let w = usize::from(s) + 2 * usize::from(c);
        for (a, table) in acc.iter_mut().zip(tables) {
            let sum = edwards_add(*a, table[w]);
            *a = if i == 0 { sum } else { edwards_add(sum, sum) };
        }
    }
    acc
}

/// A cheating prover's change to one step of a slot's ladder, for the negative tests only.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LadderForgery {
    /// These points added in place of the tables' entries `(table1[w], table2[w])` (the gate
    /// then holds and only the lookup can refuse them).
    Points([Xy; 2]),
    /// This value in place of `s`'s bit.
    SBit(Base),
    /// This point written as the first sum `S`, the ladder continuing from it (only the gate's
    /// addition can refuse it).
    Sum(Xy),
    /// These points written as the accumulators' start in place of `O` (at step 0; the copies of
    /// `O`'s cells kept, so only they can refuse it): a start `P` ends the ladder at
    /// `2^254 P` plus the honest sum.
    Start([Xy; 2]),
    /// This value written in place of the copy of `c`'s bit (the copy kept, so only it can
    /// refuse it): the ladder then runs on another challenge.
    CBit(Base),
}

/// The first of `forgeries` at `step` that `pick` takes.
fn forged<T>(
    forgeries: &[(usize, LadderForgery)],
    step: usize,
    pick: impl Fn(&LadderForgery) -> Option<T>,
) -> Option<T> {
    forgeries
        .iter()
        .filter(|(at, _)| *at == step)
        .find_map(|(_, forgery)| pick(forgery))
}

/// The ladder's gate and columns.
#[derive(Clone, Debug)]
pub struct LadderConfig {
    step: Selector,
    columns: [Column<Advice>; 9],
}

/// One signer slot's ladder, as [`LadderConfig::assign`] lays it out.
pub struct LadderRows<'a> {
    /// The slot's lookup tag (a fixed value, distinct per slot, never 0 or 1).
    pub tag: Base,
    /// The bits of `s`, little-endian, [`LADDER_BITS`] of them: fresh cells of the ladder (the
    /// gate makes them bits; `s` appears nowhere else).
    pub s_bits: Value<Vec<bool>>,
    /// Boolean cells of `c`, little-endian, [`LADDER_BITS`] of them.
    pub c_bits: &'a [AssignedNative<Base>],
    /// The slot's tables' values `[table1, table2]` (the lookup checks them against the table
    /// rows).
    pub tables: Value<[[Xy; 4]; 2]>,
    /// Cells holding `O`'s coordinates, where both sums start.
    pub identity: [&'a AssignedNative<Base>; 2],
    /// A cheating prover's changes, by step (counted from the most significant bit): for the
    /// negative tests only.
    pub forgeries: &'a [(usize, LadderForgery)],
}

impl LadderConfig {
    /// The gate over the first nine advice columns; copies go in and out of the bit, sum and
    /// accumulator columns only (equality on the others would cost a permutation column).
    pub fn configure(meta: &mut ConstraintSystem<Base>, advice: &[Column<Advice>]) -> Self {
        let columns: [Column<Advice>; 9] = advice[..9].try_into().expect("nine advice columns");
        for c in [BIT, ACC_X, ACC_Y, S_X, S_Y] {
            meta.enable_equality(columns[c]);
        }
        let step = meta.selector();
        meta.create_gate(LADDER_GATE, |m| {
            let mut cur = |c: usize| m.query_advice(columns[c], Rotation::cur());
            let (tx, ty, ax, ay) = (cur(T_X), cur(T_Y), cur(ACC_X), cur(ACC_Y));
            let (dpi, sx, sy, dss) = (cur(DPI), cur(S_X), cur(S_Y), cur(DSS));
            let bit = cur(BIT);
            let ox = m.query_advice(columns[ACC_X], Rotation(2));
            let oy = m.query_advice(columns[ACC_Y], Rotation(2));
            let one = Expression::from(1);
            let d = Expression::Constant(<JubjubExtended as EdwardsCurve>::D);
            Constraints::with_selector(
                step,
                vec![
                    (
                        "dpi = d ax ay tx ty",
                        dpi.clone() - d.clone() * ax.clone() * ay.clone() * tx.clone() * ty.clone(),
                    ),
                    (
                        "sx (1 + dpi) = ax ty + ay tx",
                        sx.clone() * (one.clone() + dpi.clone())
                            - (ax.clone() * ty.clone() + ay.clone() * tx.clone()),
                    ),
                    (
                        "sy (1 - dpi) = ay ty + ax tx",
                        sy.clone() * (one.clone() - dpi) - (ay * ty + ax * tx),
                    ),
                    (
                        "dss = d sx sx sy sy",
                        dss.clone() - d * sx.clone() * sx.clone() * sy.clone() * sy.clone(),
                    ),
                    (
                        "ox (1 + dss) = 2 sx sy",
                        ox * (one.clone() + dss.clone())
                            - (sx.clone() * sy.clone() + sx.clone() * sy.clone()),
                    ),
                    (
                        "oy (1 - dss) = sy sy + sx sx",
                        oy * (one.clone() - dss) - (sy.clone() * sy + sx.clone() * sx),
                    ),
                    ("bit is boolean", bit.clone() * (bit - one)),
                ],
            )
        });
        Self { step, columns }
    }

    /// Lays out `rows` in `region` from offset 0, writing the tag into `tag_column` on the first
    /// row of each pair; returns the cells of the two sums `(table1 sum, table2 sum)`.
    pub fn assign(
        &self,
        region: &mut Region<'_, Base>,
        tag_column: Column<Fixed>,
        rows: &LadderRows<'_>,
    ) -> Result<[[AssignedNative<Base>; 2]; 2], Error> {
        let col = |c: usize| self.columns[c];
        let start = forged(rows.forgeries, 0, |f| match f {
            LadderForgery::Start(points) => Some(*points),
            _ => None,
        });
        // Both accumulators start as copies of O's cells (a forged start keeps the copies).
        for (k, cell) in rows.identity.iter().enumerate() {
            for row in 0..2 {
                let value = match start {
                    Some(points) => Value::known([points[row].0, points[row].1][k]),
                    None => cell.value().copied(),
                };
                let a = region.assign_advice(|| "identity", col(ACC_X + k), row, || value)?;
                region.constrain_equal(a.cell(), cell.cell())?;
            }
        }
        let mut acc: [Value<Xy>; 2] = start.unwrap_or([IDENTITY; 2]).map(Value::known);
        let mut sums = None;
        for step in 0..LADDER_BITS {
            let bit = LADDER_BITS - 1 - step;
            let top = 2 * step;
            region.assign_fixed(|| "tag", tag_column, top, || Value::known(rows.tag))?;
            let s_bit = match forged(rows.forgeries, step, |f| match f {
                LadderForgery::SBit(value) => Some(*value),
                _ => None,
            }) {
                Some(value) => Value::known(value),
                None => rows
                    .s_bits
                    .as_ref()
                    .map(|bits| Base::from(u64::from(bits[bit]))),
            };
            let forged_points = forged(rows.forgeries, step, |f| match f {
                LadderForgery::Points(points) => Some(*points),
                _ => None,
            });
            let forged_sum = forged(rows.forgeries, step, |f| match f {
                LadderForgery::Sum(point) => Some(*point),
                _ => None,
            });
            let s = region.assign_advice(|| "s bit", col(BIT), top, || s_bit)?;
            let c_bit = match forged(rows.forgeries, step, |f| match f {
                LadderForgery::CBit(value) => Some(*value),
                _ => None,
            }) {
                Some(value) => Value::known(value),
                None => rows.c_bits[bit].value().copied(),
            };
            // A copy of c's canonical bit: what ties the ladder to the challenge.
            let c = region.assign_advice(|| "c bit", col(BIT), top + 1, || c_bit)?;
            region.constrain_equal(c.cell(), rows.c_bits[bit].cell())?;
            let w = s
                .value()
                .zip(c.value())
                .map(|(s, c)| usize::from(*s == Base::ONE) + 2 * usize::from(*c == Base::ONE));
            let mut step_sums = Vec::with_capacity(2);
            for k in 0..2 {
                let row = top + k;
                self.step.enable(region, row)?;
                let t = match forged_points {
                    Some(points) => Value::known(points[k]),
                    None => w.zip(rows.tables).map(|(w, tables)| tables[k][w]),
                };
                let a = acc[k];
                let sum = match forged_sum {
                    Some(point) if k == 0 => Value::known(point),
                    _ => a.zip(t).map(|(a, t)| edwards_add(a, t)),
                };
                let doubled = sum.map(|s| edwards_add(s, s));
                let d = <JubjubExtended as EdwardsCurve>::D;
                let dpi = a.zip(t).map(|(a, t)| d * a.0 * a.1 * t.0 * t.1);
                region.assign_advice(|| "tx", col(T_X), row, || t.map(|t| t.0))?;
                region.assign_advice(|| "ty", col(T_Y), row, || t.map(|t| t.1))?;
                region.assign_advice(|| "dpi", col(DPI), row, || dpi)?;
                let sx = region.assign_advice(|| "sx", col(S_X), row, || sum.map(|s| s.0))?;
                let sy = region.assign_advice(|| "sy", col(S_Y), row, || sum.map(|s| s.1))?;
                let dss = sum.map(|s| d * s.0 * s.0 * s.1 * s.1);
                region.assign_advice(|| "dss", col(DSS), row, || dss)?;
                region.assign_advice(|| "ax", col(ACC_X), row + 2, || doubled.map(|d| d.0))?;
                region.assign_advice(|| "ay", col(ACC_Y), row + 2, || doubled.map(|d| d.1))?;
                acc[k] = doubled;
                step_sums.push([sx, sy]);
            }
            let [first, second]: [[AssignedNative<Base>; 2]; 2] =
                step_sums.try_into().expect("two sums per step");
            sums = Some([first, second]);
        }
        Ok(sums.expect("at least one step"))
    }
}
