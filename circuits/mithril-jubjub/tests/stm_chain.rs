//! Chains of mithril-stm certificates (`mithril_jubjub::stm::chain`): the link's bytes, the step
//! circuit's layout, and a chain of two epochs proved and verified for real, with one change at
//! a time refused (a certificate signed on another link, a chain that does not continue where
//! the last ended, another statement, another step key, a changed proof).

use std::sync::OnceLock;

use ff::{Field, PrimeField};
use midnight_proofs::{dev::cost_model::circuit_model, plonk::ConstraintSystem};
use mithril_jubjub::{
    native::{Base, SigningKey},
    stm::{
        chain::{self, link, link_message, ChainProof, ChainStatement, StepLayout},
        native::{
            aggregate, hash_to_point, lottery_target, message_halves, message_to_field, sign,
            StmLeaf, StmTree,
        },
        prover::{self, StmKeys},
        StmInstance, StmShape, StmWitness,
    },
    PhiF,
};
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use tms_cardano::backend::Params12;

const M: u64 = 20;
const QUORUM: u64 = 3;
const PARTIES: usize = 4;
const APPLICATION: [u8; 32] = [7; 32];

/// A registration of `PARTIES` parties (its signing keys and tree), one per epoch.
struct Registration {
    keys: Vec<SigningKey>,
    tree: StmTree,
}

fn registration(seed: u64) -> Registration {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let keys: Vec<SigningKey> = (0..PARTIES).map(|_| SigningKey::random(&mut rng)).collect();
    let phi_f = PhiF::new(9, 10).unwrap();
    let leaves: Vec<StmLeaf> = keys
        .iter()
        .map(|sk| StmLeaf {
            key: sk.verifying_key(),
            target: lottery_target(phi_f, 100, 100 * PARTIES as u64).unwrap(),
        })
        .collect();
    let tree = StmTree::new(&leaves).unwrap();
    Registration { keys, tree }
}

fn registrations() -> &'static [Registration] {
    static R: OnceLock<Vec<Registration>> = OnceLock::new();
    R.get_or_init(|| (0..3).map(registration).collect())
}

fn shape() -> StmShape {
    let shape = StmShape {
        signer_slots: PARTIES,
        index_slots: QUORUM as usize,
        m: M,
        k: 12,
        ladder: Default::default(),
    }
    .for_chain();
    StmShape {
        k: prover::min_k(&shape),
        ..shape
    }
}

/// The certificate `signers` make on `message`.
fn certificate(signers: &Registration, message: &[u8; 32]) -> StmWitness {
    let element = message_to_field(message);
    let h = hash_to_point(signers.tree.root(), element);
    let signatures: Vec<_> = signers
        .keys
        .iter()
        .enumerate()
        .map(|(i, sk)| (i, sign(sk, &h)))
        .collect();
    let certificate = aggregate(&signers.tree, (M, QUORUM), element, &signatures).unwrap();
    let instance = StmInstance::from_trusted(signers.tree.root(), message);
    StmWitness::new(shape(), instance, &certificate).unwrap()
}

struct Certificates {
    params: Params12,
    keys: StmKeys,
}

fn certificates() -> &'static Certificates {
    static C: OnceLock<Certificates> = OnceLock::new();
    C.get_or_init(|| {
        let params = mithril_jubjub::prover::insecure_test_params(shape().k);
        let keys = prover::keygen(&params, shape()).unwrap();
        Certificates { params, keys }
    })
}

/// The link's 32 bytes are the canonical little-endian bytes of the link element: their halves
/// recombine to it, and every input changes them.
#[test]
fn link_message_is_the_canonical_bytes_of_the_link() {
    let root = Base::from(11);
    let bytes = link_message(root, &APPLICATION, 3);
    let [low, high] = message_halves(&bytes);
    let two_128 = Base::from_u128(1 << 64).square();
    assert_eq!(low + two_128 * high, link(root, &APPLICATION, 3));
    assert_eq!(Base::from_repr(bytes).unwrap(), link(root, &APPLICATION, 3));
    assert_ne!(bytes, link_message(root, &APPLICATION, 4));
    assert_ne!(bytes, link_message(Base::from(12), &APPLICATION, 3));
    assert_ne!(bytes, link_message(root, &[8; 32], 3));
}

