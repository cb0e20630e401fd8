//! The mithril-stm mode: mithril-stm 0.13.0's golden lottery targets reproduced, the native twin's
//! signature and certificate checks, and the circuit under MockProver: the aggregate accepted,
//! and each negative starting from it, changing one thing (the response, sigma to a low-order
//! translate, the message, a path node, an index, a target) and naming what rejects it. The
//! interop test against the mithril-stm crate itself is `benches/mithril-compare/tests/interop.rs`.

use std::sync::OnceLock;

use ff::{Field, PrimeField};
use group::Group;
use midnight_curves::{JubjubAffine, JubjubExtended};
use midnight_proofs::dev::{MockProver, VerifyFailure};
use mithril_jubjub::{
    native::{to_biguint, Base, JubjubScalar, SigningKey},
    stm::{
        native::{
            aggregate, hash_to_point, lottery_prefix, lottery_target, lottery_value,
            message_to_field, sign, verify, winning_indices, wins, LotteryEvaluator,
            StmCertificate, StmLeaf, StmSignature, StmTree,
        },
        StmCircuit, StmInstance, StmShape, StmWitness,
    },
    PhiF,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;

/// The golden vectors' total stake.
const GOLDEN_TOTAL: u64 = 45_000_000_000;

fn golden(file: &str) -> Vec<Base> {
    let path = format!(
        "{}/tests/vectors/mithril-stm-0.13.0/{file}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(path)
        .expect("golden vector file")
        .lines()
        .map(|line| {
            let bytes: Vec<u8> = line
                .trim_matches(|c| c == '[' || c == ']')
                .split(',')
                .map(|b| b.trim().parse().expect("a byte"))
                .collect();
            let mut repr = <Base as PrimeField>::Repr::default();
            repr.as_mut().copy_from_slice(&bytes);
            Option::from(Base::from_repr(repr)).expect("canonical")
        })
        .collect()
}

fn check_golden(file: &str, stakes: impl Iterator<Item = u64>) {
    let phi_f = PhiF::new(1, 5).unwrap();
    let expected = golden(file);
    assert_eq!(expected.len(), 50, "{file}");
    for (stake, want) in stakes.zip(&expected) {
        assert_eq!(
            lottery_target(phi_f, stake, GOLDEN_TOTAL).unwrap(),
            *want,
            "{file}, stake {stake}"
        );
    }
}

#[test]
fn golden_targets_min_stake() {
    check_golden("golden_vector_min_stake.txt", 0..50);
}

#[test]
fn golden_targets_medium_stake() {
    check_golden("golden_vector_medium_stake.txt", 100_000..100_050);
}

#[test]
fn golden_targets_max_stake() {
    check_golden(
        "golden_vector_max_stake.txt",
        (0..50).map(|i| GOLDEN_TOTAL - i),
    );
}

#[test]
fn target_edge_cases() {
    assert!(lottery_target(PhiF::new(1, 5).unwrap(), 1, 0).is_err());
    assert!(
        PhiF::new(1, 1).is_err(),
        "phi_f = 1 is refused by the parameters"
    );
    // Monotone in the stake.
    let phi_f = PhiF::new(1, 5).unwrap();
    let t = |s| mithril_jubjub::native::to_biguint(&lottery_target(phi_f, s, 1000).unwrap());
    assert!(t(1) < t(2) && t(2) < t(999) && t(999) < t(1000));
}

/// m = 40, quorum 3, phi_f = 0.7, five parties of stakes 100..500.
const M: u64 = 40;
const QUORUM: u64 = 3;
const MESSAGE: [u8; 32] = [7; 32];

struct Example {
    sks: Vec<SigningKey>,
    tree: StmTree,
    certificate: StmCertificate,
    witness: StmWitness,
}

fn example() -> &'static Example {
    static EXAMPLE: OnceLock<Example> = OnceLock::new();
    EXAMPLE.get_or_init(|| {
        let mut rng = ChaCha20Rng::seed_from_u64(5);
        let sks: Vec<SigningKey> = (0..5).map(|_| SigningKey::random(&mut rng)).collect();
        let phi_f = PhiF::new(7, 10).unwrap();
        let leaves: Vec<StmLeaf> = sks
            .iter()
            .enumerate()
            .map(|(i, sk)| StmLeaf {
                key: sk.verifying_key(),
                target: lottery_target(phi_f, 100 * (i as u64 + 1), 1500).unwrap(),
            })
            .collect();
        let tree = StmTree::new(&leaves).unwrap();
        let message = message_to_field(&MESSAGE);
        let h = hash_to_point(tree.root(), message);
        let signatures: Vec<(usize, StmSignature)> = sks
            .iter()
            .enumerate()
            .map(|(i, sk)| (i, sign(sk, &h)))
            .collect();
        let certificate = aggregate(&tree, (M, QUORUM), message, &signatures).unwrap();
        verify(tree.root(), message, (M, QUORUM), &certificate).unwrap();
        let shape = StmShape {
            signer_slots: certificate.signers.len(),
            index_slots: QUORUM as usize,
            m: M,
            k: 12,
            ladder: Default::default(),
        };
        let instance = StmInstance::from_trusted(tree.root(), &MESSAGE);
        let witness = StmWitness::new(shape, instance, &certificate).unwrap();
        Example {
            sks,
            tree,
            certificate,
            witness,
        }
    })
}

/// MockProver on `circuit`, the verifier holding the honest statement.
fn mock(circuit: &StmCircuit) -> Result<(), Vec<VerifyFailure>> {
    let public = example().witness.instance.to_public_inputs();
    MockProver::run(circuit, vec![public])
        .expect("synthesis")
        .verify()
}

fn mock_witness(w: &StmWitness) -> Result<(), Vec<VerifyFailure>> {
    mock(&StmCircuit::new(w.clone()))
}

fn assert_rejected(result: Result<(), Vec<VerifyFailure>>, what: &str) {
    assert!(result.is_err(), "{what}: a changed witness was accepted");
}

#[test]
fn lottery_evaluator_agrees_with_lottery_value() {
    let mut rng = ChaCha20Rng::seed_from_u64(21);
    for _ in 0..8 {
        let prefix = Base::random(&mut rng);
        let sigma = JubjubExtended::random(&mut rng);
        let lottery = LotteryEvaluator::new(prefix, &sigma);
        for j in [0u64, 1, 2, 9_999, u64::from(u32::MAX), rng.gen()] {
            assert_eq!(
                lottery.value(j),
                lottery_value(prefix, &sigma, Base::from(j))
            );
        }
    }
}

#[test]
fn aggregate_picks_the_lowest_won_indices() {
    // The aggregation stops at the k-th won index: the same indices and signers as replaying
    // every lottery of every signer, the lowest k, each with its first signer.
    let ex = example();
    let root = ex.tree.root();
    let message = message_to_field(&MESSAGE);
    let h = hash_to_point(root, message);
    let mut all: Vec<(u64, usize)> = Vec::new();
    for (n, sk) in ex.sks.iter().enumerate() {
        let leaf = ex.tree.leaves()[n];
        all.extend(
            winning_indices(M, root, message, &leaf, &sign(sk, &h))
                .into_iter()
                .map(|j| (j, n)),
        );
    }
    all.sort();
    all.dedup_by_key(|(j, _)| *j);
    all.truncate(QUORUM as usize);
    let chosen: Vec<(u64, usize)> = ex
        .certificate
        .indices
        .iter()
        .map(|i| {
            let key = ex.certificate.signers[i.signer].leaf.key;
            let n = ex.tree.leaves().iter().position(|l| l.key == key).unwrap();
            (i.index, n)
        })
        .collect();
    assert_eq!(chosen, all);
}

#[test]
fn native_signature_round_trip_and_encoding() {
    let ex = example();
    let h = hash_to_point(ex.tree.root(), message_to_field(&MESSAGE));
    let sig = sign(&ex.sks[0], &h);
    assert!(sig.verify(&ex.sks[0].verifying_key(), &h));
    assert_eq!(StmSignature::from_bytes(&sig.to_bytes()).unwrap(), sig);
    assert!(StmSignature::from_bytes(&sig.to_bytes()[..95]).is_err());
    // Another key, another message.
    assert!(!sig.verify(&ex.sks[1].verifying_key(), &h));
    let other = hash_to_point(ex.tree.root(), message_to_field(&[8; 32]));
    assert!(!sig.verify(&ex.sks[0].verifying_key(), &other));
}

/// A low-order point `T` (order 2: `(0, -1)`).
fn low_order() -> JubjubExtended {
    let t = JubjubExtended::from(JubjubAffine::from_raw_unchecked(Base::ZERO, -Base::ONE));
    assert!(bool::from(t.is_small_order()) && !bool::from(t.is_identity()));
    assert!(bool::from((t + t).is_identity()));
    t
}

#[test]
fn native_refuses_changed_response_and_low_order_sigma() {
    let ex = example();
    let key = ex.sks[0].verifying_key();
    let h = hash_to_point(ex.tree.root(), message_to_field(&MESSAGE));
    let sig = sign(&ex.sks[0], &h);
    let changed = StmSignature {
        s: sig.s + JubjubScalar::ONE,
        ..sig
    };
    assert!(!changed.verify(&key, &h));
    // sigma + T with the challenge recomputed honestly over it: only the subgroup check refuses.
    let sigma = sig.sigma + low_order();
    let translated = StmSignature { sigma, ..sig };
    let (r1, r2) = translated.commitments(&key, &h);
    let c = mithril_jubjub::stm::native::challenge(&h, &key, &sigma, &r1, &r2);
    let consistent = StmSignature { c, ..translated };
    assert!(!consistent.verify(&key, &h));
}

#[test]
fn native_verify_refuses_one_change() {
    let ex = example();
    let root = ex.tree.root();
    let message = message_to_field(&MESSAGE);
    let params = (M, QUORUM);
    let cert = &ex.certificate;
    let mut c = cert.clone();
    c.signers[0].path.siblings[0] += Base::ONE;
    assert!(verify(root, message, params, &c).is_err(), "path node");
    let mut c = cert.clone();
    c.signers[0].leaf.target += Base::ONE;
    assert!(verify(root, message, params, &c).is_err(), "target");
    let mut c = cert.clone();
    c.indices[1].index = c.indices[0].index;
    assert!(verify(root, message, params, &c).is_err(), "repeated index");
    let mut c = cert.clone();
    c.signers[0].signature.s += JubjubScalar::ONE;
    assert!(verify(root, message, params, &c).is_err(), "response");
    assert!(
        verify(root, message_to_field(&[8; 32]), params, cert).is_err(),
        "message"
    );
    assert!(
        verify(root, message, (M, QUORUM + 1), cert).is_err(),
        "quorum"
    );
}

#[test]
fn circuit_accepts_the_aggregate() {
    mock_witness(&example().witness).unwrap();
}

#[test]
fn circuit_refuses_changed_response() {
    let mut w = example().witness.clone();
    w.signers[0].signature.s += JubjubScalar::ONE;
    assert_rejected(mock_witness(&w), "response");
}

#[test]
fn circuit_refuses_low_order_sigma() {
    // A prover holding sigma + T (T of order 2) and the challenge recomputed over it: the
    // circuit's sigma is 8 sigma', in the subgroup, so its challenge is not c.
    let ex = example();
    let mut w = ex.witness.clone();
    let key = w.signers[0].leaf.key;
    let h = hash_to_point(ex.tree.root(), message_to_field(&MESSAGE));
    let mut sig = w.signers[0].signature;
    sig.sigma += low_order();
    let (r1, r2) = sig.commitments(&key, &h);
    sig.c = mithril_jubjub::stm::native::challenge(&h, &key, &sig.sigma, &r1, &r2);
    w.signers[0].signature = sig;
    assert_rejected(mock_witness(&w), "low-order sigma");
}

#[test]
fn circuit_refuses_another_message() {
    // Signatures of another message, proved against the honest statement.
    let ex = example();
    let other = [8u8; 32];
    let message = message_to_field(&other);
    let h = hash_to_point(ex.tree.root(), message);
    let signatures: Vec<(usize, StmSignature)> = ex
        .sks
        .iter()
        .enumerate()
        .map(|(i, sk)| (i, sign(sk, &h)))
        .collect();
    let certificate = aggregate(&ex.tree, (M, QUORUM), message, &signatures).unwrap();
    let shape = StmShape {
        signer_slots: certificate.signers.len(),
        ..ex.witness.shape
    };
    let w = StmWitness::new(
        shape,
        StmInstance::from_trusted(ex.tree.root(), &other),
        &certificate,
    )
    .unwrap();
    // Its own statement holds; the verifier's (MESSAGE) does not.
    MockProver::run(
        &StmCircuit::new(w.clone()),
        vec![w.instance.to_public_inputs()],
    )
    .unwrap()
    .verify()
    .unwrap();
    assert_rejected(mock_witness(&w), "another message");
}

#[test]
fn circuit_refuses_a_changed_message_half() {
    let ex = example();
    let honest = ex.witness.instance.to_public_inputs();
    for half in [StmInstance::MESSAGE, StmInstance::MESSAGE + 1] {
        // The verifier's statement with one half changed, against the honest witness.
        let mut public = honest.clone();
        public[half] += Base::ONE;
        let result = MockProver::run(&StmCircuit::new(ex.witness.clone()), vec![public.clone()])
            .expect("synthesis")
            .verify();
        let failures = result.expect_err("a changed message half was accepted");
        assert!(
            failures
                .iter()
                .any(|f| matches!(f, VerifyFailure::Permutation { .. })),
            "half {half}: {failures:?}"
        );
        // A prover claiming the honest signatures for those halves (its cells agreeing with
        // the changed statement): the circuit hashes them to another message element, for
        // which the signatures and lotteries fail.
        let mut w = ex.witness.clone();
        w.instance.message_halves[half - StmInstance::MESSAGE] += Base::ONE;
        assert_eq!(w.instance.to_public_inputs(), public);
        let result = MockProver::run(&StmCircuit::new(w), vec![public])
            .expect("synthesis")
            .verify();
        assert_rejected(result, "the honest signatures for a changed half");
    }
}

/// The example with its last index moved to one above the one before it that its signer did not
/// win, and that index slot.
fn lost_index_witness() -> (StmWitness, usize) {
    let ex = example();
    let last = ex.witness.indices.len() - 1;
    let signer = &ex.witness.signers[ex.witness.indices[last].1];
    let prefix = lottery_prefix(ex.tree.root(), message_to_field(&MESSAGE));
    let before: u64 = to_biguint(&ex.witness.indices[last - 1].0)
        .try_into()
        .unwrap();
    let lost = (before + 1..M)
        .find(|j| {
            !wins(
                lottery_value(prefix, &signer.signature.sigma, Base::from(*j)),
                signer.leaf.target,
            )
        })
        .expect("an index the last signer lost");
    let mut w = ex.witness.clone();
    w.indices[last].0 = Base::from(lost);
    (w, last)
}

#[test]
fn circuit_refuses_changed_path_node_index_and_target() {
    let ex = example();
    let mut w = ex.witness.clone();
    w.signers[0].path.siblings[0] += Base::ONE;
    assert_rejected(mock_witness(&w), "path node");

    // A padding sibling made non-zero: the level is no longer skipped.
    let mut w = ex.witness.clone();
    w.signers[0].path.siblings[12] = Base::ONE;
    assert_rejected(mock_witness(&w), "padding node");

    let mut w = ex.witness.clone();
    w.signers[0].path.position ^= 1;
    assert_rejected(mock_witness(&w), "position");

    // The target raised: the leaf no longer hashes to a registered one.
    let mut w = ex.witness.clone();
    w.signers[0].leaf.target += Base::ONE;
    assert_rejected(mock_witness(&w), "target");

    // An index repeated, an index at m, an index its signer did not win.
    let mut w = ex.witness.clone();
    w.indices[1].0 = w.indices[0].0;
    assert_rejected(mock_witness(&w), "repeated index");
    let mut w = ex.witness.clone();
    let last = w.indices.len() - 1;
    w.indices[last].0 = Base::from(M);
    assert_rejected(mock_witness(&w), "index m");
    let (w, _) = lost_index_witness();
    assert_rejected(mock_witness(&w), "lost index");
}

#[test]
fn circuit_refuses_forged_table_row() {
    // The table row of slot 0 claims a target of q - 1 (every index wins), the copies kept.
    let ex = example();
    let tuple = mithril_jubjub::stm::circuit::stm_table_tuple(&ex.witness, 0);
    let (hi, lo) = mithril_jubjub::circuit::limbs(-Base::ONE);
    let forged = [tuple[0], tuple[1], tuple[2], hi, lo];
    let circuit =
        StmCircuit::new(ex.witness.clone()).with_forged_table_row(ex.witness.indices[0].1, forged);
    assert_rejected(mock(&circuit), "forged table row");
}

/// The honest borrow of index slot `i`'s `ev <= T` (`T_lo < ev_lo`).
fn honest_borrow(w: &StmWitness, i: usize) -> bool {
    let (j, signer) = w.indices[i];
    let slot = &w.signers[signer];
    let prefix = lottery_prefix(w.instance.root, w.instance.message());
    let ev = lottery_value(prefix, &slot.signature.sigma, j);
    let (_, ev_lo) = mithril_jubjub::circuit::limbs(ev);
    let (_, t_lo) = mithril_jubjub::circuit::limbs(slot.leaf.target);
    to_biguint(&t_lo) < to_biguint(&ev_lo)
}

#[test]
fn circuit_refuses_forged_borrow() {
    // The comparison ev <= T takes its borrow from the prover: the honest one passes (the hook
    // changes nothing else), the other fails a range check, in every index slot.
    let ex = example();
    let w = &ex.witness;
    for i in 0..w.indices.len() {
        let honest = honest_borrow(w, i);
        mock(&StmCircuit::new(w.clone()).with_forged_borrow(i, honest))
            .unwrap_or_else(|e| panic!("slot {i}, honest borrow: {e:?}"));
        // The difference leaves [0, 2^128): its range-checked copy cannot equal it.
        let failures = mock(&StmCircuit::new(w.clone()).with_forged_borrow(i, !honest))
            .expect_err("a flipped borrow was accepted");
        assert!(
            failures
                .iter()
                .any(|f| matches!(f, VerifyFailure::Permutation { .. })),
            "slot {i}, flipped borrow: {failures:?}"
        );
    }
}

#[test]
fn circuit_refuses_lost_index_under_either_borrow() {
    // An index its signer did not win (ev > T) cannot be carried by any choice of borrow.
    let (w, last) = lost_index_witness();
    for borrow in [false, true] {
        assert_rejected(
            mock(&StmCircuit::new(w.clone()).with_forged_borrow(last, borrow)),
            &format!("lost index, borrow {borrow}"),
        );
    }
}

/// Layout figures of the mithril-stm mode against this crate's own mode on the same slots
/// (midnight's cost model, no proving): `cargo test -p mithril-jubjub --test stm -- --ignored
/// --nocapture layout`.
#[test]
#[ignore = "a measurement: prints the cost model of both modes"]
fn layout_of_both_modes() {
    for (signers, quorum) in [(8usize, 32usize), (32, 32)] {
        let stm = StmShape {
            signer_slots: signers,
            index_slots: quorum,
            m: 10_000,
            k: 10,
            ladder: Default::default(),
        };
        let stm = StmShape {
            k: mithril_jubjub::stm::prover::min_k(&stm),
            ..stm
        };
        let ours = mithril_jubjub::MithrilShape {
            signer_slots: signers,
            index_slots: quorum,
            depth: 13,
            k: 10,
        };
        let ours = mithril_jubjub::MithrilShape {
            k: mithril_jubjub::prover::min_k(&ours),
            ..ours
        };
        let (a, b) = (
            tms_cardano::scheme::layout_stats(&stm),
            mithril_jubjub::prover::layout_stats(&ours),
        );
        println!(
            "layout signers {signers} quorum {quorum}: stm mode k = {} rows {}; own mode k = {} rows {}",
            stm.k, a.rows, ours.k, b.rows
        );
    }
}

/// The mithril-stm mode's rows at the bench's Zipf quorum-32 shape (2 signer slots, 32 index
/// slots, m = 10,000) at k = 13 and 14, and the marginal rows of a signer and an index slot:
/// `cargo test -p mithril-jubjub --test stm -- --ignored --nocapture rows_of_the_quorum_32_shape`.
#[test]
#[ignore = "a measurement: prints the cost model"]
fn rows_of_the_quorum_32_shape() {
    let rows = |signer_slots, index_slots, k| {
        tms_cardano::scheme::layout_stats(&StmShape {
            signer_slots,
            index_slots,
            m: 10_000,
            k,
            ladder: Default::default(),
        })
        .rows
    };
    for k in [13, 14] {
        let base = rows(2, 32, k);
        println!(
            "stm mode k = {k}: 2 signers, quorum 32: rows {base} (2^{k} = {}); signer slot {}; index slot {}",
            1u64 << k,
            rows(3, 32, k) - base,
            rows(2, 33, k) - base
        );
    }
}

/// The real prover and verifier on the example: the proof verifies for the statement a verifier
/// builds from the root and the message bytes, and not for another message.
#[test]
fn real_proof_round_trip() {
    use mithril_jubjub::stm::prover;
    let ex = example();
    let shape = StmShape {
        k: prover::min_k(&ex.witness.shape),
        ..ex.witness.shape
    };
    let witness = StmWitness {
        shape,
        ..ex.witness.clone()
    };
    let params = mithril_jubjub::prover::insecure_test_params(shape.k);
    let keys = prover::keygen(&params, shape).unwrap();
    let proof = prover::prove(&params, &keys, &witness, rand::rngs::OsRng).unwrap();
    let vp = params.verifier_params();
    let instance = StmInstance::from_trusted(ex.tree.root(), &MESSAGE);
    prover::verify(&vp, keys.vk(), &instance, &proof).unwrap();
    let other = StmInstance::from_trusted(ex.tree.root(), &[8; 32]);
    assert!(prover::verify(&vp, keys.vk(), &other, &proof).is_err());
    let mut changed = proof.clone();
    changed[proof.len() / 2] ^= 1;
    assert!(prover::verify(&vp, keys.vk(), &instance, &changed).is_err());
}
