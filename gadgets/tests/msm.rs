//! The pair-MSM gate of `tms_gadgets::curve::msm`: agreement with native scalar multiplication on
//! random inputs, every cell constrained, limbs bound to the bits, the exceptional addition
//! refused, and a real proof through the hybrid circuit (the gate is optional: configured only
//! when used).

use halo2_base::{
    gates::{GateInstructions, RangeChip, RangeInstructions},
    halo2_proofs::halo2curves::{ff::Field, group::Curve, CurveAffine},
    AssignedValue, Context,
};
use num_bigint::BigUint;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tms_gadgets::{
    bank::{COLUMNS, MSM_EQUALITY_COLUMNS},
    curve::msm::{chain_cells, MsmPairChip, MsmTerm},
    curve::{offset_point, GrumpkinAffine, GrumpkinChip, GrumpkinScalar},
    testing::{CircuitHarness, MockRun, Rejection},
    Fr,
};

const K: u32 = 11;

fn rng() -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(0x3517)
}

fn random_point(rng: &mut impl Rng) -> GrumpkinAffine {
    (GrumpkinAffine::generator() * GrumpkinScalar::random(&mut *rng)).to_affine()
}

fn to_big(s: &GrumpkinScalar) -> BigUint {
    BigUint::from_bytes_le(s.to_bytes().as_ref())
}

fn scalar_of(big: &BigUint) -> GrumpkinScalar {
    let mut bytes = big.to_bytes_le();
    bytes.resize(32, 0);
    GrumpkinScalar::from_bytes(&bytes.try_into().unwrap()).unwrap()
}

/// `big` split into range-checked limbs of the given widths, most significant first.
fn load_limbs(
    ctx: &mut Context<Fr>,
    range: &RangeChip<Fr>,
    big: &BigUint,
    widths: &[usize],
) -> Vec<(AssignedValue<Fr>, usize)> {
    let mut shift: usize = widths.iter().sum();
    widths
        .iter()
        .map(|&w| {
            shift -= w;
            let limb = (big >> shift) & ((BigUint::from(1u8) << w) - 1u8);
            let cell = ctx.load_witness(halo2_base::utils::biguint_to_fe(&limb));
            range.range_check(ctx, cell, w);
            (cell, w)
        })
        .collect()
}

/// The terms of a 254-bit chain: `a` in limbs 78/88/88, `b` (128 bits) padded with a zero limb.
fn long_terms(ctx: &mut Context<Fr>, range: &RangeChip<Fr>, c: &Case) -> (MsmTerm, MsmTerm) {
    let ecc = GrumpkinChip::new(range);
    let p = MsmTerm {
        point: ecc.load_point(ctx, c.p).unwrap(),
        limbs: load_limbs(ctx, range, &c.a, &[78, 88, 88]),
    };
    let q = MsmTerm {
        point: ecc.load_point(ctx, c.q).unwrap(),
        limbs: load_limbs(ctx, range, &c.b, &[126, 128]),
    };
    (p, q)
}

/// `2^bits O`.
fn shift(bits: usize) -> GrumpkinAffine {
    let two = GrumpkinScalar::from(2);
    (offset_point() * two.pow_vartime([bits as u64])).to_affine()
}

struct Case {
    p: GrumpkinAffine,
    q: GrumpkinAffine,
    a: BigUint,
    b: BigUint,
}

fn case(rng: &mut ChaCha8Rng) -> Case {
    Case {
        p: random_point(rng),
        q: random_point(rng),
        a: to_big(&GrumpkinScalar::random(&mut *rng)),
        b: BigUint::from(rng.gen::<u128>()),
    }
}

/// One 254-bit chain: `a` in limbs 78/88/88, `b` (128 bits) padded with a zero limb. `tamper`
/// then plays a cheating prover on the chain's first row index.
fn run_chain(
    c: &Case,
    bits: Option<(Vec<bool>, Vec<bool>)>,
    tamper: impl FnOnce(&tms_gadgets::bank::CustomRegion, usize),
) -> MockRun<(Fr, Fr)> {
    CircuitHarness::new(K).mock_custom(|ctx, range, region| {
        let (p, q) = long_terms(ctx, range, c);
        let chip = MsmPairChip::new(range, region.clone());
        let (out, first) = match &bits {
            None => chip.mul_add_pair(ctx, &p, &q),
            Some((pb, qb)) => chip.mul_add_pair_with_bits(ctx, &p, &q, pb, qb),
        };
        tamper(region, first);
        // Coordinates, not a point: a cheating run may end off the curve.
        ((*out.x.value(), *out.y.value()), vec![])
    })
}

fn expected(c: &Case, bits: usize) -> GrumpkinAffine {
    (c.p * scalar_of(&c.a) + c.q * scalar_of(&c.b) + shift(bits)).to_affine()
}

fn xy(p: GrumpkinAffine) -> (Fr, Fr) {
    let c = p.coordinates().unwrap();
    (*c.x(), *c.y())
}

#[test]
fn pair_chain_agrees_with_native() {
    let mut rng = rng();
    for _ in 0..3 {
        let c = case(&mut rng);
        let run = run_chain(&c, None, |_, _| {});
        run.assert_satisfied();
        assert_eq!(run.output, xy(expected(&c, 254)));
    }
}

