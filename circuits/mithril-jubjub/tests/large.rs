//! Long one-shot measurements, ignored by default.
//!
//! ```text
//! TMS_MITHRIL_SIZES=256/32 cargo test -p mithril-jubjub --test large -- --ignored --nocapture measure_quorums
//! cargo test -p mithril-jubjub --test large -- --ignored --nocapture mainnet_layout
//! ```
//! `measure_quorums`: `parties/quorum` pairs (comma-separated), m = 10,000, phi_f = 0.2, depth 13,
//! uniform stakes in `[1, 1000]`, every party signing; keygen, prove, verify (insecure test
//! parameters) and the honest Plutus budget in both protocol modes. `mainnet_layout`: the cost
//! model's rows for the mainnet shape of the BN254 measurement (52 signer slots, 1,944 index
//! slots, depth 13), without keygen.

use std::time::{Duration, Instant};

use mithril_jubjub::{
    aggregate,
    native::{message_to_field, SigningKey},
    prover::{insecure_test_params, keygen, layout_stats, min_k, prove, verify},
    MithrilInstance, MithrilShape, MithrilWitness, Parameters, PhiF, Registration, Signer,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;
use tms_cardano::plutus::{self, uplc::MsmMode, Entry};

const DEPTH: usize = 13;

/// User plus system CPU time of this process so far (Linux's `/proc/self/stat`).
fn cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(Duration::from_millis(ticks * 10))
}

fn sizes() -> Vec<(usize, usize)> {
    std::env::var("TMS_MITHRIL_SIZES")
        .unwrap_or_else(|_| "256/32".into())
        .split(',')
        .map(|pair| {
            let (p, q) = pair.split_once('/').expect("parties/quorum");
            (p.trim().parse().unwrap(), q.trim().parse().unwrap())
        })
        .collect()
}

#[test]
#[ignore = "long: minutes per size"]
fn measure_quorums() {
    for (parties, quorum) in sizes() {
        let params = Parameters::new(10_000, quorum as u64, PhiF::new(1, 5).unwrap()).unwrap();
        let mut rng = ChaCha20Rng::seed_from_u64(7);
        let sks: Vec<SigningKey> = (0..parties).map(|_| SigningKey::random(&mut rng)).collect();
        let entries: Vec<_> = sks
            .iter()
            .map(|sk| (sk.verifying_key(), rng.gen_range(1..=1000)))
            .collect();
        let registration = Registration::with_depth(params, &entries, DEPTH).unwrap();
        let bytes = format!("mithril quorum {quorum}");
        let msg = message_to_field(bytes.as_bytes());
        let start = Instant::now();
        let singles: Vec<_> = sks
            .iter()
            .filter_map(|sk| Signer::new(*sk, &registration).unwrap().sign(msg).unwrap())
            .collect();
        let sign_s = start.elapsed().as_secs_f64();
        let certificate = aggregate(&registration, msg, &singles).unwrap();
        let instance = MithrilInstance::from_trusted(&registration, bytes.as_bytes());
        let mut shape = MithrilShape {
            signer_slots: certificate.signers.len(),
            index_slots: quorum,
            depth: DEPTH,
            k: 10,
        };
        shape.k = min_k(&shape);
        let stats = layout_stats(&shape);
        let w = MithrilWitness::new(shape, instance, &certificate).unwrap();
        let kzg = insecure_test_params(shape.k);
        let start = Instant::now();
        let keys = keygen(&kzg, shape).unwrap();
        let keygen_s = start.elapsed().as_secs_f64();
        let (start, cpu) = (Instant::now(), cpu_time());
        let proof = prove(&kzg, &keys, &w, ChaCha20Rng::seed_from_u64(1)).unwrap();
        let prove_s = start.elapsed().as_secs_f64();
        let prove_cpu = cpu
            .zip(cpu_time())
            .map_or(f64::NAN, |(a, b)| (b - a).as_secs_f64());
        let vp = kzg.verifier_params();
        let start = Instant::now();
        verify(&vp, &shape, keys.vk(), &instance, &proof).unwrap();
        let verify_ms = start.elapsed().as_secs_f64() * 1e3;
        println!(
            "record: mithril-jubjub parties={parties} quorum={quorum} signer_slots={} k={} rows={} sign_all_s={sign_s:.1} keygen_s={keygen_s:.1} prove_s={prove_s:.1} prove_cpu_s={prove_cpu:.1} verify_ms={verify_ms:.1} proof_bytes={}",
            shape.signer_slots,
            shape.k,
            stats.rows,
            proof.len()
        );
        let pi = instance.to_public_inputs();
        let vk = keys.vk();
        plutus::with_big_stack(|| {
            for mode in [MsmMode::Fold, MsmMode::Builtin] {
                let pv = plutus::protocol_version(mode);
                let v = plutus::validator(&vp, vk, &[Entry::Param(pi[0]), Entry::Message], mode)
                    .unwrap();
                let script = plutus::script_bytes(&v).len();
                let (_, hints) = plutus::hints(&vp, vk, &proof, &[&pi]);
                let red = plutus::redeemer(bytes.as_bytes(), &proof, &hints);
                let tx = script + plutus::data_bytes(&red);
                let b = plutus::evaluate(&v, vec![plutus::data_arg(plutus::context(red))], pv);
                assert!(b.accepted);
                println!(
                    "plutus-budget scheme=mithril case=quorum-{quorum} cpu={} mem={} script_bytes={script} tx_bytes={tx} pv={pv}",
                    b.cpu, b.mem
                );
            }
        });
    }
}

#[test]
#[ignore = "lays out the mainnet shape"]
fn mainnet_layout() {
    let probe = MithrilShape {
        signer_slots: 52,
        index_slots: Parameters::MAINNET.k() as usize,
        depth: DEPTH,
        k: 18,
    };
    let shape = MithrilShape {
        k: min_k(&probe),
        ..probe
    };
    let stats = layout_stats(&shape);
    println!(
        "mainnet layout: k = {}, rows = {}, advice columns = {}, proof = {} B (cost model)",
        shape.k, stats.rows, stats.advice_columns, stats.size
    );
}
