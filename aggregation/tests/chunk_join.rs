//! The chunk join's constraints under MockProver, without the chunk proofs they sit on: the
//! chunks' public inputs are loaded as witnesses (in the aggregation circuit they are the chunk
//! proofs' instance cells) and each test changes exactly one thing of an honest split.

use halo2_base::{AssignedValue, Context};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use schnorr_atms::{AtmsError, CommitmentMode, Committee};
use tms_aggregation::{
    chunks::{join_roots, CommitteeChunks, JoinedChunks},
    AggregationError, Statement, ACCUMULATOR_LIMBS,
};
use tms_gadgets::{
    message::message_to_field,
    signature::schnorr::SigningKey,
    testing::{CircuitHarness, MockRun, Rejection},
    Fr,
};

const MESSAGE: &[u8] = b"sidechain epoch 7";

fn committee(n: usize, seed: u64) -> Committee {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let keys = (0..n)
        .map(|_| SigningKey::random(&mut rng).verifying_key())
        .collect();
    Committee::new(keys).unwrap()
}

/// Each chunk's public inputs `[root_i, message, t_i]` for a committee of `n` split in `count`.
fn chunk_inputs(committee: &Committee, count: usize, thresholds: &[u64]) -> Vec<Vec<Fr>> {
    let message = message_to_field(MESSAGE);
    committee
        .chunks(count)
        .unwrap()
        .iter()
        .zip(thresholds)
        .map(|(chunk, &t)| {
            let root = chunk.commitment(CommitmentMode::Merkle { slots: 1 });
            vec![root, message, Fr::from(t)]
        })
        .collect()
}

/// The (public) statement of the unchunked circuit a verifier builds from the committee, the message and `t`.
fn whole(committee: &Committee, threshold: u64) -> Vec<Fr> {
    vec![
        committee.commitment(CommitmentMode::Merkle { slots: 1 }),
        message_to_field(MESSAGE),
        Fr::from(threshold),
    ]
}

fn load(ctx: &mut Context<Fr>, inner: &[Vec<Fr>]) -> Vec<Vec<AssignedValue<Fr>>> {
    inner
        .iter()
        .map(|public| public.iter().map(|&v| ctx.load_witness(v)).collect())
        .collect()
}

/// `statement` over `inner` public inputs under MockProver; the verifier expects `claimed`.
fn run_statement(statement: &dyn Statement, inner: Vec<Vec<Fr>>, claimed: Vec<Fr>) -> MockRun<()> {
    CircuitHarness::new(13).mock_with_public(
        |ctx, _| {
            let cells = load(ctx, &inner);
            let exposed = statement
                .constrain(ctx, &cells)
                .expect("well-formed inner inputs");
            ((), exposed)
        },
        |_| claimed,
    )
}

/// The join of chunk proofs' `inner` inputs claiming `threshold`.
fn run(threshold: u64, inner: Vec<Vec<Fr>>, claimed: Vec<Fr>) -> MockRun<()> {
    run_statement(&CommitteeChunks { threshold }, inner, claimed)
}

#[test]
fn chunk_roots_join_to_the_committee_root_natively() {
    for (n, count) in [(16, 2), (16, 4), (16, 8), (13, 2), (2001, 4), (2048, 16)] {
        let c = committee(n, n as u64);
        let roots: Vec<Fr> = chunk_inputs(&c, count, &vec![0; count])
            .iter()
            .map(|chunk| chunk[0])
            .collect();
        assert_eq!(
            join_roots(&roots).unwrap(),
            whole(&c, 0)[0],
            "{n} in {count}"
        );
    }
}

#[test]
fn committees_that_do_not_split_are_refused() {
    // 9 members: depth 4, chunks of 8 leave one member whose tree has depth 1, not 3.
    for (n, count) in [(9, 2), (16, 3), (16, 1), (16, 16), (2, 2)] {
        let err = committee(n, 5).chunks(count).unwrap_err();
        assert!(
            matches!(err, AtmsError::BadChunks { .. }),
            "{n} in {count}: {err}"
        );
    }
    assert!(matches!(
        join_roots(&[Fr::one(); 3]),
        Err(AggregationError::Input(_))
    ));
}

