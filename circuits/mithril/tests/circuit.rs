//! The SNARK-Mithril circuit under MockProver: a certificate of the native aggregator is
//! accepted; each negative starts from that satisfied witness, changes one thing, and asserts
//! which kind of check rejects it. One real keygen / prove / verify round trip.
//!
//! The verifier is always given the public inputs of the honest statement
//! ([`MithrilInstance::to_public_inputs`]), as a real verifier computes them.

use std::sync::OnceLock;

use halo2_base::{
    halo2_proofs::halo2curves::ff::Field,
    utils::{biguint_to_fe, fe_to_biguint},
};
use mithril_snark::{
    aggregate, example_certificate, signature,
    stm::{lottery_value_at, wins},
    witness::PreparedIndex,
    Example, MithrilInstance, MithrilShape, MithrilWitness, Parameters, PhiF, Registration, Signer,
    SingleSignature,
};
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use tms_gadgets::{
    proving::scheme::HybridScheme,
    proving::Transcript,
    signature::schnorr::SigningKey,
    testing::{CircuitHarness, MockRun, Rejection},
    Fr,
};

const K: u32 = 14;

/// Preprod-like parameters at a small quorum: m = 40, k = 3, phi_f = 0.7; five parties.
fn example() -> &'static (Example, MithrilWitness) {
    static EXAMPLE: OnceLock<(Example, MithrilWitness)> = OnceLock::new();
    EXAMPLE.get_or_init(|| {
        let params = Parameters::new(40, 3, PhiF::new(7, 10).unwrap()).unwrap();
        let ex = example_certificate(params, 5, None, 11, false).unwrap();
        mithril_snark::verify(&ex.registration.commitment(), ex.message, &ex.certificate).unwrap();
        let shape = MithrilShape {
            signer_slots: ex.certificate.signers.len(),
            index_slots: 3,
            depth: ex.registration.tree().depth(),
            k: K,
        };
        let w = MithrilWitness::new(shape, ex.instance(), &ex.certificate).unwrap();
        (ex, w)
    })
}

/// MockProver on `w`, the verifier holding `public`.
fn mock_with(w: &MithrilWitness, public: Vec<Fr>) -> MockRun<()> {
    CircuitHarness::new(K).mock_custom_with_public(
        |ctx, range, region| ((), MithrilShape::synthesize(ctx, range, region, w)),
        |_| public,
    )
}

/// MockProver on `w` against the honest statement.
fn mock(w: &MithrilWitness) -> MockRun<()> {
    mock_with(w, example().0.instance().to_public_inputs())
}

/// Asserts that exactly the checks `expected` failed, in any order (MockProver names both ends
/// of a failed copy constraint).
fn assert_rejected_exactly<R>(run: &MockRun<R>, expected: &[Rejection]) {
    let key = |r: &Rejection| format!("{r:?}");
    let mut got = run.rejections();
    got.sort_by_key(key);
    let mut expected = expected.to_vec();
    expected.sort_by_key(key);
    assert_eq!(got, expected);
}

/// What one failed 32-bit range check of an index reports (lookups of 13 bits at k = 14): its
/// limbs do not recompose the cell (an advice copy, both ends) and the top limb, shifted, is
/// outside the table (its 6 bits).
const INDEX_RANGE_CHECK: [Rejection; 3] = [
    Rejection::Lookup,
    Rejection::AdviceCopy,
    Rejection::AdviceCopy,
];

/// Whether the signer of signer slot `s` wins index `j` (a field element, as the circuit hashes
/// it).
fn signer_wins(w: &MithrilWitness, s: usize, j: Fr) -> bool {
    let signer = &w.signers[s];
    wins(
        lottery_value_at(&signer.signature.sigma, j).unwrap(),
        signer.target,
    )
}

/// An honest index slot's index as an integer.
fn int(j: Fr) -> u64 {
    u64::try_from(fe_to_biguint(&j)).expect("an honest index fits a u64")
}

