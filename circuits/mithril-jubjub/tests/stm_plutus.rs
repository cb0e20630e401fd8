//! The mithril-stm mode on Cardano: its Plutus validators, generated with the message rule
//! [`MessageRule::Blake2bHalves`] (the 32 signed bytes are `blake2b-256` of the bytes a script
//! builds, and the statement holds their two little-endian halves, which the circuit hashes into
//! mithril-stm's message element: a script has no Poseidon builtin). Small certificate: m = 40,
//! quorum 3, phi_f = 0.7, five parties, three signer slots; insecure test parameters.
//! - `stm_validator_budgets`: the example validator (root a script parameter, message bytes and
//!   proof in the redeemer) under mainnet's cost model (PV 10; PV 11 a projection): the honest
//!   certificate accepted, a changed proof byte, another message and another root refused. Each
//!   evaluation prints `plutus-budget scheme=mithril-stm case=.. cpu=.. mem=.. script_bytes=..
//!   tx_bytes=.. pv=..`.
//! - `stm_plutus_tx_state_thread_and_observer`: the bridge validators in real Conway transactions
//!   (`tms_cardano::plutus::scenario`: every attack refused), printing `plutus-tx` lines.

use mithril_jubjub::{
    native::{Base, SigningKey},
    stm::{
        native::{
            aggregate, hash_to_point, lottery_target, message_halves, message_to_field, sign,
            StmLeaf, StmSignature, StmTree,
        },
        prover::{keygen, min_k, prove, verify, StmKeys},
        StmInstance, StmShape, StmWitness,
    },
    PhiF,
};
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use tms_cardano::{
    backend::{self, Params12},
    plutus::{
        self,
        bridge::{ThreadLayout, ThreadState, ThreadToken},
        scenario::{self, Bridge, Thread},
        uplc::MsmMode,
        Entry, Halo2Verifier, MessageRule,
    },
};
use uplc::ast::{Name, Program};

const M: u64 = 40;
const QUORUM: u64 = 3;
const RULE: MessageRule = MessageRule::Blake2bHalves;

fn blake2b_256(bytes: &[u8]) -> [u8; 32] {
    let h = blake2b_simd::Params::new().hash_length(32).hash(bytes);
    h.as_bytes().try_into().expect("32 bytes")
}

/// Five parties of stakes 100..500 and their registration tree (`offset` moves the stakes, for
/// another registration).
fn registration(offset: u64) -> (Vec<SigningKey>, StmTree) {
    let mut rng = ChaCha20Rng::seed_from_u64(5);
    let sks: Vec<SigningKey> = (0..5).map(|_| SigningKey::random(&mut rng)).collect();
    let phi_f = PhiF::new(7, 10).unwrap();
    let leaves: Vec<StmLeaf> = sks
        .iter()
        .enumerate()
        .map(|(i, sk)| StmLeaf {
            key: sk.verifying_key(),
            target: lottery_target(phi_f, 100 * (i as u64 + 1) + offset, 1500 + 5 * offset)
                .unwrap(),
        })
        .collect();
    (sks, StmTree::new(&leaves).unwrap())
}

/// The shape every certificate here fits: at most `QUORUM` signers hold the quorum's indices.
fn shape() -> StmShape {
    let shape = StmShape {
        signer_slots: QUORUM as usize,
        index_slots: QUORUM as usize,
        m: M,
        k: 12,
        ladder: Default::default(),
    };
    StmShape {
        k: min_k(&shape),
        ..shape
    }
}

/// A proof of a certificate on the 32 bytes `blake2b-256(bytes)` (what a script's rule signs).
fn certify(
    (sks, tree): &(Vec<SigningKey>, StmTree),
    kzg: &Params12,
    keys: &StmKeys,
    bytes: &[u8],
    seed: u64,
) -> Vec<u8> {
    let signed = blake2b_256(bytes);
    let message = message_to_field(&signed);
    let h = hash_to_point(tree.root(), message);
    let signatures: Vec<(usize, StmSignature)> = sks
        .iter()
        .enumerate()
        .map(|(i, sk)| (i, sign(sk, &h)))
        .collect();
    let certificate = aggregate(tree, (M, QUORUM), message, &signatures).unwrap();
    let instance = StmInstance::from_trusted(tree.root(), &signed);
    let w = StmWitness::new(shape(), instance, &certificate).unwrap();
    prove(kzg, keys, &w, ChaCha20Rng::seed_from_u64(seed)).unwrap()
}

