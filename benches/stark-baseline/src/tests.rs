//! Soundness tests.
//!
//! Each rejection names its path:
//! - `..._by_native_check`: our prover's own checks before any trace is built (`prove`);
//! - `..._by_prover_trace_check`: winterfell's trace validation against the AIR, which runs in
//!   debug builds only (these tests exist only with debug assertions);
//! - `..._by_verifier`: winterfell's verifier on a proof. Where the proof comes from a trace the
//!   debug prover would refuse, the test exists only without debug assertions
//!   (`cargo test -p stark-baseline --release`).

use winterfell::{math::FieldElement, Trace, TraceTable};

use crate::air::{num_slots, PublicInputs, ACC_DONE_ROW, COL_BIT, COL_CNT, SLOT_LEN, TRACE_WIDTH};
// used by the tests of winterfell's (debug-only) trace check
#[cfg(debug_assertions)]
use crate::air::{COL_A, COL_MK, C_SIG, HASH_CYCLE};
use crate::hash::Felt;
use crate::lamport::{generate_keys, Message, SecretKey, Signature};
use crate::merkle::KeyTree;
use crate::trace::{build_trace, build_witness};
use crate::{prove, security, verify, Error};

struct Fixture {
    tree: KeyTree,
    msg: Message,
    sigs: Vec<(usize, Signature)>,
}

/// N keys, signers `signers`, a fixed message.
fn fixture(n: usize, signers: &[usize]) -> Fixture {
    let keys = generate_keys(n, 42);
    let pks: Vec<_> = keys.iter().map(SecretKey::public_key).collect();
    let tree = KeyTree::new(&pks).unwrap();
    let msg = Message::from_bytes(b"sidechain epoch 1234");
    let sigs = signers.iter().map(|&i| (i, keys[i].sign(&msg))).collect();
    Fixture { tree, msg, sigs }
}

impl Fixture {
    fn inputs(&self) -> PublicInputs {
        crate::check_signatures(&self.tree, &self.msg, &self.sigs).unwrap()
    }

    fn trace(&self) -> TraceTable<Felt> {
        build_trace(&self.msg, &build_witness(&self.tree, &self.sigs))
    }
}

/// Runs the prover on a trace the AIR does not accept; returns winterfell's panic message
/// (debug builds validate the trace before proving).
#[cfg(debug_assertions)]
fn prover_trace_check_message(trace: TraceTable<Felt>, inputs: PublicInputs) -> String {
    let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        crate::prove_trace(trace, inputs)
    }));
    match run {
        Ok(_) => panic!("the prover accepted an invalid trace"),
        Err(payload) => payload
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default(),
    }
}

/// Proves an invalid trace (release builds do not validate it) and verifies the proof.
#[cfg(not(debug_assertions))]
fn verifier_result_on_invalid_trace(
    trace: TraceTable<Felt>,
    inputs: PublicInputs,
) -> Result<(), Error> {
    let proof = crate::prove_trace(trace, inputs.clone())?;
    verify(proof, &inputs)
}

#[cfg(debug_assertions)]
fn transition_failure(constraint: usize, step: usize) -> String {
    format!("main transition constraint {constraint} did not evaluate to ZERO at step {step}")
}

// HONEST PROOFS
// ================================================================================================

#[test]
fn honest_batch_proof_verifies() {
    let fx = fixture(4, &[0, 1, 2, 3]);
    let (proof, inputs) = prove(&fx.tree, &fx.msg, &fx.sigs).unwrap();
    let sec = security(&proof);
    println!(
        "N=4 t=4: {} bytes, conjectured {} bits, proven {} (list) / {} (unique) bits",
        proof.to_bytes().len(),
        sec.conjectured,
        sec.proven_list_decoding,
        sec.proven_unique_decoding
    );
    assert!(
        sec.conjectured >= 100,
        "conjectured security {} < 100",
        sec.conjectured
    );
    let bytes = proof.to_bytes();
    let parsed = winterfell::Proof::from_bytes(&bytes).unwrap();
    verify(parsed, &inputs).unwrap();
}

#[test]
fn honest_threshold_proof_verifies() {
    // 3 of 6: slots 6 and 7 are zero padding leaves, keys 1, 3 and 4 do not sign
    let fx = fixture(6, &[5, 0, 2]);
    let (proof, inputs) = prove(&fx.tree, &fx.msg, &fx.sigs).unwrap();
    assert_eq!((inputs.num_keys, inputs.threshold), (6, 3));
    verify(proof, &inputs).unwrap();
}

