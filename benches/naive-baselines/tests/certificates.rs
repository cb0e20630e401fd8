//! Every scheme: a valid certificate verifies, and changing exactly one thing (a signature bit,
//! the message, a signer's key, the bitmap) is rejected.

use naive_baselines::{
    BlsIndividual, Certificate, Error, LamportPlus, MerkleWots, SchnorrGrumpkin, SignatureScheme,
    SlhDsaSha2_128s, WotsPlus,
};
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use tms_gadgets::{message::message_to_field, signature::bls};

const MESSAGE: &[u8] = b"epoch 42: committee certificate";
const OTHER_MESSAGE: &[u8] = b"epoch 43: committee certificate";
/// Committee of four; members 1 and 3 sign (so 0 and 2 can stand in for them in order).
const N: usize = 4;
const SIGNERS: [usize; 2] = [1, 3];

fn committee<S: SignatureScheme>(seed: u64) -> (Vec<S::SecretKey>, Vec<S::PublicKey>) {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    (0..N).map(|_| S::keygen(&mut rng).expect("keygen")).unzip()
}

fn certify<S: SignatureScheme>(secret: &mut [S::SecretKey]) -> Certificate {
    let msg = S::message(MESSAGE);
    let sigs: Vec<Vec<u8>> = SIGNERS
        .iter()
        .map(|&i| S::sign(&mut secret[i], &msg).expect("sign"))
        .collect();
    for s in &sigs {
        assert_eq!(s.len(), S::SIGNATURE_BYTES);
    }
    Certificate::new(N, &SIGNERS, &sigs).expect("certificate")
}

fn rejects_member(result: Result<(), Error>, member: usize) {
    match result {
        Err(Error::Rejected { member: m }) => assert_eq!(m, member),
        other => panic!("expected member {member} rejected, got {other:?}"),
    }
}

/// Every bit of a signature of up to 64 bytes; for longer ones every bit of the first and last
/// 8 bytes and one bit in each of 64 bytes spread over the rest.
fn flip_positions(len: usize) -> Vec<(usize, u32)> {
    let bytes: Vec<usize> = if len <= 64 {
        (0..len).collect()
    } else {
        (0..8).chain(len - 8..len).collect()
    };
    let mut positions: Vec<(usize, u32)> = bytes
        .into_iter()
        .flat_map(|b| (0..8).map(move |bit| (b, bit)))
        .collect();
    if len > 64 {
        positions.extend((0..64).map(|k| (8 + k * (len - 16) / 64, (k % 8) as u32)));
    }
    positions
}

fn tamper_suite<S: SignatureScheme>(seed: u64) {
    let (mut secret, pks) = committee::<S>(seed);
    let cert = certify::<S>(&mut secret);
    let t = SIGNERS.len();
    assert_eq!(cert.len(), 1 + t * S::SIGNATURE_BYTES);
    cert.verify::<S>(&pks, MESSAGE, t)
        .expect("valid certificate");
    cert.verify::<S>(&pks, MESSAGE, 1).expect("above threshold");

    // One flipped bit in the second signer's signature, anywhere (see `flip_positions`).
    let sig_bytes = S::SIGNATURE_BYTES;
    for (byte, bit) in flip_positions(sig_bytes) {
        let mut bad = cert.clone();
        bad.signatures[sig_bytes + byte] ^= 1 << bit;
        rejects_member(bad.verify::<S>(&pks, MESSAGE, t), SIGNERS[1]);
    }
    // Another message.
    rejects_member(cert.verify::<S>(&pks, OTHER_MESSAGE, t), SIGNERS[0]);
    // A signer's key replaced by another member's.
    let mut swapped = pks.clone();
    swapped[SIGNERS[0]] = pks[2].clone();
    rejects_member(cert.verify::<S>(&swapped, MESSAGE, t), SIGNERS[0]);
    // Bitmap: signer 1 marked absent and member 0 present in its place.
    let mut moved = cert.clone();
    moved.bitmap[0] ^= 0b0000_0011;
    rejects_member(moved.verify::<S>(&pks, MESSAGE, t), 0);
    // Bitmap: signer 3 marked absent (one signature too many for the bitmap).
    let mut absent = cert.clone();
    absent.bitmap[0] ^= 0b0000_1000;
    assert!(matches!(
        absent.verify::<S>(&pks, MESSAGE, 1),
        Err(Error::SignatureLength { .. })
    ));
    // Bitmap: member 2 marked as well (one signature too few).
    let mut extra = cert.clone();
    extra.bitmap[0] |= 0b0000_0100;
    assert!(matches!(
        extra.verify::<S>(&pks, MESSAGE, t),
        Err(Error::SignatureLength { .. })
    ));
    // Threshold above the signers.
    assert!(matches!(
        cert.verify::<S>(&pks, MESSAGE, t + 1),
        Err(Error::BelowThreshold { signers: 2, t: 3 })
    ));
    // A truncated signature block.
    let mut short = cert.clone();
    short.signatures.pop();
    assert!(short.verify::<S>(&pks, MESSAGE, t).is_err());
}

