//! The Jubjub SNARK-Mithril circuit under midnight-proofs' MockProver: the aggregator's
//! certificate is accepted, the circuit agrees with the native verifier on random inputs, and the
//! twin of every negative of `circuits/mithril/tests/circuit.rs`: each starts from a satisfied
//! witness, changes one thing, and names the kind of check that rejects it.
//!
//! The verifier always holds the honest statement's public inputs.

use std::sync::OnceLock;

use ff::Field;
use midnight_curves::JubjubSubgroup;
use midnight_proofs::{
    dev::{FailureLocation, MockProver, VerifyFailure},
    plonk::Any,
};
use mithril_jubjub::{
    aggregate,
    circuit::{limbs, TABLE_LOOKUP},
    ladder::{
        ladder_bits, ladder_sums, LadderForgery, LadderReach, Xy, ACC_X, ACC_Y, BIT, IDENTITY,
        LADDER_BITS, LADDER_GATE,
    },
    native::{
        dleq_challenge, hash_to_jubjub, lottery_value_at, sign, to_biguint, wins, Base,
        JubjubScalar, SigningKey, Tag,
    },
    witness::PreparedIndex,
    MithrilCircuit, MithrilInstance, MithrilShape, MithrilWitness, Parameters, PhiF, Registration,
    Signer, SingleSignature, UniqueSignature,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;

/// The shape's k: the range table has 2^(K-1) rows (MockProver sizes the circuit itself).
const K: u32 = 12;

/// The kind of check that failed.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Rejection {
    /// A copy constraint between advice or fixed cells (the chips' assertions).
    Copy,
    /// A public input differs (offset in the instance column).
    PublicInput(usize),
    /// The range table's lookup.
    RangeLookup,
    /// The signer table's lookup.
    TableLookup,
    /// A custom gate or anything else, by description.
    Gate(String),
}

fn kind(f: &VerifyFailure) -> Rejection {
    match f {
        VerifyFailure::Permutation { column, location } => match column.column_type() {
            Any::Instance => Rejection::PublicInput(public_row(location)),
            _ => Rejection::Copy,
        },
        VerifyFailure::Lookup { name, .. } if name == TABLE_LOOKUP => Rejection::TableLookup,
        VerifyFailure::Lookup { .. } => Rejection::RangeLookup,
        other => Rejection::Gate(format!("{other:?}")),
    }
}

/// The instance row of a failed copy into the instance column.
fn public_row(location: &FailureLocation) -> usize {
    match location {
        FailureLocation::OutsideRegion { row } => *row,
        FailureLocation::InRegion { offset, .. } => *offset,
    }
}

struct Run(Result<(), Vec<VerifyFailure>>);

impl Run {
    fn assert_satisfied(&self) {
        if let Err(e) = &self.0 {
            panic!("rejected: {:?}", e.iter().map(kind).collect::<Vec<_>>());
        }
    }