#[test]
fn aggregated_certificate_is_accepted() {
    let (ex, w) = example();
    let run = mock(w);
    run.assert_satisfied();
    assert_eq!(run.public_values, ex.instance().to_public_inputs());
    println!(
        "signers={} indices={} depth={} {}",
        w.signers.len(),
        w.indices.len(),
        w.shape.depth,
        run.stats
    );
}

#[test]
fn padded_signer_slots_are_accepted() {
    let (ex, w) = example();
    let shape = MithrilShape {
        signer_slots: w.shape.signer_slots + 1,
        ..w.shape
    };
    let padded = MithrilWitness::new(shape, ex.instance(), &ex.certificate).unwrap();
    mock(&padded).assert_satisfied();
}

#[test]
fn index_at_or_above_m_is_rejected() {
    let (_, w) = example();
    let mut bad = w.clone();
    let last = bad.indices.len() - 1;
    let s = bad.indices[last].signer;
    // An index >= m that the same signer wins: only the bound `j < m` is violated.
    let m = w.instance.commitment.params.m();
    let j = (m..m + 10_000)
        .find(|&j| signer_wins(w, s, Fr::from(j)))
        .expect("some index above m is won");
    bad.indices[last].index = Fr::from(j);
    mock(&bad).assert_rejected_by(Rejection::Lookup);
}

#[test]
fn repeated_index_is_rejected() {
    let (_, w) = example();
    let mut bad = w.clone();
    // Slot 1 repeats slot 0 (same index, same signer: it wins).
    bad.indices[1] = bad.indices[0];
    mock(&bad).assert_rejected_by(Rejection::Lookup);
}

#[test]
fn decreasing_indices_are_rejected() {
    let (_, w) = example();
    let mut bad = w.clone();
    bad.indices.swap(0, 1);
    mock(&bad).assert_rejected_by(Rejection::Lookup);
}

/// Index slots at "negative" indices `r - a` (`a = 1, 2, ...`, the field's `-a`), each claimed
/// by a signer slot that wins it: `count` of them, the most negative first.
fn won_below_zero(w: &MithrilWitness, count: usize) -> Vec<PreparedIndex> {
    let mut found: Vec<PreparedIndex> = (1..10_000u64)
        .filter_map(|a| {
            let j = -Fr::from(a);
            (0..w.signers.len())
                .find(|&s| signer_wins(w, s, j))
                .map(|s| PreparedIndex {
                    index: j,
                    ..PreparedIndex::new(0, s, &w.signers)
                })
        })
        .take(count)
        .collect();
    assert_eq!(found.len(), count, "{count} won indices below zero");
    // r - a increases as a decreases: the largest a first.
    found.reverse();
    found
}

#[test]
fn an_index_below_zero_in_the_first_slot_is_rejected() {
    let (_, w) = example();
    // The first index slot takes r - a, which its signer wins. The chain's next check ranges
    // j_1 - j_0 = j_1 + a over (0, 2^32] and holds; the tuple is a row of the signer table and
    // the lottery is won. Only the first index's own 32-bit range check refuses it. Without that
    // check slot 0 could draw from about 2^32 extra indices, enough to win it with any stake.
    let mut bad = w.clone();
    bad.indices[0] = won_below_zero(w, 1)[0];
    assert_rejected_exactly(&mock(&bad), &INDEX_RANGE_CHECK);
}

#[test]
fn indices_below_zero_are_rejected() {
    let (_, w) = example();
    // Indices r - a, r - b (a > b), then the honest last one: each step of the increasing chain
    // holds in the field (a - b and j_2 + b, both at most 2^32) and below m, every tuple is a
    // table row, every lottery is won. Only the range checks of the first two indices refuse
    // it; without them a prover would gain about 2^32 indices below zero per index slot (about
    // k 2^32 in all) and win a quorum with little stake.
    let mut bad = w.clone();
    let below = won_below_zero(w, 2);
    bad.indices[0] = below[0];
    bad.indices[1] = below[1];
    assert_rejected_exactly(
        &mock(&bad),
        &[INDEX_RANGE_CHECK, INDEX_RANGE_CHECK].concat(),
    );
}

