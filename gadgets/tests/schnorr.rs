//! Schnorr on Grumpkin: native scheme, in-circuit verification, and one-change negatives.

use halo2_base::halo2_proofs::halo2curves::{
    ff::Field,
    group::{prime::PrimeCurveAffine, Curve, Group},
    CurveAffine,
};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tms_gadgets::{
    curve::{GrumpkinAffine, GrumpkinChip, GrumpkinScalar},
    hash::{HashInstructions, NativeHash, Poseidon, PoseidonChip, RescueChip, RescuePrime},
    reference::GenericSchnorrChip,
    signature::schnorr::{Signature, SigningKey, VerifyingKey},
    testing::{CircuitHarness, MockRun},
    Fr,
};

fn keys() -> (SigningKey, SigningKey) {
    let mut rng = ChaCha8Rng::seed_from_u64(0x5c);
    (SigningKey::random(&mut rng), SigningKey::random(&mut rng))
}

const MSG: u64 = 424242;

#[test]
fn native_sign_and_verify() {
    let (sk, other) = keys();
    let pk = sk.verifying_key();
    let m = Fr::from(MSG);
    fn check<H: NativeHash>(h: &H, sk: &SigningKey, other: &SigningKey, pk: VerifyingKey, m: Fr) {
        let sig = sk.sign(h, m).unwrap();
        assert_eq!(sig, sk.sign(h, m).unwrap(), "deterministic nonce");
        assert!(pk.verify(h, m, &sig));
        assert!(!pk.verify(h, m + Fr::ONE, &sig), "wrong message");
        assert!(!other.verifying_key().verify(h, m, &sig), "wrong key");
        assert!(
            !pk.verify(
                h,
                m,
                &Signature {
                    s: sig.s + GrumpkinScalar::ONE,
                    ..sig
                }
            ),
            "tampered s"
        );
        let r = (sig.r + GrumpkinAffine::generator()).to_affine();
        assert!(!pk.verify(h, m, &Signature { r, ..sig }), "tampered R");
        let neg = VerifyingKey(-pk.0);
        assert!(!neg.verify(h, m, &sig), "-pk does not stand for pk");
    }
    check(&RescuePrime, &sk, &other, pk, m);
    check(&Poseidon, &sk, &other, pk, m);
}

/// Mock-runs one slot: key `pk`, message `msg`, signature `sig`, enabled bit.
fn slot<H: HashInstructions + Default>(
    pk: VerifyingKey,
    msg: Fr,
    sig: Signature,
    enabled: bool,
) -> MockRun<()> {
    CircuitHarness::new(17).mock(|ctx, range| {
        let chip = GenericSchnorrChip::new(GrumpkinChip::new(range), H::default());
        let pk = chip.ecc.load_point(ctx, pk.0).unwrap();
        let msg = ctx.load_witness(msg);
        let sig = chip.load_signature(ctx, &sig).unwrap();
        let enabled = ctx.load_witness(Fr::from(enabled as u64));
        chip.verify(ctx, &pk, msg, &sig, enabled);
        ((), vec![])
    })
}

#[test]
fn valid_signature_is_accepted_rescue_and_poseidon() {
    let (sk, _) = keys();
    let m = Fr::from(MSG);
    let run = slot::<RescueChip>(
        sk.verifying_key(),
        m,
        sk.sign(&RescuePrime, m).unwrap(),
        true,
    );
    run.assert_satisfied();
    println!(
        "record: one Schnorr verification (Rescue-Prime challenge): {}",
        run.stats
    );
    slot::<PoseidonChip>(sk.verifying_key(), m, sk.sign(&Poseidon, m).unwrap(), true)
        .assert_satisfied();
}

#[test]
fn signature_under_another_key_is_rejected() {
    let (sk, other) = keys();
    let m = Fr::from(MSG);
    slot::<RescueChip>(
        sk.verifying_key(),
        m,
        other.sign(&RescuePrime, m).unwrap(),
        true,
    )
    .assert_rejected_by_copy();
}

#[test]
fn wrong_message_is_rejected() {
    let (sk, _) = keys();
    let m = Fr::from(MSG);
    slot::<RescueChip>(
        sk.verifying_key(),
        m + Fr::ONE,
        sk.sign(&RescuePrime, m).unwrap(),
        true,
    )
    .assert_rejected_by_copy();
}

#[test]
fn tampered_r_is_rejected() {
    let (sk, _) = keys();
    let m = Fr::from(MSG);
    let sig = sk.sign(&RescuePrime, m).unwrap();
    let r = (sig.r + GrumpkinAffine::generator()).to_affine();
    slot::<RescueChip>(sk.verifying_key(), m, Signature { r, ..sig }, true)
        .assert_rejected_by_copy();
}

#[test]
fn tampered_s_is_rejected() {
    let (sk, _) = keys();
    let m = Fr::from(MSG);
    let sig = sk.sign(&RescuePrime, m).unwrap();
    slot::<RescueChip>(
        sk.verifying_key(),
        m,
        Signature {
            s: sig.s + GrumpkinScalar::ONE,
            ..sig
        },
        true,
    )
    .assert_rejected_by_copy();
}

#[test]
fn disabled_slot_ignores_its_signature() {
    let (sk, other) = keys();
    let m = Fr::from(MSG);
    slot::<RescueChip>(
        sk.verifying_key(),
        m,
        other.sign(&RescuePrime, m).unwrap(),
        false,
    )
    .assert_satisfied();
}

#[test]
fn identity_values_are_refused_natively() {
    let (sk, _) = keys();
    let m = Fr::from(MSG);
    let sig = Signature {
        r: GrumpkinAffine::identity(),
        s: GrumpkinScalar::ONE,
    };
    assert!(!sk.verifying_key().verify(&RescuePrime, m, &sig));
    assert!(bool::from(
        GrumpkinAffine::generator().coordinates().is_some()
    ));
    assert!(bool::from(
        tms_gadgets::curve::Grumpkin::identity().is_identity()
    ));
}
