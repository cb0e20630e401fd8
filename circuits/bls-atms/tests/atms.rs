//! BLS ATMS: membership positives for every strategy (MockProver, pairing left out at small k),
//! one-change negatives naming the failing check, native errors; full-pairing MockProver runs
//! and a real round trip with a pinned verifying key.
//!
//! The full-pairing tests are long (see the README for the commands and their cost).

use bls_atms::{
    key_words, keygen, prove, setup, synthesize_membership, synthesize_membership_with, verify,
    AtmsError, AtmsShape, AtmsWitness, Committee, MembershipValues, NodeHash, Strategy,
};
use halo2_base::halo2_proofs::halo2curves::{
    bn256::{G1Affine, G2Affine, G1, G2},
    ff::Field,
    group::{prime::PrimeCurveAffine, Curve},
};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tms_gadgets::{
    hash::{NativeHash, Poseidon},
    message::message_to_field,
    proving::scheme::HybridScheme,
    signature::bls::{map_to_curve_svdw, PublicKey, SecretKey, Signature},
    testing::{CircuitHarness, MockRun, Rejection},
    Fr,
};

/// k of the membership-only MockProver runs.
const K_MEMBERSHIP: u32 = 15;
/// k of the full circuit (about 4.4 M advice cells at n = 8).
const K_FULL: u32 = 20;
const MESSAGE: &[u8] = b"sidechain epoch 42";

struct Setting {
    sks: Vec<SecretKey>,
    committee: Committee,
}

fn setting(n: usize) -> Setting {
    let mut rng = ChaCha8Rng::seed_from_u64(n as u64 + 7);
    let sks: Vec<SecretKey> = (0..n).map(|_| SecretKey::random(&mut rng)).collect();
    let members: Vec<(PublicKey, Signature)> = sks
        .iter()
        .map(|sk| (sk.public_key(), sk.prove_possession()))
        .collect();
    Setting {
        committee: Committee::register(&members).unwrap(),
        sks,
    }
}

impl Setting {
    fn signatures(&self, signers: &[usize], message: &[u8]) -> Vec<(usize, Signature)> {
        signers
            .iter()
            .map(|i| (*i, self.sks[*i].sign(message_to_field(message))))
            .collect()
    }

    fn shape(&self, capacity: usize, strategy: Strategy, hash: NodeHash, k: u32) -> AtmsShape {
        AtmsShape {
            n: self.sks.len(),
            capacity,
            strategy,
            hash,
            k,
        }
    }

    /// n = 8, non-signers 1, 4, 6; t = 5; four slots (one disabled).
    fn witness(&self, strategy: Strategy, hash: NodeHash, k: u32) -> AtmsWitness {
        let signers = [0, 2, 3, 5, 7];
        AtmsWitness::new(
            self.shape(4, strategy, hash, k),
            &self.committee,
            MESSAGE,
            &self.signatures(&signers, MESSAGE),
            5,
        )
        .unwrap()
    }
}

fn expected_avk(s: &Setting, non_signers: &[usize]) -> G1Affine {
    let sum: G1 = non_signers
        .iter()
        .map(|i| G1::from(s.committee.keys()[*i].0))
        .sum();
    (G1::from(s.committee.ivk()) - sum).to_affine()
}

/// MockProver on the membership part against the witness's own statement.
fn mock_membership(w: &AtmsWitness) -> MockRun<G1Affine> {
    CircuitHarness::new(K_MEMBERSHIP).mock_custom_with_public(
        |ctx, range, custom| {
            let out = synthesize_membership(ctx, range, custom, w);
            (out.avk, out.publics)
        },
        |_| w.instance.to_public_inputs(),
    )
}

/// MockProver on the membership part with the membership cells' values given (a cheating
/// prover's), against the witness's own statement.
fn mock_membership_with(w: &AtmsWitness, values: &MembershipValues) -> MockRun<G1Affine> {
    CircuitHarness::new(K_MEMBERSHIP).mock_custom_with_public(
        |ctx, range, custom| {
            let out = synthesize_membership_with(ctx, range, custom, w, values);
            (out.avk, out.publics)
        },
        |_| w.instance.to_public_inputs(),
    )
}