#[test]
fn lost_lottery_is_rejected() {
    let (_, w) = example();
    let m = w.instance.commitment.params.m();
    // Move one index slot to an index its signer loses, keeping the order strict.
    let mut found = None;
    for i in 0..w.indices.len() {
        let lo = if i == 0 {
            0
        } else {
            int(w.indices[i - 1].index) + 1
        };
        let hi = w.indices.get(i + 1).map_or(m, |s| int(s.index));
        if let Some(j) = (lo..hi).find(|&j| !signer_wins(w, w.indices[i].signer, Fr::from(j))) {
            found = Some((i, j));
            break;
        }
    }
    let (i, j) = found.expect("some in-order index is lost");
    let mut bad = w.clone();
    bad.indices[i].index = Fr::from(j);
    mock(&bad).assert_rejected_by_copy();
}

#[test]
fn signature_under_another_key_is_rejected() {
    let (ex, w) = example();
    let other = SigningKey::random(&mut ChaCha20Rng::seed_from_u64(99));
    let signed = ex.registration.commitment().message(ex.message);
    let mut bad = w.clone();
    bad.signers[0].signature = signature::sign(&other, signed).unwrap();
    // The DLEQ equations fail (copy constraints of the ladder results).
    mock(&bad).assert_rejected_by_copy();
}

#[test]
fn leaf_not_in_the_tree_is_rejected() {
    let (ex, w) = example();
    // A fresh key with a valid signature of the message, in slot 0, same stake and target.
    let other = SigningKey::random(&mut ChaCha20Rng::seed_from_u64(98));
    let signed = ex.registration.commitment().message(ex.message);
    let mut bad = w.clone();
    bad.signers[0].key = other.verifying_key().0;
    bad.signers[0].signature = signature::sign(&other, signed).unwrap();
    // Its leaf is not under the root: the recomputed registration digest is not the public one.
    mock(&bad).assert_rejected_by(Rejection::PublicInput(MithrilInstance::DIGEST));
}

#[test]
fn fewer_than_k_indices_are_rejected() {
    let (ex, w) = example();
    // The witness builder refuses a certificate with fewer than k indices ...
    let mut short = ex.certificate.clone();
    short.indices.pop();
    assert!(MithrilWitness::new(w.shape, ex.instance(), &short).is_err());
    // ... and a circuit with k - 1 index slots proves a statement about k - 1 (its k enters
    // the parameter digest), not the public one.
    let mut bad = w.clone();
    bad.shape.index_slots -= 1;
    bad.indices.pop();
    mock(&bad).assert_rejected_by(Rejection::PublicInput(MithrilInstance::DIGEST));
}

#[test]
fn wrong_message_is_rejected() {
    let (ex, w) = example();
    let other = MithrilInstance {
        message: ex.message + Fr::ONE,
        ..ex.instance()
    };
    let run = mock_with(w, other.to_public_inputs());
    run.assert_rejected_by(Rejection::PublicInput(MithrilInstance::MESSAGE));
}

/// Five keys drawn from `seed` with stakes `stake(i)`, registered with the example's
/// parameters, and the single signatures of `msg` that win an index.
fn signed(seed: u64, stake: impl Fn(u64) -> u64, msg: Fr) -> (Registration, Vec<SingleSignature>) {
    let params = Parameters::new(40, 3, PhiF::new(7, 10).unwrap()).unwrap();
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let sks: Vec<SigningKey> = (0..5).map(|_| SigningKey::random(&mut rng)).collect();
    let entries: Vec<_> = (0..5u64)
        .zip(&sks)
        .map(|(i, sk)| (sk.verifying_key(), stake(i)))
        .collect();
    let registration = Registration::new(params, &entries).unwrap();
    let singles = sks
        .iter()
        .filter_map(|sk| Signer::new(*sk, &registration).unwrap().sign(msg).unwrap())
        .collect();
    (registration, singles)
}

