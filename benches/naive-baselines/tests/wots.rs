//! WOTS+ and Merkle-WOTS+: known answers from an independent script, chain properties, and the
//! checksum.

use naive_baselines::{
    merkle_wots,
    wots::{self, Address, AddressType, Bytes32, LEN, LEN1, W},
};
use sha2::{Digest, Sha256};

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn seeds() -> (Bytes32, Bytes32) {
    let sk_seed: Bytes32 = core::array::from_fn(|i| i as u8);
    let pk_seed: Bytes32 = core::array::from_fn(|i| 32 + i as u8);
    (sk_seed, pk_seed)
}

/// Values printed by `tests/vectors/wots_reference.py` (Python standard library, written from
/// the module documentation, not from this code).
#[test]
fn known_answers_from_the_reference_script() {
    let (sk_seed, pk_seed) = seeds();
    let mut sk = wots::SecretKey::from_seeds(sk_seed, pk_seed, 0);
    assert_eq!(
        hex(&sk.public_key().hash),
        "b7943a9b2dec925e310773f9b3f1666dcc87ce37d2d89ba06b02d50e83816b2f"
    );
    let digest = wots::message_digest(b"abc");
    let sig = sk.sign(&digest).expect("fresh key");
    assert_eq!(
        hex(&Sha256::digest(sig.to_bytes())),
        "a52dbac20186789d58028ec65c6c66fdd1558f2fe4263c1fca72674a6fa6c9a6"
    );
    let tree = merkle_wots::SecretKey::from_seeds(sk_seed, pk_seed, 2);
    assert_eq!(
        hex(&tree.public_key().root),
        "a7c2423f19da8e6f0586cbd99cc0fb3834c8b244f952eaa6dfe066a00fc54b1f"
    );
}

fn chain_address(i: usize) -> Address {
    let mut adrs = Address::new(AddressType::Chain, 0);
    adrs.chain = i as u32;
    adrs
}

#[test]
fn sign_then_verify_and_a_chain_advanced_one_step_fails() {
    let (sk_seed, pk_seed) = seeds();
    let mut sk = wots::SecretKey::from_seeds(sk_seed, pk_seed, 0);
    let pk = sk.public_key();
    let digest = wots::message_digest(b"block 7");
    let sig = sk.sign(&digest).expect("fresh key");
    assert!(wots::verify(&pk, &digest, &sig));
    assert!(!wots::verify(&pk, &wots::message_digest(b"block 8"), &sig));

    let d = wots::digits(&digest);
    for i in [0, 31, LEN1 - 1, LEN1, LEN - 1] {
        if d[i] as usize == W - 1 {
            continue;
        }
        let mut advanced = sig.clone();
        advanced.0[i] = wots::chain(&sig.0[i], d[i] as usize, 1, &pk_seed, &chain_address(i));
        assert!(!wots::verify(&pk, &digest, &advanced), "chain {i}");
    }
}

/// A forger holding a signature on m can advance every chain, so it can sign any m' whose
/// message digits are all >= m's, except that the checksum digits then fall and cannot be
/// produced: the message chains of the forgery reach the true ends and only the checksum
/// chains differ.
#[test]
fn the_checksum_stops_a_forgery_with_larger_digits() {
    let (sk_seed, pk_seed) = seeds();
    let mut sk = wots::SecretKey::from_seeds(sk_seed, pk_seed, 0);
    let pk = sk.public_key();
    let true_ends = sk.chain_ends();

    let m: Bytes32 = [0x33; 32]; // every message digit 3
    let m2: Bytes32 = [0x34; 32]; // digits 3 and 4: each >= m's
    let (d, d2) = (wots::digits(&m), wots::digits(&m2));
    assert!(d[..LEN1].iter().zip(&d2[..LEN1]).all(|(a, b)| b >= a));
    assert!(d2[LEN1..] < d[LEN1..], "the checksum of m' is smaller");

    let sig = sk.sign(&m).expect("fresh key");
    assert!(wots::verify(&pk, &m, &sig));
    let mut forged = sig.clone();
    for i in 0..LEN {
        if d2[i] >= d[i] {
            let steps = (d2[i] - d[i]) as usize;
            forged.0[i] = wots::chain(&sig.0[i], d[i] as usize, steps, &pk_seed, &chain_address(i));
        }
    }
    let ends = wots::ends_from_signature(&pk_seed, 0, &m2, &forged);
    assert_eq!(&ends[..LEN1], &true_ends[..LEN1], "message chains forged");
    assert!(
        (LEN1..LEN).any(|i| ends[i] != true_ends[i]),
        "a checksum chain fails"
    );
    assert!(!wots::verify(&pk, &m2, &forged));
}

#[test]
fn merkle_wots_rejects_a_wrong_leaf_and_a_bad_auth_path() {
    let (sk_seed, pk_seed) = seeds();
    let mut sk = merkle_wots::SecretKey::from_seeds(sk_seed, pk_seed, 3);
    let pk = sk.public_key();
    let digest = wots::message_digest(b"block 9");
    let _ = sk.sign(&digest).expect("leaf 0");
    let sig = sk.sign(&digest).expect("leaf 1");
    assert_eq!(sig.leaf, 1);
    assert!(merkle_wots::verify(&pk, &digest, &sig));

    let mut wrong_leaf = sig.clone();
    wrong_leaf.leaf = 0;
    assert!(!merkle_wots::verify(&pk, &digest, &wrong_leaf));
    for z in 0..3 {
        let mut bad_path = sig.clone();
        bad_path.auth_path[z][0] ^= 1;
        assert!(!merkle_wots::verify(&pk, &digest, &bad_path), "level {z}");
    }
    let mut short_path = sig.clone();
    short_path.auth_path.pop();
    assert!(!merkle_wots::verify(&pk, &digest, &short_path));
    let d = wots::digits(&digest);
    let i = (0..LEN)
        .find(|&i| (d[i] as usize) < W - 1)
        .expect("a digit below w - 1");
    let mut advanced = sig.clone();
    let mut adrs = Address::new(AddressType::Chain, 1);
    adrs.chain = i as u32;
    advanced.wots.0[i] = wots::chain(&sig.wots.0[i], d[i] as usize, 1, &pk_seed, &adrs);
    assert!(!merkle_wots::verify(&pk, &digest, &advanced));
}
