//! The custom gates of `tms_gadgets::hybrid`: the Straus ladder, Schnorr verification (on the GLV
//! ladder; `tests/glv.rs` tests the ladder itself) and Rescue-Prime on its round gate. Agreement
//! with the native twins on random inputs, one-change negatives, the exceptional cases, and a
//! real proof through the hybrid circuit.

use halo2_base::{
    halo2_proofs::halo2curves::{
        ff::{Field, PrimeField},
        group::Curve,
    },
    QuantumCell,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tms_gadgets::{
    bank::COLUMNS,
    curve::straus::{StrausChip, LADDER_CELLS},
    curve::{fr_modulus, ladder_shift, offset_point, GrumpkinAffine, GrumpkinChip, GrumpkinScalar},
    hash::{
        rescue::{RescueField, WIDTH},
        rescue_gate::{leaf_permutations, PrecomputedPermutations},
        HashInstructions, NativeHash, RescueGateChip, RescuePrime,
    },
    signature::schnorr::{base_to_scalar, challenge, SchnorrChip, Signature, SigningKey},
    testing::{CircuitHarness, Rejection},
    Fr,
};

const K: u32 = 11;

fn rng() -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(0x57a0)
}

fn random_point(rng: &mut impl Rng) -> GrumpkinAffine {
    (GrumpkinAffine::generator() * GrumpkinScalar::random(&mut *rng)).to_affine()
}

#[test]
fn straus_ladder_agrees_with_native() {
    let mut rng = rng();
    for _ in 0..3 {
        let p = random_point(&mut rng);
        let s = GrumpkinScalar::random(&mut rng);
        let c = Fr::random(&mut rng);
        let expected =
            (GrumpkinAffine::generator() * s + p * base_to_scalar(c) + ladder_shift()).to_affine();
        let run = CircuitHarness::new(K).mock_custom(|ctx, range, region| {
            let ecc = GrumpkinChip::new(range);
            let p = ecc.load_point(ctx, p).unwrap();
            let c = ctx.load_witness(c);
            let (out, _) = StrausChip::new(range, region.clone()).mul_add(ctx, &s, c, &p);
            (out.0.value(), vec![])
        });
        run.assert_satisfied();
        assert_eq!(run.output, expected);
    }
}

#[test]
fn straus_ladder_cost() {
    let mut rng = rng();
    let p = random_point(&mut rng);
    let (custom, stats) = CircuitHarness::new(K).measure_custom(|ctx, range, region| {
        let ecc = GrumpkinChip::new(range);
        let p = ecc.load_point(ctx, p).unwrap();
        let c = ctx.load_witness(Fr::random(&mut rng));
        StrausChip::new(range, region.clone()).mul_add(ctx, &GrumpkinScalar::ONE, c, &p);
        region.num_cells()
    });
    assert_eq!(custom, LADDER_CELLS);
    println!("straus ladder: {custom} custom cells, total {stats}");
}

/// Runs one ladder, then overwrites one custom cell as a cheating prover would.
fn tampered_ladder(row: usize, column: usize, delta: Fr) -> Vec<Rejection> {
    let mut rng = rng();
    let p = random_point(&mut rng);
    let s = GrumpkinScalar::random(&mut rng);
    let c = Fr::random(&mut rng);
    let run = CircuitHarness::new(K).mock_custom(|ctx, range, region| {
        let ecc = GrumpkinChip::new(range);
        let p = ecc.load_point(ctx, p).unwrap();
        let c = ctx.load_witness(c);
        let (_, pos) = StrausChip::new(range, region.clone()).mul_add(ctx, &s, c, &p);
        let r = pos.row(row);
        region.override_value(r, column, region.value(r, column) + delta);
        ((), vec![])
    });
    run.rejections()
}

#[test]
fn every_straus_column_is_constrained() {
    // Each column of a middle row, and the output row's six: a change is always rejected.
    for column in 0..COLUMNS {
        let got = tampered_ladder(100, column, Fr::ONE);
        assert!(!got.is_empty(), "column {column}: tampering went unnoticed");
    }
    for column in 0..6 {
        let got = tampered_ladder(254, column, Fr::ONE);
        assert!(
            !got.is_empty(),
            "output column {column}: tampering went unnoticed"
        );
    }
}

#[test]
fn tampered_lambda_is_rejected_by_the_gate() {
    let got = tampered_ladder(7, 8, Fr::from(3));
    assert!(got.contains(&Rejection::Gate), "got {got:?}");
}