/// The aggregate of `singles` in a witness for its own statement (as many signer slots as
/// signers).
fn witness_of(registration: &Registration, msg: Fr, singles: &[SingleSignature]) -> MithrilWitness {
    let certificate = aggregate(registration, msg, singles).unwrap();
    let shape = MithrilShape {
        signer_slots: certificate.signers.len(),
        index_slots: 3,
        depth: registration.tree().depth(),
        k: K,
    };
    let instance = MithrilInstance {
        commitment: registration.commitment(),
        message: msg,
    };
    MithrilWitness::new(shape, instance, &certificate).unwrap()
}

/// Five keys of equal stake registered with the example's parameters, and the aggregated
/// certificate of `msg` in a witness for its own statement.
fn certified(msg: Fr) -> MithrilWitness {
    let (registration, singles) = signed(5, |_| 100, msg);
    witness_of(&registration, msg, &singles)
}

#[test]
fn h_of_another_message_is_rejected() {
    let (stated, other) = (Fr::from(1), Fr::from(2));
    let honest = certified(other);
    let statement = MithrilInstance {
        message: stated,
        ..honest.instance
    };
    mock_with(&honest, honest.instance.to_public_inputs()).assert_satisfied();
    // A witness consistent with H of the other message (its signatures, lottery wins and the
    // hash-to-curve witnesses of its H), claimed for the stated message: the circuit computes H
    // from the public message, so the maps' witnesses do not fit.
    let mut bad = honest.clone();
    bad.instance = statement;
    let run = mock_with(&bad, statement.to_public_inputs());
    run.assert_rejected_by_copy();
    assert!(!run
        .rejections()
        .iter()
        .any(|r| matches!(r, Rejection::PublicInput(_))));
    // With the stated message's own H witnesses, the other message's signatures fail the DLEQ.
    bad.h2c = statement.h_witness().unwrap();
    assert_ne!(statement.h().unwrap(), honest.instance.h().unwrap());
    mock_with(&bad, statement.to_public_inputs()).assert_rejected_by_copy();
}

#[test]
fn changed_stake_in_the_leaf_is_rejected() {
    let (_, w) = example();
    let mut bad = w.clone();
    bad.signers[0].stake += 1;
    mock(&bad).assert_rejected_by(Rejection::PublicInput(MithrilInstance::DIGEST));
}

#[test]
fn raised_target_is_rejected() {
    let (_, w) = example();
    // A target that every lottery value would beat ... changes the leaf.
    let mut bad = w.clone();
    bad.signers[0].target = -Fr::ONE;
    mock(&bad).assert_rejected_by(Rejection::PublicInput(MithrilInstance::DIGEST));
}

#[test]
fn signer_number_out_of_range_is_rejected() {
    let (_, w) = example();
    let mut bad = w.clone();
    // Number S with slot 0's values: no table row holds it (the table's numbers are 0 .. S-1).
    bad.indices[0].signer = w.signers.len();
    mock(&bad).assert_rejected_only_by(Rejection::TableLookup);
}

/// A certificate of the example's parameters whose index slots use two signer slots (parties of
/// different stakes, so different targets), in a witness; the verifier's public inputs.
fn two_signers() -> &'static (MithrilWitness, Vec<Fr>) {
    static TWO: OnceLock<(MithrilWitness, Vec<Fr>)> = OnceLock::new();
    TWO.get_or_init(|| {
        let msg = Fr::from(3);
        let (registration, singles) = signed(6, |i| 100 * (i + 1), msg);
        // Two signers keeping two wins each, so that neither alone reaches k = 3.
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
        let public = w.instance.to_public_inputs();
        (w, public)
    })
}

