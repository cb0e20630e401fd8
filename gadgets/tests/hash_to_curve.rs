//! Hash to Grumpkin (`tms_gadgets::curve::hash_to_curve`): the constants and the native map
//! against the independent Python reference's vectors, the circuit against the native twin on
//! the vectors and on random inputs, and one-change negatives: each starts from the honest
//! witness of a map and changes one choice of the prover, keeping everything after it
//! consistent, so that exactly one check stands in the way.

use halo2_base::{
    halo2_proofs::halo2curves::{ff::Field, CurveAffine},
    utils::{biguint_to_fe, fe_to_biguint},
};
use num_bigint::BigUint;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::Value;
use tms_gadgets::{
    curve::{
        hash_to_curve::{
            add_mapped, curve_y, g, hash_to_curve_witness, hash_to_grumpkin, map_to_curve_svdw,
            svdw_constants, svdw_trace, svdw_trace_with_inverse, SvdwWitness,
        },
        AssignedPoint, GrumpkinAffine, GrumpkinChip, HashToCurveChip,
    },
    field::{fr_modulus, sgn0_native},
    hash::{Poseidon, PoseidonChip, PoseidonGateChip},
    testing::{CircuitHarness, MockRun},
    Fr, GadgetError,
};

fn dec(v: &Value) -> Fr {
    let n: BigUint = v.as_str().unwrap().parse().unwrap();
    assert!(n < fr_modulus());
    biguint_to_fe(&n)
}

fn vectors() -> Value {
    serde_json::from_str(include_str!("../../tests/vectors/grumpkin_svdw.json")).unwrap()
}

fn vector_inputs() -> Vec<Fr> {
    vectors()["vectors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| dec(&v["u"]))
        .collect()
}

fn xy(p: &GrumpkinAffine) -> (Fr, Fr) {
    let c = p.coordinates().unwrap();
    (*c.x(), *c.y())
}

fn point_values(p: &AssignedPoint) -> (Fr, Fr) {
    (*p.x.value(), *p.y.value())
}

#[test]
fn constants_follow_the_rfc() {
    let c = svdw_constants();
    let inv = |x: u64| Fr::from(x).invert().unwrap();
    assert_eq!(
        c.z,
        Fr::ONE,
        "find_z_svdw picks Z = 1 (as halo2curves does)"
    );
    assert_eq!(c.c1, -Fr::from(16));
    assert_eq!(c.c2, -inv(2));
    assert_eq!(c.c3.square(), Fr::from(48));
    assert!(!sgn0_native(&c.c3));
    assert_eq!(c.c4, Fr::from(64) * inv(3));
    assert_eq!(c.non_residue, Fr::from(5));
    assert!(bool::from(c.non_residue.sqrt().is_none()));
    assert!((2..5).all(|n| bool::from(Fr::from(n).sqrt().is_some())));
    // No x has g(x) = 0: 17 is not a cube (r = 1 mod 3), so x^3 = 17 has no solution.
    let r = fr_modulus();
    assert_eq!(&r % 3u8, BigUint::from(1u8));
    let exponent = ((&r - 1u8) / 3u8).to_u64_digits();
    assert_ne!(Fr::from(17).pow_vartime(&exponent), Fr::ONE);
}

#[test]
fn map_matches_independent_vectors() {
    let v = vectors();
    let c = svdw_constants();
    assert_eq!(v["p"].as_str().unwrap(), fr_modulus().to_string());
    assert_eq!(dec(&v["B"]), -Fr::from(17));
    for (name, value) in [
        ("Z", c.z),
        ("c1", c.c1),
        ("c2", c.c2),
        ("c3", c.c3),
        ("c4", c.c4),
    ] {
        assert_eq!(dec(&v[name]), value, "{name}");
    }
    let mut candidates = [0; 3];
    let mut exceptional = 0;
    for case in v["vectors"].as_array().unwrap() {
        let u = dec(&case["u"]);
        let trace = svdw_trace(u);
        let expected = (dec(&case["x"]), dec(&case["y"]));
        assert_eq!(xy(&map_to_curve_svdw(u)), expected, "u = {u:?}");
        assert_eq!(
            trace.chosen + 1,
            case["candidate"].as_u64().unwrap() as usize
        );
        assert_eq!(
            trace.inv == Fr::ZERO,
            case["exceptional"].as_bool().unwrap()
        );
        candidates[trace.chosen] += 1;
        exceptional += usize::from(trace.inv == Fr::ZERO);
    }
    // The vectors reach every candidate and the four exceptional inputs.
    assert!(candidates.iter().all(|&n| n > 0), "{candidates:?}");
    assert_eq!(exceptional, 4);
}

/// MockProver on maps of `us` with the honest witnesses; returns the circuit's points.
fn circuit_maps(us: &[Fr]) -> MockRun<Vec<(Fr, Fr)>> {
    CircuitHarness::new(14).mock(|ctx, range| {
        let chip = HashToCurveChip::new(range, PoseidonChip::new());
        let points = us
            .iter()
            .map(|&u| {
                let u = ctx.load_witness(u);
                point_values(&chip.map_to_curve(ctx, u))
            })
            .collect();
        (points, vec![])
    })
}

#[test]
fn circuit_map_agrees_with_native() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x5bd3);
    let mut us = vector_inputs();
    us.extend((0..8).map(|_| Fr::random(&mut rng)));
    let run = circuit_maps(&us);
    run.assert_satisfied();
    for (u, p) in us.iter().zip(&run.output) {
        assert_eq!(*p, xy(&map_to_curve_svdw(*u)), "u = {u:?}");
    }
    let (_, one) = CircuitHarness::new(12).measure(|ctx, range| {
        let u = ctx.load_witness(us[20]);
        HashToCurveChip::new(range, PoseidonChip::new()).map_to_curve(ctx, u);
    });
    println!("one SvdW map: {one}");
}

