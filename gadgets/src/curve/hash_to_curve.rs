//! Hash to Grumpkin, natively and in the circuit: RFC 9380's `hash_to_curve` with Poseidon as the
//! random oracle to the field and the Shallue-van de Woestijne map (RFC 9380 §6.6.1).
//!
//! Grumpkin's coordinates live in the circuit field, so the map is native field arithmetic: the
//! square roots are witnesses, and which candidate the map takes and the sign of `y` are
//! constrained, so the circuit computes exactly the native [`hash_to_grumpkin`].
//!
//! # Ciphersuite (`GRUMPKIN_POSEIDON_SVDW_RO`, our name: not a suite registered by the RFC)
//! | step | here |
//! |---|---|
//! | curve | Grumpkin `y^2 = x^3 + A x + B`, `A = 0`, `B = -17` over BN254 Fr; prime order, cofactor 1 |
//! | `hash_to_field` | `u_i = Poseidon_leaf(tag, msg, i)` for `i = 0, 1` ([`hash_to_field`]) |
//! | `map_to_curve` | SvdW ([`map_to_curve_svdw`]): `Z = 1` by the RFC's `find_z_svdw` (Appendix H.1), `c1 = g(Z) = -16`, `c2 = -Z/2`, `c3 = sqrt(-g(Z) (3 Z^2 + 4 A))` with `sgn0(c3) = 0`, `c4 = -4 g(Z) / (3 Z^2 + 4 A) = 64/3` ([`svdw_constants`]) |
//! | `clear_cofactor` | none (`h = 1`) |
//! | result | `map(u_0) + map(u_1)`; refused when the two points share their x-coordinate (below) |
//!
//! `sgn0` is the parity of the canonical integer (RFC 9380 §4.1, [`crate::field::sgn0_native`]).
//! `Z = 1` is also halo2curves' Grumpkin SvdW constant; its `hash_to_curve` differs from ours only
//! in `hash_to_field` (BLAKE2b `expand_message` on bytes).
//!
//! **Why Poseidon instead of `expand_message`.** The RFC's `hash_to_field` reads 48 bytes of
//! `expand_message` output per element so that `u` is close to uniform in the field; Poseidon's
//! output already is an element of Fr, modelled as a random oracle onto Fr, so no wide reduction
//! is needed, and it costs four permutations in the circuit (two leaf hashes of three inputs:
//! the leaf mode of [`crate::hash`] tags the input length in the capacity). `tag` is the
//! application's domain tag, a field element; the counter `i` separates `u_0` from `u_1`. The
//! crate's hash interface returns one digest per call (natively and in the circuit), hence two
//! calls rather than one sponge squeezed twice.
//!
//! An independent Python implementation of the map (`tests/vectors/grumpkin_svdw_reference.py`,
//! standard library only, with its own `find_z_svdw`, square root and `sgn0`) produced
//! `tests/vectors/grumpkin_svdw.json`, which the tests check [`map_to_curve_svdw`] against; CI
//! regenerates the file and compares.
//!
//! # The circuit ([`HashToCurveChip`])
//! The RFC's straight-line steps (Appendix F.1) on halo2-base's gate, with these witnesses
//! ([`SvdwWitness`]) and checks:
//! - `tv3 = inv0(tv1 tv2)`: `z = is_zero(tv1 tv2)` (halo2-base), witness `t` with
//!   `tv1 tv2 t + z = 1` and `t z = 0`. For `a != 0` this forces `t = 1/a`; for `a = 0` it
//!   forces `t = 0`, the RFC's `inv0`.
//! - `e1 = is_square(g(x1))`, `e2 = is_square(g(x2))`: a bit `e` and a witness `s` with
//!   `s^2 = g(x) (e ? 1 : Zns)`, `Zns = 5` the smallest non-square of Fr. Since `g(x) != 0` (below),
//!   `g(x)` is a square exactly when `Zns g(x)` is not, so only the true bit has a root.
//! - `x = e1 ? x1 : (e2 ? x2 : x3)`: the first square candidate, as steps 21, 27 and 28
//!   (`e2 AND NOT e1`). `x3` needs no separate proof: `y^2 = g(x)` is constrained for the chosen
//!   `x` (if it were `x3` with `g(x3)` a non-square, no `y` would exist; SvdW guarantees one of
//!   the three is a square).
//! - `y` a witness with `y^2 = g(x)` and `sgn0(y) = sgn0(u)`, each `sgn0` from a canonical
//!   decomposition ([`crate::field::sgn0`]): a non-canonical one (`y + r`) would flip the parity.
//!   `y != 0`, so `y` and `-y` have different parities and the sign is determined.
//!
//! So every witness is determined by `u` and the output is `map_to_curve_svdw(u)`. The two
//! points are added with [`GrumpkinChip::add_unequal`], which constrains `x_0 != x_1`.
//!
//! # Exceptional cases
//! - **`inv0(0)`.** `tv1 tv2 = 1 - (c1 u^2)^2 = 0` for exactly four `u`: `u^2 = 1/16` or
//!   `u^2 = -1/16` (`c1 = -16`; `-1` is a square in Fr). There `tv3 = 0`, so `x1 = x2 = c2 = -1/2`
//!   and `x3 = Z = 1`; `g(-1/2)` is a non-square and the map returns `(1, +-sqrt(-16))`. Native
//!   code and circuit follow the straight-line code, with no special case; the vectors include
//!   these inputs.
//! - **`g(x) = 0`** never happens: it would be a point of order 2, and Grumpkin has prime order
//!   (17 is not a cube in Fr). So no `y` is zero and no non-square proof meets `g(x) = 0`.
//! - **The addition.** Each mapped point is affine (never the identity). `map(u_0)` and
//!   `map(u_1)` share their x-coordinate (equal or opposite points, where the incomplete addition
//!   does not apply) only if `u_1` is one of at most 12 values given `u_0` (`x1` and `x2` are
//!   degree-2 rational functions of `u`, `x3` one of degree 4, plus the four exceptional
//!   inputs): probability at most `12/r < 2^-249` for a random oracle. Both sides **refuse**
//!   such a message: [`hash_to_grumpkin`] returns [`GadgetError::HashToCurveExceptional`] and the
//!   circuit is unsatisfiable. The result is never the identity.
//!
//! # Cost
//! Measured by the tests (`gadgets/tests/hash_to_curve.rs`): one map 659 advice cells (and 130
//! range-lookup cells), most of them the two canonical `sgn0` decompositions; the whole hash on
//! the Poseidon round gates 2,101 advice cells, four permutations (732 cells) included.

