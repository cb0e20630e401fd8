//! Schnorr ATMS: positive runs for both commitment modes, threshold edge cases, one-change
//! negatives (MockProver naming the failing check), native errors, and a real round trip.
//!
//! Every MockProver case runs in both verification modes (per-signature ladders and the batch
//! MSM) and asserts the same verdict, with the same failing check where the check is shared.

use halo2_base::halo2_proofs::halo2curves::{ff::Field, group::Curve};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use schnorr_atms::{
    keygen, layout_stats, placeholder_signature, prove, setup, verify, AtmsError, AtmsInstance,
    AtmsShape, AtmsWitness, Certificate, CheckError, CommitmentMode, Committee, Verification,
};
use tms_gadgets::{
    curve::{
        glv::{endomorphism, ladder_start, split, table_constants, GlvDigits},
        offset_point, GrumpkinAffine, GrumpkinScalar,
    },
    hash::RescuePrime,
    proving::scheme::HybridScheme,
    signature::schnorr::{challenge, Signature, SigningKey, VerifyingKey},
    testing::{CircuitHarness, MockRun, Rejection},
    Fr,
};

const K: u32 = 11;
// Issue 30: both changed when a disabled slot's ladder (and batch term) began to run on the
// constant `disabled_key()` instead of its key (two selects and a constant point per slot).
const PINNED_VK_FLAT_3: &str = "414079131ca0c28185fbeed851ab89b008219dc117d02d817953f9327318a980";
const PINNED_VK_FLAT_3_BATCH: &str =
    "7353a252c4f5397bbd8e55fcb6611251ffcc3b21fb667085270d54d8a1abf435";

struct Setting {
    sks: Vec<SigningKey>,
    committee: Committee,
    message: Fr,
}

fn setting(n: usize) -> Setting {
    let mut rng = ChaCha8Rng::seed_from_u64(n as u64 + 100);
    let sks: Vec<SigningKey> = (0..n).map(|_| SigningKey::random(&mut rng)).collect();
    let committee = Committee::new(sks.iter().map(|s| s.verifying_key()).collect()).unwrap();
    Setting {
        sks,
        committee,
        message: Fr::from(0xbeefu64),
    }
}

impl Setting {
    fn signed_by(&self, signers: &[usize]) -> Vec<(VerifyingKey, Signature)> {
        signers
            .iter()
            .map(|i| {
                (
                    self.sks[*i].verifying_key(),
                    self.sks[*i].sign(&RescuePrime, self.message).unwrap(),
                )
            })
            .collect()
    }

    fn witness(&self, mode: CommitmentMode, signers: &[usize], threshold: u64) -> AtmsWitness {
        let shape = AtmsShape {
            n: self.sks.len(),
            mode,
            k: K,
            verification: Verification::PerSignature,
        };
        let cert = Certificate::aggregate(&self.committee, self.message, &self.signed_by(signers))
            .unwrap();
        AtmsWitness::new(shape, &self.committee, &cert, threshold).unwrap()
    }
}

/// MockProver against the witness's own public statement, as the real verifier would see it.
fn mock_one(w: &AtmsWitness) -> MockRun<()> {
    CircuitHarness::new(K).mock_custom_with_public(
        |ctx, range, region| ((), AtmsShape::synthesize(ctx, range, region, w)),
        |_| w.instance.to_public_inputs(),
    )
}

/// The runs of one witness in both verification modes, whose verdicts must agree.
struct BothModes {
    per_signature: MockRun<()>,
    batch: MockRun<()>,
}

impl BothModes {
    fn runs(&self) -> [&MockRun<()>; 2] {
        [&self.per_signature, &self.batch]
    }

    fn assert_satisfied(&self) -> &MockRun<()> {
        self.runs().iter().for_each(|r| {
            r.assert_satisfied();
        });
        assert_eq!(self.per_signature.public_values, self.batch.public_values);
        &self.per_signature
    }

    fn assert_rejected_by_copy(&self) {
        self.runs().iter().for_each(|r| {
            r.assert_rejected_by_copy();
        });
    }

    fn assert_rejected_by(&self, expected: Rejection) {
        self.runs().iter().for_each(|r| {
            r.assert_rejected_by(expected.clone());
        });
    }

    fn assert_rejected(&self) {
        self.runs()
            .iter()
            .for_each(|r| assert!(r.result.is_err(), "a mode accepted it"));
    }
}

/// [`mock_one`] in both verification modes.
fn mock(w: &AtmsWitness) -> BothModes {
    let with = |verification| {
        let mut w = w.clone();
        w.shape.verification = verification;
        mock_one(&w)
    };
    BothModes {
        per_signature: with(Verification::PerSignature),
        batch: with(Verification::Batch),
    }
}