    fn kinds(&self) -> Vec<Rejection> {
        match &self.0 {
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

    /// Rejected, and by `expected` alone.
    /// Rejected by exactly the kinds in `expected` (as a multiset).
    fn assert_rejected_only_by_all(&self, expected: &[Rejection]) {
        let key = |r: &Rejection| format!("{r:?}");
        let mut kinds = self.kinds();
        kinds.sort_by_key(key);
        let mut expected = expected.to_vec();
        expected.sort_by_key(key);
        assert_eq!(kinds, expected);
    }

    fn assert_rejected_only_by(&self, expected: Rejection) {
        let kinds = self.kinds();
        assert!(
            kinds.iter().all(|k| *k == expected),
            "expected only {expected:?}, got {kinds:?}"
        );
    }
}

/// MockProver on `w`, the verifier holding `public`.
fn mock_with(w: &MithrilWitness, public: Vec<Base>) -> Run {
    let circuit = MithrilCircuit::new(w.clone());
    let prover = MockProver::run(&circuit, vec![public]).expect("synthesis");
    Run(prover.verify())
}

/// MockProver on `w` against its own (honest) statement.
fn mock(w: &MithrilWitness) -> Run {
    mock_with(w, w.instance.to_public_inputs())
}

fn params() -> Parameters {
    Parameters::new(40, 3, PhiF::new(7, 10).unwrap()).unwrap()
}

/// Five keys drawn from `seed` with stakes `stake(i)`, registered, and the single signatures of
/// `msg` that win an index.
fn signed(
    seed: u64,
    stake: impl Fn(u64) -> u64,
    msg: Base,
) -> (Registration, Vec<SigningKey>, Vec<SingleSignature>) {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let sks: Vec<SigningKey> = (0..5).map(|_| SigningKey::random(&mut rng)).collect();
    let entries: Vec<_> = (0..5u64)
        .zip(&sks)
        .map(|(i, sk)| (sk.verifying_key(), stake(i)))
        .collect();
    let registration = Registration::new(params(), &entries).unwrap();
    let singles = sks
        .iter()
        .filter_map(|sk| Signer::new(*sk, &registration).unwrap().sign(msg).unwrap())
        .collect();
    (registration, sks, singles)
}

/// The aggregate of `singles` in a witness for its own statement (one signer slot per signer).
fn witness_of(
    registration: &Registration,
    msg: Base,
    singles: &[SingleSignature],
) -> MithrilWitness {
    let certificate = aggregate(registration, msg, singles).unwrap();
    let instance = MithrilInstance {
        commitment: registration.commitment(),
        message: msg,
    };
    mithril_jubjub::verify(&instance.commitment, msg, &certificate).unwrap();
    let shape = MithrilShape {
        signer_slots: certificate.signers.len(),
        index_slots: params().k() as usize,
        depth: registration.depth(),
        k: K,
    };
    MithrilWitness::new(shape, instance, &certificate).unwrap()
}

/// The example: m = 40, k = 3, phi_f = 0.7, five parties of stakes 100..500.
fn example() -> &'static (Registration, Vec<SigningKey>, MithrilWitness) {
    static EXAMPLE: OnceLock<(Registration, Vec<SigningKey>, MithrilWitness)> = OnceLock::new();
    EXAMPLE.get_or_init(|| {
        let msg = mithril_jubjub::native::message_to_field(b"mithril epoch 7");
        let (registration, sks, singles) = signed(11, |i| 100 * (i + 1), msg);
        let w = witness_of(&registration, msg, &singles);
        (registration, sks, w)
    })
}

fn signer_wins(w: &MithrilWitness, s: usize, j: Base) -> bool {
    let signer = &w.signers[s];
    wins(lottery_value_at(&signer.signature.sigma, j), signer.target)
}

fn int(j: Base) -> u64 {
    u64::try_from(to_biguint(&j)).expect("an honest index fits a u64")
}

#[test]
fn aggregated_certificate_is_accepted() {
    let (_, _, w) = example();
    mock(w).assert_satisfied();
}

#[test]
fn tags_are_distinct_and_not_x_coordinates() {
    for (i, a) in Tag::ALL.iter().enumerate() {
        assert!(!mithril_jubjub::native::is_x_coordinate(a.value()));
        for b in &Tag::ALL[i + 1..] {
            assert_ne!(a.value(), b.value());
        }
    }
    // The test itself can tell: a key's x-coordinate is one.
    let [x, _] = example().1[0].verifying_key().coordinates();
    assert!(mithril_jubjub::native::is_x_coordinate(x));
}

/// Agreement on random inputs: random registrations (stakes, keys) and messages; each
/// certificate the native verifier accepts is accepted by the circuit, and a random one-cell
/// change the native verifier refuses (an index moved to one its signer loses) is refused by
/// the circuit.
#[test]
fn circuit_agrees_with_native_on_random_inputs() {
    let mut rng = ChaCha20Rng::seed_from_u64(2026);
    let (mut accepted, mut refused) = (0, 0);
    for round in 0..3 {
        let msg = Base::random(&mut rng);
        let stakes: Vec<u64> = (0..5).map(|_| rng.gen_range(1..1_000_000)).collect();
        let (registration, _, singles) = signed(100 + round, |i| stakes[i as usize], msg);
        let Ok(certificate) = aggregate(&registration, msg, &singles) else {
            continue;
        };
        let instance = MithrilInstance {
            commitment: registration.commitment(),
            message: msg,
        };
        assert!(mithril_jubjub::verify(&instance.commitment, msg, &certificate).is_ok());
        let shape = MithrilShape {
            signer_slots: certificate.signers.len(),
            index_slots: 3,
            depth: registration.depth(),
            k: K,
        };
        let w = MithrilWitness::new(shape, instance, &certificate).unwrap();
        mock(&w).assert_satisfied();
        accepted += 1;
        // The last index slot moved to an index in (its predecessor, m) that its signer loses.
        let last = w.indices.len() - 1;
        let lo = int(w.indices[last - 1].index) + 1;
        if let Some(j) = (lo..40).find(|&j| !signer_wins(&w, w.indices[last].signer, Base::from(j)))
        {
            let mut bad_cert = certificate.clone();
            bad_cert.indices[last].index = j;
            assert!(mithril_jubjub::verify(&instance.commitment, msg, &bad_cert).is_err());
            let bad = MithrilWitness::new(shape, instance, &bad_cert).unwrap();
            mock(&bad).assert_rejected_by(Rejection::Copy);
            refused += 1;
        }
    }
    assert_eq!(
        (accepted, refused),
        (3, 3),
        "every round compared both ways"
    );
}

#[test]
fn padded_signer_slots_are_accepted() {
    let (registration, _, w) = example();
    let shape = MithrilShape {
        signer_slots: w.shape.signer_slots + 1,
        ..w.shape
    };
    let msg = w.instance.message;
    let singles: Vec<_> = example()
        .1
        .iter()
        .filter_map(|sk| Signer::new(*sk, registration).unwrap().sign(msg).unwrap())
        .collect();
    let certificate = aggregate(registration, msg, &singles).unwrap();
    let padded = MithrilWitness::new(shape, w.instance, &certificate).unwrap();
    mock(&padded).assert_satisfied();
}

#[test]
fn index_at_or_above_m_is_rejected() {
    let (_, _, w) = example();
    let mut bad = w.clone();
    let last = bad.indices.len() - 1;
    let s = bad.indices[last].signer;
    let m = w.instance.commitment.params.m();
    let j = (m..m + 10_000)
        .find(|&j| signer_wins(w, s, Base::from(j)))
        .expect("some index above m is won");
    bad.indices[last].index = Base::from(j);
    // Only `j_last < m` fails: the comparison's bit is asserted true (a copy to a fixed one).
    mock(&bad).assert_rejected_only_by(Rejection::Copy);
}

#[test]
fn repeated_index_is_rejected() {
    let (_, _, w) = example();
    let mut bad = w.clone();
    bad.indices[1] = bad.indices[0];
    mock(&bad).assert_rejected_only_by(Rejection::Copy);
}

#[test]
fn decreasing_indices_are_rejected() {
    let (_, _, w) = example();
    let mut bad = w.clone();
    bad.indices.swap(0, 1);
    mock(&bad).assert_rejected_only_by(Rejection::Copy);
}

/// Index slots at "negative" indices `q - a` (`a = 1, 2, ...`), each claimed by a signer slot
/// that wins it: `count` of them, the most negative first.
fn won_below_zero(w: &MithrilWitness, count: usize) -> Vec<PreparedIndex> {
    let mut found: Vec<PreparedIndex> = (1..10_000u64)
        .filter_map(|a| {
            let j = -Base::from(a);
            (0..w.signers.len())
                .find(|&s| signer_wins(w, s, j))
                .map(|s| PreparedIndex {
                    index: j,
                    ..PreparedIndex::new(0, s, &w.signers)
                })
        })
        .take(count)
        .collect();
    assert_eq!(found.len(), count);
    found.reverse();
    found
}

#[test]
fn an_index_below_zero_in_the_first_slot_is_rejected() {
    let (_, _, w) = example();
    // The first index slot takes q - a, which its signer wins. The next slot's order check is
    // on the 32-bit cells, the tuple is a table row and the lottery is won: only the first
    // index's own range check (j equal to a 32-bit cell: one copy, both ends) refuses it.
    let mut bad = w.clone();
    bad.indices[0] = won_below_zero(w, 1)[0];
    mock(&bad).assert_rejected_only_by_all(&[Rejection::Copy, Rejection::Copy]);
}

#[test]
fn indices_below_zero_are_rejected() {
    let (_, _, w) = example();
    let mut bad = w.clone();
    let below = won_below_zero(w, 2);
    bad.indices[0] = below[0];
    bad.indices[1] = below[1];
    mock(&bad).assert_rejected_only_by_all(&vec![Rejection::Copy; 4]);
}

/// MockProver on `w` with index slot `slot`'s borrow in `ev < T` forced to `borrow`.
fn mock_borrow(w: &MithrilWitness, slot: usize, borrow: bool) -> Run {
    let circuit = MithrilCircuit::new(w.clone()).with_forged_borrow(slot, borrow);
    let prover = MockProver::run(&circuit, vec![w.instance.to_public_inputs()]).expect("synthesis");
    Run(prover.verify())
}

#[test]
fn only_the_true_borrow_is_accepted() {
    // `ev < T` takes its borrow from the prover: in every index slot one of the two borrows is
    // accepted, the other fails the copy of a range-checked difference.
    let (_, _, w) = example();
    for slot in 0..w.indices.len() {
        let runs = [false, true].map(|borrow| mock_borrow(w, slot, borrow));
        let accepted: Vec<&Run> = runs.iter().filter(|r| r.0.is_ok()).collect();
        assert_eq!(accepted.len(), 1, "slot {slot}: one borrow is the true one");
        let refused = runs.iter().find(|r| r.0.is_err()).expect("one refused");
        refused.assert_rejected_only_by(Rejection::Copy);
    }
}

/// `w` with one in-order index its signer did not win, and its slot.
fn lost_lottery(w: &MithrilWitness) -> (MithrilWitness, usize) {
    let m = w.instance.commitment.params.m();
    let mut found = None;
    for i in 0..w.indices.len() {
        let lo = if i == 0 {
            0
        } else {
            int(w.indices[i - 1].index) + 1
        };
        let hi = w.indices.get(i + 1).map_or(m, |s| int(s.index));
        if let Some(j) = (lo..hi).find(|&j| !signer_wins(w, w.indices[i].signer, Base::from(j))) {
            found = Some((i, j));
            break;
        }
    }
    let (i, j) = found.expect("some in-order index is lost");
    let mut bad = w.clone();
    bad.indices[i].index = Base::from(j);
    (bad, i)
}

#[test]
fn lost_lottery_is_rejected() {
    let (_, _, w) = example();
    let (bad, slot) = lost_lottery(w);
    // A difference of `ev < T` leaves [0, 2^128): its range-checked copy differs.
    mock(&bad).assert_rejected_only_by(Rejection::Copy);
    // So it does under either borrow.
    for borrow in [false, true] {
        mock_borrow(&bad, slot, borrow).assert_rejected_only_by(Rejection::Copy);
    }
}

#[test]
fn signature_under_another_key_is_rejected() {
    let (registration, _, w) = example();
    let other = SigningKey::random(&mut ChaCha20Rng::seed_from_u64(99));
    let signed = registration.commitment().message(w.instance.message);
    let mut bad = w.clone();
    bad.signers[0].signature = sign(&other, signed).unwrap();
    // The DLEQ equations fail (the ladders' results differ: copies).
    mock(&bad).assert_rejected_by(Rejection::Copy);
}

#[test]
fn leaf_not_in_the_tree_is_rejected() {
    let (registration, _, w) = example();
    let other = SigningKey::random(&mut ChaCha20Rng::seed_from_u64(98));
    let signed = registration.commitment().message(w.instance.message);
    let mut bad = w.clone();
    bad.signers[0].key = other.verifying_key();
    bad.signers[0].signature = sign(&other, signed).unwrap();
    mock(&bad).assert_rejected_by(Rejection::PublicInput(MithrilInstance::DIGEST));
}

#[test]
fn fewer_than_k_indices_are_rejected() {
    let (registration, sks, w) = example();
    let msg = w.instance.message;
    let singles: Vec<_> = sks
        .iter()
        .filter_map(|sk| Signer::new(*sk, registration).unwrap().sign(msg).unwrap())
        .collect();
    let mut short = aggregate(registration, msg, &singles).unwrap();
    short.indices.pop();
    assert!(MithrilWitness::new(w.shape, w.instance, &short).is_err());
    // A circuit with k - 1 index slots proves a statement about k - 1 (its k is in the digest).
    let mut bad = w.clone();
    bad.shape.index_slots -= 1;
    bad.indices.pop();
    mock_with(&bad, w.instance.to_public_inputs())
        .assert_rejected_by(Rejection::PublicInput(MithrilInstance::DIGEST));
}

#[test]
fn wrong_message_is_rejected() {
    let (_, _, w) = example();
    let other = MithrilInstance {
        message: w.instance.message + Base::ONE,
        ..w.instance
    };
    mock_with(w, other.to_public_inputs())
        .assert_rejected_by(Rejection::PublicInput(MithrilInstance::MESSAGE));
}

#[test]
fn another_registration_is_rejected() {
    let (_, _, w) = example();
    // The same parties and parameters registered with a deeper tree: another digest.
    let (other, _, _) = signed(11, |i| 100 * (i + 1), w.instance.message);
    let entries: Vec<_> = other.parties().iter().map(|p| (p.key, p.stake)).collect();
    let deeper = Registration::with_depth(params(), &entries, w.shape.depth + 1).unwrap();
    assert_ne!(deeper.commitment().digest(), w.instance.commitment.digest());
    mock_with(
        w,
        MithrilInstance::public_inputs(deeper.commitment().digest(), w.instance.message),
    )
    // Both ends of the failed copy: the digest cell and the instance cell.
    .assert_rejected_only_by_all(&[
        Rejection::Copy,
        Rejection::PublicInput(MithrilInstance::DIGEST),
    ]);
}

#[test]
fn h_of_another_message_is_rejected() {
    let (stated, other) = (Base::from(1), Base::from(2));
    let (registration, _, singles) = signed(5, |_| 100, other);
    let honest = witness_of(&registration, other, &singles);
    mock(&honest).assert_satisfied();
    // The other message's certificate (signatures, wins) claimed for the stated message: the
    // circuit computes H from the public message, so the DLEQ equations fail, with every public
    // input matching.
    let mut bad = honest.clone();
    bad.instance.message = stated;
    let run = mock(&bad);
    run.assert_rejected_by(Rejection::Copy);
    assert!(!run
        .kinds()
        .iter()
        .any(|r| matches!(r, Rejection::PublicInput(_))));
}

#[test]
fn changed_stake_in_the_leaf_is_rejected() {
    let (_, _, w) = example();
    let mut bad = w.clone();
    bad.signers[0].stake += 1;
    // The digest differs (and with it H, so the DLEQ copies fail too).
    mock_with(&bad, w.instance.to_public_inputs())
        .assert_rejected_by(Rejection::PublicInput(MithrilInstance::DIGEST));
}

#[test]
fn raised_target_is_rejected() {
    let (_, _, w) = example();
    // A target every lottery value beats, in the leaf, the table and the index slots: the leaf
    // changes, so the digest.
    let mut bad = w.clone();
    bad.signers[0].target = -Base::ONE;
    for i in bad.indices.iter_mut().filter(|i| i.signer == 0) {
        i.target = -Base::ONE;
    }
    mock_with(&bad, w.instance.to_public_inputs())
        .assert_rejected_by(Rejection::PublicInput(MithrilInstance::DIGEST));
}

#[test]
fn signer_number_out_of_range_is_rejected() {
    let (_, _, w) = example();
    let mut bad = w.clone();
    bad.indices[0].signer = w.signers.len();
    mock(&bad).assert_rejected_only_by(Rejection::TableLookup);
}

#[test]
fn raised_target_in_an_index_slot_is_rejected() {
    let (_, _, w) = example();
    let mut bad = w.clone();
    bad.indices[0].target = -Base::ONE;
    mock(&bad).assert_rejected_only_by(Rejection::TableLookup);
}

#[test]
fn other_signers_sigma_is_rejected() {
    let (_, _, w) = example();
    let (w, _) = if w.signers.len() >= 2 {
        (w.clone(), ())
    } else {
        (two_signers().clone(), ())
    };
    let mut bad = w.clone();
    bad.signers[0].signature.sigma = w.signers[1].signature.sigma;
    for i in bad.indices.iter_mut().filter(|i| i.signer == 0) {
        i.sigma = w.signers[1].signature.sigma;
    }
    mock(&bad).assert_rejected_by(Rejection::Copy);
}

/// A certificate whose index slots use two signer slots of different targets.
fn two_signers() -> &'static MithrilWitness {
    static TWO: OnceLock<MithrilWitness> = OnceLock::new();
    TWO.get_or_init(|| {
        let msg = Base::from(3);
        let (registration, _, singles) = signed(6, |i| 100 * (i + 1), msg);
        let mut a = singles[0].clone();
        a.indices.truncate(2);
        let mut b = singles
            .iter()
            .skip(1)
            .find(|s| s.indices.iter().filter(|j| !a.indices.contains(j)).count() >= 2)
            .expect("a second signer with two other wins")
            .clone();
        b.indices.retain(|j| !a.indices.contains(j));
        b.indices.truncate(2);
        let w = witness_of(&registration, msg, &[a, b]);
        assert_eq!(w.signers.len(), 2);
        assert_ne!(w.signers[0].target, w.signers[1].target);
        w
    })
}