fn two_key_proof_verifies(msg: Message) {
    let keys = generate_keys(2, 5);
    let pks: Vec<_> = keys.iter().map(SecretKey::public_key).collect();
    let tree = KeyTree::new(&pks).unwrap();
    let sigs: Vec<_> = (0..2).map(|i| (i, keys[i].sign(&msg))).collect();
    let (proof, inputs) = prove(&tree, &msg, &sigs).unwrap();
    verify(proof, &inputs).unwrap();
}

#[test]
fn smallest_committee_proof_verifies() {
    // N = 2: one Merkle level
    two_key_proof_verifies(Message::from_bytes(b"two keys"));
}

/// A message with no 1 bits: lanes A and B only copy, so their capacity columns are constant and
/// their constraints vanish identically, which winterfell's debug-only degree check refuses
/// (declared degrees cannot be zero); release builds prove and verify it.
#[cfg(not(debug_assertions))]
#[test]
fn all_zero_message_proof_verifies() {
    two_key_proof_verifies(Message::new([0; 4]).unwrap());
}

// FORGED SIGNATURE
// ================================================================================================

fn forged(fx: &mut Fixture, signer_pos: usize, part: usize) -> usize {
    fx.sigs[signer_pos].1.parts[part][2] += Felt::ONE;
    fx.sigs[signer_pos].0
}

#[test]
fn forged_signature_rejected_by_native_check() {
    let mut fx = fixture(4, &[0, 1, 2]);
    let index = forged(&mut fx, 1, 100);
    assert!(matches!(
        prove(&fx.tree, &fx.msg, &fx.sigs),
        Err(Error::InvalidSignature { index: i }) if i == index
    ));
}

/// A forged signature in the trace: the key sponge misses the leaf where the count increments.
fn forged_signature_trace() -> (TraceTable<Felt>, PublicInputs, usize) {
    let fx = fixture(4, &[0, 1, 2]);
    let inputs = fx.inputs();
    let mut bad = fx.sigs.clone();
    bad[1].1.parts[100][2] += Felt::ONE;
    let trace = build_trace(&fx.msg, &build_witness(&fx.tree, &bad));
    (trace, inputs, bad[1].0)
}

#[cfg(debug_assertions)]
#[test]
fn forged_signature_rejected_by_prover_trace_check() {
    let (trace, inputs, slot) = forged_signature_trace();
    let msg = prover_trace_check_message(trace, inputs);
    assert_eq!(
        msg,
        transition_failure(C_SIG, slot * SLOT_LEN + ACC_DONE_ROW)
    );
}

#[cfg(not(debug_assertions))]
#[test]
fn forged_signature_rejected_by_verifier() {
    let (trace, inputs, _) = forged_signature_trace();
    let r = verifier_result_on_invalid_trace(trace, inputs);
    assert!(matches!(r, Err(Error::Verification(_))), "{r:?}");
}

// KEY OUTSIDE THE TREE
// ================================================================================================

/// Slot 2 carries a valid signature by a key that is not in the tree, with its own leaf and
/// the real path of index 2: the path no longer leads to the root.
fn outsider_trace() -> (TraceTable<Felt>, PublicInputs, usize) {
    let fx = fixture(4, &[0, 1, 2]);
    let inputs = fx.inputs();
    let outsider = &generate_keys(1, 999)[0];
    let mut w = build_witness(&fx.tree, &fx.sigs);
    w[2].sigma = outsider.sign(&fx.msg).parts;
    w[2].leaf = outsider.public_key().0;
    (build_trace(&fx.msg, &w), inputs, 2)
}

#[test]
fn key_outside_tree_rejected_by_native_check() {
    let mut fx = fixture(4, &[0, 1, 2]);
    let outsider = &generate_keys(1, 999)[0];
    fx.sigs[2].1 = outsider.sign(&fx.msg);
    assert!(matches!(
        prove(&fx.tree, &fx.msg, &fx.sigs),
        Err(Error::InvalidSignature { index: 2 })
    ));
}

#[cfg(debug_assertions)]
#[test]
fn key_outside_tree_rejected_by_prover_trace_check() {
    let (trace, inputs, slot) = outsider_trace();
    let depth = 2;
    let step = slot * SLOT_LEN + HASH_CYCLE * depth - 1;
    let msg = prover_trace_check_message(trace, inputs);
    let expected = format!(
        "trace does not satisfy assertion main_trace({}, {step})",
        COL_MK + 4
    );
    assert!(msg.starts_with(&expected), "{msg}");
}

#[cfg(not(debug_assertions))]
#[test]
fn key_outside_tree_rejected_by_verifier() {
    let (trace, inputs, _) = outsider_trace();
    let r = verifier_result_on_invalid_trace(trace, inputs);
    assert!(matches!(r, Err(Error::Verification(_))), "{r:?}");
}

