//! The one-lane scalar ladder of the Jubjub Schnorr ATMS as a cheating prover would attack it:
//! every forgery below starts from a satisfied witness, changes one thing through the circuit's
//! test hooks (which keep every other cell honest, or solve for it), and is refused by the one
//! check that stands in its way (named by MockProver): the ladder table's lookup, the ladder's
//! gate, or a copy constraint (the accumulators' start, the copies of `c`'s bits, the table's
//! copies of the chip's points). Plus the ladder's native twin against group arithmetic.

use ff::{Field, PrimeField};
use group::Group;
use midnight_curves::JubjubSubgroup;
use midnight_proofs::{
    dev::{FailureLocation, MockProver, VerifyFailure},
    plonk::Any,
};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use schnorr_atms_jubjub::{
    challenge, challenge_scalar, coordinates, generator,
    ladder::{
        ladder_bits, ladder_sums, LadderForgery, Xy, ACC_X, ACC_Y, C_BIT, IDENTITY, LADDER_BITS,
        ONE_LANE_GATE,
    },
    message_to_field, AtmsCircuit, AtmsShape, AtmsWitness, Base, Certificate, CommitmentMode,
    Committee, JubjubScalar, Signature, SigningKey,
};

/// The range table's size: 2^(K-1) rows.
const K: u32 = 11;

fn xy(p: &JubjubSubgroup) -> Xy {
    let [x, y] = coordinates(p);
    (x, y)
}

/// A flat committee of two, both signing, t = 2; and its signing keys.
fn example() -> (Vec<SigningKey>, AtmsWitness) {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let sks: Vec<SigningKey> = (0..2).map(|_| SigningKey::random(&mut rng)).collect();
    let committee = Committee::new(sks.iter().map(|s| s.verifying_key()).collect()).unwrap();
    let message = message_to_field(b"ladder epoch");
    let sigs: Vec<_> = sks
        .iter()
        .map(|sk| (sk.verifying_key(), sk.sign(message)))
        .collect();
    let cert = Certificate::aggregate(&committee, message, &sigs).unwrap();
    let shape = AtmsShape {
        n: 2,
        mode: CommitmentMode::Flat,
        k: K,
    };
    (sks, AtmsWitness::new(shape, &committee, &cert, 2).unwrap())
}

/// MockProver on `circuit` against `w`'s honest statement.
fn run(circuit: &AtmsCircuit, w: &AtmsWitness) -> Result<(), Vec<VerifyFailure>> {
    MockProver::run(circuit, vec![w.instance.to_public_inputs()])
        .unwrap()
        .verify()
}

fn is_lookup(f: &VerifyFailure) -> bool {
    matches!(f, VerifyFailure::Lookup { .. })
}

fn is_gate(f: &VerifyFailure, constraint: &str) -> bool {
    matches!(f, VerifyFailure::ConstraintNotSatisfied { constraint: c, .. }
        if format!("{c}").contains(constraint))
}

/// Slot `j`'s key and signature in `w`.
fn slot(w: &AtmsWitness, j: usize) -> (JubjubSubgroup, Signature) {
    let key = w.committee.keys()[w.slots[j].index].0;
    (key, w.slots[j].signature.expect("an enabled slot"))
}

/// Slot `j`'s bit pairs `(s_i, c_i)`, little-endian, as its ladder reads them.
fn bit_pairs(w: &AtmsWitness, j: usize) -> Vec<(bool, bool)> {
    let (pk, sig) = slot(w, j);
    let c = challenge(&sig.r, &pk, w.instance.message);
    let s_bits = ladder_bits(sig.s.to_repr().as_ref());
    s_bits
        .into_iter()
        .zip(ladder_bits(c.to_repr().as_ref()))
        .collect()
}

/// The step (from the most significant bit) of the highest bit pair equal to `pair`.
fn step_with(w: &AtmsWitness, j: usize, pair: (bool, bool)) -> usize {
    let pairs = bit_pairs(w, j);
    let bit = (0..LADDER_BITS)
        .rev()
        .find(|&i| pairs[i] == pair)
        .expect("such a bit pair");
    LADDER_BITS - 1 - bit
}