/// The step circuit's rows and columns (midnight-proofs' cost model, layout only).
#[test]
fn step_layout() {
    let layout = StepLayout::new(20, certificates().keys.vk());
    let model = circuit_model::<Base, 48, 32>(&layout.keygen_circuit());
    println!(
        "chain step: k = {}, rows = {}, advice = {}, fixed = {}, lookups = {}, proof = {} B",
        model.k, model.rows, model.advice_columns, model.fixed_columns, model.lookups, model.size
    );
    assert!(model.k <= 21, "the step needs k = {}", model.k);
}

/// A certificate key of the standalone layout (its ladder reaches two rows down) is refused with
/// the reason, before anything is laid out: the in-circuit verifier would panic on it. The
/// chain layout's key queries rotations 0 and 1 only, and proves the same certificate.
#[test]
fn step_keygen_refuses_a_standalone_certificate_key() {
    let chain = certificates();
    let standalone = StmShape {
        ladder: Default::default(),
        ..shape()
    };
    let keys = prover::keygen(&chain.params, standalone).unwrap();
    let rotations = |cs: &ConstraintSystem<Base>| {
        let mut r: Vec<i32> = cs.advice_queries().iter().map(|(_, r)| r.0).collect();
        r.sort();
        r.dedup();
        r
    };
    assert_eq!(rotations(keys.vk().cs()), [0, 1, 2]);
    assert_eq!(rotations(chain.keys.vk().cs()), [0, 1]);
    let small = mithril_jubjub::prover::insecure_test_params(10);
    let err = chain::step_keygen(&small, keys.vk()).unwrap_err();
    assert!(err.to_string().contains("rotation 2"), "{err}");
}