#[test]
fn honest_chunks_expose_the_unchunked_statement() {
    let c = committee(16, 1);
    let inner = chunk_inputs(&c, 4, &[3, 0, 4, 2]);
    run(9, inner.clone(), whole(&c, 9)).assert_satisfied();
    // A lower threshold is implied by the same chunks.
    run(5, inner, whole(&c, 5)).assert_satisfied();
}

#[test]
fn thresholds_that_do_not_add_up_are_rejected() {
    let c = committee(16, 1);
    let inner = chunk_inputs(&c, 4, &[3, 0, 4, 2]);
    run(10, inner, whole(&c, 10)).assert_rejected_only_by(Rejection::AdviceCopy);
}

#[test]
fn a_chunk_of_another_committee_is_rejected() {
    let c = committee(16, 1);
    let mut inner = chunk_inputs(&c, 4, &[3, 0, 4, 2]);
    // Chunk 2 proves a subtree of another committee (same size, other keys).
    inner[2] = chunk_inputs(&committee(16, 2), 4, &[3, 0, 4, 2])[2].clone();
    run(9, inner, whole(&c, 9)).assert_rejected_by(Rejection::PublicInput(0));
}

#[test]
fn a_chunk_used_twice_is_rejected() {
    let c = committee(16, 1);
    let mut inner = chunk_inputs(&c, 4, &[3, 0, 4, 2]);
    // Chunk 2's proof (4 signers) stands in for chunk 0 as well.
    inner[0] = inner[2].clone();
    run(9, inner, whole(&c, 9)).assert_rejected_by(Rejection::PublicInput(0));
}

#[test]
fn chunks_in_the_wrong_places_are_rejected() {
    let c = committee(16, 1);
    let mut inner = chunk_inputs(&c, 4, &[3, 0, 4, 2]);
    inner.swap(1, 3);
    run(9, inner, whole(&c, 9)).assert_rejected_by(Rejection::PublicInput(0));
}

#[test]
fn a_missing_chunk_is_refused() {
    let c = committee(16, 1);
    let mut inner = chunk_inputs(&c, 4, &[3, 0, 4, 2]);
    inner.pop();
    let err = CircuitHarness::new(13)
        .mock(|ctx, _| {
            let cells = load(ctx, &inner);
            let refused = CommitteeChunks { threshold: 7 }.constrain(ctx, &cells);
            assert!(matches!(refused, Err(AggregationError::Input(_))));
            ((), vec![])
        })
        .result;
    assert!(err.is_ok(), "nothing is laid out for a refused join");
    // Two of four chunks joined as if they were the whole committee: the root is not its root.
    let halves = chunk_inputs(&c, 4, &[3, 0, 4, 2])[..2].to_vec();
    run(3, halves, whole(&c, 3)).assert_rejected_by(Rejection::PublicInput(0));
}

#[test]
fn a_chunk_on_another_message_is_rejected() {
    let c = committee(16, 1);
    let mut inner = chunk_inputs(&c, 4, &[3, 0, 4, 2]);
    inner[3][1] += Fr::one();
    // (The equality joins chunk 3's message to the exposed one, so row 1 is reported too.)
    run(9, inner, whole(&c, 9)).assert_rejected_by(Rejection::AdviceCopy);
}

#[test]
fn a_threshold_claimed_by_the_verifier_but_not_joined_is_rejected() {
    // The prover joins for t = 9, the verifier asks for 10: the exposed threshold differs.
    let c = committee(16, 1);
    let inner = chunk_inputs(&c, 4, &[3, 0, 4, 2]);
    run(9, inner, whole(&c, 10)).assert_rejected_by(Rejection::PublicInput(2));
}