fn slot_of(w: &MithrilWitness, s: usize) -> usize {
    w.indices.iter().position(|i| i.signer == s).unwrap()
}

fn renamed(w: &MithrilWitness, s: usize, number: usize) -> MithrilWitness {
    let mut out = w.clone();
    out.indices[slot_of(w, s)].signer = number;
    out
}

/// The two signer slots by target: `(lower, higher)`.
fn by_target(w: &MithrilWitness) -> (usize, usize) {
    if to_biguint(&w.signers[0].target) < to_biguint(&w.signers[1].target) {
        (0, 1)
    } else {
        (1, 0)
    }
}

#[test]
fn two_signer_certificate_is_accepted() {
    let w = two_signers();
    assert!((0..2).all(|s| w.indices.iter().any(|i| i.signer == s)));
    mock(w).assert_satisfied();
}

#[test]
fn index_slot_naming_another_signer_slot_is_rejected() {
    let w = two_signers();
    mock(&renamed(w, 0, 1)).assert_rejected_only_by(Rejection::TableLookup);
}

#[test]
fn index_slot_taking_a_losing_signer_slot_is_rejected() {
    let w = two_signers();
    let i = (0..w.indices.len())
        .find(|&i| !signer_wins(w, 1 - w.indices[i].signer, w.indices[i].index))
        .expect("some index is lost by the other signer");
    let mut bad = w.clone();
    let other = 1 - w.indices[i].signer;
    bad.indices[i] = PreparedIndex::new(int(w.indices[i].index), other, &w.signers);
    // The tuple is a table row; the lottery fails.
    mock(&bad).assert_rejected_only_by(Rejection::Copy);
}

