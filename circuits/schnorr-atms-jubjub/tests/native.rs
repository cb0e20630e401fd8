//! The native twin on its own: signatures, the message rule, commitments and the certificate
//! builder's refusals, against independent computations.

use ff::{Field, PrimeField};
use group::Group;
use midnight_curves::JubjubSubgroup;
use num_bigint::BigUint;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use schnorr_atms_jubjub::{
    challenge, challenge_scalar, coordinates, generator, message_to_field, poseidon, AtmsError,
    AtmsInstance, AtmsShape, AtmsWitness, Base, Certificate, CheckError, CommitmentMode, Committee,
    JubjubScalar, MerkleTree, SigningKey, VerifyingKey,
};

fn keys(n: usize, seed: u64) -> Vec<SigningKey> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..n).map(|_| SigningKey::random(&mut rng)).collect()
}

#[test]
fn signatures_verify_and_bind_key_message_and_nonce() {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    for _ in 0..8 {
        let sk = SigningKey::random(&mut rng);
        let pk = sk.verifying_key();
        let m = Base::random(&mut rng);
        let sig = sk.sign(m);
        assert!(pk.verify(m, &sig));
        assert_eq!(sig, sk.sign(m), "nonces are deterministic");
        assert!(!pk.verify(m + Base::ONE, &sig));
        let other = SigningKey::random(&mut rng).verifying_key();
        assert!(!other.verify(m, &sig));
        let mut bad = sig;
        bad.s += JubjubScalar::ONE;
        assert!(!pk.verify(m, &bad));
        let mut bad = sig;
        bad.r += generator();
        assert!(!pk.verify(m, &bad));
        // -pk does not stand for pk: the challenge hashes both coordinates.
        assert!(!VerifyingKey(-pk.0).verify(m, &sig));
        assert_ne!(challenge(&sig.r, &pk.0, m), challenge(&sig.r, &-pk.0, m));
    }
}

#[test]
fn challenge_scalar_is_the_integer_mod_r() {
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    let r_j = BigUint::from_bytes_le((-JubjubScalar::ONE).to_repr().as_ref()) + 1u32;
    for _ in 0..16 {
        let c = Base::random(&mut rng);
        let expected = BigUint::from_bytes_le(c.to_repr().as_ref()) % &r_j;
        let got = BigUint::from_bytes_le(challenge_scalar(c).to_repr().as_ref());
        assert_eq!(got, expected);
        // c pk computed with the scalar equals the double-and-add over c's integer bits.
        let pk = generator() * JubjubScalar::random(&mut rng);
        let mut acc = JubjubSubgroup::identity();
        for byte in c.to_repr().as_ref().iter().rev() {
            for bit in (0..8).rev() {
                acc = acc.double();
                if (byte >> bit) & 1 == 1 {
                    acc += pk;
                }
            }
        }
        assert_eq!(acc, pk * challenge_scalar(c));
    }
}

#[test]
fn message_rule_is_big_endian_blake2b_256_mod_q() {
    let q = BigUint::from_bytes_le((-Base::ONE).to_repr().as_ref()) + 1u32;
    assert_eq!(
        q.to_str_radix(16),
        "73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001"
    );
    for bytes in [&b""[..], b"abc", &[0xffu8; 100]] {
        let digest = blake2b_simd::Params::new().hash_length(32).hash(bytes);
        let expected = BigUint::from_bytes_be(digest.as_bytes()) % &q;
        let got = BigUint::from_bytes_le(message_to_field(bytes).to_repr().as_ref());
        assert_eq!(got, expected);
    }
    // blake2b-256("abc"), the RFC 7693 test vector family, pins the hash parameters.
    assert_eq!(
        blake2b_simd::Params::new()
            .hash_length(32)
            .hash(b"abc")
            .to_hex()
            .as_str(),
        "bddd813c634239723171ef3fee98579b94964e3bb1cb3e427262c8c068d52319"
    );
}

#[test]
fn commitments_match_their_definitions() {
    let sks = keys(5, 3);
    let committee = Committee::new(sks.iter().map(|s| s.verifying_key()).collect()).unwrap();
    let coords: Vec<Base> = committee
        .keys()
        .iter()
        .flat_map(|k| coordinates(&k.0))
        .collect();
    assert_eq!(committee.flat_commitment(), poseidon(&coords));
    assert_eq!(
        committee.commitment(CommitmentMode::Flat),
        committee.flat_commitment()
    );
    let tree = committee.tree();
    for i in 0..5 {
        let leaf = poseidon(&committee.keys()[i].coordinates());
        assert_eq!(committee.leaf(i), leaf);
        assert_eq!(tree.path(i).len(), 3);
        assert_eq!(
            MerkleTree::root_from_path(leaf, i, &tree.path(i)),
            tree.root()
        );
        assert_ne!(
            MerkleTree::root_from_path(leaf, i ^ 1, &tree.path(i)),
            tree.root()
        );
    }
    assert_eq!(
        committee.commitment(CommitmentMode::Merkle { slots: 2 }),
        tree.root()
    );
    // Order matters.
    let mut reversed = committee.keys().to_vec();
    reversed.reverse();
    assert_ne!(
        Committee::new(reversed).unwrap().flat_commitment(),
        committee.flat_commitment()
    );
}

