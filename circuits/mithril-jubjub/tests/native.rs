//! The native scheme on Jubjub: registration and its errors, the unique signature (deterministic,
//! verifies, one change each refused, `sigma` fixed whatever the nonce), the lottery, the
//! aggregator and the verifier's rejections (the twins of `circuits/mithril/tests/stm.rs`'s).

use ff::Field;
use group::{Group, GroupEncoding};
use midnight_curves::JubjubSubgroup;
use mithril_core::CoreError;
use mithril_jubjub::{
    aggregate,
    native::{
        challenge_scalar, dleq_challenge, generator, hash_to_jubjub, lottery_value, modulus, sign,
        to_biguint, verify_single, wins, Base, IndexSlot, JubjubScalar, SigningKey, VerifyingKey,
    },
    verify, Certificate, MithrilError, Parameters, PhiF, Registration, Signer, SingleSignature,
    UniqueSignature,
};
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;

fn params() -> Parameters {
    Parameters::new(40, 3, PhiF::new(7, 10).unwrap()).unwrap()
}

fn keys(seed: u64, n: usize) -> Vec<SigningKey> {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    (0..n).map(|_| SigningKey::random(&mut rng)).collect()
}

struct Setting {
    registration: Registration,
    sks: Vec<SigningKey>,
    msg: Base,
    singles: Vec<SingleSignature>,
}

fn setting() -> Setting {
    let sks = keys(1, 5);
    let entries: Vec<_> = sks
        .iter()
        .enumerate()
        .map(|(i, sk)| (sk.verifying_key(), 100 * (i as u64 + 1)))
        .collect();
    let registration = Registration::new(params(), &entries).unwrap();
    let msg = Base::from(42);
    let singles = sks
        .iter()
        .filter_map(|sk| Signer::new(*sk, &registration).unwrap().sign(msg).unwrap())
        .collect();
    Setting {
        registration,
        sks,
        msg,
        singles,
    }
}

fn certificate(s: &Setting) -> Certificate {
    aggregate(&s.registration, s.msg, &s.singles).unwrap()
}

#[test]
fn registration_targets_and_errors() {
    let s = setting();
    let r = &s.registration;
    assert_eq!(r.total_stake(), 1500);
    assert_eq!(r.depth(), 3);
    // Targets: the shared exact rule at BLS12-381's modulus, increasing with the stake.
    for p in r.parties() {
        let t =
            mithril_core::eligibility::target(params().phi_f(), p.stake, 1500, &modulus()).unwrap();
        assert_eq!(to_biguint(&p.target), t.value);
    }
    assert!(r
        .parties()
        .windows(2)
        .all(|w| to_biguint(&w[0].target) < to_biguint(&w[1].target)));
    let vk = s.sks[0].verifying_key();
    let vk2 = s.sks[1].verifying_key();
    let err = |e: &[(VerifyingKey, u64)]| Registration::new(params(), e).unwrap_err();
    assert_eq!(err(&[]), MithrilError::Core(CoreError::EmptyRegistration));
    assert_eq!(
        err(&[(vk, 1), (vk2, 0)]),
        MithrilError::Core(CoreError::ZeroStake(1))
    );
    assert_eq!(
        err(&[(vk, 1), (vk, 2)]),
        MithrilError::Core(CoreError::DuplicateKey(1))
    );
    assert_eq!(
        err(&[(vk, u64::MAX), (vk2, 1)]),
        MithrilError::Core(CoreError::StakeOverflow)
    );
    assert_eq!(
        err(&[(vk, 1), (VerifyingKey(JubjubSubgroup::identity()), 1)]),
        MithrilError::IdentityKey(1)
    );
    // Another depth is another registration.
    let entries: Vec<_> = r.parties().iter().map(|p| (p.key, p.stake)).collect();
    let deeper = Registration::with_depth(params(), &entries, 4).unwrap();
    assert_ne!(deeper.commitment().digest(), r.commitment().digest());
    assert!(Registration::with_depth(params(), &entries, 2).is_err());
}

#[test]
fn unique_signature_verifies_and_is_deterministic() {
    let s = setting();
    let signed = s.registration.commitment().message(s.msg);
    let sk = s.sks[0];
    let sig = sign(&sk, signed).unwrap();
    assert_eq!(sig, sign(&sk, signed).unwrap());
    assert!(sig.verify(&sk.verifying_key(), signed));
    assert_eq!(sig.sigma, hash_to_jubjub(signed) * sk.0);
    // Another key, another message, each changed part.
    assert!(!sig.verify(&s.sks[1].verifying_key(), signed));
    assert!(!sig.verify(&sk.verifying_key(), signed + Base::ONE));
    let g = generator();
    for bad in [
        UniqueSignature {
            sigma: sig.sigma + g,
            ..sig
        },
        UniqueSignature {
            a: sig.a + g,
            ..sig
        },
        UniqueSignature {
            b: sig.b + g,
            ..sig
        },
        UniqueSignature {
            s: sig.s + JubjubScalar::ONE,
            ..sig
        },
    ] {
        assert!(!bad.verify(&sk.verifying_key(), signed));
    }
}