use std::sync::OnceLock;

use halo2_base::{
    gates::{GateInstructions, RangeChip, RangeInstructions},
    halo2_proofs::halo2curves::{ff::Field, group::Curve, CurveAffine},
    utils::fe_to_biguint,
    AssignedValue, Context,
    QuantumCell::Constant,
};
use num_bigint::BigUint;

use super::{curve_b, xy, AssignedPoint, Grumpkin, GrumpkinAffine, GrumpkinChip};
use crate::{
    field::{self, sgn0_native},
    hash::{HashInstructions, NativeHash, Poseidon},
    Fr, GadgetError,
};

/// The map's constants: `Z` and `c1..c4` of RFC 9380 §6.6.1, and the non-square `Zns` of the
/// circuit's non-residue proofs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SvdwConstants {
    /// `Z`, from [`find_z_svdw`].
    pub z: Fr,
    /// `c1 = g(Z)`.
    pub c1: Fr,
    /// `c2 = -Z / 2`.
    pub c2: Fr,
    /// `c3 = sqrt(-g(Z) (3 Z^2 + 4 A))`, the root with `sgn0(c3) = 0`.
    pub c3: Fr,
    /// `c4 = -4 g(Z) / (3 Z^2 + 4 A)`.
    pub c4: Fr,
    /// The smallest non-square of Fr (5).
    pub non_residue: Fr,
}

/// `g(x) = x^3 + A x + B` with `A = 0`, `B = -17`.
pub fn g(x: Fr) -> Fr {
    x.square() * x + curve_b()
}