/// The outsider's key placed as the leaf of slot 2 without changing the path, but with the real
/// leaf kept in the Merkle input: the leaf column and the Merkle input disagree.
#[cfg(debug_assertions)]
#[test]
fn outsider_leaf_not_in_merkle_input_rejected_by_prover_trace_check() {
    let fx = fixture(4, &[0, 1, 2]);
    let inputs = fx.inputs();
    let mut trace = fx.trace();
    let outsider = generate_keys(1, 999)[0].public_key().0;
    for row in 2 * SLOT_LEN..3 * SLOT_LEN {
        for (k, v) in outsider.iter().enumerate() {
            trace.set(crate::air::COL_LEAF + k, row, *v);
        }
    }
    let msg = prover_trace_check_message(trace, inputs);
    assert_eq!(msg, transition_failure(crate::air::C_LOAD, 2 * SLOT_LEN));
}

// WRONG ROOT, WRONG MESSAGE
// ================================================================================================

/// An honest proof checked against another root (the root is bound through Fiat-Shamir).
#[test]
fn wrong_root_rejected_by_verifier() {
    let fx = fixture(4, &[0, 1, 2, 3]);
    let (proof, mut inputs) = prove(&fx.tree, &fx.msg, &fx.sigs).unwrap();
    let other = fixture(5, &[]);
    inputs.root = other.tree.root();
    let r = verify(proof, &inputs);
    assert!(matches!(r, Err(Error::Verification(_))), "{r:?}");
}

/// The honest trace, with public inputs naming another tree's root.
fn honest_trace_with_other_root() -> (TraceTable<Felt>, PublicInputs) {
    let fx = fixture(4, &[0, 1, 2, 3]);
    let mut inputs = fx.inputs();
    inputs.root = fixture(5, &[]).tree.root();
    (fx.trace(), inputs)
}

#[cfg(debug_assertions)]
#[test]
fn wrong_root_claimed_rejected_by_prover_trace_check() {
    let (trace, inputs) = honest_trace_with_other_root();
    let msg = prover_trace_check_message(trace, inputs);
    let step = HASH_CYCLE * 2 - 1; // slot 0, after 2 levels
    let expected = format!(
        "trace does not satisfy assertion main_trace({}, {step})",
        COL_MK + 4
    );
    assert!(msg.starts_with(&expected), "{msg}");
}

#[cfg(not(debug_assertions))]
#[test]
fn wrong_root_claimed_proof_rejected_by_verifier() {
    let (trace, inputs) = honest_trace_with_other_root();
    let r = verifier_result_on_invalid_trace(trace, inputs);
    assert!(matches!(r, Err(Error::Verification(_))), "{r:?}");
}

#[test]
fn wrong_message_rejected_by_verifier() {
    let fx = fixture(4, &[0, 1, 2, 3]);
    let (proof, mut inputs) = prove(&fx.tree, &fx.msg, &fx.sigs).unwrap();
    inputs.message = Message::from_bytes(b"sidechain epoch 1235");
    let r = verify(proof, &inputs);
    assert!(matches!(r, Err(Error::Verification(_))), "{r:?}");
}

// t + 1 CLAIMED
// ================================================================================================

/// An honest proof checked with t + 1 (t is bound through Fiat-Shamir).
#[test]
fn t_plus_one_rejected_by_verifier() {
    let fx = fixture(4, &[0, 3]);
    let (proof, mut inputs) = prove(&fx.tree, &fx.msg, &fx.sigs).unwrap();
    inputs.threshold += 1;
    let r = verify(proof, &inputs);
    assert!(matches!(r, Err(Error::Verification(_))), "{r:?}");
}

#[cfg(debug_assertions)]
#[test]
fn t_plus_one_rejected_by_prover_trace_check() {
    let fx = fixture(4, &[0, 3]);
    let mut inputs = fx.inputs();
    inputs.threshold += 1;
    let msg = prover_trace_check_message(fx.trace(), inputs);
    let step = 3 * SLOT_LEN + ACC_DONE_ROW + 1;
    let expected = format!("trace does not satisfy assertion main_trace({COL_CNT}, {step}) == 3");
    assert_eq!(msg, expected);
}

/// The honest trace proved (without validation) under a claim of t + 1.
#[cfg(not(debug_assertions))]
#[test]
fn t_plus_one_proof_rejected_by_verifier() {
    let fx = fixture(4, &[0, 3]);
    let mut inputs = fx.inputs();
    inputs.threshold += 1;
    let r = verifier_result_on_invalid_trace(fx.trace(), inputs);
    assert!(matches!(r, Err(Error::Verification(_))), "{r:?}");
}

