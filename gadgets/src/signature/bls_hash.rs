//! The BLS message hash to BN254 G2 of a circuit-field element `m`, natively
//! ([`hash_message`](super::bls::hash_message)) and in the circuit ([`hash_to_g2_in_circuit`],
//! on halo2-ecc's non-native Fp2): what lets a BLS
//! circuit take `m = keccak-256(bytes) mod r` itself as its public message input, so that a
//! contract builds the statement from the message bytes (it has no G2 arithmetic and no cheap
//! SHA-256 `expand_message_xmd` into Fq2).
//!
//! # Ciphersuite (`BN254G2_POSEIDON_SVDW_RO`, our name: not a suite registered by RFC 9380)
//! | step | here |
//! |---|---|
//! | curve | the BN254 twist `E': y^2 = x^3 + 3/(9+u)` over Fq2, cofactor `2p - r` |
//! | `hash_to_field` | eight Poseidon outputs `o_i = Poseidon_leaf(tag, m, i)`, `i = 0..8` ([`message_tag`]); Fq coefficient `j` of `(u_0.c0, u_0.c1, u_1.c0, u_1.c1)` is `(o_{2j} + r o_{2j+1}) mod q` ([`message_to_fq2`]) |
//! | `map_to_curve` | SvdW with `Z = 1`, the map of [`super::bls::map_to_curve_svdw`] (also used by the SHA-256 suite) |
//! | `clear_cofactor` | `[x0]Q + psi([3 x0]Q) + psi^2([x0]Q) + psi^3(Q)` ([`super::bls::clear_cofactor`]) |
//! | result | `clear_cofactor(map(u_0) + map(u_1))` |
//!
//! **Why Poseidon, and the Fr-to-Fq encoding.** The circuit works over Fr, where a Poseidon
//! leaf hash of three inputs costs two permutations (183 cells each on the bank's round gate),
//! while SHA-256 is out of reach. A Poseidon output is an element of Fr, modelled
//! as uniform on `[0, r)`; Fq is larger (`r < q < 2r`), so one output is not close to uniform in
//! Fq. Each Fq coefficient takes two outputs `lo, hi` and reads `X = lo + r hi`: for independent
//! uniform `lo, hi` in `[0, r)`, `X` is exactly uniform on `[0, r^2)`, and `X mod q` is within
//! statistical distance `q / r^2 < 2^-253` of uniform in Fq (RFC 9380 asks for `2^-k` with
//! `k = 128`). In the circuit it costs a canonical decomposition of `lo` and `hi` (limbs
//! constrained below r, so the integer is the field element's) and one non-native
//! multiply-add; no wide reduction of bytes.
//!
//! **Domain separation.** `tag` ([`message_tag`]) is the ASCII string
//! `TMS-BLS-H2G2-MSG` read as an integer: it separates this use of Poseidon from Merkle leaves,
//! digests and the Grumpkin hash of the workspace (which use other tags or other input lengths; the leaf hash also tags
//! the input length). Proofs of possession use the SHA-256 suite under
//! [`super::bls::POP_DST`], a different construction.
//!
//! # The circuit
//! The straight-line SvdW of RFC 9380 (Appendix F.1) on halo2-ecc's Fp2 chip, with these
//! witnesses ([`SvdwG2Witness`]) and checks:
//! - `tv3 = inv0(tv1 tv2)`: `z = is_zero(tv1 tv2)`, the inverse of `z ? 1 : tv1 tv2` (a
//!   constrained division), then `tv3 = z ? 0 : that inverse`: the RFC's `inv0`. `tv1 tv2 = 0` for
//!   four `u` (`u^2 c1 = +-1`); such `u` are mapped as the RFC maps them.
//! - `e1 = is_square(g(x1))`, `e2 = is_square(g(x2))`: a bit `e` and a root `s` with
//!   `s^2 = g(x) (e ? 1 : xi)`, `xi = 9 + u` a non-square of Fq2 (the tower's non-residue).
//!   `g(x) != 0` for every `x`: a root would be a point of order 2, and `#E'(Fq2) = r (2p - r)` is
//!   odd. So `g(x)` is a square exactly when `xi g(x)` is not, and only the true bit has a root.
//! - `x = e1 ? x1 : (e2 ? x2 : x3)`; `x3` needs no proof: `y^2 = g(x)` is constrained for the
//!   chosen `x`, and SvdW guarantees `g(x3)` is a square when the others are not.
//! - `y` a witness with `y^2 = g(x)` and `sgn0(y) = sgn0(u)`. RFC 9380 `sgn0` on Fq2 is
//!   `sgn0(c0) OR (c0 = 0 AND sgn0(c1))` with `sgn0` on Fq the parity of the canonical integer:
//!   every coefficient involved is constrained below q (halo2-ecc's `enforce_less_than_p`), so the
//!   parity of its low limb is that of the canonical integer (a non-canonical `c + q` would flip
//!   it; `q` is odd). `y != 0`, so `y` and `-y` have different `sgn0` and the sign fixes `y`.
//!
//! Every witness is therefore determined by `m`, and the output is
//! [`hash_message`](super::bls::hash_message)`(m)`.
//!
//! # Incomplete additions
//! halo2-ecc's points are affine and its `add_unequal` (strict: distinct x-coordinates
//! constrained) is incomplete, so the circuit is satisfiable only when no addition meets equal or
//! opposite points; soundness is unaffected (a strict addition never returns a wrong sum), the
//! question is completeness. Write `Q = map(u_0) + map(u_1) = Q_r + Q_h` with `Q_r` in G2 and
//! `Q_h` in the cofactor part of `E'(Fq2)`.
//! - `map(u_0) = +-map(u_1)` only for at most a dozen `u_1` given `u_0` (`x1`, `x2` rational of
//!   degree 2 in `u`, `x3` of degree 4), probability about `2^-500` for a random oracle.
//! - Every later point and every pair of added points has G2 component `[s]Q_r` for a fixed
//!   scalar `s`, with the two points' scalars distinct and not opposite mod r (the ladder's
//!   `[2k]Q + Q`: `2k +- 1 < r`; the cofactor sum's partial sums: checked by the test
//!   `cofactor_clearing_additions_have_distinct_g2_components`). So whenever `Q_r != O` all
//!   additions are between points with distinct x, and no point is the identity. `Q_r = O` means
//!   `Q` is in the cofactor subgroup: probability about `1/r`.
//!
//! The native [`hash_message`](super::bls::hash_message) uses complete arithmetic; it agrees with
//! the circuit everywhere the circuit is satisfiable, i.e. except with probability below
//! `2^-250` per message.
//!
//! # Cost
//! Measured (`gadgets/tests/bls_hash.rs`, generic gate): one SvdW map 22,712 advice cells; the
//! whole hash 319,223 advice and 45,990 lookup cells with Poseidon on the generic gate (k = 17,
//! three columns); in the BLS ATMS circuit, Poseidon on the bank's round gate, 269,981 advice
//! and 40,734 lookup cells. Most of it is the cofactor clearing's 63-bit x0 ladder on
//! non-native Fp2.