#[test]
fn sigma_of_one_signer_with_target_of_another_is_rejected() {
    let w = two_signers();
    let (low, high) = by_target(w);
    let mut bad = w.clone();
    bad.indices[slot_of(w, low)].target = w.signers[high].target;
    mock(&bad).assert_rejected_only_by(Rejection::TableLookup);
    let i = slot_of(w, low);
    let mut bad = w.clone();
    bad.indices[i].signer = high;
    bad.indices[i].target = w.signers[high].target;
    mock(&bad).assert_rejected_only_by(Rejection::TableLookup);
}

#[test]
fn index_slot_pointing_at_a_padded_slot() {
    let w = two_signers();
    let mut padded = w.clone();
    padded.shape.signer_slots = 3;
    padded.signers.push(w.signers[1].clone());
    mock(&padded).assert_satisfied();
    mock(&renamed(&padded, 1, 2)).assert_satisfied();
    mock(&renamed(&padded, 0, 2)).assert_rejected_only_by(Rejection::TableLookup);
}

/// The table row of signer slot `s` rewritten (by the cheating prover's synthesis) to the other
/// slot's higher target, its index slots claiming that target: the lookups hold, the row's copy
/// of the slot's canonical T limbs does not.
#[test]
fn signer_table_row_that_is_not_its_slots_cells_is_rejected() {
    let w = two_signers();
    let (low, high) = by_target(w);
    let mut bad = w.clone();
    for slot in bad.indices.iter_mut().filter(|i| i.signer == low) {
        slot.target = w.signers[high].target;
    }
    // Before the change the only failures are the lookups of the raised tuple.
    mock(&bad).assert_rejected_only_by(Rejection::TableLookup);
    let sigma = schnorr_atms_jubjub::coordinates(&w.signers[low].signature.sigma);
    let (raised_hi, raised_lo) = limbs(w.signers[high].target);
    let circuit = MithrilCircuit::new(bad.clone()).with_forged_table_row(
        low,
        [
            Base::from(low as u64),
            sigma[0],
            sigma[1],
            raised_hi,
            raised_lo,
        ],
    );
    let prover = MockProver::run(&circuit, vec![w.instance.to_public_inputs()]).unwrap();
    Run(prover.verify()).assert_rejected_only_by(Rejection::Copy);
    // The same forged row with the slot's own values is the honest table.
    let (hi, lo) = limbs(w.signers[low].target);
    let circuit = MithrilCircuit::new(w.clone())
        .with_forged_table_row(low, [Base::from(low as u64), sigma[0], sigma[1], hi, lo]);
    let prover = MockProver::run(&circuit, vec![w.instance.to_public_inputs()]).unwrap();
    Run(prover.verify()).assert_satisfied();
}