/// RFC 9380's `is_square` (true for zero).
fn is_square(x: Fr) -> bool {
    bool::from(x.sqrt().is_some())
}

/// `Z` by the procedure of RFC 9380 Appendix H.1 (`find_z_svdw` with `init_ctr = 1`; `A = 0`).
pub fn find_z_svdw() -> Fr {
    // h(Z) = -(3 Z^2 + 4 A) / (4 g(Z))
    let h = |z: Fr| -(Fr::from(3) * z.square()) * (Fr::from(4) * g(z)).invert().unwrap_or(Fr::ZERO);
    let half = Fr::from(2).invert().expect("2 is invertible");
    (1u64..)
        .flat_map(|ctr| [Fr::from(ctr), -Fr::from(ctr)])
        .find(|&z| {
            g(z) != Fr::ZERO
                && h(z) != Fr::ZERO
                && is_square(h(z))
                && (is_square(g(z)) || is_square(g(-z * half)))
        })
        .expect("the search ends")
}

/// The constants, derived once per process.
pub fn svdw_constants() -> &'static SvdwConstants {
    static CONSTANTS: OnceLock<SvdwConstants> = OnceLock::new();
    CONSTANTS.get_or_init(|| {
        let z = find_z_svdw();
        let t = Fr::from(3) * z.square(); // 3 Z^2 + 4 A
        let c1 = g(z);
        let c3 = (-c1 * t).sqrt().expect("criterion 3 of find_z_svdw");
        SvdwConstants {
            z,
            c1,
            c2: -z * Fr::from(2).invert().expect("2 is invertible"),
            c3: if sgn0_native(&c3) { -c3 } else { c3 },
            c4: -Fr::from(4) * c1 * t.invert().expect("3 Z^2 != 0"),
            non_residue: (2u64..)
                .map(Fr::from)
                .find(|x| !is_square(*x))
                .expect("half of Fr is a non-square"),
        }
    })
}

/// The point of the curve at `x` whose `y` has `sgn0(y) = sign`, if `g(x)` is a square.
pub fn curve_y(x: Fr, sign: bool) -> Option<Fr> {
    let y: Fr = g(x).sqrt().into_option()?;
    Some(if sgn0_native(&y) == sign { y } else { -y })
}

/// The values of the straight-line map (RFC 9380 Appendix F.1) for one `u`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SvdwTrace {
    /// `tv3 = inv0(tv1 tv2)` (step 6).
    pub inv: Fr,
    /// The candidates `x1`, `x2`, `x3`.
    pub candidates: [Fr; 3],
    /// Which candidate the map takes (0, 1 or 2: the first whose `g` is a square).
    pub chosen: usize,
    /// The point.
    pub x: Fr,
    /// `y` with `sgn0(y) = sgn0(u)`.
    pub y: Fr,
}

/// The straight-line map of RFC 9380 Appendix F.1 on `u` (steps numbered as there).
pub fn svdw_trace(u: Fr) -> SvdwTrace {
    let c = svdw_constants();
    let tv1 = u.square() * c.c1; // 1, 2
    let tv3 = ((Fr::ONE - tv1) * (Fr::ONE + tv1))
        .invert()
        .unwrap_or(Fr::ZERO); // 3 - 6
    svdw_trace_with_inverse(u, tv3).expect("SvdW: one of the three candidates is on the curve")
}