/// `w` is satisfied with its honest membership values; then `change` forges some of them.
fn forged(w: &AtmsWitness, change: impl FnOnce(&mut MembershipValues)) -> MockRun<G1Affine> {
    let honest = w.membership_values();
    mock_membership_with(w, &honest).assert_satisfied();
    let mut values = honest.clone();
    change(&mut values);
    assert_ne!(values, honest, "nothing was changed");
    mock_membership_with(w, &values)
}

/// Asserts that exactly the checks `expected` failed (in any order). MockProver names both ends
/// of a failed copy constraint: one failed equality of two advice cells is
/// `[AdviceCopy, AdviceCopy]`, a public value that is not the statement's is
/// `[AdviceCopy, PublicInput(row)]`.
fn assert_rejected_exactly<R>(run: &MockRun<R>, expected: &[Rejection]) {
    let key = |r: &Rejection| format!("{r:?}");
    let mut got = run.rejections();
    got.sort_by_key(key);
    let mut expected = expected.to_vec();
    expected.sort_by_key(key);
    assert_eq!(got, expected);
}

/// MockProver on the full circuit against the witness's own statement.
fn mock_full(w: &AtmsWitness) -> MockRun<()> {
    CircuitHarness::new(K_FULL).mock_custom_with_public(
        |ctx, range, custom| ((), AtmsShape::synthesize(ctx, range, custom, w)),
        |_| w.instance.to_public_inputs(),
    )
}

const STRATEGIES: [Strategy; 3] = [
    Strategy::Paths,
    Strategy::SharedUpper { cut: 1 },
    Strategy::AllLeaves,
];

#[test]
fn every_strategy_accepts_an_honest_certificate() {
    let s = setting(8);
    for strategy in STRATEGIES {
        let w = s.witness(strategy, NodeHash::Poseidon, K_MEMBERSHIP);
        let run = mock_membership(&w);
        run.assert_satisfied();
        assert_eq!(run.public_values, w.instance.to_public_inputs());
        assert_eq!(run.output, expected_avk(&s, &[1, 4, 6]));
        println!(
            "record: membership n=8 capacity=4 {strategy}: {}",
            run.stats
        );
    }
    // The note's baseline: paths with halo2-base's stock Poseidon.
    let w = s.witness(Strategy::Paths, NodeHash::StockPoseidon, K_MEMBERSHIP);
    let run = mock_membership(&w);
    run.assert_satisfied();
    println!(
        "record: membership n=8 capacity=4 paths stock: {}",
        run.stats
    );
}

#[test]
fn a_full_capacity_and_a_non_power_of_two_committee_are_accepted() {
    // n = 6 (two empty leaf slots), every slot used, non-signers at the edges.
    let s = setting(6);
    for strategy in STRATEGIES {
        let shape = s.shape(3, strategy, NodeHash::Poseidon, K_MEMBERSHIP);
        let w = AtmsWitness::new(
            shape,
            &s.committee,
            MESSAGE,
            &s.signatures(&[1, 2, 3], MESSAGE),
            3,
        )
        .unwrap();
        let run = mock_membership(&w);
        run.assert_satisfied();
        assert_eq!(run.output, expected_avk(&s, &[0, 4, 5]));
    }
}

fn tampered(
    strategy: Strategy,
    change: impl FnOnce(&Setting, &mut AtmsWitness),
) -> MockRun<G1Affine> {
    let s = setting(8);
    let mut w = s.witness(strategy, NodeHash::Poseidon, K_MEMBERSHIP);
    mock_membership(&w).assert_satisfied();
    change(&s, &mut w);
    mock_membership(&w)
}

fn outsider() -> G1Affine {
    SecretKey::random(&mut ChaCha8Rng::seed_from_u64(99))
        .public_key()
        .0
}