/// Mock-runs one ladder on `p` with the bits (most significant first) and the `c` given.
fn ladder_with_bits(
    p: GrumpkinAffine,
    s_bits: &[bool],
    c_bits: &[bool],
    c: Fr,
) -> tms_gadgets::testing::MockRun<()> {
    CircuitHarness::new(K).mock_custom(|ctx, range, region| {
        let ecc = GrumpkinChip::new(range);
        let p = ecc.load_point(ctx, p).unwrap();
        let c = ctx.load_witness(c);
        StrausChip::new(range, region.clone()).mul_add_with_bits(ctx, s_bits, c_bits, c, &p);
        ((), vec![])
    })
}

#[test]
fn non_canonical_challenge_bits_are_rejected() {
    // The bits of c + r (< 2^254 for a small c) recompose to c in the field but multiply by a
    // different scalar: the top-bits bound must refuse them.
    let c = Fr::from(5u64);
    let cheat: num_bigint::BigUint = fr_modulus() + 5u32;
    let mut c_bits: Vec<bool> = (0..254).rev().map(|i| cheat.bit(i)).collect();
    assert!(c_bits[0], "c + r uses the top bit");
    let mut rng = rng();
    let p = random_point(&mut rng);
    let s = GrumpkinScalar::random(&mut rng);
    let s_repr = s.to_repr();
    let s_bits: Vec<bool> = (0..254)
        .rev()
        .map(|i| (s_repr.as_ref()[i / 8] >> (i % 8)) & 1 == 1)
        .collect();
    let run = ladder_with_bits(p, &s_bits, &c_bits, c);
    run.assert_rejected_by(Rejection::Lookup);
    // The same bits of c itself pass: the bound, not the bits, rejected the run above.
    c_bits = (0..254)
        .rev()
        .map(|i| i < 64 && (5u64 >> i) & 1 == 1)
        .collect();
    let run = ladder_with_bits(p, &s_bits, &c_bits, c);
    run.assert_satisfied();
}

#[test]
fn exceptional_addition_is_refused() {
    // P = 2O and a first s bit of 0: the first row adds P to M = 2O, so x_P = x_M and y_P = y_M.
    // The row's lambda equation reads 0 = 0 and lets any lambda through (a wrong sum): only
    // the product of x differences, zero here, refuses it.
    let p = (offset_point() + offset_point()).to_affine();
    // c = 2^253: the first row adds P (and keeps the wrong sum), the rest only double.
    let s_bits = vec![false; 254];
    let mut c_bits = vec![false; 254];
    c_bits[0] = true;
    let c = Fr::from(2u64).pow_vartime([253u64]);
    let run = ladder_with_bits(p, &s_bits, &c_bits, c);
    run.assert_rejected_by_copy();
}

fn schnorr_run(
    sk: &SigningKey,
    msg: Fr,
    signed: Fr,
    sig_edit: impl FnOnce(Signature) -> Signature,
) -> tms_gadgets::testing::MockRun<()> {
    let pk = sk.verifying_key();
    let sig = sig_edit(sk.sign(&RescuePrime, signed).unwrap());
    CircuitHarness::new(K).mock_custom(|ctx, range, region| {
        let ecc = GrumpkinChip::new(range);
        let pk = ecc.load_point(ctx, pk.0).unwrap();
        let r = ecc.load_point(ctx, sig.r).unwrap();
        let m = ctx.load_witness(msg);
        let hasher = RescueGateChip::new(region.clone());
        let c = hasher.hash_leaf(ctx, &[r.x, r.y, pk.x, pk.y, m]);
        let one = ctx.load_constant(Fr::ONE);
        SchnorrChip::new(range, region.clone()).verify(ctx, &pk, c, &r, &sig.s, one);
        ((), vec![m])
    })
}

#[test]
fn schnorr_on_custom_gates_positive_and_negatives() {
    let mut rng = rng();
    let sk = SigningKey::random(&mut rng);
    let m = Fr::from(77u64);
    schnorr_run(&sk, m, m, |s| s).assert_satisfied();
    schnorr_run(&sk, m + Fr::ONE, m, |s| s).assert_rejected_by_copy();
    schnorr_run(&sk, m, m, |s| Signature {
        s: s.s + GrumpkinScalar::ONE,
        ..s
    })
    .assert_rejected_by_copy();
    schnorr_run(&sk, m, m, |s| Signature {
        r: (s.r + GrumpkinAffine::generator()).to_affine(),
        ..s
    })
    .assert_rejected_by_copy();
    let other = SigningKey::random(&mut rng);
    let foreign = other.sign(&RescuePrime, m).unwrap();
    schnorr_run(&sk, m, m, |_| foreign).assert_rejected_by_copy();
    // The native challenge is the in-circuit one.
    let sig = sk.sign(&RescuePrime, m).unwrap();
    assert!(challenge(&RescuePrime, &sig.r, &sk.verifying_key(), m).is_ok());
}

