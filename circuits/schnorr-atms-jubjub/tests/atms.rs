//! The Jubjub Schnorr ATMS circuit under midnight-proofs' MockProver: positive runs for both
//! commitment modes, threshold edge cases, agreement with the native twin on random inputs,
//! and the one-change negatives of `circuits/schnorr-atms/tests/atms.rs` (each starts from a
//! satisfied witness, changes one thing and names the kind of check that fails).
//!
//! MockProver picks the smallest k that holds the rows (midnight-proofs' `RowSizer`); every
//! case asserts it is at most 14.

use ff::Field;
use midnight_proofs::{
    dev::{MockProver, RowSizer, VerifyFailure},
    plonk::Any,
};
use rand::{seq::SliceRandom, Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use schnorr_atms_jubjub::{
    generator, message_to_field, AtmsCircuit, AtmsShape, AtmsWitness, Base, Certificate,
    CommitmentMode, Committee, JubjubScalar, Signature, SigningKey, VerifyingKey,
};

/// The range table's size: 2^(K-1) rows.
const K: u32 = 11;

struct Setting {
    sks: Vec<SigningKey>,
    committee: Committee,
    message: Base,
}

fn setting(n: usize) -> Setting {
    let mut rng = ChaCha8Rng::seed_from_u64(n as u64 + 100);
    let sks: Vec<SigningKey> = (0..n).map(|_| SigningKey::random(&mut rng)).collect();
    let committee = Committee::new(sks.iter().map(|s| s.verifying_key()).collect()).unwrap();
    Setting {
        sks,
        committee,
        message: message_to_field(b"sidechain epoch 42"),
    }
}

impl Setting {
    fn signed_by(&self, signers: &[usize]) -> Vec<(VerifyingKey, Signature)> {
        signers
            .iter()
            .map(|i| {
                (
                    self.sks[*i].verifying_key(),
                    self.sks[*i].sign(self.message),
                )
            })
            .collect()
    }

    fn witness(&self, mode: CommitmentMode, signers: &[usize], threshold: u64) -> AtmsWitness {
        let shape = AtmsShape {
            n: self.sks.len(),
            mode,
            k: K,
        };
        let cert = Certificate::aggregate(&self.committee, self.message, &self.signed_by(signers))
            .unwrap();
        AtmsWitness::new(shape, &self.committee, &cert, threshold).unwrap()
    }
}

/// The kind of check that failed, as the tests name it.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Rejection {
    /// A copy constraint between advice or fixed cells (the chips' assertions).
    Copy,
    /// A copy constraint into the instance column: a public input differs.
    PublicInput,
    /// A lookup (the range-check table).
    Lookup,
    /// A custom gate, by gate name.
    Gate(String),
}

fn kind(f: &VerifyFailure) -> Rejection {
    match f {
        VerifyFailure::Permutation { column, .. } => match column.column_type() {
            Any::Instance => Rejection::PublicInput,
            _ => Rejection::Copy,
        },
        VerifyFailure::Lookup { .. } => Rejection::Lookup,
        VerifyFailure::ConstraintNotSatisfied { constraint, .. } => {
            Rejection::Gate(format!("{constraint}"))
        }
        other => Rejection::Gate(format!("{other:?}")),
    }
}

struct Run {
    k: u32,
    result: Result<(), Vec<VerifyFailure>>,
}

impl Run {
    fn assert_satisfied(&self) {
        if let Err(e) = &self.result {
            panic!("rejected: {:?}", e.iter().map(kind).collect::<Vec<_>>());
        }
    }

    fn kinds(&self) -> Vec<Rejection> {
        match &self.result {
            Ok(()) => panic!("a changed witness was accepted"),
            Err(e) => e.iter().map(kind).collect(),
        }
    }

    fn assert_rejected_by(&self, expected: Rejection) {
        let kinds = self.kinds();
        assert!(
            kinds.contains(&expected),
            "expected {expected:?}, got {kinds:?}"
        );
    }

    fn assert_rejected(&self) {
        self.kinds();
    }
}