/// [`svdw_trace`] with `inv` in place of `tv3 = inv0(tv1 tv2)`: what a prover claiming `inv`
/// would compute from step 7 on (`None` if then no candidate is on the curve). Only the true
/// `tv3` is accepted by the circuit; negative tests use the others.
pub fn svdw_trace_with_inverse(u: Fr, inv: Fr) -> Option<SvdwTrace> {
    let c = svdw_constants();
    let tv1 = u.square() * c.c1; // 1, 2
    let tv2 = Fr::ONE + tv1; // 3
    let tv1 = Fr::ONE - tv1; // 4
    let tv3 = inv; // 5, 6
    let tv4 = u * tv1 * tv3 * c.c3; // 7 - 9
    let x1 = c.c2 - tv4; // 10
    let e1 = is_square(g(x1)); // 11 - 15
    let x2 = c.c2 + tv4; // 16
    let e2 = is_square(g(x2)) && !e1; // 17 - 21
    let x3 = (tv2.square() * tv3).square() * c.c4 + c.z; // 22 - 26
    let chosen = if e1 {
        0
    } else if e2 {
        1
    } else {
        2
    }; // 27, 28
    let candidates = [x1, x2, x3];
    let x = candidates[chosen];
    let y = curve_y(x, sgn0_native(&u))?; // 29 - 35
    Some(SvdwTrace {
        inv,
        candidates,
        chosen,
        x,
        y,
    })
}

/// RFC 9380 `map_to_curve_svdw` on Grumpkin.
pub fn map_to_curve_svdw(u: Fr) -> GrumpkinAffine {
    let t = svdw_trace(u);
    GrumpkinAffine::from_xy(t.x, t.y).expect("y^2 = g(x)")
}

/// `[u_0, u_1]`: `u_i = hash_leaf(tag, msg, i)`.
pub fn hash_to_field<H: NativeHash>(hash: &H, tag: Fr, msg: Fr) -> Result<[Fr; 2], GadgetError> {
    Ok([
        hash.hash_leaf(&[tag, msg, Fr::ZERO])?,
        hash.hash_leaf(&[tag, msg, Fr::ONE])?,
    ])
}

/// `p + q` for two mapped points; refuses points with the same x-coordinate (equal or opposite),
/// as the circuit's incomplete addition does.
pub fn add_mapped(p: &GrumpkinAffine, q: &GrumpkinAffine) -> Result<GrumpkinAffine, GadgetError> {
    if xy(p).0 == xy(q).0 {
        return Err(GadgetError::HashToCurveExceptional);
    }
    Ok((Grumpkin::from(*p) + q).to_affine())
}

/// The hash to Grumpkin of `msg` under the domain `tag` with the hash `hash` (the native twin of
/// [`HashToCurveChip`] on a chip whose native hash is `H`).
pub fn hash_to_grumpkin_with<H: NativeHash>(
    hash: &H,
    tag: Fr,
    msg: Fr,
) -> Result<GrumpkinAffine, GadgetError> {
    let [u0, u1] = hash_to_field(hash, tag, msg)?;
    add_mapped(&map_to_curve_svdw(u0), &map_to_curve_svdw(u1))
}

/// The hash to Grumpkin of `msg` under the domain `tag`, with Poseidon (the ciphersuite of the
/// module docs).
pub fn hash_to_grumpkin(tag: Fr, msg: Fr) -> Result<GrumpkinAffine, GadgetError> {
    hash_to_grumpkin_with(&Poseidon, tag, msg)
}

/// What the prover supplies for one map: the fields are public so that tests can play a
/// cheating prover; [`SvdwWitness::new`] is the honest one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SvdwWitness {
    /// `tv3 = inv0(tv1 tv2)`.
    pub inv: Fr,
    /// Whether `g(x1)`, `g(x2)` are squares.
    pub is_square: [bool; 2],
    /// A square root of `g(x_i)` where `is_square[i]`, else of `Zns g(x_i)`.
    pub roots: [Fr; 2],
    /// `y`.
    pub y: Fr,
    /// The integer whose parity is `sgn0(u)` (honestly `u`'s canonical integer).
    pub u_integer: BigUint,
    /// The integer whose parity is `sgn0(y)` (honestly `y`'s canonical integer).
    pub y_integer: BigUint,
}

impl SvdwWitness {
    /// The honest witness of `u`.
    pub fn new(u: Fr) -> Self {
        Self::from_trace(u, &svdw_trace(u))
    }