/// Lower joins' public inputs: an accumulator (any limbs: the statement ignores them), then
/// `[subtree root, message, t_sub]` of each half of a committee of 16.
fn join_inputs(committee: &Committee, thresholds: &[u64; 2]) -> Vec<Vec<Fr>> {
    chunk_inputs(committee, 2, thresholds)
        .into_iter()
        .map(|statement| {
            let mut public = vec![Fr::from(7); ACCUMULATOR_LIMBS];
            public.extend(statement);
            public
        })
        .collect()
}

/// A join of lower joins' `inner` inputs claiming `threshold`.
fn run_joins(threshold: u64, inner: Vec<Vec<Fr>>, claimed: Vec<Fr>) -> MockRun<()> {
    run_statement(&JoinedChunks { threshold }, inner, claimed)
}

#[test]
fn a_tree_of_joins_exposes_the_unchunked_statement() {
    // Chunks of 4 joined in pairs (3 + 0 and 4 + 2), the two joins joined: t = 9 of 16.
    let c = committee(16, 1);
    run_joins(9, join_inputs(&c, &[3, 6]), whole(&c, 9)).assert_satisfied();
}

#[test]
fn a_tree_of_joins_refuses_what_one_join_refuses() {
    let c = committee(16, 1);
    run_joins(10, join_inputs(&c, &[3, 6]), whole(&c, 10))
        .assert_rejected_only_by(Rejection::AdviceCopy);
    let mut swapped = join_inputs(&c, &[3, 6]);
    swapped.swap(0, 1);
    run_joins(9, swapped, whole(&c, 9)).assert_rejected_by(Rejection::PublicInput(0));
    let mut twice = join_inputs(&c, &[3, 6]);
    twice[0] = twice[1].clone();
    run_joins(9, twice, whole(&c, 9)).assert_rejected_by(Rejection::PublicInput(0));
    let mut other_message = join_inputs(&c, &[3, 6]);
    other_message[1][ACCUMULATOR_LIMBS + 1] += Fr::one();
    run_joins(9, other_message, whole(&c, 9)).assert_rejected_by(Rejection::AdviceCopy);
    // A chunk proof (no accumulator) where a join proof is expected is refused before layout.
    let chunks = chunk_inputs(&c, 2, &[3, 6]);
    let refused = CircuitHarness::new(13)
        .mock(|ctx, _| {
            let cells = load(ctx, &chunks);
            let refused = JoinedChunks { threshold: 9 }.constrain(ctx, &cells);
            assert!(matches!(
                refused,
                Err(AggregationError::Inner { index: 0, .. })
            ));
            ((), vec![])
        })
        .result;
    assert!(refused.is_ok());
}

/// The statement a wrap of subtree `i` of 2 of the committee claims.
fn half(committee: &Committee, i: usize, threshold: u64) -> Vec<Fr> {
    let subtree = &committee.chunks(2).unwrap()[i];
    whole(subtree, threshold)
}

#[test]
fn a_wrap_passes_its_input_statement_through() {
    let c = committee(16, 1);
    let chunk = chunk_inputs(&c, 2, &[3, 6])[1].clone();
    run(6, vec![chunk.clone()], half(&c, 1, 6)).assert_satisfied();
    run(4, vec![chunk.clone()], half(&c, 1, 4)).assert_satisfied();
    // A wrap of a lower join (accumulator first) reads the statement after the accumulator.
    let lower = join_inputs(&c, &[3, 6])[1].clone();
    run_joins(6, vec![lower.clone()], half(&c, 1, 6)).assert_satisfied();
    assert_eq!(join_roots(&[chunk[0]]).unwrap(), chunk[0]);
    assert!(matches!(join_roots(&[]), Err(AggregationError::Input(_))));
}

