//! The scalar ladder: `s P - c Q` for a slot's points, in one pass over the bits of `s` and `c`,
//! most significant first, with the added points looked up in a per-slot table. midnight-circuits'
//! `mul` costs about one row per bit and scalar (about 590 rows per product); here a lane costs
//! one row per bit pair, and lanes share the bits.
//!
//! Two lanes (SNARK-Mithril's DLEQ proof, `s G - c pk = A` and `s H - c sigma = B`), two rows
//! per pair, in one of two layouts ([`LadderReach`]). [`LadderReach::TwoRows`] (the default):
//!
//! ```text
//!   row    0    1    2     3    4    5    6    7    8
//!   2i     T1x  T1y  s_i   a1x  a1y  S1x  S1y  dpi1 dss1    S1 = a1 + T1,  a1' = 2 S1 (row 2i+2)
//!   2i+1   T2x  T2y  c_i   a2x  a2y  S2x  S2y  dpi2 dss2    S2 = a2 + T2,  a2' = 2 S2 (row 2i+3)
//! ```
//!
//! [`LadderReach::NextRow`], for proofs that midnight-circuits' in-circuit verifier checks (it
//! takes rotations -1, 0 and 1 only; a chain step verifies certificate proofs):
//!
//! ```text
//!   row    0    1    2     3    4    5    6    7    8
//!   2i     T1x  T1y  s_i   a1x  a1y  S2x  S2y  dpi1 dss2    S1 = a1 + T1 (row 2i+1),  a2' = 2 S2 (row 2i+1)
//!   2i+1   T2x  T2y  c_i   a2x  a2y  S1x  S1y  dpi2 dss1    S2 = a2 + T2 (row 2i+2),  a1' = 2 S1 (row 2i+2)
//! ```
//!
//! A row's sum lands on the row below, which doubles it into the accumulator of the row below it
//! (lanes alternate, so that is the sum's lane's next accumulator). The gate's queries stay
//! within rotations 0 and 1; the layout costs two advice queries more than `TwoRows` and one
//! opening point fewer, 32 proof bytes in all. The first row's sum cells hold `O` (doubled into
//! the second lane's start, a copy of `O`); the row after the last pair doubles the second lane's
//! last sum (unused).
//!
//! One lane (a Schnorr signature, `s G - c pk = R`), one row per pair, `c_i` fresh in a tenth
//! column (the circuit recomposes `c` from these cells and checks their canonicity):
//!
//! ```text
//!   row    0    1    2     3    4    5    6    7    8     9
//!   i      T1x  T1y  s_i   a1x  a1y  S1x  S1y  dpi1 dss1  c_i    S1 = a1 + T1,  a1' = 2 S1 (row i+1)
//! ```
//!
//! with `T1 = table1[w]`, `T2 = table2[w]`, `w = s_i + 2 c_i`, and the tables
//! `table1 = [O, G, -pk, G - pk]`, `table2 = [O, H, -sigma, H - sigma]`. The accumulators start at
//! `O`; the last pair's sums are `s G - c pk` (and `s H - c sigma`) (the doublings it also
//! computes land in extra rows and are not used). One gate, [`LADDER_GATE`], holds on every row:
//! the complete twisted Edwards addition `S = a + T` (with `dpi = d ax ay Tx Ty`) and doubling
//! `a' = 2 S` (with `dss = d Sx^2 Sy^2`), the formulas of midnight-circuits' own Edwards gates
//! with `d` inside the helper cells (the verifier's script spells the constant twice, not four
//! times); Jubjub's `d` is not a square, so `1 +- dpi` and `1 +- dss` never vanish on curve
//! points: the gate holds for every pair of curve points and `S`, `a'` are determined.
//!
//! Which `T` a row adds is checked by the circuit's lookup (SNARK-Mithril's signer table,
//! `schnorr-atms-jubjub`'s ladder table, [`crate::circuit`]): on the first row of each pair the
//! tuple `tag (s_i + 2 c_i, T1[, T2])` (the tag a fixed column, one per slot) must be one of the
//! slot's four table entries `tag (w, table1[w][, table2[w]])`, laid out from the slot's own
//! points. The gate makes every cell of column [`BIT`] boolean (with two lanes `c`'s bits are
//! there too, copies of its canonical bits; with one, the gate makes [`C_BIT`]'s cells boolean
//! too), and `s`'s bits are fresh, `s` being used nowhere else, so `w` is the pair's index.

