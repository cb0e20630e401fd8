//! The in-circuit BLS message hash to G2 (`bls_hash`) against its native twin, and its negatives:
//! each changes one witness of the SvdW map (MockProver names the failing constraint).

use halo2_base::halo2_proofs::halo2curves::{
    bn256::{Fq2, Fr, G2Affine},
    ff::Field,
    group::Curve,
};
use halo2_ecc::bn254::{Fp2Chip, FpChip};
use halo2_ecc::{ecc::EccChip, fields::FieldChip};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tms_gadgets::{
    hash::PoseidonChip,
    signature::{
        bls::{hash_message as hash_to_g2, map_to_curve_svdw, message_to_fq2 as hash_to_field},
        bls_hash::{g2_value, hash_to_g2_in_circuit, map_to_curve_in_circuit, SvdwG2Witness},
    },
    testing::{CircuitHarness, MockRun, Rejection},
};

/// Limbs of halo2-ecc's BN254 Fq chip (the BLS ATMS circuit's).
const LIMB_BITS: usize = 88;
const NUM_LIMBS: usize = 3;

/// MockProver on the whole hash of the assigned `m`, its output constrained equal to the native
/// `hash_to_g2(expected)` (a constant point). About 0.3 M advice cells: k = 17.
fn mock_hash(m: Fr, expected: Fr) -> MockRun<G2Affine> {
    let native = hash_to_g2(expected);
    CircuitHarness::new(17).mock(|ctx, range| {
        let fp = FpChip::<Fr>::new(range, LIMB_BITS, NUM_LIMBS);
        let fp2 = Fp2Chip::<Fr>::new(&fp);
        let g2 = EccChip::new(&fp2);
        let m = ctx.load_witness(m);
        let h = hash_to_g2_in_circuit(ctx, &g2, &PoseidonChip::new(), m);
        let value = g2_value(&h);
        let want = g2.assign_constant_point::<G2Affine>(ctx, native);
        g2.assert_equal(ctx, h, want);
        (value, vec![m])
    })
}

#[test]
fn circuit_hash_agrees_with_the_native_twin() {
    let mut rng = ChaCha8Rng::seed_from_u64(0xb15_4a54);
    let m = Fr::random(&mut rng);
    let run = mock_hash(m, m);
    run.assert_satisfied();
    assert_eq!(run.output, hash_to_g2(m));
    println!("record: bls hash to G2 in circuit: {}", run.stats);
}

#[test]
fn another_message_is_rejected() {
    let mut rng = ChaCha8Rng::seed_from_u64(0xb15_4a55);
    let m = Fr::random(&mut rng);
    // The one change: the circuit hashes m + 1 while the output must be H(m).
    let run = mock_hash(m + Fr::ONE, m);
    run.assert_rejected_only_by(Rejection::AdviceCopy);
}

/// MockProver on one map of `u` with the witness `w`; with `pin`, its output constrained equal
/// to the native `map_to_curve_svdw(u)` (the negatives leave it free, so that only the map's own
/// constraints can object).
fn mock_map(u: Fq2, w: &SvdwG2Witness, pin: bool) -> MockRun<()> {
    let native = map_to_curve_svdw(u).to_affine();
    CircuitHarness::new(15).mock(|ctx, range| {
        let fp = FpChip::<Fr>::new(range, LIMB_BITS, NUM_LIMBS);
        let fp2 = Fp2Chip::<Fr>::new(&fp);
        let g2 = EccChip::new(&fp2);
        let u = fp2.load_private(ctx, u);
        let p = map_to_curve_in_circuit(ctx, &g2, u, w);
        if pin {
            let want = g2.assign_constant_point::<G2Affine>(ctx, native);
            g2.assert_equal(ctx, p, want);
        }
        ((), vec![])
    })
}

fn test_u() -> Fq2 {
    hash_to_field(Fr::from(7))[0]
}

#[test]
fn map_with_the_honest_witness_is_satisfied() {
    let u = test_u();
    let run = mock_map(u, &SvdwG2Witness::new(u), true);
    run.assert_satisfied();
    println!("record: one SvdW map on Fp2: {}", run.stats);
}

#[test]
fn the_other_square_root_is_rejected_by_the_sign_rule() {
    let u = test_u();
    let mut w = SvdwG2Witness::new(u);
    // The one change: -y, also a root of g(x), with the other sgn0.
    w.y = -w.y;
    let run = mock_map(u, &w, false);
    // Only sgn0(y) = sgn0(u), one copy constraint between two advice cells (MockProver names
    // both ends): y^2 = g(x) still holds.
    assert_eq!(
        run.rejections(),
        vec![Rejection::AdviceCopy, Rejection::AdviceCopy]
    );
}

#[test]
fn a_wrong_square_root_witness_is_rejected() {
    let u = test_u();
    let mut w = SvdwG2Witness::new(u);
    // The one change: a random Fq2 element as the root proving g(x2)'s (non-)squareness.
    w.roots[1] = Fq2::random(ChaCha8Rng::seed_from_u64(3));
    let run = mock_map(u, &w, false);
    // s^2 = g(x2) (e2 ? 1 : xi), limb by limb (copy constraints); nothing else changes.
    run.assert_rejected_only_by(Rejection::AdviceCopy);
}

#[test]
fn a_flipped_square_bit_is_rejected() {
    let u = test_u();
    let mut w = SvdwG2Witness::new(u);
    // The one change: claim the other answer for g(x1); the root no longer fits (no root of
    // the other target exists).
    w.is_square[0] = !w.is_square[0];
    let run = mock_map(u, &w, false);
    // s^2 = g(x1) (e1 ? 1 : xi) fails, and the candidate chosen changes so y^2 = g(x) fails too
    // (limb copy constraints).
    run.assert_rejected_only_by(Rejection::AdviceCopy);
}