use halo2_base::{
    gates::{GateInstructions, RangeInstructions},
    halo2_proofs::halo2curves::{
        bn256::{Fq, Fq2, G2Affine},
        ff::Field,
        group::Curve,
    },
    utils::{biguint_to_fe, fe_to_biguint},
    AssignedValue, Context,
};
use halo2_ecc::{
    bigint::ProperCrtUint,
    bn254::{pairing::twisted_frobenius, Fp2Chip, FpChip},
    ecc::{EcPoint, EccChip},
    fields::{fp, vector::FieldVector, FieldChip, PrimeFieldChip, Selectable},
};

use super::bls::{
    is_square, map_to_curve_svdw, message_tag, message_to_fq2, psi_coefficients, r_in_fq, svdw,
    twist_b, MESSAGE_FIELD_OUTPUTS, X0,
};
use crate::{hash::HashInstructions, Fr};

/// An Fq2 element on halo2-ecc's Fp2 chip.
pub type Fq2Point = FieldVector<ProperCrtUint<Fr>>;
/// A point of the twist on halo2-ecc's Fp2 chip (affine, never the identity).
pub type G2Point = EcPoint<Fr, Fq2Point>;
/// halo2-ecc's curve chip over Fp2 (the twist).
pub type G2Chip<'a> = EccChip<'a, Fr, Fp2Chip<'a, Fr>>;