/// Assigned advice cells of `w`'s circuit (MockProver's usable rows) and the rows it needs.
fn advice_cells(w: &MithrilWitness) -> (usize, usize) {
    use midnight_proofs::dev::CellValue;
    let circuit = MithrilCircuit::new(w.clone());
    let prover = MockProver::run(&circuit, vec![w.instance.to_public_inputs()]).unwrap();
    let rows = prover.usable_rows().clone();
    let cells = prover
        .advice()
        .iter()
        .map(|column| {
            column[rows.clone()]
                .iter()
                .filter(|c| matches!(c, CellValue::Assigned(_)))
                .count()
        })
        .sum();
    let (k, _) =
        midnight_proofs::dev::RowSizer::min_k(&circuit, vec![w.instance.to_public_inputs()])
            .unwrap();
    (cells, k as usize)
}

/// The example's advice cells, and the marginal cells of a signer slot (a padded copy) and of an
/// index slot (a copy of the last; the digest then differs, which does not change the layout).
/// Printed for the README.
#[test]
fn cells_per_slot() {
    let (_, _, w) = example();
    let (base, k) = advice_cells(w);
    let mut signer = w.clone();
    signer.shape.signer_slots += 1;
    signer.signers.push(w.signers[0].clone());
    let (with_signer, _) = advice_cells(&signer);
    let mut index = w.clone();
    index.shape.index_slots += 1;
    index.indices.push(*w.indices.last().unwrap());
    let (with_index, _) = advice_cells(&index);
    println!(
        "mithril-jubjub cells: signer_slots={} index_slots={} depth={} advice_cells={base} min_k={k} signer_slot={} index_slot={}",
        w.shape.signer_slots,
        w.shape.index_slots,
        w.shape.depth,
        with_signer - base,
        with_index - base
    );
    assert!(with_signer > with_index && with_index > 0);
    // Rows (the cost model), at depth 13 as in the mainnet shape.
    let rows = |signer_slots, index_slots| {
        mithril_jubjub::prover::layout_stats(&MithrilShape {
            signer_slots,
            index_slots,
            depth: 13,
            k: 16,
        })
        .rows
    };
    let base = rows(1, 3);
    println!(
        "mithril-jubjub rows at depth 13: 1 signer slot, 3 index slots: {base}; signer slot: {}; index slot: {}",
        rows(2, 3) - base,
        rows(1, 4) - base
    );
}

/// Both layouts of the DLEQ ladder.
const REACHES: [LadderReach; 2] = [LadderReach::TwoRows, LadderReach::NextRow];

fn xy(p: &JubjubSubgroup) -> Xy {
    let [x, y] = schnorr_atms_jubjub::coordinates(p);
    (x, y)
}

/// Points a forged ladder step adds in place of its tables' entries.
fn points(p: [JubjubSubgroup; 2]) -> LadderForgery {
    LadderForgery::Points(p.map(|p| xy(&p)))
}

/// `circuit` (a forgery of `w`) is refused by the ladder's `constraint`, and the lookup holds.
fn assert_gate_refuses_not_the_lookup(
    circuit: &MithrilCircuit,
    w: &MithrilWitness,
    constraint: &str,
) {
    let run = Run(
        MockProver::run(circuit, vec![w.instance.to_public_inputs()])
            .unwrap()
            .verify(),
    );
    let kinds = run.kinds();
    assert!(
        kinds
            .iter()
            .any(|k| matches!(k, Rejection::Gate(g) if g.contains(constraint))),
        "{kinds:?}"
    );
    assert!(!kinds.contains(&Rejection::TableLookup), "{kinds:?}");
}