use ff::Field;
use group::Curve;
use midnight_circuits::{ecc::curves::EdwardsCurve, types::AssignedNative};
use midnight_curves::{Fr as JubjubScalar, JubjubAffine, JubjubExtended};
use midnight_proofs::{
    circuit::{Region, Value},
    plonk::{
        Advice, Column, ConstraintSystem, Constraints, Error, Expression, Fixed, Selector,
        VirtualCells,
    },
    poly::Rotation,
};

use crate::native::Base;

/// The name of the two-lane ladder's gate (MockProver reports it).
pub const LADDER_GATE: &str = "dleq ladder step";
/// The name of the one-lane ladder's gate.
pub const ONE_LANE_GATE: &str = "schnorr ladder step";
/// Bits of both scalars the ladder runs over: `c` is a canonical base field element (255 bits),
/// `s` a Jubjub scalar (252 bits, padded with zeros).
pub const LADDER_BITS: usize = 255;

// Columns of a ladder row (module docs): the ladder's columns are the circuit's first nine (ten)
// advice columns, so these are also the columns' indices MockProver reports.
/// The column of the added points' x-coordinates.
pub const T_X: usize = 0;
/// The column of the added points' y-coordinates.
pub const T_Y: usize = 1;
/// The column of the bits `s_i` (a two-lane ladder's even rows) and the copies of `c_i` (its odd
/// rows).
pub const BIT: usize = 2;
/// The column of the accumulators' x-coordinates (their start `O` copied into the first rows).
pub const ACC_X: usize = 3;
/// The column of the accumulators' y-coordinates.
pub const ACC_Y: usize = 4;
const S_X: usize = 5;
const S_Y: usize = 6;
const DPI: usize = 7;
const DSS: usize = 8;
/// A one-lane ladder's column of the copies of `c_i`.
pub const C_BIT: usize = 9;

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

/// `P / 2` for a point `P` of the prime-order subgroup: the point whose doubling is `P`.
fn halve(p: Xy) -> Xy {
    let half = JubjubScalar::from(2)
        .invert()
        .expect("2 is invertible modulo the subgroup order");
    let q = (JubjubExtended::from(JubjubAffine::from_raw_unchecked(p.0, p.1)) * half).to_affine();
    (q.get_u(), q.get_v())
}

/// The first [`LADDER_BITS`] bits of a little-endian repr (a scalar's or a base element's), as
/// the ladder reads them.
pub fn ladder_bits(repr: &[u8]) -> Vec<bool> {
    (0..LADDER_BITS)
        .map(|i| (repr[i / 8] >> (i % 8)) & 1 == 1)
        .collect()
}

/// `sum_i 2^i table[w_i]` for each lane's table, with `w_i = s_i + 2 c_i` (bits little-endian):
/// what the ladder's last pair holds. The native twin of the ladder, for the agreement tests.
pub fn ladder_sums<const LANES: usize>(
    s_bits: &[bool],
    c_bits: &[bool],
    tables: &[[Xy; 4]; LANES],
) -> [Xy; LANES] {
    let mut acc = [IDENTITY; LANES];
    for (i, (&s, &c)) in s_bits.iter().zip(c_bits).enumerate().rev() {
        let w = usize::from(s) + 2 * usize::from(c);
        for (a, table) in acc.iter_mut().zip(tables) {
            let sum = edwards_add(*a, table[w]);
            *a = if i == 0 { sum } else { edwards_add(sum, sum) };
        }
    }
    acc
}