#[test]
fn schnorr_disabled_slot_accepts_anything() {
    let mut rng = rng();
    let sk = SigningKey::random(&mut rng);
    let m = Fr::from(77u64);
    let sig = sk.sign(&RescuePrime, m + Fr::ONE).unwrap();
    let run = CircuitHarness::new(K).mock_custom(|ctx, range, region| {
        let ecc = GrumpkinChip::new(range);
        let pk = ecc.load_point(ctx, sk.verifying_key().0).unwrap();
        let r = ecc.load_point(ctx, sig.r).unwrap();
        let m = ctx.load_witness(m);
        let c = RescueGateChip::new(region.clone()).hash_leaf(ctx, &[r.x, r.y, pk.x, pk.y, m]);
        let zero = ctx.load_zero();
        SchnorrChip::new(range, region.clone()).verify(ctx, &pk, c, &r, &sig.s, zero);
        ((), vec![])
    });
    run.assert_satisfied();
}

#[test]
fn rescue_gate_agrees_with_native() {
    let mut rng = rng();
    let inputs: Vec<Fr> = (0..7).map(|_| Fr::random(&mut rng)).collect();
    let state: [Fr; WIDTH] = std::array::from_fn(|i| inputs[i]);
    let mut expected_perm = state;
    Fr::rescue_params().permute(&mut expected_perm);
    let mut expected = vec![RescuePrime.hash_node(inputs[0], inputs[1])];
    for len in 1..=7 {
        expected.push(RescuePrime.hash_leaf(&inputs[..len]).unwrap());
    }
    let run = CircuitHarness::new(K).mock_custom(|ctx, _range, region| {
        let chip = RescueGateChip::new(region.clone());
        let cells: Vec<_> = inputs.iter().map(|x| ctx.load_witness(*x)).collect();
        let perm = chip.permute(
            ctx,
            std::array::from_fn(|i| QuantumCell::Existing(cells[i])),
        );
        let mut outs = vec![chip.hash_node(ctx, cells[0], cells[1])];
        for len in 1..=7 {
            outs.push(chip.hash_leaf(ctx, &cells[..len]));
        }
        let perm: Vec<Fr> = perm.iter().map(|v| *v.value()).collect();
        (
            (perm, outs.iter().map(|v| *v.value()).collect::<Vec<_>>()),
            outs,
        )
    });
    run.assert_satisfied();
    assert_eq!(run.output.0, expected_perm.to_vec());
    assert_eq!(run.output.1, expected);
}

/// The rows of `rows` region rows from `first`, for comparing two layouts of one region.
fn region_rows(
    region: &tms_gadgets::bank::CustomRegion,
    first: usize,
    rows: usize,
) -> Vec<Vec<Fr>> {
    (first..first + rows)
        .map(|row| (0..COLUMNS).map(|col| region.value(row, col)).collect())
        .collect()
}

#[test]
fn precomputed_leaf_permutations_agree_with_the_native_hash() {
    let mut rng = rng();
    for len in 1..=10usize {
        let inputs: Vec<Fr> = (0..len).map(|_| Fr::random(&mut rng)).collect();
        let (digest, permutations) = leaf_permutations(&inputs);
        assert_eq!(digest, RescuePrime.hash_leaf(&inputs).unwrap());
        assert_eq!(permutations.len(), len.div_ceil(WIDTH - 1));
    }
}

#[test]
fn precomputed_permutations_lay_out_the_rows_the_chip_computes() {
    let mut rng = rng();
    let inputs: Vec<Fr> = (0..5).map(|_| Fr::random(&mut rng)).collect();
    let mut precomputed = PrecomputedPermutations::default();
    precomputed.extend(leaf_permutations(&inputs).1);
    assert_eq!(precomputed.len(), 2);
    let run = CircuitHarness::new(K).mock_custom(|ctx, _range, region| {
        let cells: Vec<_> = inputs.iter().map(|x| ctx.load_witness(*x)).collect();
        let computed = RescueGateChip::new(region.clone()).hash_leaf(ctx, &cells);
        let middle = region.num_rows();
        let chip = RescueGateChip::with_precomputed(region.clone(), precomputed.clone().into());
        let copied = chip.hash_leaf(ctx, &cells);
        // A state nobody precomputed is computed as before.
        let node = chip.hash_node(ctx, cells[0], cells[1]);
        let same = region_rows(region, 0, middle) == region_rows(region, middle, middle);
        (
            (*computed.value(), *copied.value(), *node.value(), same),
            vec![computed, copied],
        )
    });
    run.assert_satisfied();
    let (computed, copied, node, same_rows) = run.output;
    assert_eq!(computed, RescuePrime.hash_leaf(&inputs).unwrap());
    assert_eq!(copied, computed);
    assert_eq!(node, RescuePrime.hash_node(inputs[0], inputs[1]));
    assert!(
        same_rows,
        "the precomputed rows differ from the computed ones"
    );
}

