//! The committed eligibility vectors (`vectors/eligibility.json`): this test recomputes every
//! target and every win/lose decision with the crate and checks they match the committed ones;
//! `vectors/eligibility_reference.py` checks the same file against an independent
//! `fractions`/`decimal` evaluation. Regenerate the file (deterministic) with
//! `cargo test -p mithril-snark --test eligibility_vectors -- --ignored regenerate`.

use halo2_base::utils::fe_to_biguint;
use mithril_snark::{eligibility::target, stm::wins, PhiF};
use num_bigint::BigUint;
use num_traits::CheckedSub;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;
use serde::{Deserialize, Serialize};
use tms_gadgets::{curve::fr_modulus, Fr};

const PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/vectors/eligibility.json");

#[derive(Serialize, Deserialize)]
struct Case {
    stake: u64,
    total: u64,
    phi_num: u64,
    phi_den: u64,
    target: String,
    width_log2: Option<i64>,
    ev: Vec<String>,
    win: Vec<bool>,
}

#[derive(Serialize, Deserialize)]
struct Vectors {
    description: String,
    modulus: String,
    cases: Vec<Case>,
}

fn decide(ev: &BigUint, t: &BigUint) -> bool {
    // Through the crate's own comparison on field elements.
    let ev: Fr = halo2_base::utils::biguint_to_fe(ev);
    let t: Fr = halo2_base::utils::biguint_to_fe(t);
    wins(ev, t)
}

fn random_below(rng: &mut ChaCha20Rng, bound: &BigUint) -> BigUint {
    let bytes: Vec<u8> = (0..48).map(|_| rng.gen()).collect();
    BigUint::from_bytes_le(&bytes) % bound
}

fn log_uniform(rng: &mut ChaCha20Rng, max: u64) -> u64 {
    let bits = rng.gen_range(0..=(64 - max.leading_zeros()));
    let v = if bits == 0 {
        1
    } else {
        rng.gen_range(0..=u64::MAX >> (64 - bits))
    };
    v.clamp(1, max)
}

fn evs(rng: &mut ChaCha20Rng, t: &BigUint, r: &BigUint) -> Vec<BigUint> {
    let mut out = Vec::new();
    let push = |out: &mut Vec<BigUint>, v: Option<BigUint>| {
        if let Some(v) = v.filter(|v| v < r) {
            out.push(v);
        }
    };
    for d in 1..=2u32 {
        push(&mut out, t.checked_sub(&BigUint::from(d)));
    }
    for d in 0..=2u32 {
        push(&mut out, Some(t + d));
    }
    push(&mut out, Some(BigUint::from(0u32)));
    for bits in [40u64, 40, 128, 128] {
        let off = random_below(rng, &(BigUint::from(1u32) << bits));
        if rng.gen() {
            push(&mut out, Some(t + off));
        } else {
            push(&mut out, t.checked_sub(&off));
        }
    }
    let window = (t * 2u32).max(BigUint::from(2u32));
    out.push(random_below(rng, &window.min(r.clone())));
    while out.len() < 20 {
        out.push(random_below(rng, r));
    }
    out
}

#[test]
#[ignore = "rewrites vectors/eligibility.json: cargo test -p mithril-snark --test eligibility_vectors regenerate -- --ignored"]
fn regenerate() {
    let mut rng = ChaCha20Rng::seed_from_u64(0x006d_6974_6872_696c);
    let r = fr_modulus();
    let supply: u64 = 45_000_000_000_000_000; // 45e9 ada in lovelace
    let mut specs: Vec<(u64, u64, u64, u64)> = Vec::new();
    let phis = [
        (1u64, 5u64),
        (7, 10),
        (1, 2),
        (1, 1000),
        (999, 1000),
        (12_345_678_901, 98_765_432_101),
        (1, 1 << 63),
        ((1 << 63) - 1, 1 << 63),
    ];
    for &(n, d) in &phis {
        for (s, t) in [
            (1, 1),
            (1, 2),
            (1, u64::MAX),
            (u64::MAX - 1, u64::MAX),
            (1, supply),
            (supply / 3, supply),
            (0, 100),
        ] {
            specs.push((s, t, n, d));
        }
    }
    while specs.len() < 520 {
        let (n, d) = match rng.gen_range(0..10) {
            0..=3 => (1, 5),
            4..=6 => (7, 10),
            7..=8 => {
                let d = rng.gen_range(2..=1_000_000u64);
                (rng.gen_range(1..d), d)
            }
            _ => {
                let d = rng.gen_range(2..=u64::MAX);
                (rng.gen_range(1..d), d)
            }
        };
        let total = log_uniform(&mut rng, supply);
        let stake = log_uniform(&mut rng, total);
        specs.push((stake, total, n, d));
    }
    let mut cases = Vec::new();
    for (stake, total, n, d) in specs {
        let phi = PhiF::new(n, d).unwrap();
        let t = target(phi, stake, total).unwrap();
        let ev = evs(&mut rng, &t.value, &r);
        let win = ev.iter().map(|e| decide(e, &t.value)).collect();
        cases.push(Case {
            stake,
            total,
            phi_num: phi.num(),
            phi_den: phi.den(),
            target: t.value.to_string(),
            width_log2: t.width_log2,
            ev: ev.iter().map(|e| e.to_string()).collect(),
            win,
        });
    }
    let v = Vectors {
        description: "Mithril eligibility: target T = ceil(phi(stake/total) * r), phi(w) = 1 - (1 - phi_num/phi_den)^w, r the BN254 scalar field modulus; win iff ev < T. width_log2: log2 of the certified interval width of phi(w) r at the deciding precision. Generated by circuits/mithril/tests/eligibility_vectors.rs (regenerate, ignored test).".into(),
        modulus: r.to_string(),
        cases,
    };
    std::fs::write(PATH, serde_json::to_string(&v).unwrap() + "\n").unwrap();
}

#[test]
fn committed_decisions_match() {
    let text = std::fs::read_to_string(PATH).unwrap();
    let v: Vectors = serde_json::from_str(&text).unwrap();
    assert_eq!(v.modulus, fr_modulus().to_string());
    let mut pairs = 0;
    for c in &v.cases {
        let phi = PhiF::new(c.phi_num, c.phi_den).unwrap();
        let t = target(phi, c.stake, c.total).unwrap();
        assert_eq!(
            t.value.to_string(),
            c.target,
            "target of {:?}",
            (c.stake, c.total)
        );
        assert_eq!(c.ev.len(), c.win.len());
        for (e, w) in c.ev.iter().zip(&c.win) {
            let e: BigUint = e.parse().unwrap();
            assert_eq!(decide(&e, &t.value), *w);
            assert_eq!(
                fe_to_biguint(&halo2_base::utils::biguint_to_fe::<Fr>(&e)),
                e
            );
            pairs += 1;
        }
    }
    assert!(pairs >= 10_000, "{pairs} pairs");
}