/// The advice cells `(column, offset)` of copy failures in the region named `region`.
fn copy_failures_at(failures: &[VerifyFailure], region: &str) -> Vec<(usize, usize)> {
    let name = format!("('{region}')");
    failures
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
        .collect()
}

/// Each advice `(column, offset)` of `expected` has a copy failure in a region named `region`.
fn assert_copy_failures_at(failures: &[VerifyFailure], region: &str, expected: &[(usize, usize)]) {
    let found = copy_failures_at(failures, region);
    for cell in expected {
        assert!(
            found.contains(cell),
            "no copy failure at {cell:?} in {found:?}"
        );
    }
}

/// `result` is refused by copy constraints alone, among them one at each advice `(column,
/// offset)` of `expected` in a region named `region`.
fn assert_refused_by_copies_at(
    result: &Result<(), Vec<VerifyFailure>>,
    region: &str,
    expected: &[(usize, usize)],
) {
    let failures = result.as_ref().expect_err("refused");
    assert!(
        failures
            .iter()
            .all(|f| matches!(f, VerifyFailure::Permutation { .. })),
        "{failures:?}"
    );
    assert_copy_failures_at(failures, region, expected);
}

#[test]
fn the_honest_ladder_is_satisfied() {
    let (_, w) = example();
    run(&AtmsCircuit::new(w.clone()), &w).unwrap();
}

#[test]
fn ladder_twin_agrees_with_group_arithmetic() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for _ in 0..4 {
        let g = generator();
        let pk = JubjubSubgroup::random(&mut rng);
        let s = JubjubScalar::random(&mut rng);
        let c = Base::random(&mut rng);
        let [sum] = ladder_sums(
            &ladder_bits(s.to_repr().as_ref()),
            &ladder_bits(c.to_repr().as_ref()),
            &[[IDENTITY, xy(&g), xy(&-pk), xy(&(g - pk))]],
        );
        assert_eq!(sum, xy(&(g * s - pk * challenge_scalar(c))));
    }
}

#[test]
fn a_ladder_point_off_its_table_is_rejected() {
    let (_, w) = example();
    let g = generator();
    let circuit = AtmsCircuit::new(w.clone()).with_ladder_forgery(
        0,
        100,
        LadderForgery::Points([xy(&(g + g)); 2]),
    );
    // The gate holds for any curve point: the lookup alone refuses it (the sum then differs too).
    let failures = run(&circuit, &w).unwrap_err();
    assert!(failures.iter().any(is_lookup), "{failures:?}");
    assert!(!failures.iter().any(|f| is_gate(f, "")), "{failures:?}");
}

#[test]
fn a_ladder_point_from_another_slots_table_is_rejected() {
    let (_, w) = example();
    // A step where slot 0 adds its entry w = 2, -pk_0: slot 1's entry w = 2 is -pk_1.
    let step = step_with(&w, 0, (false, true));
    let with = |point: JubjubSubgroup| {
        let circuit = AtmsCircuit::new(w.clone()).with_ladder_forgery(
            0,
            step,
            LadderForgery::Points([xy(&point); 2]),
        );
        run(&circuit, &w)
    };
    // The slot's own entry, through the same hook, is the honest ladder.
    with(-slot(&w, 0).0).unwrap();
    // Another slot's: only the tag tells them apart (the sum then differs too: copies).
    let failures = with(-slot(&w, 1).0).unwrap_err();
    assert!(failures.iter().any(is_lookup), "{failures:?}");
}