#[test]
fn a_non_signer_key_not_in_the_tree_is_rejected() {
    for strategy in STRATEGIES {
        tampered(strategy, |_, w| w.slots[1].key = outsider())
            .assert_rejected_by(Rejection::AdviceCopy);
    }
}

#[test]
fn the_same_non_signer_twice_is_rejected() {
    // Non-signers 1, 4, 6 with t = 4: n - t = 4 leaves room for a fourth, so the count does not
    // object to one more enabled slot.
    let s = setting(8);
    for strategy in STRATEGIES {
        let mut w = s.witness(strategy, NodeHash::Poseidon, K_MEMBERSHIP);
        w.instance.threshold = 4;
        mock_membership(&w).assert_satisfied();
        // The one change: the disabled fourth slot repeats the third non-signer (leaf 6
        // twice). Its path is leaf 6's and the multiplicities count slots (2 on leaf 6's
        // entry), so membership and the lookup hold; only "strictly increasing indices among
        // enabled slots" (6 < 6 is false) refuses it, where its key would be subtracted twice:
        // its flag of a bad pair, asserted zero (an advice copy, both ends).
        w.slots[3] = w.slots[2];
        assert_rejected_exactly(
            &mock_membership(&w),
            &[Rejection::AdviceCopy, Rejection::AdviceCopy],
        );
    }
}

#[test]
fn a_disabled_slot_between_enabled_ones_is_rejected() {
    // Slots [1, 4, disabled(0), 4]: every enabled slot's index is above its predecessor's, so
    // only "enabled slots first" stops non-signer 4 from being subtracted twice.
    for strategy in STRATEGIES {
        tampered(strategy, |_, w| {
            w.slots[3] = w.slots[1];
            w.slots[2] = bls_atms::NonSignerSlot::disabled();
        })
        .assert_rejected_by_copy();
    }
}

#[test]
fn more_than_n_minus_t_non_signers_is_rejected() {
    // Three non-signers, t raised from 5 to 6: n - t = 2.
    tampered(Strategy::AllLeaves, |_, w| w.instance.threshold = 6)
        .assert_rejected_by(Rejection::Lookup);
}

#[test]
fn a_wrong_ivk_is_rejected() {
    for strategy in STRATEGIES {
        tampered(strategy, |_, w| {
            w.ivk = (G1::from(w.ivk) + G1Affine::generator()).to_affine();
        })
        .assert_rejected_by(Rejection::PublicInput(0));
    }
}

#[test]
fn a_negated_key_is_rejected() {
    // -vk has the same x: the leaf's parity word tells them apart.
    tampered(Strategy::Paths, |_, w| w.slots[0].key = -w.slots[0].key)
        .assert_rejected_by(Rejection::AdviceCopy);
}

#[test]
fn a_committee_proved_under_the_shape_of_a_larger_one_is_rejected() {
    // A committee of n = 6 and a shape for n' = 8: the same depth (3), so the same tree shape
    // and the same row. The count check uses the shape's n, so without n in the committee
    // digest the key for 8 would let a prover claim t up to 8 - (non-signers).
    let s = setting(6);
    for strategy in STRATEGIES {
        let shape = s.shape(3, strategy, NodeHash::Poseidon, K_MEMBERSHIP);
        let sigs = s.signatures(&[1, 2, 3], MESSAGE);
        let mut w = AtmsWitness::new(shape, &s.committee, MESSAGE, &sigs, 3).unwrap();
        mock_membership(&w).assert_satisfied();
        // The one change: the shape's n (the statement keeps the digest made for n = 6).
        w.shape.n = 8;
        assert_eq!(w.shape.depth(), 3);
        mock_membership(&w).assert_rejected_by(Rejection::PublicInput(0));
        // The attack it stops: three signers of six claimed as five (8 - 5 - 3 = 0 passes the
        // count check under n' = 8).
        w.instance.threshold = 5;
        mock_membership(&w).assert_rejected_by(Rejection::PublicInput(0));
    }
}

