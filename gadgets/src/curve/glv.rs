//! `s G + c P` on Grumpkin's endomorphism (GLV): 128 rows of thirteen cells, one addition of a
//! looked-up point per row, and Schnorr verification's ladder since it halves the Straus rows.
//!
//! Grumpkin has the endomorphism `phi(x, y) = (beta x, y) = [lambda] (x, y)` (`beta` a cube root
//! of unity in the base field, `lambda` one in the scalar field). Every scalar `k` splits as
//! `k = k1 + lambda k2 (mod q)` with `0 <= k1, k2 < 2^128` ([`split`]), so
//! `s G + c P = s1 G + s2 phi(G) + c1 P + c2 phi(P)`: four 128-bit scalars on one chain of 128
//! doublings.
//!
//! # The table
//! Per ladder, a 16-entry table `T[b1 + 2 b2 + 4 si] = K[si] + b1 P + b2 phi(P)` with
//! `K[si] = H + (si & 1) G + (si >> 1) phi(G)` (constants; `H` is [`offset_point`], whose
//! discrete logarithm nobody knows, so no entry is the identity for an honest key). `P + phi(P)`
//! is `-phi^2(P) = (beta^2 x, -y)` (as `1 + lambda + lambda^2 = 0`), so every `Q` of
//! `{P, phi(P), P + phi(P)}` is `(fx x, fy y)` with constants `fx, fy`, and each of the twelve
//! non-constant entries is one row:
//!
//! ```text
//! table row:  x y | xp yp | e | l | inv       fixed: rc0 = key, kx ky fx fy (rc1 .. rc4)
//!   e (l (fx xp - kx) - (fy yp - ky)) = 0,  e (x - (l^2 - kx - fx xp)) = 0,
//!   e (y - (l (kx - x) - ky)) = 0,          inv (fx xp - kx) = e
//! ```
//! `e` is the slot's enabled bit: a disabled slot's table is free (its ladder's result is not
//! used, and its `P` is [`disabled_key`], see below). The four constant entries are bound to
//! their constants by copy. A table row's key is `32 (j + 1) + idx` in `rc0` (`j` the
//! table's first row).
//!
//! # The ladder
//! ```text
//! row i:  xa ya | acc1 acc2 | prod | xt yt | l1 l2 | bc1 bc2 sidx     fixed: rc0 = 32 (j + 1) + 16
//!   (xt, yt) = T[bc1 + 2 bc2 + 4 sidx]      by a lookup: (rc0 - 16 + bc1 + 2 bc2 + 4 sidx, xt, yt)
//!                                           is some row's (rc0, c0, c1)
//!   R = A + T:  l1 (xt - xa) = yt - ya,   x3 := l1^2 - xa - xt
//!   A' = R + A: (l1 + l2) (xa - x3) = 2 ya, xa' = l2^2 - x3 - xa, ya' = l2 (xa - xa') - ya
//!   acc1' = 2 acc1 + bc1,  acc2' = 2 acc2 + bc2,  prod' = prod (xt - xa) (xa - x3)
//!   bc1, bc2 in {0, 1},  sidx in {0, 1, 2, 3}
//! ```
//! `A' = 2 A + T` (double-and-add as two additions). From `A = S` ([`ladder_start`]), after 128
//! rows (bits most significant first) `A = 2^128 S + (2^128 - 1) H + s G + c P` ([`glv_shift`]
//! plus the result), `acc1 = c1`, `acc2 = c2`, and in an enabled slot the last `prod` must be
//! invertible: every addition had distinct x, so every slope is determined and every sum is the
//! group's (a disabled slot's product is not checked). The lookup's input is zero on
//! every other row (a zero row is appended), so only ladder rows are constrained by it. The
//! table side is every row's `(rc0, c0, c1)`, with no selector (a selector would raise the
//! lookup's degree, or cost another fixed column): a ladder row's key is `32 (j + 1) + idx` with
//! `idx < 16`, which only ladder `j`'s table rows hold in `rc0`; ladder rows hold `32 (j + 1) + 16`,
//! other rows zero or a Rescue or Poseidon round constant, none of them a small integer (a test
//! checks). `sidx` is range-checked by the gate and enters the key apart from the bits of `c`, so
//! no digit of `c` can hide in `s`'s.
//!
//! # Disabled slots
//! The ladder gate holds on every ladder row, enabled or not, and at an addition with
//! `T = -A` its slope equation reads `0 = -2 ya`: no witness. Keys that do that are easy to
//! compute (`P = -S - K[si]` on the first row, and its images under `phi`), and a committee
//! may hold one (keys carry no proof of possession in the circuit). So a disabled slot's ladder
//! runs on `P = ` [`disabled_key`] (`select(enabled, P, D)`: two halo2-base selects on a
//! constant point): a hash to curve whose discrete logarithm to `S`, `H` and `G` nobody knows, so
//! that, whatever `s` and `c`, no row meets an equal x but with negligible probability. An
//! enabled slot's key verifies a signature, so its signer knows its discrete logarithm to `G`,
//! and the same holds.
//!
//! # The split of `c`
//! `s` enters only through `s G` and needs no check. `c` is a circuit-field element (a hash
//! output, below `r`) used as a scalar: the circuit checks the integer identity
//! `c + m q = c1 + lambda c2` (`m < 2^130` witnessed) modulo `r` (native arithmetic) and modulo
//! `2^136` (68-bit limbs with range-checked carries). Both sides are below `2^386 < r 2^136`, so
//! the identity holds over the integers and `c1 + lambda c2 = c (mod q)`. `c` is decomposed
//! canonically (`c = c0 + 2^68 c1' + 2^136 ch`, `ch < floor(r / 2^136)`) for the low limbs:
//! otherwise the limbs of `c + r` would pass. `c1` and `c2` are exact 128-bit integers (their
//! bits), their 68-bit halves read from the accumulators after 60 rows.