    /// The witness that follows `trace` (the candidates' residuosity, roots, `y`), for `u`.
    pub fn from_trace(u: Fr, trace: &SvdwTrace) -> Self {
        let zns = svdw_constants().non_residue;
        let root = |x: Fr| match g(x).sqrt().into_option() {
            Some(s) => (true, s),
            None => (false, (zns * g(x)).sqrt().expect("Zns g(x) is a square")),
        };
        let [(s1, r1), (s2, r2)] = [root(trace.candidates[0]), root(trace.candidates[1])];
        Self {
            inv: trace.inv,
            is_square: [s1, s2],
            roots: [r1, r2],
            y: trace.y,
            u_integer: fe_to_biguint(&u),
            y_integer: fe_to_biguint(&trace.y),
        }
    }
}

/// The honest witnesses of `hash_to_grumpkin_with(hash, tag, msg)`'s two maps.
pub fn hash_to_curve_witness<H: NativeHash>(
    hash: &H,
    tag: Fr,
    msg: Fr,
) -> Result<[SvdwWitness; 2], GadgetError> {
    Ok(hash_to_field(hash, tag, msg)?.map(SvdwWitness::new))
}

/// Hash to Grumpkin in the circuit: hash to field on the chip `H`, two SvdW maps on halo2-base's
/// gate, one addition (see the module docs for the constraints).
#[derive(Clone, Debug)]
pub struct HashToCurveChip<'r, H> {
    range: &'r RangeChip<Fr>,
    ecc: GrumpkinChip<'r>,
    hash: H,
}

impl<'r, H: HashInstructions> HashToCurveChip<'r, H> {
    /// A chip hashing with `hash` (its native twin: [`hash_to_grumpkin_with`] on `H::Native`).
    pub fn new(range: &'r RangeChip<Fr>, hash: H) -> Self {
        Self {
            range,
            ecc: GrumpkinChip::new(range),
            hash,
        }
    }

    /// `[u_0, u_1]`: `u_i = hash_leaf(tag, msg, i)`.
    pub fn hash_to_field(
        &self,
        ctx: &mut Context<Fr>,
        tag: AssignedValue<Fr>,
        msg: AssignedValue<Fr>,
    ) -> [AssignedValue<Fr>; 2] {
        [Fr::ZERO, Fr::ONE].map(|i| {
            let counter = ctx.load_constant(i);
            self.hash.hash_leaf(ctx, &[tag, msg, counter])
        })
    }

    /// The hash to Grumpkin of `msg` under the domain `tag`, with the honest witnesses.
    pub fn hash_to_curve(
        &self,
        ctx: &mut Context<Fr>,
        tag: AssignedValue<Fr>,
        msg: AssignedValue<Fr>,
    ) -> AssignedPoint {
        self.hash_with(ctx, tag, msg, None)
    }

    /// [`Self::hash_to_curve`] with the maps' witnesses supplied by the caller (a cheating
    /// prover in negative tests; [`hash_to_curve_witness`] gives the honest ones).
    pub fn hash_to_curve_with_witness(
        &self,
        ctx: &mut Context<Fr>,
        tag: AssignedValue<Fr>,
        msg: AssignedValue<Fr>,
        witness: &[SvdwWitness; 2],
    ) -> AssignedPoint {
        self.hash_with(ctx, tag, msg, Some(witness))
    }

    fn hash_with(
        &self,
        ctx: &mut Context<Fr>,
        tag: AssignedValue<Fr>,
        msg: AssignedValue<Fr>,
        witness: Option<&[SvdwWitness; 2]>,
    ) -> AssignedPoint {
        let u = self.hash_to_field(ctx, tag, msg);
        let honest;
        let witness = match witness {
            Some(w) => w,
            None => {
                honest = u.map(|u| SvdwWitness::new(*u.value()));
                &honest
            }
        };
        let p0 = self.map_to_curve_with_witness(ctx, u[0], &witness[0]);
        let p1 = self.map_to_curve_with_witness(ctx, u[1], &witness[1]);
        self.ecc.add_unequal(ctx, &p0, &p1)
    }

    /// `map_to_curve_svdw(u)` with the honest witness.
    pub fn map_to_curve(&self, ctx: &mut Context<Fr>, u: AssignedValue<Fr>) -> AssignedPoint {
        self.map_to_curve_with_witness(ctx, u, &SvdwWitness::new(*u.value()))
    }