#[test]
fn a_non_signer_index_past_the_tree_is_rejected() {
    // Slot 2 holds leaf 6; its index cell becomes 6 + 2^3 = 14, everything else (siblings, row,
    // multiplicities) stays that of leaf 6, so the path, the lookup and the order (4 < 14) all
    // hold. Only the decomposition of the index into `depth` bits sees it: `num_to_bits`
    // constrains the bits' recomposition equal to the index cell (an advice copy). Without it
    // the same leaf could sit in two slots (6 and 14) and its key be subtracted twice.
    let s = setting(8);
    for strategy in STRATEGIES {
        let w = s.witness(strategy, NodeHash::Poseidon, K_MEMBERSHIP);
        assert_eq!(w.slots[2].index, 6);
        let run = forged(&w, |v| v.indices[2] = Fr::from(6 + 8));
        assert_rejected_exactly(&run, &[Rejection::AdviceCopy, Rejection::AdviceCopy]);
    }
}

#[test]
fn an_enabled_flag_that_is_not_a_bit_is_rejected() {
    // Four non-signers (1, 4, 6, 7) in the four slots, t = 3: the count has room for one more.
    // The last slot's flag becomes 2 (its non-signer counted twice) or -1 (cancelling one in the
    // count): "enabled slots first" ((1 - e_2) e_3 = 0), the strictly increasing indices and,
    // under Paths, the root check (e ? top : root = root) all still hold. The flag's bit check
    // (x * x = x, a basic gate) refuses it; under the lookup strategies the LogUp identity
    // (weight e_3 against multiplicity 1) objects as well.
    let s = setting(8);
    for strategy in STRATEGIES {
        let shape = s.shape(4, strategy, NodeHash::Poseidon, K_MEMBERSHIP);
        let sigs = s.signatures(&[0, 2, 3, 5], MESSAGE);
        let w = AtmsWitness::new(shape, &s.committee, MESSAGE, &sigs, 3).unwrap();
        for flag in [Fr::from(2), -Fr::one()] {
            let run = forged(&w, |v| v.flags[3] = flag);
            run.assert_rejected_by(Rejection::Gate);
            if strategy == Strategy::Paths {
                assert_rejected_exactly(&run, &[Rejection::Gate]);
            }
        }
    }
}

/// The strategies that look slots up in a row (LogUp).
const LOOKUP_STRATEGIES: [Strategy; 2] = [Strategy::SharedUpper { cut: 1 }, Strategy::AllLeaves];

#[test]
fn a_forged_lookup_multiplicity_is_rejected() {
    // Non-signers 1, 4, 6. A multiplicity moved to the neighbouring row entry (the total kept),
    // or one more on an entry no slot looks up: the LogUp identity
    // sum e_j / (gamma - u_j) = sum m_i / (gamma - r_i) fails (the two sums, an advice copy).
    let s = setting(8);
    for strategy in LOOKUP_STRATEGIES {
        let w = s.witness(strategy, NodeHash::Poseidon, K_MEMBERSHIP);
        let run = forged(&w, |v| {
            let i = v
                .multiplicities
                .iter()
                .position(|m| *m == Fr::one())
                .unwrap();
            assert_eq!(v.multiplicities[i ^ 1], Fr::zero());
            v.multiplicities[i] = Fr::zero();
            v.multiplicities[i ^ 1] = Fr::one();
        });
        assert_rejected_exactly(&run, &[Rejection::AdviceCopy, Rejection::AdviceCopy]);
        let run = forged(&w, |v| {
            let i = v
                .multiplicities
                .iter()
                .position(|m| *m == Fr::zero())
                .unwrap();
            v.multiplicities[i] = Fr::one();
        });
        assert_rejected_exactly(&run, &[Rejection::AdviceCopy, Rejection::AdviceCopy]);
    }
}

