//! The bridge validators of SNARK-Mithril (m = 40, k = 3, phi_f = 0.7, five parties, one signer
//! slot; insecure test parameters) in real Conway transactions, evaluated as a node's phase two
//! does under mainnet's Plutus V3 cost model and limits (PV 10; PV 11 a projection): the state
//! thread (datum `(registration digest, epoch, payload)`, the payload a 32-byte application
//! digest the certificate also signs; a handover to another registration) and the withdraw-zero
//! observer.
//! The honest transactions are accepted; every attack of `tms_cardano::plutus::scenario` is
//! refused; the script context's work stays within 3% of a transaction's CPU steps over the bare
//! verifier. Each case prints `plutus-tx scheme=mithril validator=.. case=.. accepted=.. cpu=..
//! mem=.. tx_bytes=.. pv=..`.

use mithril_jubjub::{
    aggregate,
    native::{message_to_field, SigningKey},
    prover::{insecure_test_params, keygen, min_k, prove},
    MithrilInstance, MithrilShape, MithrilWitness, Parameters, PhiF, Registration, Signer,
};
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use tms_cardano::plutus::{
    self,
    bridge::{message_field, ThreadLayout, ThreadState, ThreadToken},
    scenario::{self, Bridge, Thread},
    uplc::MsmMode,
    Entry, MessageRule,
};

#[test]
fn mithril_plutus_tx_state_thread_and_observer() {
    let params = Parameters::new(40, 3, PhiF::new(7, 10).unwrap()).unwrap();
    let mut rng = ChaCha20Rng::seed_from_u64(11);
    let sks: Vec<SigningKey> = (0..5).map(|_| SigningKey::random(&mut rng)).collect();
    let entries: Vec<_> = sks
        .iter()
        .enumerate()
        .map(|(i, sk)| (sk.verifying_key(), 100 * (i as u64 + 1)))
        .collect();
    let registration = Registration::new(params, &entries).unwrap();
    // The README's Mithril key: one signer slot (a certificate from one party that won k
    // lotteries; with this stake one always has).
    let mut shape = MithrilShape {
        signer_slots: 1,
        index_slots: params.k() as usize,
        depth: registration.depth(),
        k: 10,
    };
    shape.k = min_k(&shape);
    let kzg = insecure_test_params(shape.k);
    let keys = keygen(&kzg, shape).unwrap();
    let vp = kzg.verifier_params();
    let digest = registration.commitment().digest();
    let next_digest = Registration::with_depth(params, &entries, shape.depth + 1)
        .unwrap()
        .commitment()
        .digest();
    assert_eq!(message_to_field(b"rule"), message_field(b"rule"));
    let mut seed = 1;
    let mut certify = |bytes: &[u8]| {
        let msg = message_to_field(bytes);
        let single = sks
            .iter()
            .filter_map(|sk| Signer::new(*sk, &registration).unwrap().sign(msg).unwrap())
            .find(|s| s.indices.len() >= params.k() as usize)
            .expect("a party that won k lotteries");
        let certificate = aggregate(&registration, msg, &[single]).unwrap();
        let trusted = MithrilInstance::from_trusted(&registration, bytes);
        let w = MithrilWitness::new(shape, trusted, &certificate).unwrap();
        seed += 1;
        prove(&kzg, &keys, &w, ChaCha20Rng::seed_from_u64(seed)).unwrap()
    };
    let vk = keys.vk();
    let payload = |tag: &[u8]| {
        blake2b_simd::Params::new()
            .hash_length(32)
            .hash(tag)
            .as_bytes()
            .to_vec()
    };
    plutus::with_big_stack(|| {
        // PV 10 (mainnet today) and PV 11 (the MSM builtin; a projection).
        for mode in [MsmMode::Fold, MsmMode::Builtin] {
            let b = Bridge {
                scheme: "mithril",
                vp: &vp,
                vk,
                mode,
                message: MessageRule::Blake2bBls12381,
            };
            let thread = Thread {
                layout: ThreadLayout::digest_message(),
                token: ThreadToken {
                    policy: [0x3c; 28],
                    name: b"registration".to_vec(),
                },
                genesis: ThreadState {
                    statement: vec![digest],
                    epoch: 7,
                    payload: payload(b"snapshot 7"),
                },
                next_statement: vec![next_digest],
                next_payload: payload(b"snapshot 8"),
            };
            let (cases, bare) = scenario::state_thread_cases(&b, &thread, &mut certify).unwrap();
            let observer =
                scenario::observer_cases(&b, &[Entry::Param(digest), Entry::Message], &mut certify)
                    .unwrap();
            scenario::verdict("mithril", &cases, &observer, &bare).unwrap();
        }
    });
}