    /// `map_to_curve_svdw(u)` with the witness `w` (satisfiable only for the honest one).
    pub fn map_to_curve_with_witness(
        &self,
        ctx: &mut Context<Fr>,
        u: AssignedValue<Fr>,
        w: &SvdwWitness,
    ) -> AssignedPoint {
        let gate = self.range.gate();
        let c = svdw_constants();
        let one = Constant(Fr::ONE);
        let u2 = gate.mul(ctx, u, u); // 1
        let tv1 = gate.mul(ctx, u2, Constant(c.c1)); // 2
        let tv2 = gate.add(ctx, tv1, one); // 3
        let tv1 = gate.sub(ctx, one, tv1); // 4
        let tv3 = gate.mul(ctx, tv1, tv2); // 5
        let tv3 = self.inv0(ctx, tv3, w.inv); // 6
        let tv4 = gate.mul(ctx, u, tv1); // 7
        let tv4 = gate.mul(ctx, tv4, tv3); // 8
        let tv4 = gate.mul(ctx, tv4, Constant(c.c3)); // 9
        let x1 = gate.sub(ctx, Constant(c.c2), tv4); // 10
        let e1 = self.is_square(ctx, x1, w.is_square[0], w.roots[0]); // 11 - 15
        let x2 = gate.add(ctx, Constant(c.c2), tv4); // 16
        let e2 = self.is_square(ctx, x2, w.is_square[1], w.roots[1]); // 17 - 20
        let not_e1 = gate.not(ctx, e1);
        let e2 = gate.mul(ctx, e2, not_e1); // 21
        let x3 = gate.mul(ctx, tv2, tv2); // 22
        let x3 = gate.mul(ctx, x3, tv3); // 23
        let x3 = gate.mul(ctx, x3, x3); // 24
        let x3 = gate.mul_add(ctx, x3, Constant(c.c4), Constant(c.z)); // 25, 26
        let x = gate.select(ctx, x1, x3, e1); // 27
        let x = gate.select(ctx, x2, x, e2); // 28
        let point = AssignedPoint {
            x,
            y: ctx.load_witness(w.y),
        };
        self.ecc.assert_on_curve(ctx, &point); // 29 - 33: y^2 = g(x)
        let sign_u = field::sgn0_integer(ctx, self.range, u, &w.u_integer);
        let sign_y = field::sgn0_integer(ctx, self.range, point.y, &w.y_integer);
        ctx.constrain_equal(&sign_u, &sign_y); // 34, 35
        point
    }

    /// `inv0(a)` with the witness `t`: `a t + is_zero(a) = 1` and `t is_zero(a) = 0`.
    fn inv0(&self, ctx: &mut Context<Fr>, a: AssignedValue<Fr>, t: Fr) -> AssignedValue<Fr> {
        let gate = self.range.gate();
        let zero = gate.is_zero(ctx, a);
        let t = ctx.load_witness(t);
        let one = gate.mul_add(ctx, a, t, zero);
        gate.assert_is_const(ctx, &one, &Fr::ONE);
        let none = gate.mul(ctx, t, zero);
        gate.assert_is_const(ctx, &none, &Fr::ZERO);
        t
    }

    /// `is_square(g(x))` as a bit `e` with a root `s`: `s^2 = g(x) (e ? 1 : Zns)`.
    fn is_square(
        &self,
        ctx: &mut Context<Fr>,
        x: AssignedValue<Fr>,
        square: bool,
        root: Fr,
    ) -> AssignedValue<Fr> {
        let gate = self.range.gate();
        let zns = svdw_constants().non_residue;
        let gx = self.ecc.curve_rhs(ctx, x);
        let e = ctx.load_witness(Fr::from(square));
        gate.assert_bit(ctx, e);
        let factor = gate.mul_add(ctx, e, Constant(Fr::ONE - zns), Constant(zns));
        let rhs = gate.mul(ctx, gx, factor);
        let s = ctx.load_witness(root);
        let s2 = gate.mul(ctx, s, s);
        ctx.constrain_equal(&s2, &rhs);
        e
    }
}