#[test]
fn circuit_hash_agrees_with_native() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x42c);
    let inputs: Vec<(Fr, Fr)> = (0..4)
        .map(|_| (Fr::from(rng.gen::<u64>()), Fr::random(&mut rng)))
        .collect();
    // On the generic-gate Poseidon ...
    let run = CircuitHarness::new(14).mock(|ctx, range| {
        let chip = HashToCurveChip::new(range, PoseidonChip::new());
        let points: Vec<(Fr, Fr)> = inputs
            .iter()
            .map(|&(tag, msg)| {
                let [tag, msg] = [tag, msg].map(|x| ctx.load_witness(x));
                point_values(&chip.hash_to_curve(ctx, tag, msg))
            })
            .collect();
        (points, vec![])
    });
    run.assert_satisfied();
    for ((tag, msg), p) in inputs.iter().zip(&run.output) {
        assert_eq!(*p, xy(&hash_to_grumpkin(*tag, *msg).unwrap()));
    }
    // ... and on the Poseidon round gates, with the witnesses built natively.
    let (tag, msg) = inputs[0];
    let run = CircuitHarness::new(12).mock_custom(|ctx, range, region| {
        let chip = HashToCurveChip::new(range, PoseidonGateChip::new(region.clone()));
        let [t, m] = [tag, msg].map(|x| ctx.load_witness(x));
        let witness = hash_to_curve_witness(&Poseidon, tag, msg).unwrap();
        let p = chip.hash_to_curve_with_witness(ctx, t, m, &witness);
        (point_values(&p), vec![])
    });
    run.assert_satisfied();
    assert_eq!(run.output, xy(&hash_to_grumpkin(tag, msg).unwrap()));
    println!("hash to curve on the Poseidon round gates: {}", run.stats);
}

#[test]
fn mapped_points_with_equal_x_are_refused() {
    let u = Fr::from(7);
    let p = map_to_curve_svdw(u);
    assert_eq!(add_mapped(&p, &p), Err(GadgetError::HashToCurveExceptional));
    assert_eq!(
        add_mapped(&p, &-p),
        Err(GadgetError::HashToCurveExceptional)
    );
    // The circuit's addition of the two maps refuses them too.
    let run = CircuitHarness::new(12).mock(|ctx, range| {
        let chip = HashToCurveChip::new(range, PoseidonChip::new());
        let [u0, u1] = [u, u].map(|u| ctx.load_witness(u));
        let (p0, p1) = (chip.map_to_curve(ctx, u0), chip.map_to_curve(ctx, u1));
        GrumpkinChip::new(range).add_unequal(ctx, &p0, &p1);
        ((), vec![])
    });
    run.assert_rejected_by_copy();
}

/// MockProver on one map of `u` with the witness `w`.
fn run_map(u: Fr, w: &SvdwWitness) -> MockRun<(Fr, Fr)> {
    CircuitHarness::new(12).mock(|ctx, range| {
        let u = ctx.load_witness(u);
        let p =
            HashToCurveChip::new(range, PoseidonChip::new()).map_to_curve_with_witness(ctx, u, w);
        (point_values(&p), vec![])
    })
}

