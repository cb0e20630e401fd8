//! The DLEQ gadget (`tms_gadgets::curve::dleq`): agreement with native Grumpkin arithmetic on random
//! inputs, and one-change negatives (wrong point, wrong response, a tampered cell of the
//! variable-base ladder, a base that changes between rows, bits that differ from the first
//! ladder's).

use halo2_base::halo2_proofs::halo2curves::{ff::Field, group::Curve, CurveAffine};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tms_gadgets::{
    curve::dleq::{DleqChip, DleqPosition, VARIABLE_LADDER_CELLS},
    curve::straus::LADDER_CELLS,
    curve::{ladder_shift, GrumpkinAffine, GrumpkinChip, GrumpkinScalar},
    signature::schnorr::base_to_scalar,
    testing::{CircuitHarness, MockRun, Rejection},
    Fr,
};

const K: u32 = 11;

fn random_point(rng: &mut impl Rng) -> GrumpkinAffine {
    (GrumpkinAffine::generator() * GrumpkinScalar::random(&mut *rng)).to_affine()
}

/// An honest DLEQ instance: `P = x G`, `Q = x H`, `A = n G`, `B = n H`, `s = n + c x`.
#[derive(Clone, Copy)]
struct Dleq {
    p: GrumpkinAffine,
    h: GrumpkinAffine,
    q: GrumpkinAffine,
    a: GrumpkinAffine,
    b: GrumpkinAffine,
    c: Fr,
    s: GrumpkinScalar,
}

fn honest(rng: &mut impl Rng) -> Dleq {
    let x = GrumpkinScalar::random(&mut *rng);
    let n = GrumpkinScalar::random(&mut *rng);
    let h = random_point(rng);
    let g = GrumpkinAffine::generator();
    let c = Fr::random(&mut *rng);
    Dleq {
        p: (g * x).to_affine(),
        h,
        q: (h * x).to_affine(),
        a: (g * n).to_affine(),
        b: (h * n).to_affine(),
        c,
        s: n + base_to_scalar(c) * x,
    }
}

/// Runs the gadget; `edit` may tamper with the custom region afterwards.
fn run(
    d: Dleq,
    edit: impl FnOnce(&tms_gadgets::bank::CustomRegion, DleqPosition),
) -> MockRun<(DleqPosition, GrumpkinAffine)> {
    CircuitHarness::new(K).mock_custom(|ctx, range, region| {
        let ecc = GrumpkinChip::new(range);
        let load = |ctx: &mut _, p| ecc.load_point(ctx, p).unwrap();
        let (p, h, q, a, b) = (
            load(ctx, d.p),
            load(ctx, d.h),
            load(ctx, d.q),
            load(ctx, d.a),
            load(ctx, d.b),
        );
        let c = ctx.load_witness(d.c);
        let pos = DleqChip::new(range, region.clone()).verify(ctx, &p, &h, &q, &a, &b, c, &d.s);
        let out = pos.variable.row(254);
        let result = GrumpkinAffine::from_xy(region.value(out, 0), region.value(out, 1)).unwrap();
        edit(region, pos);
        ((pos, result), vec![])
    })
}

#[test]
fn dleq_agrees_with_native() {
    let mut rng = ChaCha8Rng::seed_from_u64(0xd1e9);
    for _ in 0..3 {
        let d = honest(&mut rng);
        let r = run(d, |_, _| {});
        r.assert_satisfied();
        // The variable-base ladder computes s H + c (-Q) + 2^254 O = B + 2^254 O.
        let expected = (d.h * d.s - d.q * base_to_scalar(d.c) + ladder_shift()).to_affine();
        assert_eq!(r.output.1, expected);
        assert_eq!(
            r.output.1,
            (d.b + ladder_shift()).to_affine(),
            "s H = B + c Q"
        );
        let pos = r.output.0;
        assert_eq!(pos.variable.first_row, pos.fixed.first_row + 255);
    }
}