#[test]
fn a_wrap_refuses_what_a_join_refuses() {
    let c = committee(16, 1);
    let chunk = chunk_inputs(&c, 2, &[3, 6])[1].clone();
    // More signers than its input proves.
    run(7, vec![chunk.clone()], half(&c, 1, 7)).assert_rejected_only_by(Rejection::AdviceCopy);
    let lower = join_inputs(&c, &[3, 6])[1].clone();
    run_joins(7, vec![lower], half(&c, 1, 7)).assert_rejected_only_by(Rejection::AdviceCopy);
    // Subtree 1's proof wrapped as if it were subtree 0's, or the whole committee's.
    run(6, vec![chunk.clone()], half(&c, 0, 6)).assert_rejected_by(Rejection::PublicInput(0));
    run(6, vec![chunk.clone()], whole(&c, 6)).assert_rejected_by(Rejection::PublicInput(0));
    // Another message than its input's.
    let mut other = half(&c, 1, 6);
    other[1] += Fr::one();
    run(6, vec![chunk], other).assert_rejected_by(Rejection::PublicInput(1));
}

#[test]
fn wraps_joined_expose_the_unchunked_statement() {
    // Four chunks wrapped one by one, the wraps joined in pairs, then the two joins: t = 9.
    let c = committee(16, 1);
    let thresholds = [3, 0, 4, 2];
    let chunks = chunk_inputs(&c, 4, &thresholds);
    let with_accumulator = |statement: Vec<Fr>| {
        let mut public = vec![Fr::from(7); ACCUMULATOR_LIMBS];
        public.extend(statement);
        public
    };
    let quarters = c.chunks(4).unwrap();
    for ((chunk, quarter), t) in chunks.iter().zip(&quarters).zip(thresholds) {
        run(t, vec![chunk.clone()], whole(quarter, t)).assert_satisfied();
    }
    let wraps: Vec<Vec<Fr>> = chunks.into_iter().map(with_accumulator).collect();
    run_joins(3, wraps[..2].to_vec(), half(&c, 0, 3)).assert_satisfied();
    run_joins(6, wraps[2..].to_vec(), half(&c, 1, 6)).assert_satisfied();
    // The wraps of one half joined as if they were the other half.
    run_joins(6, wraps[..2].to_vec(), half(&c, 1, 3)).assert_rejected_by(Rejection::PublicInput(0));
}