/// The non-square of the circuit's non-residue proofs: `xi = 9 + u`.
pub fn non_residue() -> Fq2 {
    Fq2 {
        c0: Fq::from(9),
        c1: Fq::ONE,
    }
}

fn g(x: Fq2) -> Fq2 {
    x.square() * x + twist_b()
}

/// The prover's witnesses of one SvdW map: whether `g(x1)`, `g(x2)` are squares, a root of
/// `g(x_i)` (or of `xi g(x_i)`), and `y`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SvdwG2Witness {
    /// `is_square(g(x1))`, `is_square(g(x2))`.
    pub is_square: [bool; 2],
    /// A square root of `g(x_i)` if it is a square, else of `xi g(x_i)`.
    pub roots: [Fq2; 2],
    /// The output's `y` (sign fixed by `sgn0(y) = sgn0(u)`).
    pub y: Fq2,
}

impl SvdwG2Witness {
    /// The honest witness for `u`.
    pub fn new(u: Fq2) -> Self {
        let c = svdw();
        let tv1 = u.square() * c.c1;
        let tv2 = Fq2::ONE + tv1;
        let tv1 = Fq2::ONE - tv1;
        let tv3 = (tv1 * tv2).invert().unwrap_or(Fq2::ZERO);
        let tv4 = u * tv1 * tv3 * c.c3;
        let proof = |x: Fq2| {
            let gx = g(x);
            let square = is_square(&gx);
            let target = if square { gx } else { gx * non_residue() };
            (square, target.sqrt().expect("a square"))
        };
        let (e1, s1) = proof(c.c2 - tv4);
        let (e2, s2) = proof(c.c2 + tv4);
        Self {
            is_square: [e1, e2],
            roots: [s1, s2],
            y: map_to_curve_svdw(u).to_affine().y,
        }
    }
}

/// The honest witnesses of both maps of [`hash_message`](super::bls::hash_message)`(m)`.
pub fn hash_witness(m: Fr) -> [SvdwG2Witness; 2] {
    message_to_fq2(m).map(SvdwG2Witness::new)
}

/// In-circuit [`hash_message`](super::bls::hash_message) of the assigned `m`, Poseidon on
/// `hash` (whose native twin must be [`crate::hash::Poseidon`]), Fq2 arithmetic on `g2`'s field
/// chip.
pub fn hash_to_g2_in_circuit<H: HashInstructions>(
    ctx: &mut Context<Fr>,
    g2: &G2Chip<'_>,
    hash: &H,
    m: AssignedValue<Fr>,
) -> G2Point {
    let witness = hash_witness(*m.value());
    hash_to_g2_with_witness(ctx, g2, hash, m, &witness)
}

/// [`hash_to_g2_in_circuit`] with the maps' witnesses supplied by the caller (a cheating prover
/// in negative tests; [`hash_witness`] gives the honest ones).
pub fn hash_to_g2_with_witness<H: HashInstructions>(
    ctx: &mut Context<Fr>,
    g2: &G2Chip<'_>,
    hash: &H,
    m: AssignedValue<Fr>,
    witness: &[SvdwG2Witness; 2],
) -> G2Point {
    let u = hash_to_field_in_circuit(ctx, g2.field_chip(), hash, m);
    let [u0, u1] = u;
    let p0 = map_to_curve_in_circuit(ctx, g2, u0, &witness[0]);
    let p1 = map_to_curve_in_circuit(ctx, g2, u1, &witness[1]);
    // Strict: distinct x constrained (see the module docs, "Incomplete additions").
    let q = g2.add_unequal(ctx, p0, p1, true);
    clear_cofactor_in_circuit(ctx, g2, &q)
}