#[test]
fn message_rule_is_the_halves_of_the_blake2b_digest() {
    // The script's rule, natively, against this crate's statement.
    for bytes in [&b""[..], b"mithril epoch 7", &[0xff; 100]] {
        let halves = message_halves(&blake2b_256(bytes));
        assert_eq!(RULE.fields(bytes), halves.to_vec());
        let instance = StmInstance::from_trusted(Base::from(9u64), &blake2b_256(bytes));
        assert_eq!(instance.to_public_inputs()[1..], halves);
    }
}

#[test]
fn stm_validator_budgets() {
    let committee = registration(0);
    let root = committee.1.root();
    let shape = shape();
    let kzg = backend::insecure_test_params(shape.k);
    let keys = keygen(&kzg, shape).unwrap();
    let vp = kzg.verifier_params();
    let message = b"mithril epoch 7";
    let proof = certify(&committee, &kzg, &keys, message, 1);
    let trusted = StmInstance::from_trusted(root, &blake2b_256(message));
    verify(&vp, keys.vk(), &trusted, &proof).unwrap();
    let pi = trusted.to_public_inputs();
    let vk = keys.vk();
    println!(
        "mithril-stm validator: signer_slots={} index_slots={} m={M} k={} proof_bytes={}",
        shape.signer_slots,
        shape.index_slots,
        shape.k,
        proof.len()
    );
    plutus::with_big_stack(|| {
        for mode in [MsmMode::Fold, MsmMode::Builtin] {
            let pv = plutus::protocol_version(mode);
            let v = Halo2Verifier {
                message: RULE,
                ..Halo2Verifier::new(&vp, vk, mode)
            };
            let make =
                |r: Base| plutus::validator_with(&v, &[Entry::Param(r), Entry::Message]).unwrap();
            let honest_v = make(root);
            let script = plutus::script_bytes(&honest_v).len();
            let run = |case: &str, program: &Program<Name>, m: &[u8], p: &[u8], stmt: &[Base]| {
                let (b, red) = plutus::run_example(program, &v, m, p, stmt);
                println!(
                    "plutus-budget scheme=mithril-stm case={case} cpu={} mem={} script_bytes={script} tx_bytes={} pv={pv}",
                    b.cpu,
                    b.mem,
                    script + plutus::data_bytes(&red)
                );
                b
            };
            let honest = run("honest", &honest_v, message, &proof, &pi);
            assert!(honest.accepted, "honest certificate refused: {honest:?}");

            let mut bad = proof.clone();
            bad[proof.len() / 3] ^= 1;
            assert!(!run("changed-proof-byte", &honest_v, message, &bad, &pi).accepted);

            // Another message: its hints made for its own statement, so only the proof refuses.
            let other = b"mithril epoch 8";
            let other_pi = StmInstance::from_trusted(root, &blake2b_256(other)).to_public_inputs();
            assert!(!run("other-message", &honest_v, other, &proof, &other_pi).accepted);

            // Another registration root, as a script parameter.
            let other_root = registration(1).1.root();
            assert_ne!(other_root, root);
            let stmt = StmInstance::from_trusted(other_root, &blake2b_256(message));
            let stmt = stmt.to_public_inputs();
            assert!(!run("other-root", &make(other_root), message, &proof, &stmt).accepted);
        }
    });
}

#[test]
fn stm_plutus_tx_state_thread_and_observer() {
    let committee = registration(0);
    let root = committee.1.root();
    let next_root = registration(1).1.root();
    let shape = shape();
    let kzg = backend::insecure_test_params(shape.k);
    let keys = keygen(&kzg, shape).unwrap();
    let vp = kzg.verifier_params();
    let mut seed = 1;
    let mut certify = |bytes: &[u8]| {
        seed += 1;
        certify(&committee, &kzg, &keys, bytes, seed)
    };
    let payload = |tag: &[u8]| blake2b_256(tag).to_vec();
    plutus::with_big_stack(|| {
        for mode in [MsmMode::Fold, MsmMode::Builtin] {
            let b = Bridge {
                scheme: "mithril-stm",
                vp: &vp,
                vk: keys.vk(),
                mode,
                message: RULE,
            };
            let thread = Thread {
                layout: ThreadLayout::digest_message(),
                token: ThreadToken {
                    policy: [0x3d; 28],
                    name: b"stm-registration".to_vec(),
                },
                genesis: ThreadState {
                    statement: vec![root],
                    epoch: 7,
                    payload: payload(b"snapshot 7"),
                },
                next_statement: vec![next_root],
                next_payload: payload(b"snapshot 8"),
            };
            let (cases, bare) = scenario::state_thread_cases(&b, &thread, &mut certify).unwrap();
            let observer =
                scenario::observer_cases(&b, &[Entry::Param(root), Entry::Message], &mut certify)
                    .unwrap();
            scenario::verdict("mithril-stm", &cases, &observer, &bare).unwrap();
        }
    });
}