/// The LogUp challenges `(beta, gamma)` the circuit squeezes from `values` for the slots of
/// `w`, natively: `Poseidon_leaf(root, tops, packed positions with flags, packed
/// multiplicities)` and `Poseidon_node(beta, 1)`; with each slot's top and position.
fn lookup_challenges(w: &AtmsWitness, values: &MembershipValues) -> (Fr, Fr, Vec<(Fr, Fr)>) {
    let (depth, cut) = (w.shape.depth(), w.shape.cut());
    let pack = |values: &[Fr], bits: usize| -> Vec<Fr> {
        let per_word = (250 / bits).max(1);
        values
            .chunks(per_word)
            .map(|chunk| {
                chunk
                    .iter()
                    .enumerate()
                    .map(|(i, v)| *v * Fr::from(2).pow_vartime([(i * bits) as u64]))
                    .sum()
            })
            .collect()
    };
    let slots: Vec<(Fr, Fr)> = w
        .slots
        .iter()
        .zip(&values.siblings)
        .map(|(slot, siblings)| {
            let mut node = Poseidon.hash_leaf(&key_words(&slot.key)).unwrap();
            for (level, sibling) in siblings.iter().enumerate() {
                node = if (slot.index >> level) & 1 == 1 {
                    Poseidon.hash_node(*sibling, node)
                } else {
                    Poseidon.hash_node(node, *sibling)
                };
            }
            (node, Fr::from((slot.index >> cut) as u64))
        })
        .collect();
    let flagged: Vec<Fr> = slots
        .iter()
        .zip(&values.flags)
        .map(|((_, position), flag)| *position * Fr::from(2) + flag)
        .collect();
    let mult_bits = (usize::BITS - w.slots.len().leading_zeros()) as usize;
    let mut transcript = vec![w.committee.root(w.shape.hash)];
    transcript.extend(slots.iter().map(|(top, _)| *top));
    transcript.extend(pack(&flagged, depth - cut + 1));
    transcript.extend(pack(&values.multiplicities, mult_bits));
    let beta = Poseidon.hash_leaf(&transcript).unwrap();
    let gamma = Poseidon.hash_node(beta, Fr::one());
    (beta, gamma, slots)
}

#[test]
fn an_outsider_key_balanced_by_solved_multiplicities_is_rejected() {
    // The forgery the multiplicities' range check stops: member 0 alone certifies t = n - 1.
    // One enabled slot holds K = ivk - pk_0, not a committee key, so avk = ivk - K = pk_0 and
    // pk_0's signature alone passes the pairing. The LogUp identity
    //   1 / (gamma - top_K - beta pos_K) = sum_i m_i / (gamma - row_i - beta i)
    // is one linear equation in the multiplicities once the challenges are fixed; they are
    // fixed by the packed word of multiplicities, a second linear equation. Two multiplicities
    // solve both, about 252 bits each: only their range checks (lookups) object.
    let s = setting(8);
    for strategy in LOOKUP_STRATEGIES {
        let w = s.witness(strategy, NodeHash::Poseidon, K_MEMBERSHIP);
        mock_membership(&w).assert_satisfied();
        let pk_0 = s.committee.keys()[0].0;
        let mut cheat = w.clone();
        cheat.instance.threshold = w.shape.n as u64 - 1;
        cheat.slots = vec![bls_atms::NonSignerSlot::disabled(); w.shape.capacity];
        cheat.slots[0] = bls_atms::NonSignerSlot {
            enabled: true,
            index: 0,
            key: (G1::from(w.ivk) - pk_0).to_affine(),
        };
        let mut v = cheat.membership_values();
        // Multiplicities 0 except entries a = 0 and b = 1, which share the first packed word:
        // m_a 2^(bits a) + m_b 2^(bits b) = word; the word is chosen (0), so are the challenges.
        let (a, b) = (0, 1);
        let bits = (usize::BITS - w.slots.len().leading_zeros()) as usize;
        v.multiplicities.iter_mut().for_each(|m| *m = Fr::zero());
        let (beta, gamma, slots) = lookup_challenges(&cheat, &v);
        let (top, position) = slots[0];
        let lhs = (gamma - top - beta * position).invert().unwrap();
        let inv_d = |i: usize| {
            (gamma - v.row[i] - beta * Fr::from(i as u64))
                .invert()
                .unwrap()
        };
        let weight = |i: usize| Fr::from(2).pow_vartime([(i * bits) as u64]);
        // m_a = -m_b w_b / w_a, so m_b (1/d_b - w_b / (w_a d_a)) = lhs.
        let ratio = weight(b) * weight(a).invert().unwrap();
        let m_b = lhs * (inv_d(b) - ratio * inv_d(a)).invert().unwrap();
        let m_a = -m_b * ratio;
        v.multiplicities[a] = m_a;
        v.multiplicities[b] = m_b;
        // The challenges are unchanged and the identity holds.
        assert_eq!(lookup_challenges(&cheat, &v).0, beta);
        assert_eq!(m_a * inv_d(a) + m_b * inv_d(b), lhs);
        for m in [m_a, m_b] {
            assert!(halo2_base::utils::fe_to_biguint(&m).bits() > 240);
        }
        let run = mock_membership_with(&cheat, &v);
        assert_eq!(run.output, pk_0, "avk is member 0's key");
        run.assert_rejected_only_by(Rejection::Lookup);
    }
}