use std::sync::OnceLock;

use halo2_base::{
    gates::{GateInstructions, RangeChip, RangeInstructions},
    halo2_proofs::{
        halo2curves::{
            ff::{Field, PrimeField, WithSmallOrderMulGroup},
            group::{Curve, Group},
            CurveExt,
        },
        plonk::{Advice, Column, ConstraintSystem, Expression, Fixed, Selector},
        poly::Rotation,
    },
    utils::{bigint_to_fe, biguint_to_fe, fe_to_biguint},
    AssignedValue, Context,
    QuantumCell::Constant,
};
use num_bigint::{BigInt, BigUint};
use num_integer::Integer;
use num_traits::{One, Signed, Zero};

use super::{
    disabled_key, fr_modulus, grumpkin_order, offset_point, xy, AssignedPoint, Grumpkin,
    GrumpkinAffine, GrumpkinChip, GrumpkinScalar, ShiftedPoint,
};
use crate::{
    bank::{BankQuery, CustomRegion, RowGate, COLUMNS, FIXED_COLUMNS},
    Fr,
};

/// Bits of each half of a split scalar: rows of one ladder.
pub const HALF_BITS: usize = 128;
/// Entries of one ladder's table.
pub const TABLE_ENTRIES: usize = 16;
/// The name of the ladder's lookup (MockProver reports it).
pub const LOOKUP_NAME: &str = "glv ladder table";

/// The columns of a ladder row (for tests that act as a cheating prover).
pub mod ladder_column {
    /// The accumulator's x.
    pub const XA: usize = 0;
    /// The accumulator's y.
    pub const YA: usize = 1;
    /// The bits of `c1` so far.
    pub const ACC1: usize = 2;
    /// The bits of `c2` so far.
    pub const ACC2: usize = 3;
    /// The product of x differences so far.
    pub const PROD: usize = 4;
    /// The looked-up point's x.
    pub const XT: usize = 5;
    /// The looked-up point's y.
    pub const YT: usize = 6;
    /// The slope of `A + T`.
    pub const L1: usize = 7;
    /// The slope of `(A + T) + A`.
    pub const L2: usize = 8;
    /// The row's bit of `c1`.
    pub const BC1: usize = 9;
    /// The row's bit of `c2`.
    pub const BC2: usize = 10;
    /// The row's bits of `s1` and `s2`, `0..=3`.
    pub const SIDX: usize = 11;
}
use ladder_column::*;
const LADDER_USED: usize = (1 << 12) - 1;
const OUTPUT_USED: usize = (1 << 5) - 1;

// Table rows.
const TX: usize = 0;
const TY: usize = 1;
const TXP: usize = 2;
const TYP: usize = 3;
const TE: usize = 4;
const TL: usize = 5;
const TINV: usize = 6;
const ADD_USED: usize = (1 << 7) - 1;
const CONSTANT_USED: usize = (1 << 2) - 1;

// Round-constant columns a GLV row uses for its fixed values.
const RC_KEY: usize = 0;
const RC_KX: usize = 1;
const RC_KY: usize = 2;
const RC_FX: usize = 3;
const RC_FY: usize = 4;

/// Limb width of the split check.
const LIMB_BITS: usize = 68;
/// The accumulators after this many rows hold the top bits of `c1`, `c2` above their low limb.
const HI_ROWS: usize = HALF_BITS - LIMB_BITS;

/// `beta`: `phi(x, y) = (beta x, y)`.
pub fn beta() -> Fr {
    Fr::ZETA
}

/// `lambda`: `phi(P) = [lambda] P`.
pub fn lambda() -> GrumpkinScalar {
    GrumpkinScalar::ZETA
}

/// The endomorphism `phi(x, y) = (beta x, y)`.
pub fn endomorphism(p: &GrumpkinAffine) -> GrumpkinAffine {
    let (x, y) = xy(p);
    GrumpkinAffine { x: x * beta(), y }
}

/// A scalar `k = lo + lambda hi (mod q)` with both halves below `2^128`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GlvSplit {
    /// The half multiplying the point.
    pub lo: u128,
    /// The half multiplying `phi` of the point.
    pub hi: u128,
}

impl GlvSplit {
    /// `lo + lambda hi`.
    pub fn scalar(&self) -> GrumpkinScalar {
        GrumpkinScalar::from_u128(self.lo) + lambda() * GrumpkinScalar::from_u128(self.hi)
    }

    /// Bit `i` (from the least significant) of each half.
    fn bits(&self, i: usize) -> (bool, bool) {
        ((self.lo >> i) & 1 == 1, (self.hi >> i) & 1 == 1)
    }
}

fn scalar_to_biguint(k: &GrumpkinScalar) -> BigUint {
    BigUint::from_bytes_le(k.to_repr().as_ref())
}