/// MockProver against the witness's own public statement, as the real verifier would see it,
/// at the smallest k.
fn mock(w: &AtmsWitness) -> Run {
    let circuit = AtmsCircuit::new(w.clone());
    let instance = vec![w.instance.to_public_inputs()];
    let (k, _) = RowSizer::min_k(&circuit, instance.clone()).unwrap();
    assert!(k <= 14, "MockProver needs k = {k}");
    let prover = MockProver::run(&circuit, instance).unwrap();
    Run {
        k,
        result: prover.verify(),
    }
}

const FLAT: CommitmentMode = CommitmentMode::Flat;
const MERKLE: CommitmentMode = CommitmentMode::Merkle { slots: 2 };

#[test]
fn flat_mode_accepts_a_valid_certificate() {
    let s = setting(3);
    let w = s.witness(FLAT, &[0, 2], 2);
    let run = mock(&w);
    run.assert_satisfied();
    assert_eq!(w.instance.commitment, s.committee.flat_commitment());
    println!("record: flat n=3 MockProver k = {}", run.k);
}

#[test]
fn merkle_mode_accepts_a_valid_certificate() {
    let s = setting(4);
    let w = s.witness(MERKLE, &[1, 3], 2);
    let run = mock(&w);
    run.assert_satisfied();
    assert_eq!(w.instance.commitment, s.committee.tree().root());
    println!("record: Merkle n=4 slots=2 MockProver k = {}", run.k);
}

#[test]
fn threshold_edge_cases() {
    let s = setting(3);
    // t = 0 (a chunk without signers): the circuit proves the vacuous "at least 0", which a
    // prover may claim and a verifier never asks for (`AtmsInstance::from_trusted` refuses it).
    mock(&s.witness(FLAT, &[], 0)).assert_satisfied();
    mock(&s.witness(FLAT, &[0, 1, 2], 3)).assert_satisfied(); // t = n
    mock(&s.witness(FLAT, &[1], 1)).assert_satisfied(); // t = count
    mock(&s.witness(FLAT, &[0, 1], 1)).assert_satisfied(); // t < count
                                                           // Merkle mode with one signer and one disabled slot, t = count.
    mock(&s.witness(MERKLE, &[2], 1)).assert_satisfied();
}

#[test]
fn circuit_agrees_with_the_native_twin_on_random_inputs() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for round in 0..3 {
        let n = rng.gen_range(2..=4);
        let sks: Vec<SigningKey> = (0..n).map(|_| SigningKey::random(&mut rng)).collect();
        let committee = Committee::new(sks.iter().map(|s| s.verifying_key()).collect()).unwrap();
        let message = Base::random(&mut rng);
        let mut members: Vec<usize> = (0..n).collect();
        members.shuffle(&mut rng);
        // At least one signer: a threshold is at least 1.
        let signers = &members[..rng.gen_range(1..=n)];
        let sigs: Vec<_> = signers
            .iter()
            .map(|&i| (sks[i].verifying_key(), sks[i].sign(message)))
            .collect();
        let cert = Certificate::aggregate(&committee, message, &sigs).unwrap();
        let threshold = rng.gen_range(1..=signers.len()) as u64;
        // Flat mode, and Merkle mode with a random number of slots that holds the signers.
        let slots = rng.gen_range(signers.len().max(1)..=n);
        for mode in [FLAT, CommitmentMode::Merkle { slots }] {
            let shape = AtmsShape { n, mode, k: K };
            let w = AtmsWitness::new(shape, &committee, &cert, threshold).unwrap();
            // The circuit accepts exactly the native statement.
            assert_eq!(
                w.instance.to_public_inputs(),
                vec![committee.commitment(mode), message, Base::from(threshold)]
            );
            mock(&w).assert_satisfied();
            // A random corruption of one enabled signature: native and circuit both refuse.
            if let Some(slot) = w.slots.iter().position(|s| s.signature.is_some()) {
                let mut bad = w.clone();
                let member = bad.slots[slot].index;
                let sig = bad.slots[slot].signature.as_mut().unwrap();
                sig.s += JubjubScalar::random(&mut rng);
                assert!(!committee.keys()[member].verify(message, sig));
                mock(&bad).assert_rejected_by(Rejection::Copy);
            }
        }
        println!(
            "round {round}: n = {n}, {} signers, t = {threshold}",
            signers.len()
        );
    }
}

fn tampered(mode: CommitmentMode, change: impl FnOnce(&Setting, &mut AtmsWitness)) -> Run {
    let s = setting(3);
    let mut w = s.witness(mode, &[0, 2], 2);
    mock(&w).assert_satisfied();
    change(&s, &mut w);
    mock(&w)
}

