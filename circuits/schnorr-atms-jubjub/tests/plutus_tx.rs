//! The bridge validators of the Schnorr ATMS (6 members, 3 sign, t = 3, flat; insecure test
//! parameters) in real Conway transactions, evaluated as a node's phase two does under mainnet's
//! Plutus V3 cost model and limits (PV 10; PV 11 a projection): the state thread (datum
//! `(commitment, threshold, epoch, payload)`, a handover to another committee) and the
//! withdraw-zero observer. The honest
//! transactions are accepted; every attack of `tms_cardano::plutus::scenario` is refused; the
//! script context's work stays within 3% of a transaction's CPU steps over the bare verifier.
//! Each case prints `plutus-tx scheme=schnorr-atms validator=.. case=.. accepted=.. cpu=.. mem=..
//! tx_bytes=.. pv=..`.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use schnorr_atms_jubjub::{
    message_to_field,
    prover::{insecure_test_params, keygen, min_k, prove, DefaultTranscriptHash},
    AtmsShape, AtmsWitness, Base, Certificate, CommitmentMode, Committee, SigningKey,
};
use tms_cardano::plutus::{
    self,
    bridge::{message_field, ThreadLayout, ThreadState, ThreadToken},
    scenario::{self, Bridge, Thread},
    uplc::MsmMode,
    Entry, MessageRule,
};

#[test]
fn schnorr_atms_plutus_tx_state_thread_and_observer() {
    let (n, signers, t) = (6, 3, 3u64);
    let mut rng = ChaCha8Rng::seed_from_u64(6);
    let sks: Vec<SigningKey> = (0..n).map(|_| SigningKey::random(&mut rng)).collect();
    let committee = Committee::new(sks.iter().map(|s| s.verifying_key()).collect()).unwrap();
    let mut shape = AtmsShape {
        n,
        mode: CommitmentMode::Flat,
        k: 10,
    };
    shape.k = min_k(&shape);
    let params = insecure_test_params(shape.k);
    let keys = keygen(&params, shape).unwrap();
    let vp = params.verifier_params();
    let commitment = committee.commitment(CommitmentMode::Flat);
    // The committee the handover installs: the same keys in another order.
    let mut next_keys = committee.keys().to_vec();
    next_keys.swap(0, 1);
    let next_commitment = Committee::new(next_keys)
        .unwrap()
        .commitment(CommitmentMode::Flat);
    assert_eq!(message_to_field(b"rule"), message_field(b"rule"));
    let mut seed = 1;
    let mut certify = |bytes: &[u8]| {
        let m = message_to_field(bytes);
        let sigs: Vec<_> = sks[..signers]
            .iter()
            .map(|sk| (sk.verifying_key(), sk.sign(m)))
            .collect();
        let cert = Certificate::aggregate(&committee, m, &sigs).unwrap();
        let w = AtmsWitness::new(shape, &committee, &cert, t).unwrap();
        seed += 1;
        prove::<DefaultTranscriptHash>(&params, &keys, &w, ChaCha8Rng::seed_from_u64(seed)).unwrap()
    };
    let vk = keys.vk();
    plutus::with_big_stack(|| {
        // PV 10 (mainnet today) and PV 11 (the MSM builtin; a projection).
        for mode in [MsmMode::Fold, MsmMode::Builtin] {
            let b = Bridge {
                scheme: "schnorr-atms",
                vp: &vp,
                vk,
                mode,
                message: MessageRule::Blake2bBls12381,
            };
            let thread = Thread {
                layout: ThreadLayout::commitment_message_threshold(),
                token: ThreadToken {
                    policy: [0x5a; 28],
                    name: b"committee".to_vec(),
                },
                genesis: ThreadState {
                    statement: vec![commitment, Base::from(t)],
                    epoch: 1,
                    payload: vec![],
                },
                next_statement: vec![next_commitment, Base::from(t)],
                next_payload: vec![],
            };
            let (cases, bare) = scenario::state_thread_cases(&b, &thread, &mut certify).unwrap();
            let observer = scenario::observer_cases(
                &b,
                &[
                    Entry::Param(commitment),
                    Entry::Message,
                    Entry::Threshold(t),
                ],
                &mut certify,
            )
            .unwrap();
            scenario::verdict("schnorr-atms", &cases, &observer, &bare).unwrap();
        }
    });
}