/// The short basis `(a1, b1), (a2, b2)` of the lattice `{(a, b) : a + lambda b = 0 (mod q)}`
/// (Guide to Elliptic Curve Cryptography, algorithm 3.74: the extended Euclidean algorithm on
/// `(q, lambda)` stopped around `sqrt(q)`).
fn lattice_basis() -> &'static [[BigInt; 2]; 2] {
    static BASIS: OnceLock<[[BigInt; 2]; 2]> = OnceLock::new();
    BASIS.get_or_init(|| {
        let n = BigInt::from(grumpkin_order());
        let l = BigInt::from(scalar_to_biguint(&lambda()));
        let sqrt_n = n.sqrt();
        // Remainders r_i = s_i n + t_i l.
        let (mut r0, mut r1) = (n.clone(), l);
        let (mut t0, mut t1) = (BigInt::zero(), BigInt::one());
        while r1 >= sqrt_n {
            let q = &r0 / &r1;
            let r2 = &r0 - &q * &r1;
            let t2 = &t0 - &q * &t1;
            (r0, r1, t0, t1) = (r1, r2, t1, t2);
        }
        // r0 >= sqrt(n) > r1: v1 = (r1, -t1); v2 the shorter of (r0, -t0) and the next.
        let q = &r0 / &r1;
        let (r2, t2) = (&r0 - &q * &r1, &t0 - &q * &t1);
        let v1 = [r1, -t1];
        let norm = |v: &[BigInt; 2]| &v[0] * &v[0] + &v[1] * &v[1];
        let (va, vb) = ([r0, -t0], [r2, -t2]);
        let v2 = if norm(&va) <= norm(&vb) { va } else { vb };
        [v1, v2]
    })
}

/// `round(a / b)` for `b > 0`.
fn round_div(a: &BigInt, b: &BigInt) -> BigInt {
    let two = BigInt::from(2);
    (a * &two + b).div_floor(&(b * &two))
}

/// Splits `k` into halves below `2^128` (`k = lo + lambda hi mod q`): Babai rounding on the
/// short basis gives signed halves below `2^127` in absolute value, which are shifted by the
/// lattice-free offset `2^127 (1 + lambda)`. Returns `None` only if a half fell outside its
/// bound, which the lattice's basis rules out (and a test checks on random and extreme scalars).
pub fn split(k: &GrumpkinScalar) -> Option<GlvSplit> {
    let half = 1u128 << 127;
    let offset = GrumpkinScalar::from_u128(half) * (GrumpkinScalar::ONE + lambda());
    let shifted = BigInt::from(scalar_to_biguint(&(*k - offset)));
    let n = BigInt::from(grumpkin_order());
    let [[a1, b1], [a2, b2]] = lattice_basis();
    let c1 = round_div(&(b2 * &shifted), &n);
    let c2 = round_div(&(-(b1 * &shifted)), &n);
    let k1 = &shifted - &c1 * a1 - &c2 * a2;
    let k2 = -(&c1 * b1) - &c2 * b2;
    let bound = BigInt::from(half);
    let shift = |v: &BigInt| -> Option<u128> {
        if v.abs() >= bound {
            return None;
        }
        u128::try_from(v + &bound).ok()
    };
    let split = GlvSplit {
        lo: shift(&k1)?,
        hi: shift(&k2)?,
    };
    (split.scalar() == *k).then_some(split)
}

/// `K[si] = H + (si & 1) G + (si >> 1) phi(G)`, the constant part of the table.
pub fn table_constants() -> &'static [GrumpkinAffine; 4] {
    static CONSTANTS: OnceLock<[GrumpkinAffine; 4]> = OnceLock::new();
    CONSTANTS.get_or_init(|| {
        let g = GrumpkinAffine::generator();
        let phi_g = endomorphism(&g);
        let h = Grumpkin::from(offset_point());
        std::array::from_fn(|si| {
            let mut k = h;
            if si & 1 == 1 {
                k += Grumpkin::from(g);
            }
            if si >> 1 == 1 {
                k += Grumpkin::from(phi_g);
            }
            k.to_affine()
        })
    })
}

/// `(fx, fy)` with `Q = (fx x, fy y)` for `b = b1 + 2 b2` of `{P, phi(P), P + phi(P)}`.
fn q_factors(b: usize) -> (Fr, Fr) {
    match b {
        1 => (Fr::ONE, Fr::ONE),
        2 => (beta(), Fr::ONE),
        3 => (beta().square(), -Fr::ONE),
        _ => unreachable!("b is 1, 2 or 3 on an addition row"),
    }
}

/// The table of `p` natively: `T[b1 + 2 b2 + 4 si] = K[si] + b1 p + b2 phi(p)`.
pub fn table_entries(p: &GrumpkinAffine) -> [Grumpkin; TABLE_ENTRIES] {
    let phi_p = endomorphism(p);
    std::array::from_fn(|idx| {
        let mut t = Grumpkin::from(table_constants()[idx >> 2]);
        if idx & 1 == 1 {
            t += Grumpkin::from(*p);
        }
        if idx & 2 == 2 {
            t += Grumpkin::from(phi_p);
        }
        t
    })
}