/// A lookup gated by two fixed columns: on every row `input (1, e)` must be some row's
/// `(table, e)`, with `e` the tuple `tuple` reads. Rows with `input = tag` (the ladder's, or
/// another looked-up tuple's) find only rows with `table = tag` whose cells hold the entry times
/// the tag; every other row's input is all zero and needs an all-zero row with `table = 0`.
/// The ladder tables of both circuits (and SNARK-Mithril's signer table) are such lookups.
pub fn tagged_lookup(
    meta: &mut ConstraintSystem<Base>,
    name: &'static str,
    (input, table): (Column<Fixed>, Column<Fixed>),
    tuple: impl FnOnce(&mut VirtualCells<'_, Base>) -> Vec<Expression<Base>>,
) {
    meta.lookup_any(name, |m| {
        let f_in = m.query_fixed(input, Rotation::cur());
        let f_table = m.query_fixed(table, Rotation::cur());
        let mut pairs = vec![(f_in.clone(), f_table)];
        pairs.extend(tuple(m).into_iter().map(|e| (f_in.clone() * e.clone(), e)));
        pairs
    });
}

/// A cheating prover's change to one step of a slot's ladder, for the negative tests only. A
/// one-lane ladder reads the first of each pair of points.
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
    /// This value written in place of `c`'s bit (two lanes: of the copy, the copy kept, so
    /// only it can refuse it; one lane: of the fresh bit, which the circuit recomposes): the
    /// ladder then runs on another challenge.
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

/// The ladder's gate and columns, for `LANES` (1 or 2) sums over the same bits.
#[derive(Clone, Debug)]
pub struct LadderConfig<const LANES: usize = 2> {
    /// A two-lane ladder's selector; a one-lane ladder's gate is on where its tag is (every row).
    step: Option<Selector>,
    /// Where a two-lane ladder puts its sums (a one-lane ladder's sums are on their own rows).
    reach: LadderReach,
    columns: [Column<Advice>; 9],
    /// A one-lane ladder's [`C_BIT`] column.
    c_bits: Option<Column<Advice>>,
}

/// Where a two-lane ladder's gate reaches (module docs): the layout is part of the verifying key.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum LadderReach {
    /// Sums on their own rows, accumulators two rows down (rotations 0, 1 and 2): the smaller
    /// proof (32 bytes).
    #[default]
    TwoRows,
    /// Sums on the row below (rotations 0 and 1): proofs an in-circuit verifier can check.
    NextRow,
}

impl LadderReach {
    /// Rows between a row of a lane's addition and the row of its sum: 0 or 1.
    fn sum_offset<const LANES: usize>(self) -> usize {
        usize::from(LANES == 2 && self == LadderReach::NextRow)
    }
}

