//! The fixtures both agreement tests read and write (`wasm/fixtures/` for BN254,
//! `wasm/fixtures/cardano/` for the Cardano module): a statement a client trusts and pins, the
//! key, the proof, and the verifier parameters shared by a backend's fixtures.
// Each test file includes this module and uses a different part of it.
#![allow(dead_code)]

use std::{fs, path::PathBuf};

use serde::{Deserialize, Serialize};

/// What `statement.json` holds: what a client trusts and pins, for the Node test and the page.
#[derive(Serialize, Deserialize, Clone)]
#[serde(rename_all = "camelCase")]
pub struct FixtureStatement {
    /// `cardano` for the Cardano module's fixtures; absent for BN254's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub backend: Option<String>,
    pub scheme: String,
    pub commitment: String,
    /// The message bytes, `0x`-hex.
    pub message: String,
    pub threshold: Option<u64>,
    pub transcript: String,
    pub vk_fingerprint: String,
    pub params_fingerprint: String,
    /// The circuit's k (the library verifier's full parameters are `kzg_params(k)`).
    pub k: u32,
}

/// One fixture: its statement, key, proof and its backend's verifier parameters.
pub struct Fixture {
    pub statement: FixtureStatement,
    pub vk: Vec<u8>,
    pub params: Vec<u8>,
    pub proof: Vec<u8>,
}

/// `wasm/fixtures/<backend>/<scheme>` (`backend` empty for BN254; `scheme` empty for the
/// backend's folder, where `params.bin` is).
pub fn dir(backend: &str, scheme: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(backend)
        .join(scheme)
}

/// Bytes from `0x`-hex.
pub fn unhex(s: &str) -> Vec<u8> {
    let s = s.trim_start_matches("0x");
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("fixture hex"))
        .collect()
}

/// Reads the fixture of `scheme` on `backend`.
pub fn load(backend: &str, scheme: &str) -> Fixture {
    let d = dir(backend, scheme);
    let read = |name: &str| fs::read(d.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    Fixture {
        statement: serde_json::from_slice(&read("statement.json")).expect("statement.json"),
        vk: read("vk.bin"),
        params: fs::read(dir(backend, "").join("params.bin")).expect("params.bin"),
        proof: read("proof.bin"),
    }
}

/// Writes the fixture of `scheme` on `backend` (not the shared `params.bin`).
pub fn write(backend: &str, scheme: &str, statement: &FixtureStatement, vk: &[u8], proof: &[u8]) {
    let d = dir(backend, scheme);
    fs::create_dir_all(&d).unwrap();
    fs::write(d.join("vk.bin"), vk).unwrap();
    fs::write(d.join("proof.bin"), proof).unwrap();
    let json = serde_json::to_string_pretty(statement).unwrap();
    fs::write(d.join("statement.json"), format!("{json}\n")).unwrap();
}

/// The median of 10 timings of `f`, in milliseconds.
pub fn median_ms(mut f: impl FnMut()) -> f64 {
    let mut times: Vec<f64> = (0..10)
        .map(|_| {
            let start = std::time::Instant::now();
            f();
            start.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    times.sort_by(f64::total_cmp);
    (times[4] + times[5]) / 2.0
}