/// Where every GLV ladder starts: a hash to curve of its own tag (not `H`, which the first row
/// adds when all four top bits are zero).
pub fn ladder_start() -> GrumpkinAffine {
    static START: OnceLock<GrumpkinAffine> = OnceLock::new();
    *START.get_or_init(|| Grumpkin::hash_to_curve("tms-grumpkin-glv-ladder")(b"start").to_affine())
}

/// `2^128 S + (2^128 - 1) H` (`S` = [`ladder_start`]): what a GLV ladder's result is shifted by.
pub fn glv_shift() -> GrumpkinAffine {
    static SHIFT: OnceLock<GrumpkinAffine> = OnceLock::new();
    *SHIFT.get_or_init(|| {
        let h = Grumpkin::from(offset_point());
        let mut a = Grumpkin::from(ladder_start());
        for _ in 0..HALF_BITS {
            a = a.double() + h;
        }
        a.to_affine()
    })
}

fn inv0(x: Fr) -> Fr {
    x.invert().unwrap_or(Fr::ZERO)
}

/// One table entry `K[idx >> 2] + Q` (`Q` the multiple of `P` that `idx & 3` picks) and what
/// its row holds beside it: the slope and the inverse of the x difference.
struct TableEntry {
    x: Fr,
    y: Fr,
    l: Fr,
    dx_inv: Fr,
}

/// Entry `idx` of the table of `p = (xp, yp)` for an entry with a non-constant part
/// (`idx & 3 != 0`).
fn table_entry(idx: usize, (xp, yp): (Fr, Fr)) -> TableEntry {
    let (kx, ky) = xy(&table_constants()[idx >> 2]);
    let (fx, fy) = q_factors(idx & 3);
    let (xq, yq) = (fx * xp, fy * yp);
    let l = (yq - ky) * inv0(xq - kx);
    // A colliding key (only possible in a disabled slot) gets any on-curve entry.
    let (x, y) = if xq == kx {
        (kx, ky)
    } else {
        let x = l.square() - kx - xq;
        (x, l * (kx - x) - ky)
    };
    TableEntry {
        x,
        y,
        l,
        dx_inv: inv0(xq - kx),
    }
}

/// The 16 entries of the table of `p`, as the table rows hold them.
fn table_row_entries(p: (Fr, Fr)) -> [(Fr, Fr); TABLE_ENTRIES] {
    std::array::from_fn(|idx| {
        if idx & 3 == 0 {
            xy(&table_constants()[idx >> 2])
        } else {
            let entry = table_entry(idx, p);
            (entry.x, entry.y)
        }
    })
}

/// The 128 ladder rows and the output row on `digits` and the table `entries`.
fn ladder_rows(digits: &GlvDigits, entries: &[(Fr, Fr); TABLE_ENTRIES]) -> Vec<[Fr; COLUMNS]> {
    let (mut xa, mut ya) = xy(&ladder_start());
    let (mut acc1, mut acc2, mut prod) = (Fr::ZERO, Fr::ZERO, Fr::ONE);
    let bit = |b: bool| Fr::from(b as u64);
    let mut rows = Vec::with_capacity(HALF_BITS + 1);
    for i in (0..HALF_BITS).rev() {
        let (bc1, bc2) = digits.c.bits(i);
        let (bs1, bs2) = digits.s.bits(i);
        let sidx = bs1 as usize + 2 * bs2 as usize;
        let (xt, yt) = entries[bc1 as usize + 2 * bc2 as usize + 4 * sidx];
        let l1 = (yt - ya) * inv0(xt - xa);
        let x3 = l1.square() - xa - xt;
        let l2 = ya.double() * inv0(xa - x3) - l1;
        let mut row = [Fr::ZERO; COLUMNS];
        (row[XA], row[YA], row[ACC1], row[ACC2], row[PROD]) = (xa, ya, acc1, acc2, prod);
        (row[XT], row[YT], row[L1], row[L2]) = (xt, yt, l1, l2);
        (row[BC1], row[BC2], row[SIDX]) = (bit(bc1), bit(bc2), Fr::from(sidx as u64));
        rows.push(row);
        prod *= (xt - xa) * (xa - x3);
        let x4 = l2.square() - x3 - xa;
        (xa, ya) = (x4, l2 * (xa - x4) - ya);
        acc1 = acc1.double() + bit(bc1);
        acc2 = acc2.double() + bit(bc2);
    }
    let mut last = [Fr::ZERO; COLUMNS];
    (last[XA], last[YA], last[ACC1], last[ACC2], last[PROD]) = (xa, ya, acc1, acc2, prod);
    rows.push(last);
    rows
}

/// A ladder's digits and rows computed ahead of the layout ([`GlvChip::prepare`]): the
/// layout's one thread spends most of a ladder on its 256 inversions, which a circuit can do
/// for all its ladders on many threads first.
#[derive(Clone, Debug)]
pub struct PreparedLadder {
    digits: GlvDigits,
    entries: [(Fr, Fr); TABLE_ENTRIES],
    rows: Vec<[Fr; COLUMNS]>,
}

/// The digits a ladder runs on: the halves of `s` and `c` and the quotient
/// `m = (c1 + lambda c2 - c) / q`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GlvDigits {
    /// The halves of `s`.
    pub s: GlvSplit,
    /// The halves of `c`.
    pub c: GlvSplit,
    /// The quotient of the split check.
    pub m: BigUint,
    /// The integer the prover claims `c` is (honestly its canonical value, below `r`).
    pub c_integer: BigUint,
}