#[test]
fn a_forged_lookup_row_is_rejected() {
    // Only the digest's copy to instance row 0 fails; a failed lookup would add the two sums.
    let only_the_digest = |run: &MockRun<G1Affine>| {
        assert_rejected_exactly(run, &[Rejection::AdviceCopy, Rejection::PublicInput(0)]);
    };
    let s = setting(8);
    for strategy in LOOKUP_STRATEGIES {
        let w = s.witness(strategy, NodeHash::Poseidon, K_MEMBERSHIP);
        // A row entry no slot looks up, changed: the lookup still holds, but the root
        // recomputed from the row, hence the committee digest, is not the registered one.
        only_the_digest(&forged(&w, |v| {
            let i = v
                .multiplicities
                .iter()
                .position(|m| *m == Fr::zero())
                .unwrap();
            v.row[i] += Fr::one();
        }));
        // The attack the row's binding stops: an outsider's key in slot 1 and, in the row entry
        // that slot looks up, the outsider's node (its path below the cut on the honest
        // siblings). The lookup holds; only the digest objects.
        let mut cheat = w.clone();
        cheat.slots[1].key = outsider();
        let mut v = cheat.membership_values();
        let index = cheat.slots[1].index;
        let mut node = Poseidon.hash_leaf(&key_words(&cheat.slots[1].key)).unwrap();
        for (level, sibling) in v.siblings[1].iter().enumerate() {
            node = if (index >> level) & 1 == 1 {
                Poseidon.hash_node(*sibling, node)
            } else {
                Poseidon.hash_node(node, *sibling)
            };
        }
        v.row[index >> strategy.cut(w.shape.depth())] = node;
        only_the_digest(&mock_membership_with(&cheat, &v));
    }
}