#[test]
fn native_builders_refuse_bad_input() {
    let sks = keys(3, 4);
    let pks: Vec<VerifyingKey> = sks.iter().map(|s| s.verifying_key()).collect();
    let committee = Committee::new(pks.clone()).unwrap();
    let m = message_to_field(b"epoch 7");
    let sigs: Vec<_> = [0, 1].iter().map(|&i| (pks[i], sks[i].sign(m))).collect();
    let cert = Certificate::aggregate(&committee, m, &sigs).unwrap();
    let shape = AtmsShape {
        n: 3,
        mode: CommitmentMode::Flat,
        k: 12,
    };
    assert_eq!(
        AtmsWitness::new(shape, &committee, &cert, 3).unwrap_err(),
        AtmsError::Check(CheckError::BelowThreshold {
            count: 2,
            threshold: 3
        })
    );
    // A prover may claim t = 0 (a chunk without signers); a verifier never asks for it.
    assert!(AtmsWitness::new(shape, &committee, &cert, 0).is_ok());
    assert_eq!(
        AtmsInstance::from_trusted(&shape, &committee, b"epoch 7", 0).unwrap_err(),
        AtmsError::Check(CheckError::ThresholdZero)
    );
    assert_eq!(
        AtmsWitness::new(shape, &committee, &cert, 4).unwrap_err(),
        AtmsError::Check(CheckError::ThresholdTooLarge {
            threshold: 4,
            slots: 3
        })
    );
    let outsider = SigningKey::random(ChaCha8Rng::seed_from_u64(9));
    assert_eq!(
        Certificate::aggregate(
            &committee,
            m,
            &[(outsider.verifying_key(), outsider.sign(m))]
        )
        .unwrap_err(),
        AtmsError::Check(CheckError::NotInCommittee(0))
    );
    assert_eq!(
        Certificate::aggregate(&committee, m, &[sigs[0], sigs[0]]).unwrap_err(),
        AtmsError::Check(CheckError::DuplicateSigner(0))
    );
    assert_eq!(
        Certificate::aggregate(&committee, m, &[(sigs[0].0, sigs[1].1)]).unwrap_err(),
        AtmsError::Check(CheckError::InvalidSignature(0))
    );
    assert_eq!(
        Committee::new(vec![pks[0], pks[1], pks[0]]).unwrap_err(),
        AtmsError::DuplicateMember {
            first: 0,
            second: 2
        }
    );
    assert_eq!(
        Committee::new(vec![pks[0], VerifyingKey(JubjubSubgroup::identity())]).unwrap_err(),
        AtmsError::IdentityKey(1)
    );
    assert_eq!(
        Committee::new(vec![]).unwrap_err(),
        AtmsError::Check(CheckError::EmptyCommittee)
    );
    // The verifier's statement from what it trusts equals the prover's.
    let w = AtmsWitness::new(shape, &committee, &cert, 2).unwrap();
    assert_eq!(
        AtmsInstance::from_trusted(&shape, &committee, b"epoch 7", 2).unwrap(),
        w.instance
    );
}

/// A proof of possession verifies for its key only; a certificate signature is not one; a
/// committee is registered only with every member's proof, the first bad one named.
#[test]
fn proofs_of_possession_bind_their_key() {
    let mut rng = ChaCha8Rng::seed_from_u64(31);
    let sks: Vec<SigningKey> = (0..3).map(|_| SigningKey::random(&mut rng)).collect();
    let members: Vec<_> = sks
        .iter()
        .map(|sk| (sk.verifying_key(), sk.prove_possession()))
        .collect();
    for (pk, pop) in &members {
        assert!(pk.verify_possession(pop));
    }
    // Another key's proof, and a signature of a certificate message, are not this key's proof.
    assert!(!members[0].0.verify_possession(&members[1].1));
    let signed = sks[0].sign(message_to_field(b"a certificate"));
    assert!(!members[0].0.verify_possession(&signed));
    assert!(Committee::register(&members).is_ok());
    let mut swapped = members.clone();
    swapped[2].1 = members[1].1;
    assert_eq!(
        Committee::register(&swapped).unwrap_err(),
        AtmsError::InvalidPossession(2)
    );
}

#[test]
fn poseidon_with_its_rounds_made_once_equals_midnights_sponge() {
    use midnight_circuits::{hash::poseidon::PoseidonChip, instructions::hash::HashCPU};
    let mut rng = ChaCha8Rng::seed_from_u64(17);
    for len in 1..=12 {
        for _ in 0..3 {
            let inputs: Vec<Base> = (0..len).map(|_| Base::random(&mut rng)).collect();
            assert_eq!(
                poseidon(&inputs),
                <PoseidonChip<Base> as HashCPU<Base, Base>>::hash(&inputs),
                "{len} inputs"
            );
        }
    }
}