impl GlvDigits {
    /// The honest digits of `s` and of the circuit-field element `c`.
    pub fn new(s: &GrumpkinScalar, c: Fr) -> Self {
        let c_scalar = GrumpkinScalar::from_repr(c.to_repr()).expect("r < q");
        let s = split(s).expect("every scalar splits (lattice bound)");
        let c_split = split(&c_scalar).expect("every scalar splits (lattice bound)");
        let lhs = BigUint::from(c_split.lo) + scalar_to_biguint(&lambda()) * c_split.hi;
        let c_integer = fe_to_biguint(&c);
        let m = (lhs - &c_integer) / grumpkin_order();
        Self {
            s,
            c: c_split,
            m,
            c_integer,
        }
    }
}

/// Where one GLV ladder sits in the custom region.
#[derive(Clone, Copy, Debug)]
pub struct GlvPosition {
    /// The first table row.
    pub table_first_row: usize,
    /// The first ladder row.
    pub ladder_first_row: usize,
}

impl GlvPosition {
    /// The table row of entry `idx`.
    pub fn table_row(&self, idx: usize) -> usize {
        self.table_first_row + idx
    }

    /// The row of bit `i` (most significant first), or the output row for `i = 128`.
    pub fn ladder_row(&self, i: usize) -> usize {
        self.ladder_first_row + i
    }
}

/// The GLV gates' selectors.
#[derive(Clone, Copy, Debug)]
pub(crate) struct GlvSelectors {
    pub(crate) ladder: Selector,
    pub(crate) add: Selector,
}

/// Creates the ladder gate, the table-entry gate and the lookup between them.
pub(crate) fn configure(
    meta: &mut ConstraintSystem<Fr>,
    advice: &[Column<Advice>; COLUMNS],
    fixed: &[Column<Fixed>; FIXED_COLUMNS],
) -> GlvSelectors {
    let ladder = meta.complex_selector();
    let add = meta.selector();
    let k = |v: u64| Expression::Constant(Fr::from(v));
    meta.create_gate("grumpkin glv ladder 2A + T", |m| {
        let q = m.query_selector(ladder);
        let mut b = BankQuery { meta: m, advice };
        let (xa, ya, acc1, acc2, prod) =
            (b.cur(XA), b.cur(YA), b.cur(ACC1), b.cur(ACC2), b.cur(PROD));
        let (xt, yt, l1, l2) = (b.cur(XT), b.cur(YT), b.cur(L1), b.cur(L2));
        let (bc1, bc2, sidx) = (b.cur(BC1), b.cur(BC2), b.cur(SIDX));
        let (xa_n, ya_n) = (b.next(XA), b.next(YA));
        let (acc1_n, acc2_n, prod_n) = (b.next(ACC1), b.next(ACC2), b.next(PROD));
        let x3 = l1.clone() * l1.clone() - xa.clone() - xt.clone();
        let constraints = vec![
            bc1.clone() * (bc1.clone() - k(1)),
            bc2.clone() * (bc2.clone() - k(1)),
            sidx.clone() * (sidx.clone() - k(1)) * (sidx.clone() - k(2)) * (sidx - k(3)),
            l1.clone() * (xt.clone() - xa.clone()) - (yt - ya.clone()),
            (l1 + l2.clone()) * (xa.clone() - x3.clone()) - k(2) * ya.clone(),
            xa_n.clone() - (l2.clone() * l2.clone() - x3.clone() - xa.clone()),
            ya_n - (l2 * (xa.clone() - xa_n) - ya),
            acc1_n - (k(2) * acc1 + bc1),
            acc2_n - (k(2) * acc2 + bc2),
            prod_n - prod * (xt - xa.clone()) * (xa - x3),
        ];
        constraints
            .into_iter()
            .map(|e| q.clone() * e)
            .collect::<Vec<_>>()
    });
    meta.create_gate("grumpkin glv table entry K + Q", |m| {
        let q = m.query_selector(add);
        let [kx, ky, fx, fy] =
            [RC_KX, RC_KY, RC_FX, RC_FY].map(|i| m.query_fixed(fixed[i], Rotation::cur()));
        let mut b = BankQuery { meta: m, advice };
        let (x, y, xp, yp) = (b.cur(TX), b.cur(TY), b.cur(TXP), b.cur(TYP));
        let (e, l, inv) = (b.cur(TE), b.cur(TL), b.cur(TINV));
        let (xq, yq) = (fx * xp, fy * yp);
        let constraints = vec![
            e.clone() * (l.clone() * (xq.clone() - kx.clone()) - (yq - ky.clone())),
            e.clone() * (x.clone() - (l.clone() * l.clone() - kx.clone() - xq.clone())),
            e.clone() * (y - (l * (kx.clone() - x) - ky)),
            inv * (xq - kx) - e,
        ];
        constraints
            .into_iter()
            .map(|c| q.clone() * c)
            .collect::<Vec<_>>()
    });
    meta.lookup_any(LOOKUP_NAME, |m| {
        let q = m.query_selector(ladder);
        let key = m.query_fixed(fixed[RC_KEY], Rotation::cur());
        let mut b = BankQuery { meta: m, advice };
        let idx = key.clone() - k(16) + b.cur(BC1) + k(2) * b.cur(BC2) + k(4) * b.cur(SIDX);
        vec![
            (q.clone() * idx, key),
            (q.clone() * b.cur(XT), b.cur(TX)),
            (q * b.cur(YT), b.cur(TY)),
        ]
    });
    GlvSelectors { ladder, add }
}

