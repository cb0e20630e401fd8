//! The Grumpkin chip against `halo2curves`' native Grumpkin, its exceptional cases, and
//! canonical scalar decomposition.

use halo2_base::{
    halo2_proofs::halo2curves::{
        ff::{Field, PrimeField},
        group::{prime::PrimeCurveAffine, Curve, Group},
        CurveAffine,
    },
    AssignedValue, Context,
};
use num_bigint::BigUint;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tms_gadgets::{
    curve::{
        fr_modulus, grumpkin_order, ladder_shift, AssignedPoint, Grumpkin, GrumpkinAffine,
        GrumpkinChip, GrumpkinScalar,
    },
    reference::GenericLadder,
    testing::{CircuitHarness, Rejection},
    Fr, GadgetError,
};

fn rng() -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(0xecc)
}

fn random_point(rng: &mut ChaCha8Rng) -> GrumpkinAffine {
    Grumpkin::random(rng).to_affine()
}

fn coords(p: &AssignedPoint) -> Vec<AssignedValue<Fr>> {
    vec![p.x, p.y]
}

fn native_coords(p: GrumpkinAffine) -> Vec<Fr> {
    let c = p.coordinates().unwrap();
    vec![*c.x(), *c.y()]
}

fn shifted(p: Grumpkin) -> GrumpkinAffine {
    (p + ladder_shift()).to_affine()
}

#[test]
fn group_law_agrees_with_native() {
    let mut rng = rng();
    let (p, q) = (random_point(&mut rng), random_point(&mut rng));
    let run = CircuitHarness::new(12).mock(|ctx, range| {
        let chip = GrumpkinChip::new(range);
        let (ap, aq) = (
            chip.load_point(ctx, p).unwrap(),
            chip.load_point(ctx, q).unwrap(),
        );
        let bit1 = ctx.load_witness(Fr::ONE);
        let mut out = coords(&chip.add_unequal(ctx, &ap, &aq));
        out.extend(coords(&chip.double(ctx, &ap)));
        out.extend(coords(&chip.negate(ctx, &ap)));
        out.extend(coords(&chip.select(ctx, &ap, &aq, bit1)));
        ((), out)
    });
    run.assert_satisfied();
    let expected: Vec<Fr> = [(p + q).to_affine(), (p + p).to_affine(), -p, p]
        .into_iter()
        .flat_map(native_coords)
        .collect();
    assert_eq!(run.public_values, expected);
}

#[test]
fn identity_is_refused_natively() {
    let (err, _) = CircuitHarness::new(10).measure(|ctx, range| {
        GrumpkinChip::new(range)
            .load_point(ctx, GrumpkinAffine::identity())
            .unwrap_err()
    });
    assert_eq!(err, GadgetError::IdentityPoint);
}

#[test]
fn off_curve_point_is_rejected() {
    let p = random_point(&mut rng());
    let c = p.coordinates().unwrap();
    let run = CircuitHarness::new(10).mock(|ctx, range| {
        let chip = GrumpkinChip::new(range);
        let point = AssignedPoint {
            x: ctx.load_witness(*c.x()),
            y: ctx.load_witness(*c.y() + Fr::ONE),
        };
        chip.assert_on_curve(ctx, &point);
        ((), vec![])
    });
    run.assert_rejected_by(Rejection::AdviceCopy);
}

fn add_exception(q_of: impl Fn(GrumpkinAffine) -> GrumpkinAffine) {
    let p = random_point(&mut rng());
    let run = CircuitHarness::new(10).mock(|ctx, range| {
        let chip = GrumpkinChip::new(range);
        let (ap, aq) = (
            chip.load_point(ctx, p).unwrap(),
            chip.load_point(ctx, q_of(p)).unwrap(),
        );
        ((), coords(&chip.add_unequal(ctx, &ap, &aq)))
    });
    // x_p = x_q: the witnessed inverse of 0 cannot make the product one.
    run.assert_rejected_by_copy();
}

#[test]
fn add_unequal_refuses_p_plus_p() {
    add_exception(|p| p);
}

#[test]
fn add_unequal_refuses_p_minus_p() {
    add_exception(|p| -p);
}

#[test]
fn scalar_multiplications_agree_with_native() {
    let mut rng = rng();
    let points: Vec<GrumpkinAffine> = (0..3).map(|_| random_point(&mut rng)).collect();
    let mut scalars: Vec<GrumpkinScalar> =
        (0..3).map(|_| GrumpkinScalar::random(&mut rng)).collect();
    scalars[2] = -GrumpkinScalar::ONE; // q - 1: the largest canonical scalar
    let g = GrumpkinAffine::generator();
    let harness = CircuitHarness::new(17);
    let run = harness.mock(|ctx, range| {
        let chip = GrumpkinChip::new(range);
        let pts: Vec<_> = points
            .iter()
            .map(|p| chip.load_point(ctx, *p).unwrap())
            .collect();
        let ks: Vec<_> = scalars.iter().map(|s| chip.load_scalar(ctx, *s)).collect();
        let mut out = coords(&chip.scalar_mul(ctx, &pts[0], &ks[0]).0);
        out.extend(coords(&chip.fixed_base_mul(ctx, g, &ks[1]).0));
        out.extend(coords(&chip.msm(ctx, &pts, &ks).0));
        ((), out)
    });
    run.assert_satisfied();
    let msm = points
        .iter()
        .zip(&scalars)
        .fold(Grumpkin::identity(), |acc, (p, s)| acc + *p * s);
    let expected: Vec<Fr> = [
        shifted(points[0] * scalars[0]),
        shifted(g * scalars[1]),
        shifted(msm),
    ]
    .into_iter()
    .flat_map(native_coords)
    .collect();
    assert_eq!(run.public_values, expected);
}