/// Two epochs proved and verified for real, and each one-change case refused: by the verifier
/// (the statement, the proof, the accumulator), by the prover's native checks, and, with those
/// checks skipped (`extend_unchecked`: a cheating prover), by the verifier of the step proof the
/// circuit makes of a certificate on another epoch's link or of a chain that does not continue.
/// Minutes (four step proofs at k = 19; about 10 minutes here, peak 7.4 GiB).
#[test]
fn chain_of_two_epochs() {
    let [r0, r1, r2] = [0, 1, 2].map(|i| &registrations()[i]);
    let Certificates { params, keys } = certificates();
    let certificate_vk = keys.vk();
    let layout = StepLayout::new(20, certificate_vk);
    let model = circuit_model::<Base, 48, 32>(&layout.keygen_circuit());
    let step_params = mithril_jubjub::prover::insecure_test_params(model.k);
    let start = std::time::Instant::now();
    let (layout, step_pk) = chain::step_keygen(&step_params, certificate_vk).unwrap();
    println!(
        "step keygen at k = {}: {:.1} s",
        model.k,
        start.elapsed().as_secs_f64()
    );
    let step_vk = step_pk.get_vk();
    let vp = step_params.verifier_params();
    let mut rng = ChaCha20Rng::seed_from_u64(9);
    // One epoch more on `previous`: the certificate `proof` of `signers`, handing over to `next`;
    // with `checked` false, as a cheating prover would (no native checks).
    let step = |previous: Option<&ChainProof>,
                (signers, proof): (&Registration, &[u8]),
                (next, application): (&Registration, &[u8; 32]),
                checked: bool,
                rng: &mut ChaCha20Rng| {
        let keys = (&layout, &step_pk);
        let (root, next) = (signers.tree.root(), next.tree.root());
        if checked {
            chain::extend(
                &step_params,
                keys,
                previous,
                root,
                proof,
                next,
                application,
                rng,
            )
        } else {
            chain::extend_unchecked(
                &step_params,
                keys,
                previous,
                root,
                proof,
                next,
                application,
                rng,
            )
        }
    };

    // Epoch 0: r0 signs the link to r1.
    let m0 = link_message(r1.tree.root(), &APPLICATION, 0);
    let c0 = chain::prove_certificate(params, keys, &certificate(r0, &m0), &mut rng).unwrap();
    let start = std::time::Instant::now();
    let p1 = step(None, (r0, &c0), (r1, &APPLICATION), true, &mut rng).unwrap();
    let s1 = ChainStatement {
        genesis: r0.tree.root(),
        last_root: r1.tree.root(),
        application: APPLICATION,
        epochs: 1,
    };
    println!(
        "genesis step: {:.1} s, {} B",
        start.elapsed().as_secs_f64(),
        p1.proof.len()
    );
    assert_eq!(p1.statement, s1);
    chain::verify(&vp, &layout, step_vk, &s1, &p1.accumulator, &p1.proof).unwrap();

    // Epoch 1: r1 signs the link to r2.
    let application = [9; 32];
    let m1 = link_message(r2.tree.root(), &application, 1);
    let c1 = chain::prove_certificate(params, keys, &certificate(r1, &m1), &mut rng).unwrap();
    let start = std::time::Instant::now();
    let p2 = step(Some(&p1), (r1, &c1), (r2, &application), true, &mut rng).unwrap();
    let s2 = ChainStatement {
        genesis: r0.tree.root(),
        last_root: r2.tree.root(),
        application,
        epochs: 2,
    };
    println!("second step: {:.1} s", start.elapsed().as_secs_f64());
    let start = std::time::Instant::now();
    chain::verify(&vp, &layout, step_vk, &s2, &p2.accumulator, &p2.proof).unwrap();
    println!("verify: {:.1} ms", start.elapsed().as_secs_f64() * 1e3);

    // One change at a time: the statement a verifier builds.
    for (what, statement) in [
        (
            "another genesis",
            ChainStatement {
                genesis: r1.tree.root(),
                ..s2
            },
        ),
        (
            "another last root",
            ChainStatement {
                last_root: r1.tree.root(),
                ..s2
            },
        ),
        (
            "another application",
            ChainStatement {
                application: [1; 32],
                ..s2
            },
        ),
        ("another epoch count", ChainStatement { epochs: 3, ..s2 }),
    ] {
        assert!(
            chain::verify(
                &vp,
                &layout,
                step_vk,
                &statement,
                &p2.accumulator,
                &p2.proof
            )
            .is_err(),
            "{what} accepted"
        );
    }
    // A changed proof word; another accumulator (the previous one: valid, but not this proof's).
    let mut changed = p2.proof.clone();
    changed[p2.proof.len() / 2] ^= 1;
    assert!(chain::verify(&vp, &layout, step_vk, &s2, &p2.accumulator, &changed).is_err());
    assert!(chain::verify(&vp, &layout, step_vk, &s2, &p1.accumulator, &p2.proof).is_err());
    // The accumulator's bytes round-trip.
    let bytes = chain::accumulator_to_bytes(&p2.accumulator);
    assert_eq!(bytes.len(), layout.accumulator_bytes());
    let back = layout.accumulator_from_bytes(&bytes).unwrap();
    chain::verify(&vp, &layout, step_vk, &s2, &back, &p2.proof).unwrap();

    // The prover's native checks refuse before proving: a certificate on the link of another
    // epoch, and one that does not continue the chain.
    let wrong_epoch = link_message(r2.tree.root(), &application, 0);
    let c_wrong =
        chain::prove_certificate(params, keys, &certificate(r1, &wrong_epoch), &mut rng).unwrap();
    let refused = step(
        Some(&p1),
        (r1, &c_wrong),
        (r2, &application),
        true,
        &mut rng,
    );
    assert!(
        refused.is_err(),
        "a certificate on epoch 0's link accepted at epoch 1"
    );
    let m_r2 = link_message(r2.tree.root(), &application, 1);
    let c_r2 = chain::prove_certificate(params, keys, &certificate(r2, &m_r2), &mut rng).unwrap();
    let refused = step(Some(&p1), (r2, &c_r2), (r2, &application), true, &mut rng);
    assert!(refused.is_err(), "a chain that does not continue accepted");

    // The same two, proved by a prover that skips the native checks: the circuit's step proofs
    // do not verify for the statements they claim.
    let cheat = step(
        Some(&p1),
        (r1, &c_wrong),
        (r2, &application),
        false,
        &mut rng,
    )
    .unwrap();
    assert!(
        chain::verify(
            &vp,
            &layout,
            step_vk,
            &cheat.statement,
            &cheat.accumulator,
            &cheat.proof
        )
        .is_err(),
        "a step over a certificate on epoch 0's link verified at epoch 1"
    );
    let cheat = step(Some(&p1), (r2, &c_r2), (r2, &application), false, &mut rng).unwrap();
    assert_eq!(cheat.statement.genesis, r0.tree.root());
    assert!(
        chain::verify(
            &vp,
            &layout,
            step_vk,
            &cheat.statement,
            &cheat.accumulator,
            &cheat.proof
        )
        .is_err(),
        "a step over a certificate of a registration the chain does not end at verified"
    );
}