/// The first index slot of signer slot `s` in `w`.
fn slot_of(w: &MithrilWitness, s: usize) -> usize {
    w.indices.iter().position(|i| i.signer == s).unwrap()
}

/// `w` with the first index slot of signer slot `s` naming slot `number` instead, its values
/// unchanged.
fn renamed(w: &MithrilWitness, s: usize, number: usize) -> MithrilWitness {
    let mut out = w.clone();
    out.indices[slot_of(w, s)].signer = number;
    out
}

/// The signer slots of `w` (two) by target: `(lower, higher)`.
fn by_target(w: &MithrilWitness) -> (usize, usize) {
    if w.signers[0].target < w.signers[1].target {
        (0, 1)
    } else {
        (1, 0)
    }
}

/// MockProver on `w` against the statement of [`two_signers`].
fn mock_two(w: &MithrilWitness) -> MockRun<()> {
    mock_with(w, two_signers().1.clone())
}

#[test]
fn two_signer_certificate_is_accepted() {
    let (w, _) = two_signers();
    assert!((0..2).all(|s| w.indices.iter().any(|i| i.signer == s)));
    mock_two(w).assert_satisfied();
}

#[test]
fn index_slot_naming_another_signer_slot_is_rejected() {
    let (w, _) = two_signers();
    // Index slot of signer 0 names slot 1 but keeps slot 0's sigma and target (which win).
    mock_two(&renamed(w, 0, 1)).assert_rejected_only_by(Rejection::TableLookup);
}

#[test]
fn index_slot_taking_a_losing_signer_slot_is_rejected() {
    let (w, _) = two_signers();
    // An index slot moved, number and values, to the other signer slot, which loses its index:
    // the tuple is a row of the table, the lottery fails.
    let i = (0..w.indices.len())
        .find(|&i| !signer_wins(w, 1 - w.indices[i].signer, w.indices[i].index))
        .expect("some index is lost by the other signer");
    let mut bad = w.clone();
    let other = 1 - w.indices[i].signer;
    bad.indices[i] = PreparedIndex::new(int(w.indices[i].index), other, &w.signers);
    let run = mock_two(&bad);
    run.assert_rejected_by_copy();
    assert!(!run.rejections().contains(&Rejection::TableLookup));
}

#[test]
fn sigma_of_one_signer_with_target_of_another_is_rejected() {
    let (w, _) = two_signers();
    // The index slot of the signer with the smaller target takes the larger target: it still
    // wins, and each value is some slot's, but the tuple is no slot's.
    let (low, high) = by_target(w);
    let mut bad = w.clone();
    bad.indices[slot_of(w, low)].target = w.signers[high].target;
    mock_two(&bad).assert_rejected_only_by(Rejection::TableLookup);
    // The other way round: the higher target's number and target with the other's sigma.
    let i = slot_of(w, low);
    let mut bad = w.clone();
    bad.indices[i].signer = high;
    bad.indices[i].target = w.signers[high].target;
    mock_two(&bad).assert_rejected_only_by(Rejection::TableLookup);
}

#[test]
fn signer_table_row_with_another_target_is_rejected() {
    let (w, public) = two_signers();
    let (low, high) = by_target(w);
    // The index slots of the lower target claim the higher one, and the prover writes that
    // tuple into the lower slot's table row: the lookups hold, the row's copy of the slot's
    // canonical T limbs does not.
    let mut bad = w.clone();
    for slot in bad.indices.iter_mut().filter(|i| i.signer == low) {
        slot.target = w.signers[high].target;
    }
    let limbs = |t: Fr| {
        let hi: Fr = biguint_to_fe(&(fe_to_biguint(&t) >> 128usize));
        (hi, t - hi * Fr::from(2).pow_vartime([128]))
    };
    let sigma = w.signers[low].signature.sigma;
    let (hi, lo) = limbs(w.signers[low].target);
    let (raised_hi, raised_lo) = limbs(w.signers[high].target);
    let run = CircuitHarness::new(K).mock_custom_with_public(
        |ctx, range, region| {
            let out = MithrilShape::synthesize(ctx, range, region, &bad);
            // The table row of slot `low` (table rows precede the lookups).
            let row = (0..region.num_rows())
                .find(|&r| {
                    [Fr::from(low as u64), sigma.x, sigma.y, hi, lo]
                        .iter()
                        .enumerate()
                        .all(|(c, v)| region.value(r, c) == *v)
                })
                .expect("the table row");
            region.override_value(row, 3, raised_hi);
            region.override_value(row, 4, raised_lo);
            ((), out)
        },
        |_| public.clone(),
    );
    run.assert_rejected_only_by(Rejection::AdviceCopy);
}