/// Slot `s`'s DLEQ bits `(s_i, c_i)`, little-endian, as its ladder reads them.
fn slot_bit_pairs(w: &MithrilWitness, s: usize) -> Vec<(bool, bool)> {
    use ff::PrimeField;
    let slot = &w.signers[s];
    let h = hash_to_jubjub(w.instance.commitment.message(w.instance.message));
    let sig = slot.signature;
    let c = dleq_challenge(&slot.key.0, &h, &sig.sigma, &sig.a, &sig.b);
    let s_bits = ladder_bits(sig.s.to_repr().as_ref());
    let c_bits = ladder_bits(c.to_repr().as_ref());
    s_bits.into_iter().zip(c_bits).collect()
}

#[test]
fn ladder_twin_agrees_with_group_arithmetic() {
    use group::Group;
    let mut rng = ChaCha20Rng::seed_from_u64(7);
    for _ in 0..4 {
        let g = schnorr_atms_jubjub::generator();
        let [pk, h, sigma] = [0; 3].map(|_| JubjubSubgroup::random(&mut rng));
        let s = JubjubScalar::random(&mut rng);
        let c = Base::random(&mut rng);
        let tables = [
            [IDENTITY, xy(&g), xy(&-pk), xy(&(g - pk))],
            [IDENTITY, xy(&h), xy(&-sigma), xy(&(h - sigma))],
        ];
        use ff::PrimeField;
        let sums = ladder_sums(
            &ladder_bits(s.to_repr().as_ref()),
            &ladder_bits(c.to_repr().as_ref()),
            &tables,
        );
        let c_scalar = schnorr_atms_jubjub::challenge_scalar(c);
        assert_eq!(sums[0], xy(&(g * s - pk * c_scalar)));
        assert_eq!(sums[1], xy(&(h * s - sigma * c_scalar)));
    }
}

#[test]
fn a_ladder_point_off_its_table_is_rejected() {
    // Both layouts of the ladder (the chain's certificates use NextRow).
    for reach in REACHES {
        let (_, _, w) = example();
        let g = schnorr_atms_jubjub::generator();
        let circuit = MithrilCircuit::new(w.clone())
            .with_ladder_reach(reach)
            .with_ladder_forgery(0, 100, points([g + g; 2]));
        let prover = MockProver::run(&circuit, vec![w.instance.to_public_inputs()]).unwrap();
        // The gates hold for any curve point: the lookup alone refuses it (the sums then differ too).
        let run = Run(prover.verify());
        run.assert_rejected_by(Rejection::TableLookup);
        assert!(!run
            .kinds()
            .iter()
            .any(|k| matches!(k, Rejection::Gate(g) if g.contains(LADDER_GATE))));
    }
}

#[test]
fn a_ladder_point_from_another_slots_table_is_rejected() {
    // Both layouts of the ladder (the chain's certificates use NextRow).
    for reach in REACHES {
        let w = two_signers();
        // A step where slot 0 adds its entry w = 2, (-pk_0, -sigma_0): slot 1's is (-pk_1, -sigma_1),
        // and slot 1's ladder adds it at its own steps with w = 2.
        let bits = slot_bit_pairs(w, 0);
        let bit = (0..LADDER_BITS)
            .rev()
            .find(|&i| bits[i] == (false, true))
            .expect("some bit pair (0, 1)");
        let step = LADDER_BITS - 1 - bit;
        let run = |points: [JubjubSubgroup; 2]| {
            let circuit = MithrilCircuit::new(w.clone())
                .with_ladder_reach(reach)
                .with_ladder_forgery(0, step, self::points(points));
            Run(
                MockProver::run(&circuit, vec![w.instance.to_public_inputs()])
                    .unwrap()
                    .verify(),
            )
        };
        // The slot's own entry, through the same hook, is the honest ladder.
        let own = &w.signers[0];
        run([-own.key.0, -own.signature.sigma]).assert_satisfied();
        // Another slot's: only the tag tells them apart.
        let other = &w.signers[1];
        // (The sums then differ too: copies.)
        run([-other.key.0, -other.signature.sigma]).assert_rejected_by(Rejection::TableLookup);
    }
}

#[test]
fn a_ladder_s_bit_that_is_not_a_bit_is_rejected() {
    // Both layouts of the ladder (the chain's certificates use NextRow).
    for reach in REACHES {
        let (_, _, w) = example();
        // At a step where c's bit is 1, s's bit -1 makes w = 1: the table's entry (G, H) is then a
        // lookup match, and the ladder adds G where it owes -pk. Only booleanity stops it.
        let bits = slot_bit_pairs(w, 0);
        let bit = (0..LADDER_BITS)
            .rev()
            .find(|&i| bits[i].1)
            .expect("c has a set bit");
        let step = LADDER_BITS - 1 - bit;
        let h = hash_to_jubjub(w.instance.commitment.message(w.instance.message));
        let circuit = MithrilCircuit::new(w.clone())
            .with_ladder_reach(reach)
            .with_ladder_forgery(0, step, LadderForgery::SBit(-Base::ONE))
            .with_ladder_forgery(0, step, points([schnorr_atms_jubjub::generator(), h]));
        assert_gate_refuses_not_the_lookup(&circuit, w, "bit is boolean");
    }
}

#[test]
fn a_ladder_sum_that_is_not_the_addition_is_rejected() {
    // Both layouts of the ladder (the chain's certificates use NextRow).
    for reach in REACHES {
        let (_, _, w) = example();
        // The first sum at step 100 replaced by another curve point, the ladder continuing from it
        // (lookup and booleanity hold): only the gate's addition refuses it.
        let g = schnorr_atms_jubjub::generator();
        let circuit = MithrilCircuit::new(w.clone())
            .with_ladder_reach(reach)
            .with_ladder_forgery(0, 100, LadderForgery::Sum(xy(&(g + g + g))));
        assert_gate_refuses_not_the_lookup(&circuit, w, "sx (1 + dpi)");
    }
}