/// The canonical Fq element of the assigned Fr `x`: limbs range checked, the integer
/// constrained below r and equal to `x` (so it is `x`'s canonical integer, not `x + r`).
pub fn fr_to_fq_in_circuit(
    ctx: &mut Context<Fr>,
    fp: &FpChip<'_, Fr>,
    x: AssignedValue<Fr>,
) -> ProperCrtUint<Fr> {
    let fr_chip = fp::FpChip::<Fr, Fr>::new(fp.range(), fp.limb_bits(), fp.num_limbs());
    let v = fr_chip.load_private(ctx, *x.value());
    fr_chip.enforce_less_than_p(ctx, v.clone());
    ctx.constrain_equal(v.native(), &x);
    v
}

/// In-circuit [`message_to_fq2`].
pub fn hash_to_field_in_circuit<H: HashInstructions>(
    ctx: &mut Context<Fr>,
    fp2: &Fp2Chip<'_, Fr>,
    hash: &H,
    m: AssignedValue<Fr>,
) -> [Fq2Point; 2] {
    let fp = fp2.fp_chip();
    let tag = ctx.load_constant(message_tag());
    let o: Vec<ProperCrtUint<Fr>> = (0..MESSAGE_FIELD_OUTPUTS)
        .map(|i| {
            let counter = ctx.load_constant(Fr::from(i as u64));
            let out = hash.hash_leaf(ctx, &[tag, m, counter]);
            fr_to_fq_in_circuit(ctx, fp, out)
        })
        .collect();
    let r = fp.load_constant(ctx, r_in_fq());
    let mut coeffs: Vec<ProperCrtUint<Fr>> = o
        .chunks(2)
        .map(|pair| {
            let hi_r = fp.mul_no_carry(ctx, pair[1].clone(), r.clone());
            let sum = fp.add_no_carry(ctx, hi_r, pair[0].clone());
            fp.carry_mod(ctx, sum)
        })
        .collect();
    let u1 = FieldVector(coeffs.split_off(2));
    [FieldVector(coeffs), u1]
}

/// RFC 9380 `sgn0` of an Fq2 element, constraining its coefficients below q.
pub fn sgn0_in_circuit(
    ctx: &mut Context<Fr>,
    fp: &FpChip<'_, Fr>,
    a: &Fq2Point,
) -> AssignedValue<Fr> {
    let range = fp.range();
    let parity = |ctx: &mut Context<Fr>, c: &ProperCrtUint<Fr>| {
        fp.enforce_less_than_p(ctx, c.clone());
        range.get_last_bit(ctx, c.limbs()[0], fp.limb_bits())
    };
    let p0 = parity(ctx, &a[0]);
    let p1 = parity(ctx, &a[1]);
    // c0 is canonical, so a zero integer is the zero element.
    let z0 = fp.is_soft_zero(ctx, a[0].clone());
    // z0 = 1 forces p0 = 0, so the OR is a sum.
    range.gate().mul_add(ctx, z0, p1, p0)
}

/// `g(x) = x^3 + b'`.
fn curve_rhs(ctx: &mut Context<Fr>, fp2: &Fp2Chip<'_, Fr>, x: &Fq2Point) -> Fq2Point {
    let x2 = fp2.mul(ctx, x.clone(), x.clone());
    let x3 = fp2.mul_no_carry(ctx, x2, x.clone());
    let rhs = fp2.add_constant_no_carry(ctx, x3, twist_b());
    fp2.carry_mod(ctx, rhs)
}

/// `is_square(g(x))` as a bit `e` with a root `s`: `s^2 = g(x) (e ? 1 : xi)`.
fn square_bit(
    ctx: &mut Context<Fr>,
    fp2: &Fp2Chip<'_, Fr>,
    x: &Fq2Point,
    square: bool,
    root: Fq2,
) -> AssignedValue<Fr> {
    let gate = fp2.fp_chip().range().gate();
    let gx = curve_rhs(ctx, fp2, x);
    let e = ctx.load_witness(Fr::from(square));
    gate.assert_bit(ctx, e);
    let xi = fp2.load_constant(ctx, non_residue());
    let xi_gx = fp2.mul(ctx, gx.clone(), xi);
    let target = fp2.select(ctx, gx, xi_gx, e);
    let s = fp2.load_private(ctx, root);
    let s2 = fp2.mul(ctx, s.clone(), s);
    fp2.assert_equal(ctx, s2, target);
    e
}