const FLAT: CommitmentMode = CommitmentMode::Flat;
const MERKLE: CommitmentMode = CommitmentMode::Merkle { slots: 2 };

#[test]
fn flat_mode_accepts_a_valid_certificate() {
    let s = setting(3);
    let w = s.witness(FLAT, &[0, 2], 2);
    let both = mock(&w);
    let run = both.assert_satisfied();
    assert_eq!(run.public_values, w.instance.to_public_inputs());
    assert_eq!(w.instance.commitment, s.committee.flat_commitment());
    for (mode, run) in [("per-signature", run), ("batch", &both.batch)] {
        println!(
            "record: flat n=3 {mode}: {} ({} cells per party)",
            run.stats,
            run.stats.advice_cells / 3
        );
    }
}

#[test]
fn merkle_mode_accepts_a_valid_certificate() {
    let s = setting(4);
    let w = s.witness(MERKLE, &[1, 3], 2);
    let run = mock(&w);
    assert_eq!(
        run.assert_satisfied().public_values,
        w.instance.to_public_inputs()
    );
    assert_eq!(w.instance.commitment, s.committee.tree().root());
}

#[test]
fn threshold_edge_cases() {
    let s = setting(3);
    // t = 0 (a chunk without signers): the circuit proves the vacuous "at least 0", which a
    // prover may claim and a verifier never asks for (`AtmsInstance::from_trusted` refuses it).
    mock(&s.witness(FLAT, &[], 0)).assert_satisfied();
    mock(&s.witness(FLAT, &[0, 1, 2], 3)).assert_satisfied(); // t = n
    mock(&s.witness(FLAT, &[1], 1)).assert_satisfied(); // t = count
                                                        // Merkle mode with one signer and one disabled slot, t = count.
    mock(&s.witness(MERKLE, &[2], 1)).assert_satisfied();
}

#[test]
fn count_below_threshold_is_rejected() {
    let s = setting(3);
    let mut w = s.witness(FLAT, &[0, 1], 2);
    w.instance.threshold = 3; // t = count + 1, bypassing the native check
    mock(&w).assert_rejected_by(Rejection::Lookup);
    let mut w = s.witness(MERKLE, &[0, 1], 2);
    w.instance.threshold = 3;
    // 3 is also above the slot count: the threshold's range check or the comparison rejects it.
    mock(&w).assert_rejected();
}

#[test]
fn native_builder_refuses_bad_certificates() {
    let s = setting(3);
    let shape = AtmsShape {
        n: 3,
        mode: FLAT,
        k: K,
        verification: Verification::PerSignature,
    };
    let sigs = s.signed_by(&[0, 1]);
    let cert = Certificate::aggregate(&s.committee, s.message, &sigs).unwrap();
    assert_eq!(
        AtmsWitness::new(shape, &s.committee, &cert, 3).unwrap_err(),
        AtmsError::Check(CheckError::BelowThreshold {
            count: 2,
            threshold: 3
        })
    );
    // A prover may claim t = 0 (a chunk without signers); a verifier never asks for it.
    assert!(AtmsWitness::new(shape, &s.committee, &cert, 0).is_ok());
    assert_eq!(
        AtmsInstance::from_trusted(&shape, &s.committee, b"message", 0).unwrap_err(),
        AtmsError::Check(CheckError::ThresholdZero)
    );
    assert_eq!(
        AtmsWitness::new(shape, &s.committee, &cert, 4).unwrap_err(),
        AtmsError::Check(CheckError::ThresholdTooLarge {
            threshold: 4,
            slots: 3
        })
    );
    let outsider = SigningKey::random(&mut ChaCha8Rng::seed_from_u64(9));
    let foreign = vec![(
        outsider.verifying_key(),
        outsider.sign(&RescuePrime, s.message).unwrap(),
    )];
    assert_eq!(
        Certificate::aggregate(&s.committee, s.message, &foreign).unwrap_err(),
        AtmsError::Check(CheckError::NotInCommittee(0))
    );
    let twice = [sigs[0], sigs[0]];
    assert_eq!(
        Certificate::aggregate(&s.committee, s.message, &twice).unwrap_err(),
        AtmsError::Check(CheckError::DuplicateSigner(0))
    );
    let wrong = [(sigs[0].0, sigs[1].1)];
    assert_eq!(
        Certificate::aggregate(&s.committee, s.message, &wrong).unwrap_err(),
        AtmsError::Check(CheckError::InvalidSignature(0))
    );
    let keys = s.committee.keys().to_vec();
    assert_eq!(
        Committee::new(vec![keys[0], keys[1], keys[0]]).unwrap_err(),
        AtmsError::DuplicateMember {
            first: 0,
            second: 2
        }
    );
}