/// MockProver on `circuit` against `w`'s honest statement.
fn mock_circuit(circuit: &MithrilCircuit, w: &MithrilWitness) -> Run {
    Run(
        MockProver::run(circuit, vec![w.instance.to_public_inputs()])
            .unwrap()
            .verify(),
    )
}

/// `run` is refused by copy constraints alone, among them one at each advice `(column, offset)`
/// of `expected` in a region named `region`.
fn assert_refused_by_copies_at(run: &Run, region: &str, expected: &[(usize, usize)]) {
    run.assert_rejected_only_by(Rejection::Copy);
    let Err(failures) = &run.0 else {
        unreachable!("refused")
    };
    let name = format!("('{region}')");
    let found: Vec<(usize, usize)> = failures
        .iter()
        .filter_map(|f| match f {
            VerifyFailure::Permutation {
                column,
                location: FailureLocation::InRegion { region, offset },
            } if matches!(column.column_type(), Any::Advice(_))
                && region.to_string().ends_with(&name) =>
            {
                Some((column.index(), *offset))
            }
            _ => None,
        })
        .collect();
    for cell in expected {
        assert!(
            found.contains(cell),
            "no copy failure at {cell:?} in {found:?}"
        );
    }
}

/// `(G, H, signed message)` of `w`'s statement: what a DLEQ proof is over.
fn dleq_basis(w: &MithrilWitness) -> (JubjubSubgroup, JubjubSubgroup, Base) {
    let signed = w.instance.commitment.message(w.instance.message);
    (
        schnorr_atms_jubjub::generator(),
        hash_to_jubjub(signed),
        signed,
    )
}

/// A signer slot's ladder started at points other than `O`: a forged signature (`A` moved, so
/// `s G - c pk != A`) whose starts `P` are solved so that the ladder ends at `A` and `B`
/// (`2^254 P` plus the honest sums). The gate, the lookups and the final equalities hold; only
/// the start's copies of `O` refuse it.
#[test]
fn a_ladder_started_off_the_identity_is_rejected() {
    // Both layouts of the ladder (the chain's certificates use NextRow).
    for reach in REACHES {
        let (_, _, w) = example();
        let (g, h, signed) = dleq_basis(w);
        let slot = &w.signers[0];
        let sig = slot.signature;
        let a = sig.a + g;
        let forged_sig = UniqueSignature { a, ..sig };
        assert!(!forged_sig.verify(&slot.key, signed), "a false DLEQ proof");
        let pk = slot.key.0;
        let c =
            schnorr_atms_jubjub::challenge_scalar(dleq_challenge(&pk, &h, &sig.sigma, &a, &sig.b));
        let unscale = Field::pow_vartime(&JubjubScalar::from(2u64), [254])
            .invert()
            .unwrap();
        let start = [
            (a - (g * sig.s - pk * c)) * unscale,
            (sig.b - (h * sig.s - sig.sigma * c)) * unscale,
        ];
        let mut forged = w.clone();
        forged.signers[0].signature = forged_sig;
        let circuit = MithrilCircuit::new(forged.clone())
            .with_ladder_reach(reach)
            .with_ladder_forgery(0, 0, LadderForgery::Start(start.map(|p| xy(&p))));
        assert_refused_by_copies_at(
            &mock_circuit(&circuit, w),
            "dleq ladder",
            &[(ACC_X, 0), (ACC_Y, 0), (ACC_X, 1), (ACC_Y, 1)],
        );
        // Without the forged start, the ladder's sums are not A: the final equalities refuse it.
        mock(&forged).assert_rejected_only_by(Rejection::Copy);
        // The hook with O is the honest ladder.
        let honest = MithrilCircuit::new(w.clone())
            .with_ladder_reach(reach)
            .with_ladder_forgery(0, 0, LadderForgery::Start([IDENTITY; 2]));
        mock_circuit(&honest, w).assert_satisfied();
    }
}

/// A signature made without the key: `s` and a challenge `c*` drawn first, `A = s G - c* pk` and
/// `B = s H - c* sigma` solved for (sigma the slot's own, so the lottery still holds), the ladder
/// run on `c*`'s bits where they differ from those of the challenge `c` the circuit computes.
/// Gate, lookups and final equalities hold; only the copies of `c`'s bits refuse it.
#[test]
fn a_ladder_on_bits_other_than_the_challenges_is_rejected() {
    // Both layouts of the ladder (the chain's certificates use NextRow).
    for reach in REACHES {
        use ff::PrimeField;
        let (_, _, w) = example();
        let (g, h, signed) = dleq_basis(w);
        let mut rng = ChaCha20Rng::seed_from_u64(51);
        let slot = &w.signers[0];
        let (pk, sigma) = (slot.key.0, slot.signature.sigma);
        let (s, c_star) = (JubjubScalar::random(&mut rng), Base::random(&mut rng));
        let c_scalar = schnorr_atms_jubjub::challenge_scalar(c_star);
        let forged_sig = UniqueSignature {
            sigma,
            a: g * s - pk * c_scalar,
            b: h * s - sigma * c_scalar,
            s,
        };
        assert!(!forged_sig.verify(&slot.key, signed), "a false DLEQ proof");
        let c = dleq_challenge(&pk, &h, &sigma, &forged_sig.a, &forged_sig.b);
        let (c_bits, star_bits) = (
            ladder_bits(c.to_repr().as_ref()),
            ladder_bits(c_star.to_repr().as_ref()),
        );
        let mut forged = w.clone();
        forged.signers[0].signature = forged_sig;
        let mut circuit = MithrilCircuit::new(forged.clone()).with_ladder_reach(reach);
        let mut expected = vec![];
        for bit in (0..LADDER_BITS).filter(|&i| c_bits[i] != star_bits[i]) {
            let step = LADDER_BITS - 1 - bit;
            let value = Base::from(u64::from(star_bits[bit]));
            circuit = circuit.with_ladder_forgery(0, step, LadderForgery::CBit(value));
            expected.push((BIT, 2 * step + 1));
        }
        assert!(!expected.is_empty());
        assert_refused_by_copies_at(&mock_circuit(&circuit, w), "dleq ladder", &expected);
        // Without the forged bits the sums are not A and B: the final equalities refuse it.
        mock(&forged).assert_rejected_only_by(Rejection::Copy);
        // The hook with c's own bits is the honest ladder.
        let bits = slot_bit_pairs(w, 0);
        let mut honest = MithrilCircuit::new(w.clone()).with_ladder_reach(reach);
        for (bit, &(_, c_bit)) in bits.iter().enumerate() {
            let step = LADDER_BITS - 1 - bit;
            honest = honest.with_ladder_forgery(
                0,
                step,
                LadderForgery::CBit(Base::from(u64::from(c_bit))),
            );
        }
        mock_circuit(&honest, w).assert_satisfied();
    }
}

