//! Real proofs with midnight-proofs (insecure test parameters from a fixed seed): a 6-member,
//! t = 3 round trip with its figures, refusals of changed statements and proofs, and (ignored)
//! the 72-of-102 figures (dependencies are built at opt-level 3 in the test profile too):
//! `cargo test -p schnorr-atms-jubjub --test prover real_round_trip_72_of_102 -- --ignored --nocapture`.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use schnorr_atms_jubjub::{
    message_to_field,
    prover::{
        insecure_test_params, keygen, measure_round_trip, min_k, prove, verify, vk_fingerprint,
        DefaultTranscriptHash, RoundTrip,
    },
    AtmsError, AtmsInstance, AtmsShape, AtmsWitness, Certificate, CommitmentMode, Committee,
    SigningKey,
};

const MESSAGE: &[u8] = b"sidechain epoch 42";
const PINNED_VK_FLAT_6: &str = "0e067a6e361da6448b0ac7fbf989f5aab069429c955d9b14be8f575b78e16c03";

/// A flat-mode witness: `n` members, the first `signers` sign, threshold `t`, at the smallest k.
fn witness(n: usize, signers: usize, t: u64) -> AtmsWitness {
    witness_in(CommitmentMode::Flat, n, signers, t)
}

/// A witness in `mode`: `n` members, the first `signers` sign, threshold `t`, at the smallest k.
fn witness_in(mode: CommitmentMode, n: usize, signers: usize, t: u64) -> AtmsWitness {
    let mut rng = ChaCha8Rng::seed_from_u64(n as u64);
    let sks: Vec<SigningKey> = (0..n).map(|_| SigningKey::random(&mut rng)).collect();
    let committee = Committee::new(sks.iter().map(|s| s.verifying_key()).collect()).unwrap();
    let m = message_to_field(MESSAGE);
    let sigs: Vec<_> = sks[..signers]
        .iter()
        .map(|sk| (sk.verifying_key(), sk.sign(m)))
        .collect();
    let cert = Certificate::aggregate(&committee, m, &sigs).unwrap();
    let mut shape = AtmsShape { n, mode, k: 10 };
    shape.k = min_k(&shape);
    AtmsWitness::new(shape, &committee, &cert, t).unwrap()
}

fn record(label: &str, w: &AtmsWitness, r: &RoundTrip) {
    println!(
        "record: {label}: k = {}, rows = {} ({} per slot), advice columns = {}, fixed columns = \
         {}, lookups = {}, max degree = {}, proof {} bytes, keygen {:.2?}, prove {:.2?} wall / \
         {:.2?} CPU, verify {:.2?}",
        r.k,
        r.stats.rows,
        r.stats.rows / w.shape.slots(),
        r.stats.advice_columns,
        r.stats.fixed_columns,
        r.stats.lookups,
        r.stats.max_deg,
        r.proof.len(),
        r.keygen,
        r.prove,
        r.prove_cpu.unwrap_or_default(),
        r.verify,
    );
}

#[test]
fn real_round_trip_6_members_t3() {
    let w = witness(6, 3, 3);
    let r = measure_round_trip::<DefaultTranscriptHash>(&w).unwrap();
    record("flat n=6 t=3 (test profile: deps opt-level 3)", &w, &r);
    // Pinned: the layout fixes the proof's length (the cost model's estimate is 80 bytes
    // short of it).
    assert_eq!((r.k, r.proof.len()), (12, 3680));

    // The verifier's statement from what it trusts verifies; changed statements do not.
    let params = insecure_test_params(w.shape.k);
    let keys = keygen(&params, w.shape).unwrap();
    let fingerprint = vk_fingerprint(keys.vk());
    println!("record: flat n=6 vk {fingerprint}");
    // Pinned: a change to the circuit's layout changes the verifying key (insecure test params).
    assert_eq!(fingerprint, PINNED_VK_FLAT_6);
    let verifier = params.verifier_params();
    let proof =
        prove::<DefaultTranscriptHash>(&params, &keys, &w, ChaCha8Rng::seed_from_u64(1)).unwrap();
    let trusted = AtmsInstance::from_trusted(&w.shape, &w.committee, MESSAGE, 3).unwrap();
    verify::<DefaultTranscriptHash>(&verifier, keys.vk(), &trusted, &proof).unwrap();
    let refused = |instance: AtmsInstance, proof: &[u8]| {
        assert_eq!(
            verify::<DefaultTranscriptHash>(&verifier, keys.vk(), &instance, proof),
            Err(AtmsError::ProofRejected)
        )
    };
    refused(
        AtmsInstance::from_trusted(&w.shape, &w.committee, b"another message", 3).unwrap(),
        &proof,
    );
    refused(
        AtmsInstance::from_trusted(&w.shape, &w.committee, MESSAGE, 4).unwrap(),
        &proof,
    );
    let mut other = w.committee.keys().to_vec();
    other.swap(0, 1);
    refused(
        AtmsInstance::from_trusted(&w.shape, &Committee::new(other).unwrap(), MESSAGE, 3).unwrap(),
        &proof,
    );
    let mut changed = proof.clone();
    changed[proof.len() / 2] ^= 1;
    refused(trusted, &changed);
    refused(trusted, &proof[..proof.len() - 1]);
}

#[test]
#[ignore = "the 72-of-102 figures: about 3 minutes on 2 cores"]
fn real_round_trip_72_of_102() {
    let w = witness(102, 72, 72);
    let r = measure_round_trip::<DefaultTranscriptHash>(&w).unwrap();
    record("flat n=102 t=72", &w, &r);
}

#[test]
fn real_round_trip_merkle_6_members_3_slots() {
    let w = witness_in(CommitmentMode::Merkle { slots: 3 }, 6, 2, 2);
    let r = measure_round_trip::<DefaultTranscriptHash>(&w).unwrap();
    record("Merkle n=6 slots=3 t=2 (test profile)", &w, &r);
    let params = insecure_test_params(w.shape.k);
    let keys = keygen(&params, w.shape).unwrap();
    let other = AtmsInstance::from_trusted(&w.shape, &w.committee, b"another message", 2).unwrap();
    assert_eq!(
        verify::<DefaultTranscriptHash>(&params.verifier_params(), keys.vk(), &other, &r.proof),
        Err(AtmsError::ProofRejected)
    );
}

#[test]
#[ignore = "the 72-of-102 Merkle figures: about 4 minutes on 2 cores"]
fn real_round_trip_72_of_102_merkle() {
    let w = witness_in(CommitmentMode::Merkle { slots: 72 }, 102, 72, 72);
    let r = measure_round_trip::<DefaultTranscriptHash>(&w).unwrap();
    record("Merkle n=102 slots=72 t=72", &w, &r);
}

/// The binary search of `min_k` finds what laying the circuit out at every k from 10 finds.
#[test]
fn min_k_equals_the_linear_search() {
    use schnorr_atms_jubjub::prover::layout_stats;
    for (n, mode) in [
        (1, CommitmentMode::Flat),
        (6, CommitmentMode::Flat),
        (20, CommitmentMode::Flat),
        (6, CommitmentMode::Merkle { slots: 3 }),
    ] {
        let shape = AtmsShape { n, mode, k: 10 };
        let linear = (10..=25)
            .find(|&k| layout_stats(&AtmsShape { k, ..shape }).k <= k)
            .unwrap();
        assert_eq!(min_k(&shape), linear, "n = {n}, {mode:?}");
    }
}
