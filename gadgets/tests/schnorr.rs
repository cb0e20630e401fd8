//! Schnorr on Grumpkin: native scheme, in-circuit verification, and one-change negatives.

use halo2_base::{
    halo2_proofs::halo2curves::{
        ff::Field,
        group::{prime::PrimeCurveAffine, Curve, Group, GroupEncoding},
        CurveAffine,
    },
    utils::biguint_to_fe,
};
use num_bigint::BigUint;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use sha3::{Digest, Sha3_512};
use tms_gadgets::{
    curve::{fr_modulus, GrumpkinAffine, GrumpkinChip, GrumpkinScalar},
    hash::{HashInstructions, NativeHash, Poseidon, PoseidonChip, RescueChip, RescuePrime},
    message::message_to_field,
    reference::GenericSchnorrChip,
    signature::schnorr::{possession_message, Signature, SigningKey, VerifyingKey, POSSESSION_TAG},
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

#[test]
fn proof_of_possession_binds_the_key_and_the_tag() {
    let (sk, other) = keys();
    let pk = sk.verifying_key();
    let h = &RescuePrime;
    // m_pop as documented, computed here with integers: SHA3-512(tag || compressed pk) read
    // little-endian, mod r.
    let m_pop = |tag: &[u8], pk: &VerifyingKey| -> Fr {
        let digest = Sha3_512::new()
            .chain_update(tag)
            .chain_update(pk.0.to_bytes())
            .finalize();
        biguint_to_fe(&(BigUint::from_bytes_le(&digest) % fr_modulus()))
    };
    assert_eq!(possession_message(&pk), m_pop(b"tms-schnorr-pop-v1", &pk));
    let pop = sk.prove_possession(h).unwrap();
    assert_eq!(pop, sk.sign(h, m_pop(b"tms-schnorr-pop-v1", &pk)).unwrap());
    assert!(pk.verify_possession(h, &pop));
    // Another key's proof, a proof over another tag, and this key's proof given for -pk.
    assert!(!pk.verify_possession(h, &other.prove_possession(h).unwrap()));
    let other_tag = sk.sign(h, m_pop(b"tms-schnorr-pop-v2", &pk)).unwrap();
    assert!(!pk.verify_possession(h, &other_tag));
    assert!(!VerifyingKey(-pk.0).verify_possession(h, &pop));
    // A signature on the message bytes tag || pk (keccak-256, the message rule) is no proof.
    let bytes = [POSSESSION_TAG, pk.0.to_bytes().as_ref()].concat();
    let signed = sk.sign(h, message_to_field(&bytes)).unwrap();
    assert!(pk.verify(h, message_to_field(&bytes), &signed));
    assert!(!pk.verify_possession(h, &signed));
    assert!(!pk.verify(h, message_to_field(&bytes), &pop));
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