#[test]
fn a_ladder_s_bit_that_is_not_a_bit_is_rejected() {
    let (_, w) = example();
    // At a step where c's bit is 1, s's bit -1 makes w = 1: the table's entry G is then a lookup
    // match, and the ladder adds G where it owes -pk. Only booleanity stops it.
    let step = step_with(&w, 0, (false, true));
    let circuit = AtmsCircuit::new(w.clone())
        .with_ladder_forgery(0, step, LadderForgery::SBit(-Base::ONE))
        .with_ladder_forgery(0, step, LadderForgery::Points([xy(&generator()); 2]));
    let failures = run(&circuit, &w).unwrap_err();
    assert!(
        failures.iter().any(|f| is_gate(f, "bit is boolean")),
        "{failures:?}"
    );
    assert!(!failures.iter().any(is_lookup), "{failures:?}");
    assert!(failures
        .iter()
        .all(|f| is_gate(f, ONE_LANE_GATE) || matches!(f, VerifyFailure::Permutation { .. })));
}

#[test]
fn a_ladder_c_bit_that_is_not_a_bit_is_rejected() {
    let (_, w) = example();
    // c's bits i and i - 1 as (0, 1) rewritten as (1/2, 0): the same sum 2^(i-1), so the
    // recomposition into c holds; the ladder adds the entries of w = s_i + 1 and w = s_(i-1)
    // (lookup matches). Only the gate's booleanity of c's bits stops it.
    let pairs = bit_pairs(&w, 0);
    let i = (1..LADDER_BITS)
        .rev()
        .find(|&i| !pairs[i].1 && pairs[i - 1].1)
        .expect("bits (0, 1) somewhere");
    let (pk, _) = slot(&w, 0);
    let g = generator();
    let table = [JubjubSubgroup::identity(), g, -pk, g - pk];
    let entry = |s_bit: bool, plus: usize| xy(&table[usize::from(s_bit) + plus]);
    let half = Base::from(2u64).invert().unwrap();
    let (step, next) = (LADDER_BITS - 1 - i, LADDER_BITS - i);
    let circuit = AtmsCircuit::new(w.clone())
        .with_ladder_forgery(0, step, LadderForgery::CBit(half))
        .with_ladder_forgery(0, step, LadderForgery::Points([entry(pairs[i].0, 1); 2]))
        .with_ladder_forgery(0, next, LadderForgery::CBit(Base::ZERO))
        .with_ladder_forgery(
            0,
            next,
            LadderForgery::Points([entry(pairs[i - 1].0, 0); 2]),
        );
    let failures = run(&circuit, &w).unwrap_err();
    assert!(
        failures.iter().any(|f| is_gate(f, "c bit is boolean")),
        "{failures:?}"
    );
    assert!(!failures.iter().any(is_lookup), "{failures:?}");
}

#[test]
fn a_ladder_sum_that_is_not_the_addition_is_rejected() {
    let (_, w) = example();
    // The sum at step 100 replaced by another curve point, the ladder continuing from it
    // (lookup and booleanity hold): only the gate's addition refuses it.
    let g = generator();
    let circuit = AtmsCircuit::new(w.clone()).with_ladder_forgery(
        0,
        100,
        LadderForgery::Sum(xy(&(g + g + g))),
    );
    let failures = run(&circuit, &w).unwrap_err();
    assert!(
        failures.iter().any(|f| is_gate(f, "sx (1 + dpi)")),
        "{failures:?}"
    );
    assert!(!failures.iter().any(is_lookup), "{failures:?}");
}

/// A forged signature (`R` moved by `G`, so `s G - c pk != R`) whose ladder starts at the point
/// `P` solved so that it ends at `R` (`2^254 P` plus the honest sum). The gate, the lookup and
/// the final equality hold; only the start's copies of `O` refuse it.
#[test]
fn a_ladder_started_off_the_identity_is_rejected() {
    let (_, w) = example();
    let (pk, sig) = slot(&w, 0);
    let g = generator();
    let r = sig.r + g;
    let forged_sig = Signature { r, ..sig };
    assert!(!w.committee.keys()[0].verify(w.instance.message, &forged_sig));
    let c = challenge_scalar(challenge(&r, &pk, w.instance.message));
    let unscale = Field::pow_vartime(&JubjubScalar::from(2u64), [254])
        .invert()
        .unwrap();
    let start = (r - (g * sig.s - pk * c)) * unscale;
    let mut forged = w.clone();
    forged.slots[0].signature = Some(forged_sig);
    let circuit = AtmsCircuit::new(forged.clone()).with_ladder_forgery(
        0,
        0,
        LadderForgery::Start([xy(&start); 2]),
    );
    assert_refused_by_copies_at(
        &run(&circuit, &w),
        "schnorr ladder",
        &[(ACC_X, 0), (ACC_Y, 0)],
    );
    // Without the forged start, the ladder's sum is not R: the final equality refuses it.
    let failures = run(&AtmsCircuit::new(forged), &w).unwrap_err();
    assert!(failures
        .iter()
        .all(|f| matches!(f, VerifyFailure::Permutation { .. })));
    // The hook with O is the honest ladder.
    let honest =
        AtmsCircuit::new(w.clone()).with_ladder_forgery(0, 0, LadderForgery::Start([IDENTITY; 2]));
    run(&honest, &w).unwrap();
}