/// The fixed values of a GLV row: `(round-constant column, value)` pairs.
pub(crate) fn row_fixed(gate: RowGate) -> Vec<(usize, Fr)> {
    match gate {
        RowGate::GlvLadder { key } => vec![(RC_KEY, Fr::from(key + 16))],
        RowGate::GlvTable { key, entry } => {
            let mut fixed = vec![(RC_KEY, Fr::from(key + entry as u64))];
            let b = entry as usize & 3;
            if b != 0 {
                let (kx, ky) = xy(&table_constants()[entry as usize >> 2]);
                let (fx, fy) = q_factors(b);
                fixed.extend([(RC_KX, kx), (RC_KY, ky), (RC_FX, fx), (RC_FY, fy)]);
            }
            fixed
        }
        _ => vec![],
    }
}

/// The GLV ladder on the custom region, with halo2-base's range chip for the split check.
#[derive(Clone, Debug)]
pub struct GlvChip<'r> {
    range: &'r RangeChip<Fr>,
    region: CustomRegion,
}

impl<'r> GlvChip<'r> {
    /// A chip appending to `region`.
    pub fn new(range: &'r RangeChip<Fr>, region: CustomRegion) -> Self {
        Self { range, region }
    }

    /// Constrains and returns `s G + c P +` [`glv_shift`] when `enabled` is one; when it is
    /// zero the ladder runs on [`disabled_key`] instead of `p` and its result is unconstrained
    /// (the caller ignores it). `c` is read canonically (below r), `s` is a witness of the prover
    /// (only `s G` matters).
    ///
    /// # Assumptions
    /// - `p` is on the curve (loaded by [`super::GrumpkinChip::load_point`]).
    /// - `enabled` is constrained boolean by the caller.
    /// - When `enabled` is one, somebody knows `p`'s discrete logarithm to `G` (it verifies a
    ///   signature): otherwise `p` may meet the ladder at an equal x and have no proof.
    pub fn mul_add(
        &self,
        ctx: &mut Context<Fr>,
        s: &GrumpkinScalar,
        c: AssignedValue<Fr>,
        p: &AssignedPoint,
        enabled: AssignedValue<Fr>,
    ) -> (ShiftedPoint, GlvPosition) {
        let digits = GlvDigits::new(s, *c.value());
        self.mul_add_with_digits(ctx, &digits, c, p, enabled)
    }

    /// [`Self::mul_add`] with the digits given by the caller instead of computed from `s` and
    /// `c`. Only a cheating prover passes digits other than the honest ones: negative tests use
    /// it.
    pub fn mul_add_with_digits(
        &self,
        ctx: &mut Context<Fr>,
        digits: &GlvDigits,
        c: AssignedValue<Fr>,
        p: &AssignedPoint,
        enabled: AssignedValue<Fr>,
    ) -> (ShiftedPoint, GlvPosition) {
        self.lay_out(ctx, digits, None, c, p, enabled)
    }

    /// The digits and rows of the ladder [`Self::mul_add`] lays out for `s`, `c` and the point
    /// `p` when `enabled` (else [`disabled_key`]), computed without a layout: a circuit prepares
    /// all its ladders on many threads, then lays each out with [`Self::mul_add_prepared`].
    pub fn prepare(s: &GrumpkinScalar, c: Fr, p: &GrumpkinAffine, enabled: bool) -> PreparedLadder {
        let digits = GlvDigits::new(s, c);
        let point = if enabled { *p } else { disabled_key() };
        let entries = table_row_entries(xy(&point));
        let rows = ladder_rows(&digits, &entries);
        PreparedLadder {
            digits,
            entries,
            rows,
        }
    }

    /// [`Self::mul_add`] copying the rows of `prepared`, made by [`Self::prepare`] from the
    /// values of the same `s`, `c`, `p` and `enabled`: the same rows, so the same layout. A
    /// ladder prepared for another table is computed afresh (its digits are still
    /// `prepared`'s: they must be those of this `s` and `c`).
    pub fn mul_add_prepared(
        &self,
        ctx: &mut Context<Fr>,
        prepared: &PreparedLadder,
        c: AssignedValue<Fr>,
        p: &AssignedPoint,
        enabled: AssignedValue<Fr>,
    ) -> (ShiftedPoint, GlvPosition) {
        self.lay_out(ctx, &prepared.digits, Some(prepared), c, p, enabled)
    }