#[test]
fn registration_checks_proofs_of_possession() {
    let s = setting(3);
    let members: Vec<_> = s
        .sks
        .iter()
        .map(|sk| {
            (
                sk.verifying_key(),
                sk.prove_possession(&RescuePrime).unwrap(),
            )
        })
        .collect();
    assert_eq!(Committee::register(&members).unwrap(), s.committee);
    let mut swapped = members.clone();
    swapped[1].1 = members[2].1;
    assert_eq!(
        Committee::register(&swapped).unwrap_err(),
        AtmsError::InvalidPossession(1)
    );
    // A key nobody can sign for (the batch test's [2] O) has no proof to give.
    let power = VerifyingKey((offset_point() * GrumpkinScalar::from(2)).to_affine());
    assert_eq!(
        Committee::register(&[members[0], (power, placeholder_signature())]).unwrap_err(),
        AtmsError::InvalidPossession(1)
    );
}

fn tampered(mode: CommitmentMode, change: impl FnOnce(&Setting, &mut AtmsWitness)) -> BothModes {
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
fn signature_under_another_key_is_rejected() {
    for mode in [FLAT, MERKLE] {
        tampered(mode, |s, w| {
            *signature_slot(w, 2) = s.sks[1].sign(&RescuePrime, s.message).unwrap()
        })
        .assert_rejected_by_copy();
    }
}

#[test]
fn wrong_message_is_rejected() {
    tampered(FLAT, |_, w| w.instance.message += Fr::ONE).assert_rejected_by_copy();
}

#[test]
fn tampered_r_or_s_is_rejected() {
    tampered(FLAT, |_, w| {
        let sig = signature_slot(w, 0);
        sig.r = (sig.r + GrumpkinAffine::generator()).to_affine();
    })
    .assert_rejected_by_copy();
    tampered(MERKLE, |_, w| signature_slot(w, 2).s += GrumpkinScalar::ONE)
        .assert_rejected_by_copy();
}

#[test]
fn duplicated_signer_is_rejected() {
    // Merkle mode: the same member in both slots (same index, path and signature).
    tampered(MERKLE, |_, w| w.slots[1] = w.slots[0].clone()).assert_rejected_by(Rejection::Lookup);
}

#[test]
fn key_not_in_the_committee_is_rejected() {
    for mode in [FLAT, MERKLE] {
        tampered(mode, |_, w| {
            let outsider = SigningKey::random(&mut ChaCha8Rng::seed_from_u64(77));
            let mut keys = w.committee.keys().to_vec();
            keys[2] = outsider.verifying_key();
            // The prover's committee differs; the public commitment stays the real one.
            w.committee = Committee::new(keys).unwrap();
            *signature_slot(w, 2) = outsider.sign(&RescuePrime, w.instance.message).unwrap();
        })
        .assert_rejected_by(Rejection::PublicInput(0));
    }
}

/// A flat committee of `n` whose members at the positions of `adversaries` hold the given keys
/// (keys nobody can sign for, registered without a proof of possession) and the others honest
/// keys; every honest member signs `message`, and the threshold is their count.
fn adversarial_witness(
    n: usize,
    adversaries: &[(usize, GrumpkinAffine)],
    message: Fr,
) -> AtmsWitness {
    let mut rng = ChaCha8Rng::seed_from_u64(0xad);
    let adversary = |i: usize| adversaries.iter().find(|(j, _)| *j == i).map(|(_, p)| *p);
    let sks: Vec<Option<SigningKey>> = (0..n)
        .map(|i| adversary(i).is_none().then(|| SigningKey::random(&mut rng)))
        .collect();
    let keys = (0..n)
        .map(|i| match adversary(i) {
            Some(p) => VerifyingKey(p),
            None => sks[i].unwrap().verifying_key(),
        })
        .collect();
    let committee = Committee::new(keys).unwrap();
    let signatures: Vec<_> = sks
        .iter()
        .flatten()
        .map(|sk| (sk.verifying_key(), sk.sign(&RescuePrime, message).unwrap()))
        .collect();
    let cert = Certificate::aggregate(&committee, message, &signatures).unwrap();
    let shape = AtmsShape {
        n,
        mode: FLAT,
        k: K,
        verification: Verification::PerSignature,
    };
    AtmsWitness::new(shape, &committee, &cert, signatures.len() as u64).unwrap()
}

#[test]
fn a_power_of_the_ladder_offset_in_a_disabled_slot_cannot_block_a_certificate() {
    // Batch mode: the keys' terms share chains two by two (after the generator's), and a chain
    // of two disabled slots (both scalars zero), or of one and the zero filler, walks the fixed
    // accumulators 2^i O. The key [2^j] O, which anyone can compute, met the doubling of row
    // j - 1 at an equal x: no slope, so no proof for any message.
    let power = |j: u64| (offset_point() * GrumpkinScalar::from(2).pow_vartime([j])).to_affine();
    let message = Fr::from(0xb10cu64);
    // n = 3: slots 1 and 2 share a chain; n = 2: slot 1 shares its chain with the filler.
    for w in [
        adversarial_witness(3, &[(1, power(1)), (2, power(254))], message),
        adversarial_witness(2, &[(1, power(9))], message),
    ] {
        mock(&w).assert_satisfied();
    }
}

#[test]
fn a_key_against_the_glv_ladder_start_in_a_disabled_slot_cannot_block_a_certificate() {
    // Per-signature mode: a disabled slot's ladder reads the placeholder s, whose top digits
    // pick K[sidx] in the first row's entry T = K[sidx] + b1 P + b2 phi(P), added to A = S
    // (the ladder start). With P = -pk, the key pk = S + K[sidx] (or its images under phi)
    // made T = -A for every message whose challenge's top digits are (b1, b2): about a quarter
    // of them. The gate then has no slope, whatever the enabled bit.
    let placeholder = placeholder_signature();
    let top = 1u128 << 127;
    let digits_of = |pk: GrumpkinAffine, m: Fr| {
        let c = challenge(&RescuePrime, &placeholder.r, &VerifyingKey(pk), m).unwrap();
        GlvDigits::new(&placeholder.s, c)
    };
    let s = split(&placeholder.s).unwrap();
    let sidx = (s.lo & top != 0) as usize + 2 * (s.hi & top != 0) as usize;
    let base = (ladder_start() + table_constants()[sidx]).to_affine();
    // T = -A needs b1 P + b2 phi(P) = -base: P = -base for (1, 0), P = -phi^2(base) for
    // (0, 1), and P = phi(base) for (1, 1) (P + phi(P) = -phi^2(P)); pk = -P.
    let phi = endomorphism;
    for (pk, bits) in [
        (base, (true, false)),
        (phi(&phi(&base)), (false, true)),
        (-phi(&base), (true, true)),
    ] {
        let message = (0u64..)
            .map(Fr::from)
            .find(|m| {
                let d = digits_of(pk, *m);
                (d.c.lo & top != 0, d.c.hi & top != 0) == bits
            })
            .unwrap();
        mock(&adversarial_witness(3, &[(1, pk)], message)).assert_satisfied();
    }
}

#[test]
fn real_round_trip_flat_n3_batch() {
    let s = setting(3);
    let mut w = s.witness(FLAT, &[0, 2], 2);
    w.shape.verification = Verification::Batch;
    let params = setup(K);
    let keys = keygen(&params, w.shape).unwrap();
    let proof = prove(&params, &keys, &w).unwrap();
    verify(&params, &keys, &w.instance, &proof).unwrap();
    let fingerprint = tms_gadgets::proving::stats::vk_fingerprint(&keys.pk);
    println!(
        "record: flat n=3 batch real proof: {} proof {} bytes vk {fingerprint}",
        keys.stats,
        proof.len(),
    );
    // Pinned: the optional pair-MSM gate adds a selector and three equality columns.
    assert_eq!(fingerprint, PINNED_VK_FLAT_3_BATCH);
    assert_eq!(proof.len(), 3712);
    let mut wrong = w.instance;
    wrong.message += Fr::ONE;
    assert_eq!(
        verify(&params, &keys, &wrong, &proof),
        Err(AtmsError::ProofRejected)
    );
}

#[test]
fn real_round_trip_flat_n3_with_pinned_key_and_size() {
    let s = setting(3);
    let w = s.witness(FLAT, &[0, 2], 2);
    let params = setup(K);
    let keys = keygen(&params, w.shape).unwrap();
    let proof = prove(&params, &keys, &w).unwrap();
    verify(&params, &keys, &w.instance, &proof).unwrap();
    let fingerprint = tms_gadgets::proving::stats::vk_fingerprint(&keys.pk);
    println!(
        "record: flat n=3 real proof: {} proof {} bytes vk {fingerprint}",
        keys.stats,
        proof.len()
    );
    // Pinned: a change to the circuit's layout changes the verifying key (insecure test params).
    assert_eq!(fingerprint, PINNED_VK_FLAT_3);
    // The keys carry the cells by component, as the layout alone gives them.
    print!("{}", keys.stats.breakdown());
    assert_eq!(keys.stats, layout_stats(&w.shape).unwrap());
    assert!(keys.stats.components.len() > 1);
    assert_eq!(proof.len(), 3232);
    let mut wrong = w.instance;
    wrong.threshold = 3;
    assert_eq!(
        verify(&params, &keys, &wrong, &proof),
        Err(AtmsError::ProofRejected)
    );
    let mut wrong = w.instance;
    wrong.message += Fr::ONE;
    assert_eq!(
        verify(&params, &keys, &wrong, &proof),
        Err(AtmsError::ProofRejected)
    );
}