/// A signature made without the key: `s` and a challenge `c*` drawn first, `R = s G - c* pk`
/// solved for, the ladder run on `c*`'s bits where they differ from those of the challenge `c`
/// the circuit computes. Gate, lookup and final equality hold; only the recomposition of the
/// ladder's bits into `c` (a copy) refuses it.
#[test]
fn a_ladder_on_bits_other_than_the_challenges_is_rejected() {
    let (_, w) = example();
    let mut rng = ChaCha8Rng::seed_from_u64(51);
    let (pk, _) = slot(&w, 0);
    let (s, c_star) = (JubjubScalar::random(&mut rng), Base::random(&mut rng));
    let forged_sig = Signature {
        r: generator() * s - pk * challenge_scalar(c_star),
        s,
    };
    assert!(!w.committee.keys()[0].verify(w.instance.message, &forged_sig));
    let c = challenge(&forged_sig.r, &pk, w.instance.message);
    let circuit = with_c_bits(
        AtmsCircuit::new(with_signature(&w, forged_sig)),
        &c,
        &c_star.to_repr(),
    );
    assert_refused_by_copies_at(&run(&circuit, &w), "schnorr ladder", &[]);
    // Without the forged bits the sum is not R: the final equality refuses it.
    assert!(run(&AtmsCircuit::new(with_signature(&w, forged_sig)), &w).is_err());
    // The hook with c's own bits is the honest ladder.
    let (_, sig) = slot(&w, 0);
    let c = challenge(&sig.r, &pk, w.instance.message);
    let mut honest = AtmsCircuit::new(w.clone());
    for (bit, c_bit) in ladder_bits(c.to_repr().as_ref()).into_iter().enumerate() {
        let step = LADDER_BITS - 1 - bit;
        honest =
            honest.with_ladder_forgery(0, step, LadderForgery::CBit(Base::from(u64::from(c_bit))));
    }
    run(&honest, &w).unwrap();
}

/// `w` with slot 0's signature replaced.
fn with_signature(w: &AtmsWitness, sig: Signature) -> AtmsWitness {
    let mut forged = w.clone();
    forged.slots[0].signature = Some(sig);
    forged
}

/// `circuit` with slot 0's ladder run on the bits of the integer `bits_of` where they differ from
/// those of `c`.
fn with_c_bits(mut circuit: AtmsCircuit, c: &Base, bits_of: &impl AsRef<[u8]>) -> AtmsCircuit {
    let (c_bits, other) = (
        ladder_bits(c.to_repr().as_ref()),
        ladder_bits(bits_of.as_ref()),
    );
    assert_ne!(c_bits, other);
    for bit in (0..LADDER_BITS).filter(|&i| c_bits[i] != other[i]) {
        let step = LADDER_BITS - 1 - bit;
        let value = Base::from(u64::from(other[bit]));
        circuit = circuit.with_ladder_forgery(0, step, LadderForgery::CBit(value));
    }
    circuit
}