/// Where a ladder's bits of `c` come from.
#[derive(Clone, Copy)]
pub enum CBits<'a> {
    /// Boolean cells of `c`'s canonical bits, copied into the ladder (two lanes).
    Copies(&'a [AssignedNative<Base>]),
    /// Fresh cells of the ladder, made boolean by its gate (one lane): the caller recomposes
    /// `c` from the returned cells.
    Fresh(Value<&'a [bool]>),
}

/// The cells a ladder hands back.
pub struct LadderCells<const LANES: usize> {
    /// Each lane's sum `(x, y)`.
    pub sums: [[AssignedNative<Base>; 2]; LANES],
    /// The ladder's cells of `c`'s bits, little-endian.
    pub c_bits: Vec<AssignedNative<Base>>,
}

/// One slot's ladder, as [`LadderConfig::assign`] lays it out.
pub struct LadderRows<'a, const LANES: usize = 2> {
    /// The slot's lookup tag (a fixed value, distinct per slot, never 0; SNARK-Mithril's also
    /// never 1).
    pub tag: Base,
    /// The bits of `s`, little-endian, [`LADDER_BITS`] of them: fresh cells of the ladder (the
    /// gate makes them bits; `s` appears nowhere else).
    pub s_bits: Value<Vec<bool>>,
    /// The bits of `c`, little-endian, [`LADDER_BITS`] of them.
    pub c_bits: CBits<'a>,
    /// The slot's tables' values, one per lane (the lookup checks them against the table rows).
    pub tables: Value<[[Xy; 4]; LANES]>,
    /// Cells holding `O`'s coordinates, where the sums start.
    pub identity: [&'a AssignedNative<Base>; 2],
    /// A cheating prover's changes, by step (counted from the most significant bit): for the
    /// negative tests only.
    pub forgeries: &'a [(usize, LadderForgery)],
}

impl<const LANES: usize> LadderConfig<LANES> {
    /// The gate over the first nine advice columns (and the tenth for one lane); copies go in
    /// and out of the bit, sum and accumulator columns only (equality on the others would cost a
    /// permutation column). A two-lane ladder's gate has its own selector; a one-lane ladder's
    /// is scaled by `tag_column`, which holds the slot's tag (never 0) on every row of a ladder
    /// and 0 elsewhere, and so saves the selector's fixed column. Two lanes are laid out as
    /// [`LadderReach::TwoRows`] ([`Self::configure_reaching`] chooses).
    pub fn configure(
        meta: &mut ConstraintSystem<Base>,
        advice: &[Column<Advice>],
        tag_column: Column<Fixed>,
    ) -> Self {
        Self::configure_reaching(meta, advice, tag_column, LadderReach::TwoRows)
    }

    /// [`Self::configure`] with a two-lane ladder's layout `reach` (one lane has one layout).
    pub fn configure_reaching(
        meta: &mut ConstraintSystem<Base>,
        advice: &[Column<Advice>],
        tag_column: Column<Fixed>,
        reach: LadderReach,
    ) -> Self {
        assert!(LANES == 1 || LANES == 2, "a ladder has one or two lanes");
        let columns: [Column<Advice>; 9] = advice[..9].try_into().expect("nine advice columns");
        for c in [BIT, ACC_X, ACC_Y, S_X, S_Y] {
            meta.enable_equality(columns[c]);
        }
        let c_bits = (LANES == 1).then(|| {
            let column = advice[C_BIT];
            meta.enable_equality(column);
            column
        });
        let step = (LANES == 2).then(|| meta.selector());
        let name = if LANES == 2 {
            LADDER_GATE
        } else {
            ONE_LANE_GATE
        };
        meta.create_gate(name, |m| {
            // (Queried only where it scales the gate: a query is part of the verifying key.)
            let tag = step
                .is_none()
                .then(|| m.query_fixed(tag_column, Rotation::cur()));
            let mut cur = |c: usize| m.query_advice(columns[c], Rotation::cur());
            let (tx, ty, ax, ay) = (cur(T_X), cur(T_Y), cur(ACC_X), cur(ACC_Y));
            let (dpi, sx, sy, dss) = (cur(DPI), cur(S_X), cur(S_Y), cur(DSS));
            let bit = cur(BIT);
            let c_bit = c_bits.map(|column| m.query_advice(column, Rotation::cur()));
            // The row's sum: on the row itself, or on the row below (`NextRow`, module docs).
            // The sum on the row is doubled into the lane's next accumulator: `LANES` rows down,
            // or on the row below (`NextRow`: the sum there is the other lane's).
            let offset = reach.sum_offset::<LANES>() as i32;
            let (nx, ny) = (
                m.query_advice(columns[S_X], Rotation(offset)),
                m.query_advice(columns[S_Y], Rotation(offset)),
            );
            let doubled_at = Rotation(if offset == 1 { 1 } else { LANES as i32 });
            let ox = m.query_advice(columns[ACC_X], doubled_at);
            let oy = m.query_advice(columns[ACC_Y], doubled_at);
            let one = Expression::from(1);
            let d = Expression::Constant(<JubjubExtended as EdwardsCurve>::D);
            let constraints: Vec<(&str, Expression<Base>)> = vec![
                (
                    "dpi = d ax ay tx ty",
                    dpi.clone() - d.clone() * ax.clone() * ay.clone() * tx.clone() * ty.clone(),
                ),
                (
                    "sx (1 + dpi) = ax ty + ay tx",
                    nx * (one.clone() + dpi.clone())
                        - (ax.clone() * ty.clone() + ay.clone() * tx.clone()),
                ),
                (
                    "sy (1 - dpi) = ay ty + ax tx",
                    ny * (one.clone() - dpi) - (ay * ty + ax * tx),
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
                ("bit is boolean", bit.clone() * (bit - one.clone())),
            ];
            let mut constraints = constraints;
            if let Some(c) = c_bit {
                constraints.push(("c bit is boolean", c.clone() * (c - one)));
            }
            match (step, tag) {
                (Some(selector), _) => Constraints::with_selector(selector, constraints),
                (None, tag) => Constraints::without_selector(
                    constraints
                        .into_iter()
                        .map(|(name, e)| (name, tag.clone().expect("queried") * e))
                        .collect(),
                ),
            }
        });
        Self {
            step,
            reach,
            columns,
            c_bits,
        }
    }

    /// Where a step's copy of `c`'s bit lies, from the step's first row: two lanes put it in
    /// [`BIT`] on the second row, one lane in [`C_BIT`] on the same row.
    fn c_bit_cell(&self, top: usize) -> (Column<Advice>, usize) {
        match self.c_bits {
            Some(column) => (column, top),
            None => (self.columns[BIT], top + 1),
        }
    }

    /// `a + T` on one row of the ladder's gate and lookup, in `region` from offset 0: the slot's
    /// step for `w = 2` (`s_i = 0`, `c_i = 1`) from the accumulator `a` instead of the ladder's,
    /// so the lookup takes `T` only as the slot's entry 2 and the gate computes the sum (the
    /// doubling it also computes lands on the next row, unused). With `a = G` and entry 2 `-pk`,
    /// this is the table's entry 3, `G - pk`, without an Edwards chip. Returns the sum's cells;
    /// `a` and `t` are copied in.
    pub fn add(
        &self,
        region: &mut Region<'_, Base>,
        tag_column: Column<Fixed>,
        tag: Base,
        a: [&AssignedNative<Base>; 2],
        t: [&AssignedNative<Base>; 2],
    ) -> Result<[AssignedNative<Base>; 2], Error> {
        assert_eq!(LANES, 1, "a single addition is a one-lane step");
        let col = |c: usize| self.columns[c];
        region.assign_fixed(|| "tag", tag_column, 0, || Value::known(tag))?;
        region.assign_advice(|| "s bit", col(BIT), 0, || Value::known(Base::ZERO))?;
        let (c_column, c_row) = self.c_bit_cell(0);
        region.assign_advice(|| "c bit", c_column, c_row, || Value::known(Base::ONE))?;
        let xy = |cells: [&AssignedNative<Base>; 2]| {
            cells[0].value().copied().zip(cells[1].value().copied())
        };
        let (a_xy, t_xy) = (xy(a), xy(t));
        for (k, (a, t)) in a.iter().zip(t).enumerate() {
            a.copy_advice(|| "a", region, col(ACC_X + k), 0)?;
            t.copy_advice(|| "t", region, col(T_X + k), 0)?;
        }
        let sum = a_xy.zip(t_xy).map(|(a, t)| edwards_add(a, t));
        let doubled = sum.map(|s| edwards_add(s, s));
        let d = <JubjubExtended as EdwardsCurve>::D;
        let dpi = a_xy.zip(t_xy).map(|(a, t)| d * a.0 * a.1 * t.0 * t.1);
        region.assign_advice(|| "dpi", col(DPI), 0, || dpi)?;
        let dss = sum.map(|s| d * s.0 * s.0 * s.1 * s.1);
        region.assign_advice(|| "dss", col(DSS), 0, || dss)?;
        region.assign_advice(|| "ax", col(ACC_X), 1, || doubled.map(|d| d.0))?;
        region.assign_advice(|| "ay", col(ACC_Y), 1, || doubled.map(|d| d.1))?;
        Ok([
            region.assign_advice(|| "sx", col(S_X), 0, || sum.map(|s| s.0))?,
            region.assign_advice(|| "sy", col(S_Y), 0, || sum.map(|s| s.1))?,
        ])
    }

    /// Lays out `rows` in `region` from offset 0, writing the tag into `tag_column` on the first
    /// row of each pair; returns the cells of the lanes' sums.
    pub fn assign(
        &self,
        region: &mut Region<'_, Base>,
        tag_column: Column<Fixed>,
        rows: &LadderRows<'_, LANES>,
    ) -> Result<LadderCells<LANES>, Error> {
        let col = |c: usize| self.columns[c];
        let start = forged(rows.forgeries, 0, |f| match f {
            LadderForgery::Start(points) => Some(*points),
            _ => None,
        });
        // The accumulators start as copies of O's cells (a forged start keeps the copies).
        for (k, cell) in rows.identity.iter().enumerate() {
            for row in 0..LANES {
                let value = match start {
                    Some(points) => Value::known([points[row].0, points[row].1][k]),
                    None => cell.value().copied(),
                };
                let a = region.assign_advice(|| "identity", col(ACC_X + k), row, || value)?;
                region.constrain_equal(a.cell(), cell.cell())?;
            }
        }
        let offset = self.reach.sum_offset::<LANES>();
        if offset == 1 {
            // The first row's sum cells, doubled into the second lane's start (a copy of O): O.
            // (Free but for that check: a forged start puts half the second lane's forged start
            // there, so that only the start's copies of O refuse it.)
            let s = start.map_or(IDENTITY, |points| halve(points[1]));
            let dss = <JubjubExtended as EdwardsCurve>::D * s.0 * s.0 * s.1 * s.1;
            region.assign_advice(|| "sx", col(S_X), 0, || Value::known(s.0))?;
            region.assign_advice(|| "sy", col(S_Y), 0, || Value::known(s.1))?;
            region.assign_advice(|| "dss", col(DSS), 0, || Value::known(dss))?;
        }
        let mut acc: [Value<Xy>; LANES] =
            std::array::from_fn(|k| Value::known(start.map_or(IDENTITY, |points| points[k])));
        let mut sums = None;
        let mut c_cells = vec![None; LADDER_BITS];
        for step in 0..LADDER_BITS {
            let bit = LADDER_BITS - 1 - step;
            let top = LANES * step;
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
                None => match rows.c_bits {
                    CBits::Copies(cells) => cells[bit].value().copied(),
                    CBits::Fresh(bits) => bits.map(|b| Base::from(u64::from(b[bit]))),
                },
            };
            let (c_column, c_row) = self.c_bit_cell(top);
            let c = region.assign_advice(|| "c bit", c_column, c_row, || c_bit)?;
            if let CBits::Copies(cells) = rows.c_bits {
                // A copy of c's canonical bit: what ties the ladder to the challenge.
                region.constrain_equal(c.cell(), cells[bit].cell())?;
            }
            let w = s
                .value()
                .zip(c.value())
                .map(|(s, c)| usize::from(*s == Base::ONE) + 2 * usize::from(*c == Base::ONE));
            let mut step_sums = Vec::with_capacity(LANES);
            for (k, acc) in acc.iter_mut().enumerate() {
                let row = top + k;
                if let Some(selector) = self.step {
                    selector.enable(region, row)?;
                }
                let t = match forged_points {
                    Some(points) => Value::known(points[k]),
                    None => w.zip(rows.tables).map(|(w, tables)| tables[k][w]),
                };
                let a = *acc;
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
                // The sum and its doubling's helper: on the row, or the row below (`NextRow`).
                let at = row + offset;
                let sx = region.assign_advice(|| "sx", col(S_X), at, || sum.map(|s| s.0))?;
                let sy = region.assign_advice(|| "sy", col(S_Y), at, || sum.map(|s| s.1))?;
                let dss = sum.map(|s| d * s.0 * s.0 * s.1 * s.1);
                region.assign_advice(|| "dss", col(DSS), at, || dss)?;
                let next = row + LANES;
                region.assign_advice(|| "ax", col(ACC_X), next, || doubled.map(|d| d.0))?;
                region.assign_advice(|| "ay", col(ACC_Y), next, || doubled.map(|d| d.1))?;
                *acc = doubled;
                step_sums.push([sx, sy]);
            }
            sums = Some(step_sums);
            c_cells[bit] = Some(c);
        }
        if let (Some(selector), 1) = (self.step, offset) {
            // The row after the last pair doubles the second lane's last sum (unused). Its
            // addition reads zeros (T = 0 gives the sum 0, whatever the accumulator: the first
            // lane's last doubling, unused), and the sum's cells on the row below are zero.
            let row = LANES * LADDER_BITS;
            selector.enable(region, row)?;
            for c in [T_X, T_Y, BIT, DPI] {
                region.assign_advice(|| "zero", col(c), row, || Value::known(Base::ZERO))?;
            }
            for c in [S_X, S_Y, DSS] {
                region.assign_advice(|| "zero", col(c), row + 1, || Value::known(Base::ZERO))?;
            }
        }
        Ok(LadderCells {
            sums: sums
                .expect("at least one step")
                .try_into()
                .unwrap_or_else(|_| unreachable!("one sum per lane")),
            c_bits: c_cells.into_iter().map(|c| c.expect("every bit")).collect(),
        })
    }
}