/// RFC 9380 `map_to_curve_svdw(u)` on the twist, with the witness `w` (satisfiable only for the
/// honest one, [`SvdwG2Witness::new`]).
pub fn map_to_curve_in_circuit(
    ctx: &mut Context<Fr>,
    g2: &G2Chip<'_>,
    u: Fq2Point,
    w: &SvdwG2Witness,
) -> G2Point {
    let fp2 = g2.field_chip();
    let fp = fp2.fp_chip();
    let gate = fp.range().gate();
    let c = svdw();
    let one = fp2.load_constant(ctx, Fq2::ONE);
    let zero = fp2.load_constant(ctx, Fq2::ZERO);
    let c1 = fp2.load_constant(ctx, c.c1);
    let c3 = fp2.load_constant(ctx, c.c3);
    let c4 = fp2.load_constant(ctx, c.c4);

    let u2 = fp2.mul(ctx, u.clone(), u.clone()); // 1
    let tv1 = fp2.mul(ctx, u2, c1); // 2
    let tv2 = fp2.add_constant_no_carry(ctx, tv1.clone(), Fq2::ONE); // 3
    let tv2 = fp2.carry_mod(ctx, tv2);
    let tv1 = fp2.sub_no_carry(ctx, one.clone(), tv1); // 4
    let tv1 = fp2.carry_mod(ctx, tv1);
    let d = fp2.mul(ctx, tv1.clone(), tv2.clone()); // 5
                                                    // 6: inv0(d)
    let d_zero = fp2.is_zero(ctx, d.clone());
    let d_or_one = fp2.select(ctx, one.clone(), d, d_zero);
    let inverse = fp2.divide_unsafe(ctx, one, d_or_one);
    let tv3 = fp2.select(ctx, zero, inverse, d_zero);
    let tv4 = fp2.mul(ctx, u.clone(), tv1); // 7
    let tv4 = fp2.mul(ctx, tv4, tv3.clone()); // 8
    let tv4 = fp2.mul(ctx, tv4, c3); // 9
    let neg_tv4 = fp2.negate(ctx, tv4.clone());
    let x1 = fp2.add_constant_no_carry(ctx, neg_tv4, c.c2); // 10
    let x1 = fp2.carry_mod(ctx, x1);
    let e1 = square_bit(ctx, fp2, &x1, w.is_square[0], w.roots[0]); // 11 - 15
    let x2 = fp2.add_constant_no_carry(ctx, tv4, c.c2); // 16
    let x2 = fp2.carry_mod(ctx, x2);
    let e2 = square_bit(ctx, fp2, &x2, w.is_square[1], w.roots[1]); // 17 - 20
    let not_e1 = gate.not(ctx, e1);
    let e2 = gate.mul(ctx, e2, not_e1); // 21
    let x3 = fp2.mul(ctx, tv2.clone(), tv2); // 22
    let x3 = fp2.mul(ctx, x3, tv3); // 23
    let x3 = fp2.mul(ctx, x3.clone(), x3); // 24
    let x3 = fp2.mul_no_carry(ctx, x3, c4); // 25
    let x3 = fp2.add_constant_no_carry(ctx, x3, c.z); // 26
    let x3 = fp2.carry_mod(ctx, x3);
    let x = fp2.select(ctx, x1, x3, e1); // 27
    let x = fp2.select(ctx, x2, x, e2); // 28
    let y = fp2.load_private(ctx, w.y);
    let gx = curve_rhs(ctx, fp2, &x); // 29 - 33: y^2 = g(x)
    let y2 = fp2.mul(ctx, y.clone(), y.clone());
    fp2.assert_equal(ctx, y2, gx);
    let sign_u = sgn0_in_circuit(ctx, fp, &u);
    let sign_y = sgn0_in_circuit(ctx, fp, &y);
    ctx.constrain_equal(&sign_u, &sign_y); // 34, 35
    EcPoint::new(x, y)
}

