//! BLS ATMS proving at d-of-2d and the ATMS note's 1602-of-2001.
//!
//! `cargo bench -p bls-atms --bench atms` runs 16-of-32. Larger sizes, one proof each (no
//! criterion sampling, which would take hours on 2 cores):
//! `TMS_BLS_SIZES=128/64,512/256,2048/1024,2001/1602 TMS_BLS_ONESHOT=1 cargo bench -p bls-atms --bench atms`
//! (sizes are `n/t`; the non-signer capacity is `n - t`).
//!
//! For each size the run lays out, side by side, the chosen strategy (our Poseidon), the ATMS
//! note's strategy (one path per non-signer, halo2-base's stock `hash_fix_len_array` per node)
//! and one path per non-signer with our Poseidon, and prints a `record:` line per variant with
//! k, columns, advice and lookup cells. The chosen strategy is then keygen'd, proved and
//! verified (`prove_cpu_s` is this process's CPU time, all threads); the two baselines are
//! proved too when they have at most `TMS_BLS_PROVE_BASELINES_UP_TO` advice cells (default
//! 6,000,000). Peak memory is the process's high-water mark so far (`/usr/bin/time -v` gives the
//! same figure for a one-size run). `TMS_BLS_LAYOUT_ONLY=1` prints the cell counts only;
//! `TMS_BLS_K` fixes k instead of the ten-column choice; `TMS_BLS_CUTS=0,1,2` also lays out those
//! cut levels (our Poseidon), the measurements the cost model of `Strategy::cheapest` is fit to.

use std::time::Instant;

use bls_atms::{
    keygen, measure, prove, setup, verify, AtmsShape, AtmsWitness, Committee, NodeHash, Strategy,
};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use halo2_base::halo2_proofs::halo2curves::{bn256::G2, group::Curve};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tms_gadgets::{
    message::message_to_field,
    signature::bls::{hash_message, SecretKey, Signature},
};
use tms_gadgets::{
    proving::stats::{peak_rss_mib, process_cpu_seconds},
    testing::sizes_from_env,
};

/// k for about ten advice columns (and at least 2^18 rows: the pairing alone is 4.6 M cells),
/// or `TMS_BLS_K`.
fn pick_k(advice_cells: usize) -> u32 {
    std::env::var("TMS_BLS_K")
        .ok()
        .and_then(|k| k.parse().ok())
        .unwrap_or_else(|| ((advice_cells / 10).max(1 << 18) as f64).log2().ceil() as u32)
}

struct Case {
    committee: Committee,
    sigma: Signature,
    signers: Vec<usize>,
}

const MESSAGE: &[u8] = b"bench epoch";

/// A committee of `n` where members `n - t ..` sign (the non-signers are the first `n - t`).
fn case(n: usize, t: usize) -> Case {
    let mut rng = ChaCha8Rng::seed_from_u64(n as u64);
    let sks: Vec<SecretKey> = (0..n).map(|_| SecretKey::random(&mut rng)).collect();
    // Proofs of possession are checked at registration; here the keys are made in this process.
    let committee =
        Committee::from_keys_unchecked(sks.iter().map(SecretKey::public_key).collect()).unwrap();
    let hm = hash_message(message_to_field(MESSAGE));
    let secret: halo2_base::halo2_proofs::halo2curves::bn256::Fr =
        sks[n - t..].iter().map(|s| s.0).sum();
    Case {
        committee,
        sigma: Signature((G2::from(hm) * secret).to_affine()),
        signers: (n - t..n).collect(),
    }
}

fn witness(c: &Case, shape: AtmsShape, t: usize) -> AtmsWitness {
    AtmsWitness::from_aggregate(shape, &c.committee, MESSAGE, &c.signers, c.sigma, t as u64)
        .unwrap()
}

struct Proved {
    keygen_s: f64,
    prove_cpu: f64,
    prove_wall: f64,
    verify_ms: f64,
    proof_bytes: usize,
}