/// Any nonce gives an accepted proof, always for the same `sigma`; a proof for another sigma
/// with an honestly computed challenge fails.
#[test]
fn sigma_is_fixed_whatever_the_nonce() {
    let s = setting();
    let signed = s.registration.commitment().message(s.msg);
    let sk = s.sks[2];
    let pk = sk.verifying_key();
    let h = hash_to_jubjub(signed);
    let prove = |sigma: JubjubSubgroup, k: JubjubScalar, x: JubjubScalar| {
        let (a, b) = (generator() * k, h * k);
        let c = challenge_scalar(dleq_challenge(&pk.0, &h, &sigma, &a, &b));
        UniqueSignature {
            sigma,
            a,
            b,
            s: k + c * x,
        }
    };
    for nonce in 1..4u64 {
        let sig = prove(h * sk.0, JubjubScalar::from(nonce), sk.0);
        assert!(sig.verify(&pk, signed));
        assert_eq!(sig.sigma, sign(&sk, signed).unwrap().sigma);
    }
    let other = JubjubScalar::from(7u64);
    assert!(!prove(h * other, JubjubScalar::from(5u64), sk.0).verify(&pk, signed));
    assert!(!prove(h * other, JubjubScalar::from(5u64), other).verify(&pk, signed));
}

/// Why the circuit checks `sigma`'s subgroup: on the full curve, `sigma' = sigma + T2` and
/// `B' = B + T2` (`T2 = (0, -1)` of order 2) pass the circuit's equations whenever the challenge
/// integer is odd (the circuit multiplies by its 255 bits: `c T2 = T2`), one try in two, and
/// give other lottery values.
#[test]
fn a_small_order_component_in_sigma_would_pass_without_the_subgroup_check() {
    use midnight_circuits::ecc::curves::CircuitCurve;
    use midnight_curves::JubjubExtended;
    let s = setting();
    let signed = s.registration.commitment().message(s.msg);
    let sk = s.sks[3];
    let pk = JubjubExtended::from(sk.verifying_key().0);
    let h = JubjubExtended::from(hash_to_jubjub(signed));
    let g = JubjubExtended::from(generator());
    let t2 = JubjubExtended::from_xy(Base::ZERO, -Base::ONE).unwrap();
    assert!(bool::from((t2 + t2).is_identity()) && !bool::from(t2.is_identity()));
    let xy = |p: &JubjubExtended| {
        let (x, y) = p.coordinates().unwrap();
        [x, y]
    };
    let (sigma, forged_sigma) = (h * sk.0, h * sk.0 + t2);
    let mut found = false;
    for nonce in 1..40u64 {
        let k = JubjubScalar::from(nonce);
        let (a, forged_b) = (g * k, h * k + t2);
        let mut input = vec![mithril_jubjub::native::Tag::Challenge.value()];
        for p in [&pk, &h, &forged_sigma, &a, &forged_b] {
            input.extend(xy(p));
        }
        let c_field = mithril_jubjub::native::poseidon(&input);
        if !to_biguint(&c_field).bit(0) {
            continue;
        }
        let c = challenge_scalar(c_field);
        let s_resp = k + c * sk.0;
        // The circuit's c times a point: (c mod r_J) on the subgroup part, c's parity on T2.
        let c_times_forged_sigma = sigma * c + t2;
        assert_eq!(g * s_resp, a + pk * c);
        assert_eq!(h * s_resp, forged_b + c_times_forged_sigma);
        found = true;
        break;
    }
    assert!(found, "an odd challenge within 40 nonces");
    let lottery = |p: &JubjubExtended| {
        let [x, y] = xy(p);
        mithril_jubjub::native::poseidon(&[
            mithril_jubjub::native::Tag::Lottery.value(),
            x,
            y,
            Base::from(0),
        ])
    };
    assert_ne!(lottery(&sigma), lottery(&forged_sigma));
}

#[test]
fn lottery_is_deterministic_and_domain_separated() {
    let s = setting();
    let sig = &s.singles[0].signature;
    assert_eq!(lottery_value(&sig.sigma, 3), lottery_value(&sig.sigma, 3));
    assert_ne!(lottery_value(&sig.sigma, 3), lottery_value(&sig.sigma, 4));
    // wins is the integer comparison.
    assert!(wins(Base::from(1), Base::from(2)));
    assert!(!wins(Base::from(2), Base::from(2)));
    assert!(!wins(-Base::ONE, Base::from(2)));
}