/// The psi constants loaded as circuit constants (for [`psi_in_circuit`]).
pub fn psi_loaded(ctx: &mut Context<Fr>, g2: &G2Chip<'_>) -> (Fq2Point, Fq2Point) {
    let (cx, cy) = psi_coefficients();
    let fp2 = g2.field_chip();
    (fp2.load_constant(ctx, cx), fp2.load_constant(ctx, cy))
}

/// `psi(p)` on the twist (halo2-ecc's `twisted_frobenius` with [`psi_coefficients`]).
pub fn psi_in_circuit(
    ctx: &mut Context<Fr>,
    g2: &G2Chip<'_>,
    p: G2Point,
    constants: &(Fq2Point, Fq2Point),
) -> G2Point {
    twisted_frobenius(g2, ctx, p, constants.0.clone(), constants.1.clone())
}

/// `[x0]Q` by double-and-add from the top bit, every addition strict (distinct x constrained:
/// `[2k]Q = +-Q` would need `[2k -+ 1]Q = O`, impossible for `Q` with a G2 component, since
/// `2k +- 1 < r`).
pub fn mul_by_x0(ctx: &mut Context<Fr>, g2: &G2Chip<'_>, q: &G2Point) -> G2Point {
    let mut a = q.clone();
    for i in (0..63 - X0.leading_zeros() as usize).rev() {
        a = g2.double(ctx, a);
        if (X0 >> i) & 1 == 1 {
            a = g2.add_unequal(ctx, a, q.clone(), true);
        }
    }
    a
}

/// In-circuit [`clear_cofactor`](super::bls::clear_cofactor):
/// `[x0]Q + psi([3 x0]Q) + psi^2([x0]Q) + psi^3(Q)`, every addition strict (see the module
/// docs, "Incomplete additions").
pub fn clear_cofactor_in_circuit(ctx: &mut Context<Fr>, g2: &G2Chip<'_>, q: &G2Point) -> G2Point {
    let psi_c = psi_loaded(ctx, g2);
    let a = mul_by_x0(ctx, g2, q);
    let two_a = g2.double(ctx, a.clone());
    let three_a = g2.add_unequal(ctx, two_a, a.clone(), true);
    let psi_three_a = psi_in_circuit(ctx, g2, three_a, &psi_c);
    let psi_a = psi_in_circuit(ctx, g2, a.clone(), &psi_c);
    let psi2_a = psi_in_circuit(ctx, g2, psi_a, &psi_c);
    let mut psi3_q = q.clone();
    for _ in 0..3 {
        psi3_q = psi_in_circuit(ctx, g2, psi3_q, &psi_c);
    }
    let sum = g2.add_unequal(ctx, a, psi_three_a, true);
    let sum = g2.add_unequal(ctx, sum, psi2_a, true);
    g2.add_unequal(ctx, sum, psi3_q, true)
}