#[test]
fn base_field_scalar_agrees_with_native() {
    // A hash output (an Fr element) used as a scalar: c * P.
    let mut rng = rng();
    let p = random_point(&mut rng);
    let c = -Fr::ONE; // r - 1: the largest canonical circuit-field element
    let c_as_scalar = GrumpkinScalar::from_repr(c.to_repr()).unwrap();
    let run = CircuitHarness::new(16).mock(|ctx, range| {
        let chip = GrumpkinChip::new(range);
        let ap = chip.load_point(ctx, p).unwrap();
        let x = ctx.load_witness(c);
        let k = chip.scalar_from_base(ctx, x);
        ((), coords(&chip.scalar_mul(ctx, &ap, &k).0))
    });
    run.assert_satisfied();
    assert_eq!(run.public_values, native_coords(shifted(p * c_as_scalar)));
}

fn decomposition_run(
    harness: &CircuitHarness,
    f: impl FnOnce(&mut Context<Fr>, &GrumpkinChip) -> Vec<AssignedValue<Fr>>,
) -> tms_gadgets::testing::MockRun<()> {
    harness.mock(|ctx, range| {
        let chip = GrumpkinChip::new(range);
        ((), f(ctx, &chip))
    })
}

#[test]
fn base_field_element_decomposed_above_r_is_rejected() {
    // x = 5 has a second 254-bit decomposition, 5 + r, which the canonicity check must refuse.
    let harness = CircuitHarness::new(11);
    let five = Fr::from(5);
    decomposition_run(&harness, |ctx, chip| {
        let x = ctx.load_witness(five);
        chip.scalar_from_base_with_witness(ctx, x, &BigUint::from(5u8))
            .bits
    })
    .assert_satisfied();
    decomposition_run(&harness, |ctx, chip| {
        let x = ctx.load_witness(five);
        chip.scalar_from_base_with_witness(ctx, x, &(fr_modulus() + 5u8))
            .bits
    })
    .assert_rejected_by_copy();
}

#[test]
fn grumpkin_scalar_at_or_above_q_is_rejected() {
    let harness = CircuitHarness::new(11);
    decomposition_run(&harness, |ctx, chip| {
        chip.load_scalar_integer(ctx, &(grumpkin_order() - 1u8))
            .bits
    })
    .assert_satisfied();
    for bad in [grumpkin_order(), grumpkin_order() + 7u8] {
        decomposition_run(&harness, |ctx, chip| {
            chip.load_scalar_integer(ctx, &bad).bits
        })
        .assert_rejected_by_copy();
    }
}

#[test]
fn operation_costs() {
    let mut rng = rng();
    let (p, q) = (random_point(&mut rng), random_point(&mut rng));
    let s = GrumpkinScalar::random(&mut rng);
    let harness = CircuitHarness::new(17);
    let measure = |f: &dyn Fn(&mut Context<Fr>, &GrumpkinChip)| {
        harness
            .measure(|ctx, range| {
                let chip = GrumpkinChip::new(range);
                f(ctx, &chip)
            })
            .1
            .advice_cells
    };
    let base = measure(&|ctx, chip| {
        chip.load_point(ctx, p).unwrap();
        chip.load_point(ctx, q).unwrap();
    });
    let add = measure(&|ctx, chip| {
        let (a, b) = (
            chip.load_point(ctx, p).unwrap(),
            chip.load_point(ctx, q).unwrap(),
        );
        chip.add_unequal(ctx, &a, &b);
    }) - base;
    let double = measure(&|ctx, chip| {
        let a = chip.load_point(ctx, p).unwrap();
        chip.load_point(ctx, q).unwrap();
        chip.double(ctx, &a);
    }) - base;
    let scalar = measure(&|ctx, chip| {
        chip.load_point(ctx, p).unwrap();
        chip.load_point(ctx, q).unwrap();
        chip.load_scalar(ctx, s);
    }) - base;
    let var_mul = measure(&|ctx, chip| {
        let a = chip.load_point(ctx, p).unwrap();
        chip.load_point(ctx, q).unwrap();
        let k = chip.load_scalar(ctx, s);
        chip.scalar_mul(ctx, &a, &k);
    }) - base
        - scalar;
    let fixed_mul = measure(&|ctx, chip| {
        chip.load_point(ctx, p).unwrap();
        chip.load_point(ctx, q).unwrap();
        let k = chip.load_scalar(ctx, s);
        chip.fixed_base_mul(ctx, GrumpkinAffine::generator(), &k);
    }) - base
        - scalar;
    println!(
        "record: grumpkin advice cells: add {add}, double {double}, scalar decomposition {scalar}, variable-base mul {var_mul}, fixed-base mul {fixed_mul}"
    );
    assert!(add < 60 && double < 60);
}