#[test]
fn short_chain_agrees_with_native() {
    // Two 128-bit scalars in a 128-row chain: the offset is 2^128 O.
    let mut rng = rng();
    let c = case(&mut rng);
    let a = BigUint::from(rng.gen::<u128>());
    let run = CircuitHarness::new(K).mock_custom(|ctx, range, region| {
        let ecc = GrumpkinChip::new(range);
        let term = |ctx: &mut Context<Fr>, point, big: &BigUint| MsmTerm {
            point: ecc.load_point(ctx, point).unwrap(),
            limbs: load_limbs(ctx, range, big, &[128]),
        };
        let (p, q) = (term(ctx, c.p, &a), term(ctx, c.q, &c.b));
        let (out, _) = MsmPairChip::new(range, region.clone()).mul_add_pair(ctx, &p, &q);
        (out.value(), vec![])
    });
    run.assert_satisfied();
    let want = (c.p * scalar_of(&a) + c.q * scalar_of(&c.b) + shift(128)).to_affine();
    assert_eq!(run.output, want);
}

#[test]
fn pair_chain_cost() {
    let mut rng = rng();
    let c = case(&mut rng);
    let (custom, stats) = CircuitHarness::new(K).measure_custom(|ctx, range, region| {
        let (p, q) = long_terms(ctx, range, &c);
        MsmPairChip::new(range, region.clone()).mul_add_pair(ctx, &p, &q);
        region.num_cells()
    });
    assert_eq!(custom, chain_cells(254));
    println!("msm pair chain (254 bits): {custom} custom cells, total {stats}");
}

#[test]
fn every_pair_chain_column_is_constrained() {
    let c = case(&mut rng());
    for (row, columns) in [(100, COLUMNS), (254, MSM_EQUALITY_COLUMNS)] {
        for column in 0..columns {
            let run = run_chain(&c, None, |region, first| {
                let r = first + row;
                region.override_value(r, column, region.value(r, column) + Fr::ONE);
            });
            assert!(
                !run.rejections().is_empty(),
                "row {row} column {column}: tampering went unnoticed"
            );
        }
    }
}

#[test]
fn tampered_slope_is_rejected_by_the_gate() {
    let c = case(&mut rng());
    let run = run_chain(&c, None, |region, first| {
        region.override_value(first + 9, 13, region.value(first + 9, 13) + Fr::from(5));
    });
    assert!(run.rejections().contains(&Rejection::Gate));
}

fn msb_bits(big: &BigUint, len: usize) -> Vec<bool> {
    (0..len).rev().map(|i| big.bit(i as u64)).collect()
}

#[test]
fn bits_other_than_the_limbs_are_rejected() {
    // The chain's own gate holds for any bits; only the limb checkpoints catch them.
    let c = case(&mut rng());
    let honest = (msb_bits(&c.a, 254), msb_bits(&c.b, 254));
    run_chain(&c, Some(honest.clone()), |_, _| {}).assert_satisfied();
    for flip in [0usize, 77, 78, 165, 253] {
        let mut pb = honest.0.clone();
        pb[flip] = !pb[flip];
        run_chain(&c, Some((pb, honest.1.clone())), |_, _| {}).assert_rejected_by_copy();
    }
    // a + r as the bits of a (the same point modulo r in the accumulator, not as a scalar).
    let r = tms_gadgets::curve::fr_modulus();
    let wrapped = &c.a + &r;
    if wrapped.bits() <= 254 {
        run_chain(&c, Some((msb_bits(&wrapped, 254), honest.1)), |_, _| {})
            .assert_rejected_by_copy();
    }
}

#[test]
fn exceptional_addition_is_refused() {
    // With a = 0 the accumulator before row 126 is 2^126 O and its double 2^127 O. Take
    // Q = 2^127 O and b = 2^127, whose only bit is read at row 126: the addition D + Q has equal
    // x. The gate alone cannot see it (any slope satisfies l1 * 0 = 0); the product check must.
    let mut c = case(&mut rng());
    c.a = BigUint::from(0u8);
    c.q = shift(127);
    c.b = BigUint::from(1u8) << 127;
    let run = run_chain(&c, None, |_, _| {});
    // `prod * prod^-1 = 1` fails (a constant equality in halo2-base).
    assert!(
        run.rejections().contains(&Rejection::Constant),
        "got {:?}",
        run.rejections()
    );
}

#[test]
fn real_proof_with_the_optional_gate() {
    let mut rng = rng();
    let c = case(&mut rng);
    let want = expected(&c, 254);
    let trip = CircuitHarness::new(K).prove_and_verify_custom(|ctx, range, region| {
        let (p, q) = long_terms(ctx, range, &c);
        let (out, _) = MsmPairChip::new(range, region.clone()).mul_add_pair(ctx, &p, &q);
        let gate = range.gate();
        let x = gate.add(ctx, out.x, halo2_base::QuantumCell::Constant(Fr::ZERO));
        ((), vec![x])
    });
    assert!(trip.verified, "the real verifier accepts");
    assert_eq!(trip.public_values, vec![*want.coordinates().unwrap().x()]);
}