#[test]
fn raised_target_in_an_index_slot_is_rejected() {
    let (_, w) = example();
    // Every lottery value is below r - 1: only the table refuses the target.
    let mut bad = w.clone();
    bad.indices[0].target = -Fr::ONE;
    mock(&bad).assert_rejected_only_by(Rejection::TableLookup);
}

#[test]
fn index_slot_pointing_at_a_padded_slot() {
    let (w, _) = two_signers();
    let shape = MithrilShape {
        signer_slots: 3,
        ..w.shape
    };
    let mut padded = w.clone();
    padded.shape = shape;
    padded.signers.push(w.signers[1].clone());
    mock_two(&padded).assert_satisfied();
    // The padded slot 2 is a copy of slot 1: naming it with slot 1's values is honest ...
    mock_two(&renamed(&padded, 1, 2)).assert_satisfied();
    // ... naming it with slot 0's values is not.
    mock_two(&renamed(&padded, 0, 2)).assert_rejected_only_by(Rejection::TableLookup);
}

#[test]
fn other_signers_sigma_is_rejected() {
    let (_, w) = example();
    if w.signers.len() < 2 {
        return;
    }
    // Slot 0 claims slot 1's sigma (a valid point of someone else): its DLEQ fails.
    let mut bad = w.clone();
    bad.signers[0].signature.sigma = w.signers[1].signature.sigma;
    mock(&bad).assert_rejected_by_copy();
}

/// Marginal cells of a signer slot and of an index slot at depth 13 (printed for the README).
#[test]
fn cells_per_slot() {
    let cells = |signer_slots, index_slots| {
        mithril_snark::layout_stats(&MithrilShape {
            signer_slots,
            index_slots,
            depth: 13,
            k: 17,
        })
        .unwrap()
    };
    let base = cells(1, 1);
    let two_signers = cells(2, 1);
    let two_indices = cells(1, 2);
    let eight = cells(8, 8);
    let per_signer = two_signers.advice_cells - base.advice_cells;
    let per_index = two_indices.advice_cells - base.advice_cells;
    // The marginal index slot beside 32 signer slots, and the marginal signer slot beside 32
    // index slots.
    let wide = cells(32, 1);
    let per_index_wide = cells(32, 2).advice_cells - wide.advice_cells;
    let long = cells(1, 32);
    let per_signer_long = cells(2, 32).advice_cells - long.advice_cells;
    println!(
        "depth 13: 1/1 slots {} cells; per signer slot {per_signer} (custom rows {}), {per_signer_long} beside 32 index slots; per index slot {per_index} (1 signer slot), {per_index_wide} beside 32 signer slots; 8/8 slots {} cells",
        base.advice_cells,
        two_signers.custom_rows - base.custom_rows,
        eight.advice_cells
    );
    // O(k + S): neither marginal cost depends on the other kind's count.
    assert_eq!(per_index_wide, per_index);
    assert_eq!(per_signer_long, per_signer);
    // Two DLEQ ladders (2 x 255 rows), 21 Poseidon permutations on the round gates and the
    // slot's row of the signer table.
    assert_eq!(
        two_signers.custom_rows - base.custom_rows,
        510 + 21 * tms_gadgets::hash::poseidon_gate::PERMUTATION_ROWS + 1
    );
    // An index slot: two permutations and its row of the table.
    assert_eq!(
        two_indices.custom_rows - base.custom_rows,
        2 * tms_gadgets::hash::poseidon_gate::PERMUTATION_ROWS + 1
    );
}