/// The other 255-bit representation of the challenge, `c + q` (when below `2^255`), signed for
/// by the member's own key: `s = k + (c + q) sk`, so the ladder on `c + q`'s bits ends at `R`
/// and the bits sum to `c` in the field. A signature the native verifier refuses (it reads `c`'s
/// canonical integer); only the canonicity check (`b_0 = sgn0(c)`, a copy) refuses it.
#[test]
fn a_ladder_on_the_challenges_other_representation_is_rejected() {
    use num_bigint::BigUint;
    let (sks, w) = example();
    let (pk, _) = slot(&w, 0);
    let q = BigUint::from_bytes_le((-Base::ONE).to_repr().as_ref()) + 1u32;
    let bound = (BigUint::from(1u32) << 255u32) - &q;
    let mut rng = ChaCha8Rng::seed_from_u64(53);
    // A nonce whose challenge has a second representation below 2^255 (about one in ten).
    let (nonce, r, c) = loop {
        let nonce = JubjubScalar::random(&mut rng);
        let r = generator() * nonce;
        let c = challenge(&r, &pk, w.instance.message);
        if BigUint::from_bytes_le(c.to_repr().as_ref()) < bound {
            break (nonce, r, c);
        }
    };
    let mut other = (BigUint::from_bytes_le(c.to_repr().as_ref()) + &q).to_bytes_le();
    other.resize(32, 0);
    let mut wide = [0u8; 64];
    wide[..32].copy_from_slice(&other);
    let c_other = JubjubScalar::from_bytes_wide(&wide);
    let sk = sks[0].0;
    let forged_sig = Signature {
        r,
        s: nonce + c_other * sk,
    };
    assert!(!w.committee.keys()[0].verify(w.instance.message, &forged_sig));
    assert_eq!(generator() * forged_sig.s, r + pk * c_other);
    let circuit = with_c_bits(AtmsCircuit::new(with_signature(&w, forged_sig)), &c, &other);
    let result = run(&circuit, &w);
    // Bit 0 lies on the ladder's last row; the copy's other cell is sgn0's.
    assert_refused_by_copies_at(&result, "schnorr ladder", &[(C_BIT, LADDER_BITS - 1)]);
    let failures = result.unwrap_err();
    assert_eq!(failures.len(), 2, "one copy, two cells: {failures:?}");
}

/// A ladder table whose `-pk` and `G - pk` entries are the attacker's key's: the victim's slot
/// signed with the attacker's key `sk*` (`c` over the victim's `pk`, `s = r + c sk*`, so
/// `s G - c pk* = R`). The ladder adds the forged entries, so its gate, its lookups and the final
/// equality hold; the table cells' copies of the points computed from the key refuse it (and the
/// step that computes `G - pk`, whose lookup takes the victim's `-pk` as entry 2, cannot match
/// the forged entry either).
#[test]
fn a_ladder_table_entry_that_is_not_the_keys_point_is_rejected() {
    let (_, w) = example();
    let mut rng = ChaCha8Rng::seed_from_u64(52);
    let g = generator();
    let (sk, nonce) = (
        JubjubScalar::random(&mut rng),
        JubjubScalar::random(&mut rng),
    );
    let (victim, _) = slot(&w, 0);
    let r = g * nonce;
    let c = challenge_scalar(challenge(&r, &victim, w.instance.message));
    let forged_sig = Signature {
        r,
        s: nonce + c * sk,
    };
    assert!(!w.committee.keys()[0].verify(w.instance.message, &forged_sig));
    let attacker = g * sk;
    let circuit = AtmsCircuit::new(with_signature(&w, forged_sig))
        .with_forged_table_entry(0, 2, xy(&-attacker))
        .with_forged_table_entry(0, 3, xy(&(g - attacker)));
    let failures = run(&circuit, &w).unwrap_err();
    // Entries w = 2 and 3 lie on rows 2 and 3 of the table, x and y in columns 0 and 1.
    let cells = [(0, 2), (1, 2), (0, 3), (1, 3)];
    assert_copy_failures_at(&failures, "ladder table", &cells);
    for f in failures.iter().filter(|f| is_lookup(f)) {
        assert!(format!("{f}").contains("('G - pk')"), "{f}");
    }
}