#[test]
fn the_native_builder_refuses_bad_certificates() {
    let s = setting(8);
    let shape = s.shape(2, Strategy::AllLeaves, NodeHash::Poseidon, K_MEMBERSHIP);
    let sigs = s.signatures(&[0, 2, 3, 5, 7], MESSAGE);
    assert_eq!(
        AtmsWitness::new(shape, &s.committee, MESSAGE, &sigs, 5).unwrap_err(),
        AtmsError::TooManyNonSigners {
            non_signers: 3,
            capacity: 2
        }
    );
    let shape = s.shape(4, Strategy::AllLeaves, NodeHash::Poseidon, K_MEMBERSHIP);
    assert_eq!(
        AtmsWitness::new(shape, &s.committee, MESSAGE, &sigs, 6).unwrap_err(),
        AtmsError::BelowThreshold {
            count: 5,
            threshold: 6
        }
    );
    assert_eq!(
        AtmsWitness::new(shape, &s.committee, b"other", &sigs, 5).unwrap_err(),
        AtmsError::InvalidSignature
    );
    let mut swapped = sigs.clone();
    swapped.swap(0, 1);
    assert_eq!(
        AtmsWitness::new(shape, &s.committee, MESSAGE, &swapped, 5).unwrap_err(),
        AtmsError::SignersNotIncreasing(1)
    );
    assert_eq!(
        AtmsWitness::new(shape, &s.committee, MESSAGE, &sigs, 0).unwrap_err(),
        AtmsError::ThresholdOutOfRange { threshold: 0, n: 8 }
    );
    // Registration: a proof of possession for another key, a repeated key (with valid proofs).
    let member = |i: usize| (s.sks[i].public_key(), s.sks[i].prove_possession());
    let pk0 = s.sks[0].public_key();
    assert_eq!(
        Committee::register(&[
            (pk0, s.sks[0].prove_possession()),
            (s.sks[1].public_key(), s.sks[0].prove_possession())
        ])
        .unwrap_err(),
        AtmsError::InvalidPossession(1)
    );
    assert_eq!(
        Committee::register(&[member(0), member(1), member(0)]).unwrap_err(),
        AtmsError::DuplicateMember {
            first: 0,
            second: 2
        }
    );
    assert_eq!(
        Committee::from_keys_unchecked(vec![pk0, s.sks[1].public_key(), pk0]).unwrap_err(),
        AtmsError::DuplicateMember {
            first: 0,
            second: 2
        }
    );
    // The prover's entry check: sigma outside G2.
    let mut w = s.witness(Strategy::AllLeaves, NodeHash::Poseidon, K_MEMBERSHIP);
    w.signature = G2Affine::identity();
    assert_eq!(
        w.check_layout().unwrap_err(),
        AtmsError::InvalidPoint("sigma")
    );
}

#[test]
fn the_cheapest_strategy_follows_the_cost_model() {
    // One non-signer slot in a big committee: paths; half the committee: the whole tree.
    assert_eq!(Strategy::cheapest(2048, 1), Strategy::Paths);
    assert!(Strategy::cheapest(2048, 1024).cut(11) <= 1);
    assert!(Strategy::cheapest(32, 16).cut(5) <= 1);
    let mid = Strategy::cheapest(2048, 32);
    assert!(matches!(mid, Strategy::SharedUpper { .. }), "{mid}");
}

// ---- Full circuit (pairing included) ----

#[test]
fn full_circuit_accepts_an_honest_certificate() {
    let s = setting(8);
    let w = s.witness(Strategy::AllLeaves, NodeHash::Poseidon, K_FULL);
    let run = mock_full(&w);
    run.assert_satisfied();
    println!("record: full n=8 capacity=4: {}", run.stats);
}

fn tampered_full(change: impl FnOnce(&Setting, &mut AtmsWitness)) -> MockRun<()> {
    let s = setting(8);
    let mut w = s.witness(Strategy::AllLeaves, NodeHash::Poseidon, K_FULL);
    change(&s, &mut w);
    mock_full(&w)
}

#[test]
fn full_circuit_rejects_a_wrong_signature() {
    // A signature of one signer too few (still in G2).
    tampered_full(|s, w| {
        w.signature =
            (G2::from(w.signature) - s.sks[0].sign(message_to_field(MESSAGE)).0).to_affine();
    })
    .assert_rejected_by_copy();
}

#[test]
#[ignore = "full pairing MockProver, about 4.4 M cells, ~20 s and 2.6 GB each: see the README"]
fn full_circuit_rejects_a_wrong_message() {
    // The statement's m (which the circuit hashes to G2) for another message; the signature is
    // on MESSAGE. (`tms-gadgets`' `another_message_is_rejected` checks the hash alone.)
    tampered_full(|_, w| {
        w.instance.message = message_to_field(b"another message");
    })
    .assert_rejected_by_copy();
}

#[test]
#[ignore = "full pairing MockProver, about 4.4 M cells, ~20 s and 2.6 GB each: see the README"]
fn full_circuit_rejects_a_signer_key_subtracted() {
    // Signer 7 listed as a fourth non-signer (4 <= n - t = 3? no: t lowered to 4 so the count
    // passes and only the pairing can object).
    tampered_full(|s, w| {
        w.instance.threshold = 4;
        w.slots[3] = bls_atms::NonSignerSlot {
            enabled: true,
            index: 7,
            key: s.committee.keys()[7].0,
        };
    })
    .assert_rejected_by_copy();
}