fn signature_slot(w: &mut AtmsWitness, index: usize) -> &mut Signature {
    w.slots
        .iter_mut()
        .find(|sl| sl.index == index)
        .unwrap()
        .signature
        .as_mut()
        .unwrap()
}

#[test]
fn count_below_threshold_is_rejected() {
    // t = count + 1, bypassing the native check: the comparison's bit is not 1.
    tampered(FLAT, |_, w| w.instance.threshold = 3).assert_rejected_by(Rejection::Copy);
    // Merkle mode: 3 is also above the slot count; the comparison still refuses it.
    tampered(MERKLE, |_, w| w.instance.threshold = 3).assert_rejected();
}

#[test]
fn signature_under_another_key_is_rejected() {
    tampered(FLAT, |s, w| {
        *signature_slot(w, 2) = s.sks[1].sign(s.message)
    })
    .assert_rejected_by(Rejection::Copy);
}

#[test]
fn wrong_message_is_rejected() {
    // Against the changed statement the signatures no longer verify.
    tampered(FLAT, |_, w| w.instance.message += Base::ONE).assert_rejected_by(Rejection::Copy);
}

#[test]
fn tampered_r_or_s_is_rejected() {
    tampered(FLAT, |_, w| signature_slot(w, 0).r += generator())
        .assert_rejected_by(Rejection::Copy);
    tampered(MERKLE, |_, w| signature_slot(w, 2).s += JubjubScalar::ONE)
        .assert_rejected_by(Rejection::Copy);
}

#[test]
fn duplicated_signer_is_rejected() {
    // Merkle mode: the same member in both slots (same index, path and signature); only the
    // strictly-increasing check stands in the way.
    tampered(MERKLE, |_, w| w.slots[1] = w.slots[0].clone()).assert_rejected_by(Rejection::Copy);
}

#[test]
fn tampered_path_node_is_rejected() {
    // Slot 0's root is the public commitment; slot 1's root must equal it.
    tampered(MERKLE, |_, w| w.slots[0].path[1] += Base::ONE).assert_rejected_by(Rejection::Copy);
    tampered(MERKLE, |_, w| w.slots[1].path[0] += Base::ONE).assert_rejected_by(Rejection::Copy);
}

#[test]
fn wrong_index_for_the_path_is_rejected() {
    // Slot 1 (member 2) claims member 1's index, keeping member 2's path and signature.
    tampered(MERKLE, |_, w| w.slots[1].index = 1).assert_rejected_by(Rejection::Copy);
}

#[test]
fn disabled_slot_counted_is_rejected() {
    // Slot 1 is disabled; enabling it with a signature that does not verify must fail.
    tampered(FLAT, |s, w| {
        w.slots[1].signature = Some(Signature {
            r: generator(),
            s: JubjubScalar::ONE,
        });
        assert!(!s.committee.keys()[1].verify(s.message, w.slots[1].signature.as_ref().unwrap()));
    })
    .assert_rejected_by(Rejection::Copy);
}

#[test]
fn disabled_slots_hold_any_key() {
    // A disabled slot's placeholder is checked against whatever key the commitment binds: the
    // witness stays satisfiable for every committee, whichever members sign.
    for n in [2usize, 3] {
        let s = setting(n);
        for signer in 0..n {
            mock(&s.witness(FLAT, &[signer], 1)).assert_satisfied();
        }
    }
}

#[test]
fn key_not_in_the_committee_is_rejected() {
    // Flat mode: the keys hash to another commitment than the public one. Merkle mode: the
    // outsider's leaf with the member's path reaches another root than slot 0's.
    for (mode, expected) in [(FLAT, Rejection::PublicInput), (MERKLE, Rejection::Copy)] {
        tampered(mode, |_, w| {
            let outsider = SigningKey::random(ChaCha8Rng::seed_from_u64(77));
            let mut keys = w.committee.keys().to_vec();
            keys[2] = outsider.verifying_key();
            // The prover's committee differs; the public commitment stays the real one.
            w.committee = Committee::new(keys).unwrap();
            *signature_slot(w, 2) = outsider.sign(w.instance.message);
        })
        .assert_rejected_by(expected);
    }
}