/// A non-signer's slot counted: the count reaches t + 1 but its sponge misses its leaf.
fn counted_non_signer_trace() -> (TraceTable<Felt>, PublicInputs) {
    let fx = fixture(4, &[0, 3]);
    let mut inputs = fx.inputs();
    inputs.threshold += 1;
    let mut w = build_witness(&fx.tree, &fx.sigs);
    w[1].signs = true;
    (build_trace(&fx.msg, &w), inputs)
}

#[cfg(debug_assertions)]
#[test]
fn counted_non_signer_rejected_by_prover_trace_check() {
    let (trace, inputs) = counted_non_signer_trace();
    let msg = prover_trace_check_message(trace, inputs);
    assert_eq!(msg, transition_failure(C_SIG, SLOT_LEN + ACC_DONE_ROW));
}

#[cfg(not(debug_assertions))]
#[test]
fn counted_non_signer_rejected_by_verifier() {
    let (trace, inputs) = counted_non_signer_trace();
    let r = verifier_result_on_invalid_trace(trace, inputs);
    assert!(matches!(r, Err(Error::Verification(_))), "{r:?}");
}

#[test]
fn t_above_n_rejected_by_input_check() {
    let fx = fixture(4, &[0, 1, 2, 3]);
    let (proof, mut inputs) = prove(&fx.tree, &fx.msg, &fx.sigs).unwrap();
    inputs.threshold = 5;
    assert!(matches!(
        verify(proof, &inputs),
        Err(Error::ThresholdOutOfRange { t: 5, n: 4 })
    ));
}

#[test]
fn duplicate_signer_rejected_by_native_check() {
    let mut fx = fixture(4, &[0, 1]);
    fx.sigs[1] = fx.sigs[0].clone();
    assert!(matches!(
        prove(&fx.tree, &fx.msg, &fx.sigs),
        Err(Error::DuplicateSigner { index: 0 })
    ));
}

// RANDOM TRACE
// ================================================================================================

/// A trace of random values; with `fix_assertions`, the asserted cells are set to their
/// asserted values so that only transition constraints can reject it.
fn random_trace(inputs: &PublicInputs, fix_assertions: bool) -> TraceTable<Felt> {
    use rand::{RngCore, SeedableRng};
    use winterfell::Air;
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(3);
    let n = num_slots(inputs.num_keys) * SLOT_LEN;
    let columns: Vec<Vec<Felt>> = (0..TRACE_WIDTH)
        .map(|_| (0..n).map(|_| Felt::new(rng.next_u64())).collect())
        .collect();
    let mut trace = TraceTable::init(columns);
    if fix_assertions {
        let info = winterfell::TraceInfo::new(TRACE_WIDTH, n);
        let air = crate::AggregateAir::new(info, inputs.clone(), crate::proof_options());
        for a in air.get_assertions() {
            a.apply(n, |step, value| trace.set(a.column(), step, value));
        }
    }
    trace
}

#[cfg(debug_assertions)]
#[test]
fn random_trace_rejected_by_prover_trace_check() {
    let inputs = fixture(4, &[0, 1, 2, 3]).inputs();
    let msg = prover_trace_check_message(random_trace(&inputs, false), inputs.clone());
    assert!(
        msg.starts_with(&format!(
            "trace does not satisfy assertion main_trace({COL_A}, 0)"
        )),
        "{msg}"
    );
    // with every assertion satisfied, the first transition row already fails (lane A's round)
    let msg = prover_trace_check_message(random_trace(&inputs, true), inputs);
    assert_eq!(msg, transition_failure(0, 0));
}

#[cfg(not(debug_assertions))]
#[test]
fn random_trace_rejected_by_verifier() {
    let inputs = fixture(4, &[0, 1, 2, 3]).inputs();
    for fix in [false, true] {
        let r = verifier_result_on_invalid_trace(random_trace(&inputs, fix), inputs.clone());
        assert!(
            matches!(r, Err(Error::Verification(_))),
            "fix_assertions={fix}: {r:?}"
        );
    }
}

// SHAPE
// ================================================================================================

#[test]
fn honest_trace_shape() {
    let fx = fixture(4, &[0, 1]);
    let t = fx.trace();
    assert_eq!((t.width(), t.length()), (TRACE_WIDTH, 4 * SLOT_LEN));
    // the count steps at the end of each signer's sponge
    assert_eq!(t.get(COL_CNT, ACC_DONE_ROW), Felt::ZERO);
    assert_eq!(t.get(COL_CNT, ACC_DONE_ROW + 1), Felt::ONE);
    assert_eq!(t.get(COL_CNT, 4 * SLOT_LEN - 1), Felt::new(2));
    // slot 3's first index bit
    assert_eq!(t.get(COL_BIT, 3 * SLOT_LEN), Felt::ONE);
}