/// The first `u = 2, 3, ...` satisfying `pred`.
fn find_u(pred: impl Fn(Fr) -> bool) -> Fr {
    (2u64..100_000)
        .map(Fr::from)
        .find(|&u| pred(u))
        .expect("some small u qualifies")
}

/// The first `u` whose first and second candidates are both on the curve (the RFC takes x1;
/// then x3 is on the curve too, as g(x1) g(x2) g(x3) is a square).
fn both_squares() -> Fr {
    find_u(|u| {
        let t = svdw_trace(u);
        t.chosen == 0 && bool::from(g(t.candidates[1]).sqrt().is_some())
    })
}

/// `w` with `y` replaced (its honest canonical integer).
fn with_y(w: &SvdwWitness, y: Fr) -> SvdwWitness {
    SvdwWitness {
        y,
        y_integer: fe_to_biguint(&y),
        ..w.clone()
    }
}

#[test]
fn honest_witness_is_accepted() {
    let u = Fr::from(5);
    let run = run_map(u, &SvdwWitness::new(u));
    run.assert_satisfied();
    assert_eq!(run.output, xy(&map_to_curve_svdw(u)));
}

#[test]
fn negated_y_is_rejected() {
    let u = Fr::from(5);
    let honest = SvdwWitness::new(u);
    // (x, -y) is on the curve: only sgn0(y) = sgn0(u) rejects it.
    let bad = with_y(&honest, -honest.y);
    run_map(u, &bad).assert_rejected_by_copy();
}

/// The honest witness of `u` but for `y`: that of candidate `i`, with `u`'s sign.
fn taking_candidate(u: Fr, i: usize) -> SvdwWitness {
    let x = svdw_trace(u).candidates[i];
    with_y(&SvdwWitness::new(u), curve_y(x, sgn0_native(&u)).unwrap())
}

#[test]
fn second_candidate_when_first_is_square_is_rejected() {
    // Claim g(x1) is a non-square (its root as the bogus non-residue witness), take x2 with the
    // right sign: only the non-residue check of x1 fails.
    let u = both_squares();
    let mut bad = taking_candidate(u, 1);
    bad.is_square[0] = false;
    run_map(u, &bad).assert_rejected_by_copy();
}

#[test]
fn second_candidate_with_both_squares_claimed_is_rejected() {
    // Both candidates' claims true (e1 = e2 = 1), y of x2: step 21's `e2 AND NOT e1` keeps x1,
    // so only y^2 = g(x) fails.
    let u = both_squares();
    let bad = taking_candidate(u, 1);
    assert_eq!(bad.is_square, [true, true]);
    run_map(u, &bad).assert_rejected_by_copy();
}

#[test]
fn third_candidate_with_bogus_non_residue_witnesses_is_rejected() {
    // Both claimed non-squares, their roots as the non-residue witnesses, x3 taken.
    let u = both_squares();
    let mut bad = taking_candidate(u, 2);
    bad.is_square = [false, false];
    run_map(u, &bad).assert_rejected_by_copy();
}

#[test]
fn non_canonical_sign_decomposition_is_rejected() {
    // A u whose -y is below 2^254 - r, so that -y + r < 2^254 has 254 bits and the
    // opposite parity: the wrong root with a sign decomposition that matches u's.
    let bound = (BigUint::from(1u8) << 254) - fr_modulus();
    let u = find_u(|u| fe_to_biguint(&-svdw_trace(u).y) < bound);
    let honest = SvdwWitness::new(u);
    let mut bad = with_y(&honest, -honest.y);
    bad.y_integer = fe_to_biguint(&bad.y) + fr_modulus();
    assert_eq!(bad.y_integer.bit(0), sgn0_native(&u));
    run_map(u, &bad).assert_rejected_by_copy();
}

#[test]
fn bogus_inverse_at_exceptional_input_is_rejected() {
    // u = 1/4: c1 u^2 = -1, so tv2 = 0 and inv0(tv1 tv2) = 0. A prover claiming tv3 = 1 moves
    // x1 and x2 off c2 (x3 = Z stays); the rest of its witness follows the claim.
    let u = Fr::from(4).invert().unwrap();
    assert_eq!(svdw_trace(u).inv, Fr::ZERO);
    let trace = svdw_trace_with_inverse(u, Fr::ONE).unwrap();
    assert_ne!(trace.candidates[0], svdw_constants().c2);
    let bad = SvdwWitness::from_trace(u, &trace);
    assert_ne!(bad, SvdwWitness::new(u));
    run_map(u, &bad).assert_rejected_by_copy();
}