/// SHA3-256 of the raw verifying key of `real_round_trip`'s shape (1 signer slot, 3 index slots,
/// depth 3, k = 10), and its proof size.
const PINNED_VK: &str = "be9665c53b637ea04c68d0246f1bbcbb8919d3ec70760c012ef6f1dc504080b5";
const PINNED_PROOF_BYTES: usize = 4096;

/// Keygen, a real SHPLONK proof and its verification at the smallest k (about a minute in the
/// default optimised test profile on two cores).
#[test]
fn real_round_trip() {
    let (ex, _) = example();
    let w = ex.witness(8).unwrap();
    let params = mithril_snark::setup(w.shape.k);
    let measured = mithril_snark::measure_round_trip(&params, &w).unwrap();
    println!("{}", measured.record("mithril m=40 k=3"));
    // Pinned: a change to the circuit's layout changes the verifying key (insecure test params).
    let fingerprint = tms_gadgets::proving::stats::vk_fingerprint(&measured.keys.pk);
    assert_eq!(fingerprint, PINNED_VK, "vk {fingerprint}");
    assert_eq!(measured.proof.len(), PINNED_PROOF_BYTES);
    // The keys carry the cells by component, as the layout alone gives them.
    print!("{}", measured.keys.stats.breakdown());
    assert_eq!(
        measured.keys.stats,
        mithril_snark::layout_stats(&w.shape).unwrap()
    );
    // The same proof for another message is refused.
    let other = MithrilInstance {
        message: ex.message + Fr::ONE,
        ..ex.instance()
    };
    assert_eq!(
        mithril_snark::prover::verify(&params, &measured.keys, &other, &measured.proof),
        Err(mithril_snark::MithrilError::ProofRejected)
    );
    // The verifying key file (header + raw key) verifies the proof on its own; the proving key
    // file reads back and proves again.
    let (shape, vk) = mithril_snark::read_vk(&measured.keys.vk_bytes()).unwrap();
    assert_eq!(shape, w.shape);
    mithril_snark::prover::verify_with_vk(
        &params,
        &shape,
        &vk,
        &ex.instance(),
        &measured.proof,
        Transcript::Blake2b,
    )
    .unwrap();
    let keys = mithril_snark::MithrilKeys::from_pk_bytes(&measured.keys.pk_bytes()).unwrap();
    let proof = mithril_snark::prove(&params, &keys, &w).unwrap();
    mithril_snark::prover::verify_with_vk(
        &params,
        &shape,
        &vk,
        &ex.instance(),
        &proof,
        Transcript::Blake2b,
    )
    .unwrap();
}

/// An unregistered key in a signer slot past the first: the attacker's own key, signature and
/// the largest target (every index won), its leaf under another root. The index slots naming
/// it hold; only the equality of its root with the first slot's refuses it (the twin of
/// mithril-jubjub's test).
#[test]
fn an_unregistered_key_in_a_later_signer_slot_is_rejected() {
    let (w, _) = two_signers();
    let sk = SigningKey::random(&mut ChaCha20Rng::seed_from_u64(54));
    let signed = w.instance.commitment.message(w.instance.message);
    let mut forged = w.clone();
    let slot = &mut forged.signers[1];
    slot.key = sk.verifying_key().0;
    slot.signature = signature::sign(&sk, signed).unwrap();
    slot.target = -Fr::one();
    let (sigma, target) = (slot.signature.sigma, slot.target);
    for index in forged.indices.iter_mut().filter(|i| i.signer == 1) {
        (index.sigma, index.target) = (sigma, target);
    }
    mock_two(&forged).assert_rejected_only_by(Rejection::AdviceCopy);
}