/// The affine value of an assigned twist point (its coordinates reduced mod q).
pub fn g2_value(p: &G2Point) -> G2Affine {
    let q = fe_to_biguint(&-Fq::ONE) + 1u8;
    let coeff = |c: &ProperCrtUint<Fr>| biguint_to_fe::<Fq>(&(c.value() % &q));
    let fq2 = |v: &Fq2Point| Fq2 {
        c0: coeff(&v[0]),
        c1: coeff(&v[1]),
    };
    G2Affine {
        x: fq2(p.x()),
        y: fq2(p.y()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{
        field::fr_modulus,
        hash::{NativeHash, Poseidon},
        signature::bls::{clear_cofactor, hash_message as hash_to_g2, is_in_g2, psi},
    };
    use halo2_base::halo2_proofs::halo2curves::{bn256::G2, ff::PrimeField};
    use num_bigint::BigUint;
    use rand::SeedableRng;

    fn fq_modulus() -> BigUint {
        fe_to_biguint(&-Fq::ONE) + 1u8
    }

    #[test]
    fn hash_is_in_g2_deterministic_and_differs_per_message() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(0x6a2);
        let ms: Vec<Fr> = (0..3).map(|_| Fr::random(&mut rng)).collect();
        let hs: Vec<G2Affine> = ms.iter().map(|m| hash_to_g2(*m)).collect();
        for (m, h) in ms.iter().zip(&hs) {
            assert!(is_in_g2(h));
            assert_eq!(*h, hash_to_g2(*m));
        }
        assert_ne!(hs[0], hs[1]);
        assert_ne!(hs[1], hs[2]);
        assert_ne!(hs[0], hash_to_g2(ms[0] + Fr::ONE));
    }

    #[test]
    fn hash_matches_a_step_by_step_recomputation() {
        let m = Fr::from(42);
        let r = fr_modulus();
        let q = fq_modulus();
        // Poseidon_leaf(tag, m, i) with the tag spelled out; the integers lo + r hi mod q.
        let tag = Fr::from_u128(0x544d_532d_424c_532d_4832_4732_2d4d_5347);
        let o: Vec<BigUint> = (0..8u64)
            .map(|i| fe_to_biguint(&Poseidon.hash_leaf(&[tag, m, Fr::from(i)]).unwrap()))
            .collect();
        let coeff = |j: usize| biguint_to_fe::<Fq>(&((&o[2 * j] + &r * &o[2 * j + 1]) % &q));
        let u = [
            Fq2 {
                c0: coeff(0),
                c1: coeff(1),
            },
            Fq2 {
                c0: coeff(2),
                c1: coeff(3),
            },
        ];
        assert_eq!(u, message_to_fq2(m));
        let sum = map_to_curve_svdw(u[0]) + map_to_curve_svdw(u[1]);
        // Cofactor clearing spelled out: [x0]Q + psi([3 x0]Q) + psi^2([x0]Q) + psi^3(Q).
        let a = sum * Fr::from(X0);
        let cleared = a + psi(&(a * Fr::from(3))) + psi(&psi(&a)) + psi(&psi(&psi(&sum)));
        assert_eq!(cleared.to_affine(), hash_to_g2(m));
        // And the honest witness is consistent with the map.
        for (ui, w) in u.iter().zip(hash_witness(m)) {
            let p = map_to_curve_svdw(*ui).to_affine();
            assert_eq!(w.y, p.y);
            assert_eq!(
                crate::signature::bls::sgn0(&w.y),
                crate::signature::bls::sgn0(ui)
            );
        }
    }

    #[test]
    fn non_residue_is_not_a_square_and_the_twist_has_no_two_torsion() {
        assert!(!is_square(&non_residue()));
        // #E'(Fq2) = r (2p - r) is odd, so g(x) = x^3 + b' has no root: no y is zero.
        let order = fr_modulus() * (fq_modulus() * 2u8 - fr_modulus());
        assert_eq!(order % 2u8, BigUint::from(1u8));
    }

    /// The G2 components of the points the in-circuit cofactor clearing adds: `psi` acts as `[p]`
    /// on G2, so `[x0]Q`, `psi([3 x0]Q)`, `psi^2([x0]Q)`, `psi^3(Q)` carry `x0`, `3 x0 p`,
    /// `x0 p^2`, `p^3` times `Q_r`. Every addition (`2a + a` and the three partial sums) has
    /// operands with distinct, non-opposite, non-zero scalars mod r, so it meets distinct
    /// x-coordinates whenever `Q_r != O`.
    #[test]
    fn cofactor_clearing_additions_have_distinct_g2_components() {
        let p = biguint_to_fe::<Fr>(&(fq_modulus() % fr_modulus()));
        let x0 = Fr::from(X0);
        let terms = [x0, Fr::from(3) * x0 * p, x0 * p * p, p * p * p];
        let mut pairs = vec![(x0 + x0, x0)];
        let mut acc = terms[0];
        for t in &terms[1..] {
            pairs.push((acc, *t));
            acc += t;
        }
        for (s, t) in pairs {
            assert!(s != Fr::ZERO && t != Fr::ZERO && s != t && s != -t);
        }
        assert_ne!(acc, Fr::ZERO, "the sum is not the identity");
        // The same scalars natively: the cleared point of a G2 point is [acc] of it.
        let g = G2::generator();
        assert_eq!(clear_cofactor(&g), g * acc);
    }
}