    fn lay_out(
        &self,
        ctx: &mut Context<Fr>,
        digits: &GlvDigits,
        prepared: Option<&PreparedLadder>,
        c: AssignedValue<Fr>,
        p: &AssignedPoint,
        enabled: AssignedValue<Fr>,
    ) -> (ShiftedPoint, GlvPosition) {
        // A disabled slot's key is anyone's choice, and the ladder gate holds on every row
        // whatever the enabled bit: a key with T = -A on some row would leave no witness.
        let ecc = GrumpkinChip::new(self.range);
        let fallback = ecc.load_constant(ctx, disabled_key());
        let p = &ecc.select(ctx, p, &fallback, enabled);
        let (table_first_row, entries) = self.load_table(ctx, p, enabled);
        let key = 32 * (table_first_row as u64 + 1);
        let ladder_first_row = self.region.num_rows();
        let rows = match prepared {
            Some(prepared) if prepared.entries == entries => prepared.rows.clone(),
            _ => ladder_rows(digits, &entries),
        };
        self.push_ladder(key, rows);
        let pos = GlvPosition {
            table_first_row,
            ladder_first_row,
        };
        let region = &self.region;
        let (hx, hy) = xy(&ladder_start());
        let first = pos.ladder_row(0);
        region.bind_constant(ctx, hx, first, XA);
        region.bind_constant(ctx, hy, first, YA);
        region.bind_constant(ctx, Fr::ZERO, first, ACC1);
        region.bind_constant(ctx, Fr::ZERO, first, ACC2);
        region.bind_constant(ctx, Fr::ONE, first, PROD);

        let out = pos.ladder_row(HALF_BITS);
        let halves = [ACC1, ACC2].map(|col| {
            [
                region.output(ctx, pos.ladder_row(HI_ROWS), col),
                region.output(ctx, out, col),
            ]
        });
        self.constrain_split(ctx, c, &halves, digits);

        // An enabled slot's incomplete additions all had distinct x: prod * inverse = enabled.
        // A disabled slot's result is unused: its product is not checked.
        let prod = region.output(ctx, out, PROD);
        let inverse = ctx.load_witness(*enabled.value() * inv0(*prod.value()));
        let product = self.range.gate().mul(ctx, prod, inverse);
        ctx.constrain_equal(&product, &enabled);

        let result = AssignedPoint {
            x: region.output(ctx, out, XA),
            y: region.output(ctx, out, YA),
        };
        (ShiftedPoint(result), pos)
    }

    /// The 16 table rows of `p` and a zero row; returns the first row and the entries' values.
    fn load_table(
        &self,
        ctx: &mut Context<Fr>,
        p: &AssignedPoint,
        enabled: AssignedValue<Fr>,
    ) -> (usize, [(Fr, Fr); TABLE_ENTRIES]) {
        let region = &self.region;
        let first = region.num_rows();
        let key = 32 * (first as u64 + 1);
        let (xp, yp) = p.coordinates();
        let e = *enabled.value();
        let mut entries = [(Fr::ZERO, Fr::ZERO); TABLE_ENTRIES];
        for (idx, entry) in entries.iter_mut().enumerate() {
            let (kx, ky) = xy(&table_constants()[idx >> 2]);
            let gate = RowGate::GlvTable {
                key,
                entry: idx as u8,
            };
            let mut row = [Fr::ZERO; COLUMNS];
            if idx & 3 == 0 {
                (row[TX], row[TY]) = (kx, ky);
                *entry = (kx, ky);
                let at = region.push_row(gate, row, CONSTANT_USED);
                region.bind_constant(ctx, kx, at, TX);
                region.bind_constant(ctx, ky, at, TY);
                continue;
            }
            let TableEntry { x, y, l, dx_inv } = table_entry(idx, (xp, yp));
            *entry = (x, y);
            (row[TX], row[TY], row[TXP], row[TYP]) = (x, y, xp, yp);
            (row[TE], row[TL], row[TINV]) = (e, l, e * dx_inv);
            let at = region.push_row(gate, row, ADD_USED);
            region.bind(ctx, &p.x, at, TXP);
            region.bind(ctx, &p.y, at, TYP);
            region.bind(ctx, &enabled, at, TE);
        }
        // The lookup's input on every row but a ladder's is (0, 0, 0): it must be a table row.
        region.push_row(RowGate::None, [Fr::ZERO; COLUMNS], CONSTANT_USED);
        (first, entries)
    }

    /// Pushes the 128 ladder rows and the output row.
    fn push_ladder(&self, key: u64, rows: Vec<[Fr; COLUMNS]>) {
        let last = rows.len() - 1;
        for (i, row) in rows.into_iter().enumerate() {
            if i < last {
                self.region
                    .push_row(RowGate::GlvLadder { key }, row, LADDER_USED);
            } else {
                self.region.push_row(RowGate::None, row, OUTPUT_USED);
            }
        }
    }

