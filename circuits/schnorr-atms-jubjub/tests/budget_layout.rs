//! The layout's commitments and the Plutus budget of the 6/3 flat ATMS's generated verifier
//! (tms-cardano's validator, evaluated offline by `uplc` at protocol versions 10 and 11). Each
//! evaluation prints one `plutus-budget` line; the honest certificate must be accepted and a
//! changed proof byte refused. About a minute on 2 cores:
//! `cargo test -p schnorr-atms-jubjub --test budget_layout -- --ignored --nocapture`.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use schnorr_atms_jubjub::{
    message_to_field,
    prover::{layout_stats, min_k},
    AtmsCircuit, AtmsShape, AtmsWitness, Certificate, CommitmentMode, Committee, SigningKey,
};
use tms_cardano::{
    backend,
    plutus::{self, uplc::MsmMode, Entry},
};

const MESSAGE: &[u8] = b"sidechain epoch 42";

/// Rows of the flat 6- and 7-member layouts at k = 13 (the difference is one slot), from
/// midnight-proofs' cost model: the figure the per-slot work is measured by.
#[test]
fn rows_per_slot() {
    let rows = |n| {
        let shape = AtmsShape {
            n,
            mode: CommitmentMode::Flat,
            k: 13,
        };
        layout_stats(&shape).rows
    };
    let (six, seven) = (rows(6), rows(7));
    println!(
        "layout: flat n = 6: {six} rows; n = 7: {seven} rows; one slot: {} rows",
        seven - six
    );
    assert!(seven > six);
}

#[test]
#[ignore = "keygen, a k = 13 proof and four Plutus evaluations: about a minute on 2 cores"]
fn plutus_budget_6_of_3_flat() {
    let (n, signers, t) = (6usize, 3usize, 3u64);
    let mut rng = ChaCha8Rng::seed_from_u64(n as u64);
    let sks: Vec<SigningKey> = (0..n).map(|_| SigningKey::random(&mut rng)).collect();
    let committee = Committee::new(sks.iter().map(|s| s.verifying_key()).collect()).unwrap();
    let m = message_to_field(MESSAGE);
    let sigs: Vec<_> = sks[..signers]
        .iter()
        .map(|sk| (sk.verifying_key(), sk.sign(m)))
        .collect();
    let cert = Certificate::aggregate(&committee, m, &sigs).unwrap();
    let mut shape = AtmsShape {
        n,
        mode: CommitmentMode::Flat,
        k: 10,
    };
    shape.k = min_k(&shape);
    let w = AtmsWitness::new(shape, &committee, &cert, t).unwrap();
    let pi = w.instance.to_public_inputs();

    let params = backend::kzg_params(shape.k);
    let vp = backend::verifier_params(&params);
    let (pk, vk) = backend::keygen(&params, &AtmsCircuit::for_keygen(shape)).unwrap();
    let cs = vk.cs();
    println!(
        "layout: k = {}, advice = {}, fixed (selectors included) = {}, permutation columns = {}, \
         lookups = {}, max degree = {}",
        shape.k,
        cs.num_advice_columns(),
        cs.num_fixed_columns(),
        cs.permutation().get_columns().len(),
        cs.lookups().len(),
        cs.degree(),
    );
    let kinds: Vec<String> = cs
        .permutation()
        .get_columns()
        .iter()
        .map(|c| format!("{:?}", c.column_type()))
        .collect();
    println!("layout: permutation columns: {}", kinds.join(", "));
    let proof = backend::prove(&params, &pk, AtmsCircuit::new(w), &[&pi], 1).unwrap();
    assert!(backend::verify(&vp, &vk, &proof, &[&pi]));

    plutus::with_big_stack(|| {
        for mode in [MsmMode::Fold, MsmMode::Builtin] {
            let pv = plutus::protocol_version(mode);
            let v = plutus::validator(
                &vp,
                &vk,
                &[Entry::Param(pi[0]), Entry::Message, Entry::Param(pi[2])],
                mode,
            );
            let script = plutus::script_bytes(&v).len();
            let run = |case: &str, p: &[u8]| {
                let (_, hints) = plutus::hints(&vp, &vk, p, &[&pi]);
                let red = plutus::redeemer(MESSAGE, p, &hints);
                let red_bytes = plutus::data_bytes(&red);
                let b = plutus::evaluate(&v, vec![plutus::data_arg(plutus::context(red))], pv);
                println!(
                    "plutus-budget scheme=schnorr-atms-jubjub/flat-6-t3/pv{pv} case={case} cpu={} \
                     mem={} script_bytes={script} tx_bytes={}",
                    b.cpu,
                    b.mem,
                    script + red_bytes
                );
                b
            };
            assert!(run("honest", &proof).accepted);
            let mut bad = proof.clone();
            bad[proof.len() / 3] ^= 1;
            assert!(!run("changed-proof-byte", &bad).accepted);
        }
    });
}