#[test]
fn a_wrong_precomputed_row_is_rejected_by_the_gate() {
    let inputs = [Fr::from(3u64), Fr::from(5u64)];
    let (_, mut permutations) = leaf_permutations(&inputs);
    // One inverse S-box witness off by one: rows a cheating prover could have precomputed.
    permutations[0].rows[0][2 * WIDTH] += Fr::ONE;
    let mut precomputed = PrecomputedPermutations::default();
    precomputed.extend(permutations);
    let run = CircuitHarness::new(K).mock_custom(|ctx, _range, region| {
        let cells: Vec<_> = inputs.iter().map(|x| ctx.load_witness(*x)).collect();
        let chip = RescueGateChip::with_precomputed(region.clone(), precomputed.into());
        let out = chip.hash_leaf(ctx, &cells);
        ((), vec![out])
    });
    run.assert_rejected_by(Rejection::Gate);
}

#[test]
fn rescue_gate_cost_per_permutation() {
    let (cells, _) = CircuitHarness::new(K).measure_custom(|ctx, _range, region| {
        let x = ctx.load_witness(Fr::from(3u64));
        RescueGateChip::new(region.clone()).hash_node(ctx, x, x);
        region.num_cells()
    });
    assert_eq!(cells, 11 * COLUMNS + WIDTH);
}

#[test]
fn rescue_gate_wrong_inverse_witness_is_rejected() {
    let run = CircuitHarness::new(K).mock_custom(|ctx, _range, region| {
        let x = ctx.load_witness(Fr::from(3u64));
        let chip = RescueGateChip::new(region.clone());
        let mut first = true;
        let out = chip.permute_with_inverse_witness(ctx, [QuantumCell::Existing(x); WIDTH], |t| {
            // One wrong root, then honest ones computed from the wrong state.
            let root = t.pow_vartime(Fr::rescue_params().alpha_inv.to_u64_digits());
            if std::mem::take(&mut first) {
                root + Fr::ONE
            } else {
                root
            }
        });
        ((), vec![out[0]])
    });
    run.assert_rejected_by(Rejection::Gate);
}

#[test]
fn rescue_gate_tampered_output_is_rejected() {
    let run = CircuitHarness::new(K).mock_custom(|ctx, _range, region| {
        let x = ctx.load_witness(Fr::from(3u64));
        let out = RescueGateChip::new(region.clone()).hash_node(ctx, x, x);
        let last = region.num_rows() - 1;
        region.override_value(last, 0, region.value(last, 0) + Fr::ONE);
        ((), vec![out])
    });
    run.assert_rejected_by(Rejection::Gate);
}

#[test]
fn hybrid_circuit_real_round_trip() {
    let mut rng = rng();
    let sk = SigningKey::random(&mut rng);
    let m = Fr::from(99u64);
    let sig = sk.sign(&RescuePrime, m).unwrap();
    let pk = sk.verifying_key();
    let trip = CircuitHarness::new(K).prove_and_verify_custom(|ctx, range, region| {
        let ecc = GrumpkinChip::new(range);
        let pkc = ecc.load_point(ctx, pk.0).unwrap();
        let r = ecc.load_point(ctx, sig.r).unwrap();
        let mc = ctx.load_witness(m);
        let c = RescueGateChip::new(region.clone()).hash_leaf(ctx, &[r.x, r.y, pkc.x, pkc.y, mc]);
        let one = ctx.load_constant(Fr::ONE);
        SchnorrChip::new(range, region.clone()).verify(ctx, &pkc, c, &r, &sig.s, one);
        ((), vec![mc])
    });
    assert!(trip.verified);
    println!(
        "hybrid round trip: {} proof bytes, {}",
        trip.proof.len(),
        trip.stats
    );
}
