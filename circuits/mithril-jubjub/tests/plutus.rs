//! A real round trip and the generated Plutus validator on a small Mithril certificate (m = 40,
//! k = 3, phi_f = 0.7, five parties; insecure test parameters): keygen, prove, verify with this
//! crate's prover and with `tms-cardano`'s backend, then the validator (the trusted registration
//! digest a script parameter, message bytes and proof in the redeemer) evaluated with `uplc`
//! 1.1.24 under the pinned Plutus V3 cost model in both protocol-version modes (pv 10: MSM as a
//! fold, mainnet today; pv 11: the CIP-0133 MSM builtin). The honest certificate is accepted; a
//! changed proof byte, another message and another registration are each refused. Each
//! evaluation prints the line CI greps:
//! `plutus-budget scheme=mithril case=<case> cpu=.. mem=.. script_bytes=.. tx_bytes=.. pv=<10|11>`.

use std::time::Instant;

use mithril_jubjub::{
    aggregate,
    native::{message_to_field, Base, SigningKey},
    prover::{
        insecure_test_params, keygen, layout_stats, min_k, prove, verify, verify_digest,
        vk_fingerprint,
    },
    MithrilCircuit, MithrilInstance, MithrilShape, MithrilWitness, Parameters, PhiF, Registration,
    Signer,
};
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use tms_cardano::{
    backend,
    plutus::{self, uplc::MsmMode, Entry},
};
use uplc::ast::{Name, Program};

const MESSAGE: &[u8] = b"mithril epoch 7";

#[test]
fn mithril_round_trip_and_validator_budgets() {
    let params = Parameters::new(40, 3, PhiF::new(7, 10).unwrap()).unwrap();
    let mut rng = ChaCha20Rng::seed_from_u64(11);
    let sks: Vec<SigningKey> = (0..5).map(|_| SigningKey::random(&mut rng)).collect();
    let entries: Vec<_> = sks
        .iter()
        .enumerate()
        .map(|(i, sk)| (sk.verifying_key(), 100 * (i as u64 + 1)))
        .collect();
    let registration = Registration::new(params, &entries).unwrap();
    let msg = message_to_field(MESSAGE);
    let singles: Vec<_> = sks
        .iter()
        .filter_map(|sk| Signer::new(*sk, &registration).unwrap().sign(msg).unwrap())
        .collect();
    let certificate = aggregate(&registration, msg, &singles).unwrap();
    // The statement the verifier builds from what it trusts.
    let trusted = MithrilInstance::from_trusted(&registration, MESSAGE);
    let mut shape = MithrilShape {
        signer_slots: certificate.signers.len(),
        index_slots: params.k() as usize,
        depth: registration.depth(),
        k: 10,
    };
    shape.k = min_k(&shape);
    let w = MithrilWitness::new(shape, trusted, &certificate).unwrap();
    let stats = layout_stats(&shape);

    let kzg = insecure_test_params(shape.k);
    let start = Instant::now();
    let keys = keygen(&kzg, shape).unwrap();
    let keygen_s = start.elapsed().as_secs_f64();
    let start = Instant::now();
    let proof = prove(&kzg, &keys, &w, ChaCha20Rng::seed_from_u64(1)).unwrap();
    let prove_s = start.elapsed().as_secs_f64();
    let vp = kzg.verifier_params();
    verify(&vp, &shape, keys.vk(), &trusted, &proof).unwrap();
    let digest = trusted.commitment.digest();
    verify_digest(&vp, keys.vk(), digest, msg, &proof).unwrap();
    assert!(verify_digest(&vp, keys.vk(), digest, msg + Base::from(1), &proof).is_err());
    // The same key and proof through tms-cardano's backend (same seed, same transcript).
    let pi = trusted.to_public_inputs();
    assert!(backend::verify(&vp, keys.vk(), &proof, &[&pi]));
    let (_, backend_vk) = backend::keygen(
        &backend::insecure_test_params(shape.k),
        &MithrilCircuit::for_keygen(shape),
    )
    .unwrap();
    assert_eq!(vk_fingerprint(&backend_vk), vk_fingerprint(keys.vk()));
    // The key through the backend's bytes (the constraint system does not depend on the shape).
    let read = backend::vk_from_bytes::<MithrilCircuit>(
        &backend::vk_to_bytes(keys.vk()),
        Default::default(),
    )
    .unwrap();
    assert_eq!(vk_fingerprint(&read), vk_fingerprint(keys.vk()));
    assert!(backend::verify(&vp, &read, &proof, &[&pi]));
    // Pinned: a change to the layout changes the key (and the figures in the README).
    assert_eq!(
        vk_fingerprint(keys.vk()),
        "c04a724578316d44540f25a6e648a7344a9a6fc028f3a9d303e525459bf77240"
    );
    assert_eq!((shape.k, proof.len()), (11, 3584));
    let cs = keys.vk().cs();
    println!(
        "mithril-jubjub round trip: signer_slots={} index_slots={} depth={} k={} rows={} advice_columns={} fixed_columns={} permutation_columns={} lookups={} max_degree={} proof_bytes={} keygen_s={keygen_s:.1} prove_s={prove_s:.1}",
        shape.signer_slots,
        shape.index_slots,
        shape.depth,
        shape.k,
        stats.rows,
        cs.num_advice_columns(),
        cs.num_fixed_columns(),
        cs.permutation().get_columns().len(),
        cs.lookups().len(),
        cs.degree(),
        proof.len(),
    );

    let vk = keys.vk();
    plutus::with_big_stack(|| {
        for mode in [MsmMode::Fold, MsmMode::Builtin] {
            let pv = plutus::protocol_version(mode);
            let make = |d: Base| {
                plutus::validator(&vp, vk, &[Entry::Param(d), Entry::Message], mode).unwrap()
            };
            let honest_v = make(digest);
            let script = plutus::script_bytes(&honest_v).len();
            let verifier = plutus::Halo2Verifier::new(&vp, vk, mode);
            let run = |case: &str, program: &Program<Name>, m: &[u8], p: &[u8], stmt: &[Base]| {
                let (b, red) = plutus::run_example(program, &verifier, m, p, stmt);
                println!(
                    "plutus-budget scheme=mithril case={case} cpu={} mem={} script_bytes={script} tx_bytes={} pv={pv}",
                    b.cpu,
                    b.mem,
                    script + plutus::data_bytes(&red)
                );
                b
            };
            let honest = run("honest", &honest_v, MESSAGE, &proof, &pi);
            assert!(honest.accepted, "honest certificate refused: {honest:?}");

            let mut bad = proof.clone();
            bad[proof.len() / 3] ^= 1;
            assert!(!run("changed-proof-byte", &honest_v, MESSAGE, &bad, &pi).accepted);

            let other_msg = b"mithril epoch 8";
            let other_pi = MithrilInstance::public_inputs(digest, message_to_field(other_msg));
            assert!(!run("other-message", &honest_v, other_msg, &proof, &other_pi).accepted);

            // Another registration: the same parties in a deeper tree (another digest).
            let deeper = Registration::with_depth(params, &entries, shape.depth + 1).unwrap();
            let other_digest = deeper.commitment().digest();
            assert_ne!(other_digest, digest);
            let stmt = MithrilInstance::public_inputs(other_digest, msg);
            assert!(
                !run(
                    "other-registration",
                    &make(other_digest),
                    MESSAGE,
                    &proof,
                    &stmt
                )
                .accepted
            );
        }
    });
}