#[test]
#[ignore = "full pairing MockProver, about 4.4 M cells, ~20 s and 2.6 GB each: see the README"]
fn full_circuit_rejects_sigma_outside_g2() {
    // sigma + T, T = [r]P for a twist point P outside G2: on the twist, not in G2. The subgroup
    // check (and here the pairing too) objects; `circuit.rs`'s unit test isolates the former.
    tampered_full(|_, w| {
        let p = map_to_curve_svdw(halo2_base::halo2_proofs::halo2curves::bn256::Fq2::one());
        let t = p * -Fr::one() + p;
        w.signature = (G2::from(w.signature) + t).to_affine();
        assert!(!tms_gadgets::signature::bls::is_in_g2(&w.signature));
    })
    .assert_rejected_by(Rejection::AdviceCopy);
}

#[test]
#[ignore = "keygen, a real proof and verification at k = 20: see the README"]
fn real_round_trip_with_pinned_key_and_size() {
    let s = setting(8);
    let w = s.witness(Strategy::AllLeaves, NodeHash::Poseidon, K_FULL);
    let params = setup(K_FULL);
    let keys = keygen(&params, w.shape).unwrap();
    let start = std::time::Instant::now();
    let proof = prove(&params, &keys, &w).unwrap();
    let prove_s = start.elapsed().as_secs_f64();
    let start = std::time::Instant::now();
    verify(&params, &keys, &w.instance, &proof).unwrap();
    let verify_ms = start.elapsed().as_secs_f64() * 1e3;
    let fingerprint = tms_gadgets::proving::stats::vk_fingerprint(&keys.pk);
    println!(
        "record: full n=8 real proof: {} proof {} bytes prove {prove_s:.1} s verify {verify_ms:.1} ms vk {fingerprint}",
        keys.stats,
        proof.len()
    );
    let mut wrong = w.instance;
    wrong.threshold = 4;
    assert_eq!(
        verify(&params, &keys, &wrong, &proof),
        Err(AtmsError::ProofRejected)
    );
    let mut wrong = w.instance;
    wrong.message = message_to_field(b"x");
    assert_eq!(
        verify(&params, &keys, &wrong, &proof),
        Err(AtmsError::ProofRejected)
    );
    assert_eq!(fingerprint, PINNED_VK);
    assert_eq!(proof.len(), PINNED_PROOF_BYTES);
}

// Changed by issue 33 (H(m) computed in the circuit): was d7d0d331dc43f818...
const PINNED_VK: &str = "f8c764533c412320c1b9f0b08ae82d35f1d728b22bc82cd4417566e2c9ad5387";
const PINNED_PROOF_BYTES: usize = 4160;

#[test]
fn the_verifiers_statement_is_the_provers_for_the_same_bytes_only() {
    // What a verifier builds from the committee and the message bytes equals the witness's
    // instance when the members signed the bytes' field element; other bytes or another
    // threshold give another statement, a committee of another size is refused.
    let s = setting(4);
    let bytes = b"certificate bytes";
    let shape = AtmsShape::auto(4, 2, K_FULL);
    let w = AtmsWitness::new(
        shape,
        &s.committee,
        bytes,
        &s.signatures(&[0, 1, 3], bytes),
        3,
    )
    .unwrap();
    assert_eq!(w.instance.message, message_to_field(bytes));
    let trusted = bls_atms::AtmsInstance::from_trusted(&shape, &s.committee, bytes, 3).unwrap();
    assert_eq!(trusted, w.instance);
    assert_ne!(
        bls_atms::AtmsInstance::from_trusted(&shape, &s.committee, b"other bytes", 3).unwrap(),
        w.instance
    );
    assert_ne!(
        bls_atms::AtmsInstance::from_trusted(&shape, &s.committee, bytes, 2).unwrap(),
        w.instance
    );
    let other = setting(5);
    assert!(bls_atms::AtmsInstance::from_trusted(&shape, &other.committee, bytes, 3).is_err());
}