/// End to end: a 16-member committee, 11 signers, proved as two chunks of 8 (Schnorr ATMS
/// Merkle mode, Poseidon transcript) and joined by an aggregation proof that verifies with the
/// statement built from the whole committee and is refused for `t = 12`; its key, made from
/// stand-ins of the chunk proofs (as a verifier regenerates it), is the key made from the proofs.
/// Minutes and several GiB at the join's k (default 21, `TMS_JOIN_K`):
/// `cargo test --release -p tms-aggregation --test chunk_join -- --ignored --nocapture`.
#[test]
#[ignore = "real chunk proofs and an aggregation proof: minutes and GiB"]
fn chunked_committee_proves_with_the_unchunked_statement() {
    use halo2_base::halo2_proofs::SerdeFormat;
    use schnorr_atms::{AtmsInstance, AtmsShape, AtmsWitness, Certificate, Verification};
    use tms_aggregation::{aggregation_keygen, aggregation_prove, aggregation_verify};
    use tms_aggregation::{certificate_sample, certificate_snark, ACCUMULATOR_LIMBS};
    use tms_gadgets::{
        hash::RescuePrime,
        proving::{
            params::kzg_params,
            stats::{peak_rss_mib, process_cpu_seconds},
            Transcript,
        },
    };
    const THRESHOLD: u64 = 11;
    let mut rng = ChaCha8Rng::seed_from_u64(16);
    let sks: Vec<SigningKey> = (0..16).map(|_| SigningKey::random(&mut rng)).collect();
    let c = Committee::new(sks.iter().map(SigningKey::verifying_key).collect()).unwrap();
    let message = message_to_field(MESSAGE);
    // Members 0..7 and 12..15 sign: 7 in chunk 0, 4 in chunk 1.
    let signed: Vec<_> = (0..7)
        .chain(12..16)
        .map(|i| {
            let sig = sks[i].sign(&RescuePrime, message).unwrap();
            (sks[i].verifying_key(), sig)
        })
        .collect();
    let whole_certificate = Certificate::aggregate(&c, message, &signed).unwrap();

    let chunks = c.chunks(2).unwrap();
    let shape = AtmsShape {
        n: 8,
        mode: CommitmentMode::Merkle { slots: 8 },
        k: schnorr_atms::min_k(
            &AtmsShape {
                n: 8,
                mode: CommitmentMode::Merkle { slots: 8 },
                k: 20,
                verification: Verification::PerSignature,
            },
            8,
        )
        .unwrap(),
        verification: Verification::PerSignature,
    };
    let inner_params = kzg_params(shape.k);
    let keys = schnorr_atms::keygen(&inner_params, shape).unwrap();
    let cpu = process_cpu_seconds();
    let snarks: Vec<_> = chunks
        .iter()
        .enumerate()
        .map(|(i, chunk)| {
            let certificate = whole_certificate.restricted_to(i * 8, 8);
            let t = certificate.signatures.len() as u64;
            let witness = AtmsWitness::new(shape, chunk, &certificate, t).unwrap();
            let proof = schnorr_atms::prove_with_transcript(
                &inner_params,
                &keys,
                &witness,
                Transcript::Poseidon,
            )
            .unwrap();
            let public = witness.instance.to_public_inputs();
            certificate_snark(&inner_params, keys.vk(), &public, proof).unwrap()
        })
        .collect();
    let chunk_cpu = process_cpu_seconds() - cpu;

    let k = std::env::var("TMS_JOIN_K")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(21);
    let params = kzg_params(k);
    let join = CommitteeChunks {
        threshold: THRESHOLD,
    };
    let samples = vec![certificate_sample(&inner_params, keys.vk(), 3); 2];
    let agg = aggregation_keygen(&params, k, samples, &join).unwrap();
    let from_proofs = aggregation_keygen(&params, k, snarks.clone(), &join).unwrap();
    assert_eq!(
        agg.vk().to_bytes(SerdeFormat::RawBytes),
        from_proofs.vk().to_bytes(SerdeFormat::RawBytes),
        "keygen from stand-ins gives the key keygen from the proofs gives"
    );
    assert_eq!(agg.break_points, from_proofs.break_points);
    drop(from_proofs);
    let cpu = process_cpu_seconds();
    let (public_inputs, proof) =
        aggregation_prove(&params, &agg, snarks.clone(), &join, Transcript::Poseidon).unwrap();
    let join_cpu = process_cpu_seconds() - cpu;

    // The verifier's statement: from the whole committee, the message bytes and t.
    let statement = AtmsInstance::from_trusted(
        &AtmsShape {
            n: 16,
            mode: CommitmentMode::Merkle { slots: 16 },
            k: 20,
            verification: Verification::PerSignature,
        },
        &c,
        MESSAGE,
        THRESHOLD,
    )
    .unwrap()
    .to_public_inputs();
    assert_eq!(&public_inputs[ACCUMULATOR_LIMBS..], &statement[..]);
    assert!(aggregation_verify(
        &params,
        agg.vk(),
        &public_inputs,
        &proof,
        Transcript::Poseidon
    ));
    let mut other = public_inputs.clone();
    other[ACCUMULATOR_LIMBS + 2] = Fr::from(THRESHOLD + 1);
    assert!(!aggregation_verify(
        &params,
        agg.vk(),
        &other,
        &proof,
        Transcript::Poseidon
    ));
    println!(
        "record: chunked schnorr-atms 11-of-16 in 2 chunks of 8 (k={}) join k={k} \
         advice_cells={} chunk_prove_cpu_s={chunk_cpu:.1} join_prove_cpu_s={join_cpu:.1} \
         peak_rss_mib={:.0} proof_bytes={}",
        shape.k,
        agg.advice_cells,
        peak_rss_mib(),
        proof.len()
    );
}