/// A DLEQ table whose `-pk` and `G - pk` entries are the attacker's key's: an extra signer slot
/// holding a registered (victim's) key and leaf, signed with the attacker's key `sk*` (`sigma* =
/// sk* H`, `c` over the victim's `pk`). The ladder adds the forged entries, so gate, lookups and
/// final equalities hold; only the table cells' copies of the chip's points refuse it.
#[test]
fn a_dleq_table_entry_that_is_not_the_chips_point_is_rejected() {
    // Both layouts of the ladder (the chain's certificates use NextRow).
    for reach in REACHES {
        let (_, _, w) = example();
        let (g, h, signed) = dleq_basis(w);
        let mut rng = ChaCha20Rng::seed_from_u64(52);
        let (sk, r) = (
            JubjubScalar::random(&mut rng),
            JubjubScalar::random(&mut rng),
        );
        let victim = &w.signers[0];
        let (sigma, a, b) = (h * sk, g * r, h * r);
        let c = schnorr_atms_jubjub::challenge_scalar(dleq_challenge(
            &victim.key.0,
            &h,
            &sigma,
            &a,
            &b,
        ));
        let forged_sig = UniqueSignature {
            sigma,
            a,
            b,
            s: r + c * sk,
        };
        assert!(
            !forged_sig.verify(&victim.key, signed),
            "not the victim's signature"
        );
        let mut forged = w.clone();
        let slot = forged.signers.len();
        forged.shape.signer_slots += 1;
        forged.signers.push(victim.clone());
        forged.signers[slot].signature = forged_sig;
        let pk = g * sk;
        let circuit = MithrilCircuit::new(forged.clone())
            .with_ladder_reach(reach)
            .with_forged_dleq_entry(slot, 0, 2, xy(&-pk))
            .with_forged_dleq_entry(slot, 0, 3, xy(&(g - pk)));
        // Table 0's entry w lies on row 2 w of the slot's table region, x and y in columns 0 and 1.
        assert_refused_by_copies_at(
            &mock_circuit(&circuit, w),
            "dleq table",
            &[(0, 4), (1, 4), (0, 6), (1, 6)],
        );
        // Without the forged entries the ladder's sums are not A and B.
        mock(&forged).assert_rejected_only_by(Rejection::Copy);
        // The hook with the slot's own points is the honest table.
        let own = victim.key.0;
        let honest = MithrilCircuit::new(w.clone())
            .with_ladder_reach(reach)
            .with_forged_dleq_entry(0, 0, 2, xy(&-own))
            .with_forged_dleq_entry(0, 0, 3, xy(&(g - own)))
            .with_forged_dleq_entry(0, 1, 1, xy(&h));
        mock_circuit(&honest, w).assert_satisfied();
    }
}

/// A DLEQ proof whose first equation holds up to sign, `s G - c pk = -A` (`A = k G`, `B = -k H`,
/// `s = c sk - k`): the ladder ends at `-A = (-A.x, A.y)`, so only the equality of the
/// x-coordinates refuses it (the y-coordinates agree).
#[test]
fn a_dleq_proof_that_holds_only_up_to_sign_is_rejected() {
    // Both layouts of the ladder (the chain's certificates use NextRow).
    for reach in REACHES {
        let (_, sks, w) = example();
        let (g, h, signed) = dleq_basis(w);
        let slot = &w.signers[0];
        let sk = sks
            .iter()
            .find(|sk| sk.verifying_key() == slot.key)
            .expect("the slot's key");
        let k = JubjubScalar::random(&mut ChaCha20Rng::seed_from_u64(53));
        let (a, b) = (g * k, -(h * k));
        let sigma = slot.signature.sigma;
        let c =
            schnorr_atms_jubjub::challenge_scalar(dleq_challenge(&slot.key.0, &h, &sigma, &a, &b));
        let forged_sig = UniqueSignature {
            sigma,
            a,
            b,
            s: c * sk.0 - k,
        };
        assert!(!forged_sig.verify(&slot.key, signed), "a false DLEQ proof");
        assert_eq!(g * forged_sig.s - slot.key.0 * c, -a);
        let mut forged = w.clone();
        forged.signers[0].signature = forged_sig;
        let circuit = MithrilCircuit::new(forged).with_ladder_reach(reach);
        mock_circuit(&circuit, w).assert_rejected_only_by(Rejection::Copy);
    }
}

/// An unregistered key in a signer slot past the first: the attacker's own key, signature and
/// the largest target (every index won), its leaf under another root. The index slots naming
/// it hold; only the equality of its root with the first slot's refuses it.
#[test]
fn an_unregistered_key_in_a_later_signer_slot_is_rejected() {
    let w = two_signers();
    let (_, _, signed) = dleq_basis(w);
    let sk = SigningKey::random(&mut ChaCha20Rng::seed_from_u64(54));
    let mut forged = w.clone();
    let slot = &mut forged.signers[1];
    slot.key = sk.verifying_key();
    slot.signature = sign(&sk, signed).unwrap();
    slot.target = -Base::ONE;
    let (sigma, target) = (slot.signature.sigma, slot.target);
    for index in forged.indices.iter_mut().filter(|i| i.signer == 1) {
        (index.sigma, index.target) = (sigma, target);
    }
    mock(&forged).assert_rejected_only_by(Rejection::Copy);
}