    /// Constrains `c + m q = c1 + lambda c2` over the integers, `c` canonical; `halves[i]` is
    /// `[top 60 bits, all 128 bits]` of `c1` (`i = 0`) and `c2`.
    fn constrain_split(
        &self,
        ctx: &mut Context<Fr>,
        c: AssignedValue<Fr>,
        halves: &[[AssignedValue<Fr>; 2]; 2],
        digits: &GlvDigits,
    ) {
        let m = &digits.m;
        let range = self.range;
        let gate = range.gate();
        let limb_mask = (BigUint::one() << LIMB_BITS) - 1u32;
        let limb = |x: &BigUint, i: usize| -> BigUint { (x >> (LIMB_BITS * i)) & &limb_mask };
        let r = fr_modulus();
        let fe = |x: &BigUint| -> Fr { biguint_to_fe(&(x % &r)) };
        let two_68 = BigUint::one() << LIMB_BITS;
        let q = grumpkin_order();
        let z = scalar_to_biguint(&lambda());
        let (q0, q1, z0, z1) = (limb(&q, 0), limb(&q, 1), limb(&z, 0), limb(&z, 1));

        // c = c0 + 2^68 c1' + 2^136 ch with ch < floor(r / 2^136): the integer below r.
        let c_int = &digits.c_integer;
        let top_bits = 254 - 2 * LIMB_BITS;
        let [c0, c1p, ch] = [limb(c_int, 0), limb(c_int, 1), c_int >> (2 * LIMB_BITS)]
            .map(|v| ctx.load_witness(fe(&v)));
        range.range_check(ctx, c0, LIMB_BITS);
        range.range_check(ctx, c1p, LIMB_BITS);
        range.range_check(ctx, ch, top_bits);
        let r_top = fe(&(fr_modulus() >> (2 * LIMB_BITS)));
        range.check_less_than(ctx, ch, Constant(r_top), top_bits);
        let recomposed = gate.inner_product(
            ctx,
            [c0, c1p, ch],
            [fe(&BigUint::one()), fe(&two_68), fe(&(&two_68 * &two_68))].map(Constant),
        );
        ctx.constrain_equal(&recomposed, &c);

        // m = m0 + 2^68 m1 < 2^130.
        let [m0, m1] = [limb(m, 0), m >> LIMB_BITS].map(|v| ctx.load_witness(fe(&v)));
        range.range_check(ctx, m0, LIMB_BITS);
        range.range_check(ctx, m1, 130 - LIMB_BITS);

        // The low limbs of c1 and c2 (exact: their bits are).
        let minus_two_68 = -fe(&two_68);
        let [[c1_hi, c1], [c2_hi, c2]] = *halves;
        let c1_lo = gate.mul_add(ctx, c1_hi, Constant(minus_two_68), c1);
        let c2_lo = gate.mul_add(ctx, c2_hi, Constant(minus_two_68), c2);

        // Modulo r.
        let mod_r = gate.inner_product(
            ctx,
            [c, m0, m1, c1, c2],
            [Fr::ONE, fe(&q), fe(&(&q << LIMB_BITS)), -Fr::ONE, -fe(&z)].map(Constant),
        );
        gate.assert_is_const(ctx, &mod_r, &Fr::ZERO);

        // Modulo 2^136: limb 0, then limb 1 with the carry, each carry offset to be positive.
        let value = |a: &AssignedValue<Fr>| BigInt::from(fe_to_biguint(a.value()));
        let signed = |x: &BigUint| BigInt::from(x.clone());
        let two_68_i = signed(&two_68);
        let l0 =
            value(&c0) + value(&m0) * signed(&q0) - value(&c1_lo) - signed(&z0) * value(&c2_lo);
        let carry0 = l0.div_floor(&two_68_i);
        let offset0 = BigInt::one() << (LIMB_BITS + 1);
        let u0 = ctx.load_witness(bigint_to_fe(&(&carry0 + &offset0)));
        range.range_check(ctx, u0, LIMB_BITS + 2);
        let limb0 = gate.inner_product(
            ctx,
            [c0, m0, c1_lo, c2_lo, u0],
            [Fr::ONE, fe(&q0), -Fr::ONE, -fe(&z0), minus_two_68].map(Constant),
        );
        // c0 + m0 q0 - c1_lo - z0 c2_lo - 2^68 u0 = -2^68 2^69.
        gate.assert_is_const(ctx, &limb0, &-bigint_to_fe::<Fr>(&(&offset0 * &two_68_i)));

        let l1 = value(&c1p) + value(&m0) * signed(&q1) + value(&m1) * signed(&q0)
            - value(&c1_hi)
            - signed(&z0) * value(&c2_hi)
            - signed(&z1) * value(&c2_lo)
            + &carry0;
        let carry1 = l1.div_floor(&two_68_i);
        let offset1 = BigInt::one() << (LIMB_BITS + 2);
        let u1 = ctx.load_witness(bigint_to_fe(&(&carry1 + &offset1)));
        range.range_check(ctx, u1, LIMB_BITS + 3);
        let limb1 = gate.inner_product(
            ctx,
            [c1p, m0, m1, c1_hi, c2_hi, c2_lo, u0, u1],
            [
                Fr::ONE,
                fe(&q1),
                fe(&q0),
                -Fr::ONE,
                -fe(&z0),
                -fe(&z1),
                Fr::ONE,
                minus_two_68,
            ]
            .map(Constant),
        );
        // ... + (u0 - 2^69) - 2^68 (u1 - 2^70) = 0.
        let expected = bigint_to_fe::<Fr>(&(&offset0 - &offset1 * &two_68_i));
        gate.assert_is_const(ctx, &limb1, &expected);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hash::{poseidon_gate, rescue::RescueField, rescue_gate};

    /// The lookup's table side is every row's `(rc0, c0, c1)`: no row but a GLV table row may
    /// hold a key-sized integer in `rc0`.
    #[test]
    fn round_constants_in_rc0_are_never_small_integers() {
        let small = |c: &Fr| fe_to_biguint(c).bits() <= 64 && *c != Fr::ZERO;
        for round in 0..Fr::rescue_params().rounds {
            let c = &rescue_gate::round_constants(round)[RC_KEY];
            assert!(!small(c), "rescue round {round}");
        }
        for row in 0..poseidon_gate::PERMUTATION_ROWS - 1 {
            let (_, constants) = poseidon_gate::row_constants(row);
            if let Some(c) = constants.get(RC_KEY) {
                assert!(!small(c), "poseidon row {row}");
            }
        }
    }
}