#[test]
fn dleq_cost() {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let d = honest(&mut rng);
    let r = run(d, |_, _| {});
    r.assert_satisfied();
    assert_eq!(r.stats.custom_rows, 2 * 255);
    // Custom cells: the Straus ladder, then 15 columns per bit and the output row.
    assert_eq!(VARIABLE_LADDER_CELLS, 254 * 15 + 6);
    println!(
        "dleq: {} custom rows, {} custom cells, {}",
        r.stats.custom_rows,
        LADDER_CELLS + VARIABLE_LADDER_CELLS,
        r.stats
    );
}

#[test]
fn dleq_wrong_points_and_response_are_rejected() {
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    let d = honest(&mut rng);
    let g = GrumpkinAffine::generator();
    // Q under another exponent: the second equation fails (s H != B + c Q').
    let other_q = Dleq {
        q: (d.h * (GrumpkinScalar::random(&mut rng))).to_affine(),
        ..d
    };
    run(other_q, |_, _| {}).assert_rejected_by_copy();
    // B moved.
    run(
        Dleq {
            b: (d.b + g).to_affine(),
            ..d
        },
        |_, _| {},
    )
    .assert_rejected_by_copy();
    // Another H (the proof was for d.h).
    run(
        Dleq {
            h: random_point(&mut rng),
            ..d
        },
        |_, _| {},
    )
    .assert_rejected_by_copy();
    // Another response: the first equation already fails.
    run(
        Dleq {
            s: d.s + GrumpkinScalar::ONE,
            ..d
        },
        |_, _| {},
    )
    .assert_rejected_by_copy();
    // Another challenge.
    run(
        Dleq {
            c: d.c + Fr::ONE,
            ..d
        },
        |_, _| {},
    )
    .assert_rejected_by_copy();
}

#[test]
fn tampered_variable_ladder_is_rejected_by_its_gate() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let d = honest(&mut rng);
    // Every column of a middle row of the second ladder is constrained by the gate.
    for column in 0..15 {
        let r = run(d, |region, pos| {
            let row = pos.variable.row(100);
            region.override_value(row, column, region.value(row, column) + Fr::ONE);
        });
        assert!(
            r.rejections().contains(&Rejection::Gate),
            "column {column}: {:?}",
            r.rejections()
        );
    }
}

#[test]
fn variable_ladder_reads_the_first_ladders_bits() {
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    let d = honest(&mut rng);
    // Flip an s bit of the FIRST ladder only: the first ladder's own gate breaks, and so does
    // the second's (it reads the flipped bit): both gates reject.
    let r = run(d, |region, pos| {
        let row = pos.fixed.row(200);
        let bit = region.value(row, 6);
        region.override_value(row, 6, Fr::ONE - bit);
    });
    assert!(r.rejections().contains(&Rejection::Gate));
    let failures = format!("{:?}", r.result);
    assert!(failures.contains("dleq"), "the dleq gate sees the bit");
}

#[test]
fn exceptional_addition_is_refused() {
    // H = 2 O: the first row's D = 2 A = 2 O has the x of H, so the slope of D + H is
    // undetermined; the row's inverse witness of the x differences cannot exist.
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let h = (tms_gadgets::curve::offset_point() + tms_gadgets::curve::offset_point()).to_affine();
    let x = GrumpkinScalar::random(&mut rng);
    let n = GrumpkinScalar::random(&mut rng);
    let g = GrumpkinAffine::generator();
    let c = Fr::random(&mut rng);
    let d = Dleq {
        p: (g * x).to_affine(),
        h,
        q: (h * x).to_affine(),
        a: (g * n).to_affine(),
        b: (h * n).to_affine(),
        c,
        s: n + base_to_scalar(c) * x,
    };
    let r = run(d, |_, _| {});
    assert!(
        r.rejections().contains(&Rejection::Gate),
        "{:?}",
        r.rejections()
    );
}