fn prove_once(shape: AtmsShape, w: &AtmsWitness) -> (Proved, bls_atms::AtmsKeys) {
    let params = setup(shape.k);
    let start = Instant::now();
    let keys = keygen(&params, shape).unwrap();
    let keygen_s = start.elapsed().as_secs_f64();
    let (cpu0, wall0) = (process_cpu_seconds(), Instant::now());
    let proof = prove(&params, &keys, w).unwrap();
    let (prove_cpu, prove_wall) = (process_cpu_seconds() - cpu0, wall0.elapsed().as_secs_f64());
    let start = Instant::now();
    verify(&params, &keys, &w.instance, &proof).unwrap();
    let verify_ms = start.elapsed().as_secs_f64() * 1e3;
    (
        Proved {
            keygen_s,
            prove_cpu,
            prove_wall,
            verify_ms,
            proof_bytes: proof.len(),
        },
        keys,
    )
}

fn bench(c: &mut Criterion) {
    let oneshot = std::env::var("TMS_BLS_ONESHOT").is_ok();
    let layout_only = std::env::var("TMS_BLS_LAYOUT_ONLY").is_ok();
    let baseline_limit: usize = std::env::var("TMS_BLS_PROVE_BASELINES_UP_TO")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(6_000_000);
    let mut group = c.benchmark_group("bls_atms_prove");
    group.sample_size(10);
    for (n, t) in sizes_from_env("TMS_BLS_SIZES", "32/16") {
        let cs = case(n, t);
        let capacity = n - t;
        let mut variants = vec![
            (
                "chosen".to_string(),
                Strategy::cheapest(n, capacity),
                NodeHash::Poseidon,
            ),
            ("note".to_string(), Strategy::Paths, NodeHash::StockPoseidon),
            (
                "paths-ours".to_string(),
                Strategy::Paths,
                NodeHash::Poseidon,
            ),
        ];
        let depth = AtmsShape::auto(n, capacity, 22).depth();
        for cut in std::env::var("TMS_BLS_CUTS").unwrap_or_default().split(',') {
            if let Ok(cut) = cut.trim().parse::<usize>() {
                let strategy = Strategy::from_cut(cut.min(depth), depth);
                variants.push((format!("cut-{cut}"), strategy, NodeHash::Poseidon));
            }
        }
        let mut chosen = None;
        for (label, strategy, hash) in variants {
            let label = label.as_str();
            let extra = label.starts_with("cut-");
            let probe = AtmsShape {
                n,
                capacity,
                strategy,
                hash,
                k: 22,
            };
            let stats = measure(probe).unwrap();
            let shape = AtmsShape {
                k: pick_k(stats.advice_cells),
                ..probe
            };
            let prove_it = !layout_only
                && !extra
                && (label == "chosen" || stats.advice_cells <= baseline_limit);
            let mut line = format!(
                "record: bls-atms {t}-of-{n} {label} strategy={strategy} hash={hash:?} k={} advice_cells={} lookup_cells={}",
                shape.k, stats.advice_cells, stats.lookup_cells
            );
            if prove_it {
                let w = witness(&cs, shape, t);
                let (p, keys) = prove_once(shape, &w);
                line += &format!(
                    " advice_cols={} lookup_cols={} fixed_cols={} keygen_s={:.1} prove_cpu_s={:.1} prove_wall_s={:.1} verify_ms={:.1} proof_bytes={} peak_mib={:.0}",
                    keys.stats.advice_columns,
                    keys.stats.lookup_advice_columns,
                    keys.stats.fixed_columns,
                    p.keygen_s,
                    p.prove_cpu,
                    p.prove_wall,
                    p.verify_ms,
                    p.proof_bytes,
                    peak_rss_mib()
                );
                if label == "chosen" {
                    chosen = Some((shape, w, keys));
                }
            } else {
                line += " (layout only)";
            }
            println!("{line}");
        }
        if oneshot || layout_only {
            continue;
        }
        let (shape, w, keys) = chosen.expect("the chosen variant is proved");
        let params = setup(shape.k);
        group.bench_function(BenchmarkId::new("t_of_n", format!("{t}_of_{n}")), |b| {
            b.iter(|| prove(&params, &keys, &w).unwrap())
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