#[test]
fn aggregate_and_verify() {
    let s = setting();
    let cert = certificate(&s);
    assert_eq!(cert.indices.len(), 3);
    verify(&s.registration.commitment(), s.msg, &cert).unwrap();
    // Each index owned by a signer that won it; signer slots increasing.
    for slot in &cert.indices {
        let p = cert.signers[slot.signer].position;
        let single = s.singles.iter().find(|x| x.party == p).unwrap();
        assert!(single.indices.contains(&slot.index));
    }
    // Repeated and forged submissions are skipped.
    let mut dup = s.singles.clone();
    dup.extend(s.singles.clone());
    assert_eq!(aggregate(&s.registration, s.msg, &dup).unwrap(), cert);
    let mut forged = s.singles[0].clone();
    forged.signature.s += JubjubScalar::ONE;
    assert!(verify_single(&s.registration, s.msg, &forged).is_err());
    let mut with_forged = vec![forged];
    with_forged.extend(s.singles.clone());
    assert_eq!(
        aggregate(&s.registration, s.msg, &with_forged).unwrap(),
        cert
    );
    // Too few wins.
    let one = vec![SingleSignature {
        indices: s.singles[0].indices[..1].to_vec(),
        ..s.singles[0].clone()
    }];
    assert!(matches!(
        aggregate(&s.registration, s.msg, &one),
        Err(MithrilError::Core(CoreError::NotEnoughIndices { .. }))
    ));
}

#[test]
fn verifier_rejections() {
    let s = setting();
    let commitment = s.registration.commitment();
    let cert = certificate(&s);
    let rejects = |c: &Certificate| verify(&commitment, s.msg, c).is_err();
    let m = params().m();
    let mut c = cert.clone();
    c.indices.last_mut().unwrap().index = m;
    assert!(rejects(&c), "index >= m");
    let mut c = cert.clone();
    c.indices[1] = c.indices[0];
    assert!(rejects(&c), "repeated index");
    let mut c = cert.clone();
    c.indices.swap(0, 1);
    assert!(rejects(&c), "decreasing");
    let mut c = cert.clone();
    c.indices.pop();
    assert!(rejects(&c), "fewer than k");
    let mut c = cert.clone();
    c.indices[0] = IndexSlot {
        signer: cert.signers.len(),
        ..c.indices[0]
    };
    assert!(rejects(&c), "signer slot out of range");
    let mut c = cert.clone();
    c.signers.push(c.signers[0].clone());
    assert!(rejects(&c), "unused or repeated signer slot");
    let mut c = cert.clone();
    c.signers[0].party.stake += 1;
    assert!(rejects(&c), "stake changed in the leaf");
    let mut c = cert.clone();
    c.signers[0].party.target = -Base::ONE;
    assert!(rejects(&c), "target raised in the leaf");
    let mut c = cert.clone();
    c.signers[0].signature.sigma += generator();
    assert!(rejects(&c), "tampered sigma");
    let other = s.sks.iter().find(|sk| {
        !cert
            .signers
            .iter()
            .any(|x| x.party.key == sk.verifying_key())
    });
    if let Some(other) = other {
        let mut c = cert.clone();
        c.signers[0].signature = sign(other, commitment.message(s.msg)).unwrap();
        assert!(rejects(&c), "signature under another key");
    }
    // A lost index, in order.
    let slot = cert.indices[0];
    let signer = &cert.signers[slot.signer];
    if let Some(j) = (0..slot.index).find(|&j| {
        !wins(
            lottery_value(&signer.signature.sigma, j),
            signer.party.target,
        )
    }) {
        let mut c = cert.clone();
        c.indices[0].index = j;
        assert!(rejects(&c), "lost lottery");
    }
    assert!(
        verify(&commitment, s.msg + Base::ONE, &cert).is_err(),
        "wrong message"
    );
    // Another registration (other parameters).
    let entries: Vec<_> = s
        .registration
        .parties()
        .iter()
        .map(|p| (p.key, p.stake))
        .collect();
    let other_params = Parameters::new(41, 3, PhiF::new(7, 10).unwrap()).unwrap();
    let other = Registration::new(other_params, &entries).unwrap();
    assert!(
        verify(&other.commitment(), s.msg, &cert).is_err(),
        "other registration"
    );
    // The key encoding is the subgroup's.
    assert_eq!(
        VerifyingKey(JubjubSubgroup::from_bytes(&s.sks[0].verifying_key().to_bytes()).unwrap()),
        s.sks[0].verifying_key()
    );
}