#[test]
fn schnorr_grumpkin() {
    tamper_suite::<SchnorrGrumpkin>(1);
}

#[test]
fn bls_individual() {
    tamper_suite::<BlsIndividual>(2);
}

#[test]
fn lamport_plus() {
    tamper_suite::<LamportPlus>(3);
}

#[test]
fn wots_plus() {
    tamper_suite::<WotsPlus>(4);
}

#[test]
fn merkle_wots() {
    tamper_suite::<MerkleWots>(5);
}

#[test]
fn slh_dsa_sha2_128s() {
    tamper_suite::<SlhDsaSha2_128s>(6);
}

#[test]
fn one_time_keys_sign_once() {
    let (mut secret, _) = committee::<WotsPlus>(7);
    let msg = WotsPlus::message(MESSAGE);
    WotsPlus::sign(&mut secret[0], &msg).expect("first use");
    assert!(matches!(
        WotsPlus::sign(&mut secret[0], &msg),
        Err(Error::KeyExhausted)
    ));
    let (mut secret, _) = committee::<LamportPlus>(8);
    let msg = LamportPlus::message(MESSAGE);
    LamportPlus::sign(&mut secret[0], &msg).expect("first use");
    assert!(matches!(
        LamportPlus::sign(&mut secret[0], &msg),
        Err(Error::KeyExhausted)
    ));
}

#[test]
fn bls_aggregate() {
    let mut rng = ChaCha20Rng::seed_from_u64(9);
    let secret: Vec<bls::SecretKey> = (0..N).map(|_| bls::SecretKey::random(&mut rng)).collect();
    let pks: Vec<bls::PublicKey> = secret.iter().map(|s| s.public_key()).collect();
    let m = message_to_field(MESSAGE);
    let sigs: Vec<bls::Signature> = SIGNERS.iter().map(|&i| secret[i].sign(m)).collect();
    let cert = Certificate::bls_aggregate(N, &SIGNERS, &sigs).expect("certificate");
    assert_eq!(cert.len(), 1 + 64);
    let t = SIGNERS.len();
    cert.verify_bls_aggregate(&pks, MESSAGE, t)
        .expect("valid certificate");

    let rejected = |r: Result<(), Error>| {
        assert!(
            matches!(
                r,
                Err(Error::AggregateRejected) | Err(Error::SignatureLength { .. })
            ),
            "{r:?}"
        )
    };
    for (byte, bit) in flip_positions(64) {
        let mut bad = cert.clone();
        bad.signatures[byte] ^= 1 << bit;
        rejected(bad.verify_bls_aggregate(&pks, MESSAGE, t));
    }
    rejected(cert.verify_bls_aggregate(&pks, OTHER_MESSAGE, t));
    let mut swapped = pks.clone();
    swapped[SIGNERS[0]] = pks[2];
    rejected(cert.verify_bls_aggregate(&swapped, MESSAGE, t));
    let mut moved = cert.clone();
    moved.bitmap[0] ^= 0b0000_0011;
    rejected(moved.verify_bls_aggregate(&pks, MESSAGE, t));
    let mut absent = cert.clone();
    absent.bitmap[0] ^= 0b0000_1000;
    rejected(absent.verify_bls_aggregate(&pks, MESSAGE, 1));
    assert!(matches!(
        absent.verify_bls_aggregate(&pks, MESSAGE, t),
        Err(Error::BelowThreshold { signers: 1, t: 2 })
    ));
}
