//! The npm package's verifier (`tms-wasm`) and the tool give the same verdicts over the same
//! fixtures (`wasm/fixtures/`): `tms verify` and the package's certificate verifier, `tms chain
//! verify` and its chain verifier, on the honest statement and proof and on one change each (a
//! proof byte, the proof's length, the message, the commitment or registration, the threshold or
//! epoch count, the transcript). The cases and the tool's verdicts are
//! `wasm/fixtures/verdicts.json` (certificates) and `wasm/fixtures/chain/verdicts.json` (the
//! chain), which the Node test (`wasm/test/node.test.mjs`) runs through the WebAssembly build: so
//! the tool, the package's Rust and the `.wasm` agree case by case.
//!
//! `tms` reads full parameters: the test's own insecure ones at each fixture's k. The chain's
//! are k = 22 (512 MiB, made once and cached in `params/`: minutes), so the tool's side of the
//! chain runs in an ignored test,
//! `cargo test --test wasm_agreement -- --ignored the_tool_and_the_package_agree_on_the_chain`;
//! the test CI runs checks the package against the tool's verdicts recorded there.
//! The Cardano backend's fixtures (`wasm/fixtures/cardano/`, made by `cargo test -p tms-wasm
//! --test cardano -- --ignored make_cardano_fixtures`) go through `tms verify --backend cardano`
//! and the package's Cardano verifier (the module `tms_verifier_cardano.wasm`), their verdicts
//! into `wasm/fixtures/cardano/verdicts.json`.
//! The aggregation fixture (`wasm/fixtures/aggregate/`: two Schnorr ATMS certificates in one
//! `tms aggregate prove` proof, made by `wasm/fixtures/make-aggregate.sh`) goes through `tms
//! aggregate verify` and the package's aggregation verifier, its verdicts into
//! `wasm/fixtures/aggregate/verdicts.json`.
//! `TMS_BLESS=1` rewrites the verdict files (and fails if the tool and the package disagree).

use std::{
    fs,
    path::{Path, PathBuf},
    process::Command,
};

use serde_json::{json, Value};
use tms_gadgets::proving::params::{kzg_params, params_dir};
use tms_wasm::{
    aggregate::{CertificateStatement, PinnedAggregationVerifier},
    cardano::{CardanoStatement, CardanoVerifier},
    chain::{PinnedChainVerifier, TrustedChain},
    verifier::{parse_transcript, PinnedVerifier, Statement},
};

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("wasm/fixtures")
}

fn hex(bytes: &[u8]) -> String {
    let digits: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    format!("0x{digits}")
}

fn unhex(s: &str) -> Vec<u8> {
    let s = s.trim_start_matches("0x");
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("fixture hex"))
        .collect()
}

/// A change to the proof file: flip one byte, or cut or pad (zeros) it to a length.
#[derive(Clone, Copy)]
enum ProofEdit {
    None,
    Flip(usize),
    Length(usize),
}

impl ProofEdit {
    fn apply(self, proof: &[u8]) -> Vec<u8> {
        let mut p = proof.to_vec();
        match self {
            ProofEdit::None => {}
            ProofEdit::Flip(at) => p[at] ^= 1,
            ProofEdit::Length(n) => p.resize(n, 0),
        }
        p
    }

    fn json(self) -> Value {
        match self {
            ProofEdit::None => Value::Null,
            ProofEdit::Flip(at) => json!({ "flip": at }),
            ProofEdit::Length(n) => json!({ "length": n }),
        }
    }
}

/// The proof edits every fixture's cases end with, after the statement's: the proof one byte
/// shorter, one byte longer, and one byte changed at each of `flips`.
fn proof_edits(proof_len: usize, flips: &[usize]) -> Vec<(String, ProofEdit)> {
    let mut edits = vec![
        (
            "proof cut by one byte".to_string(),
            ProofEdit::Length(proof_len - 1),
        ),
        (
            "proof one byte longer".to_string(),
            ProofEdit::Length(proof_len + 1),
        ),
    ];
    for &at in flips {
        edits.push((format!("proof byte {at} changed"), ProofEdit::Flip(at)));
    }
    edits
}

/// One case: a fixture's statement with one field changed (or none) and a proof edit.
struct Case {
    fixture: &'static str,
    name: String,
    statement: Value,
    edit: ProofEdit,
}

/// The honest case and one change each for the fixture `name`.
fn cases(name: &'static str, statement: &Value, proof_len: usize) -> Vec<Case> {
    let case = |what: &str, change: &dyn Fn(&mut Value), edit| {
        let mut s = statement.clone();
        change(&mut s);
        Case {
            fixture: name,
            name: what.into(),
            statement: s,
            edit,
        }
    };
    let flip_last_digit = |v: &mut Value, key: &str| {
        let mut s = v[key].as_str().unwrap().to_string();
        let last = if s.ends_with('0') { "1" } else { "0" };
        s.replace_range(s.len() - 1.., last);
        v[key] = json!(s);
    };
    let mut all = vec![
        case("honest", &|_| {}, ProofEdit::None),
        case(
            "another message",
            &|s| {
                let mut m = unhex(s["message"].as_str().unwrap());
                m.push(b'!');
                s["message"] = json!(hex(&m));
            },
            ProofEdit::None,
        ),
    ];
    for (what, edit) in proof_edits(proof_len, &[0, 31, proof_len / 2, proof_len - 1]) {
        all.push(case(&what, &|_| {}, edit));
    }
    if name == "chain" {
        // The proof file starts with the 12 accumulator words: a byte of the halo2 proof too.
        all.push(case(
            "proof byte 384 changed",
            &|_| {},
            ProofEdit::Flip(384),
        ));
        all.push(case(
            "another genesis",
            &|s| flip_last_digit(s, "genesis"),
            ProofEdit::None,
        ));
        all.push(case(
            "another last registration",
            &|s| flip_last_digit(s, "lastRegistration"),
            ProofEdit::None,
        ));
        for (what, delta) in [("epochs + 1", 1), ("epochs - 1", -1)] {
            all.push(case(
                what,
                &|s| s["epochs"] = json!(s["epochs"].as_i64().unwrap() + delta),
                ProofEdit::None,
            ));
        }
    } else {
        all.push(case(
            "another commitment",
            &|s| flip_last_digit(s, "commitment"),
            ProofEdit::None,
        ));
        all.push(case(
            "evm transcript",
            &|s| s["transcript"] = json!("evm"),
            ProofEdit::None,
        ));
        for (what, delta) in [("threshold + 1", 1), ("threshold - 1", -1)] {
            all.push(case(
                what,
                &|s| s["threshold"] = json!(s["threshold"].as_i64().unwrap() + delta),
                ProofEdit::None,
            ));
        }
    }
    all
}

/// The aggregation fixture's cases (two Schnorr ATMS certificates in one proof): the honest
/// one and one change each (the order, a message, a commitment, a threshold, a proof byte, the
/// proof's length, one statement fewer).
fn aggregate_cases(statement: &Value, proof_len: usize) -> Vec<Case> {
    let case = |what: &str, change: &dyn Fn(&mut Vec<Value>), edit| {
        let mut s = statement.clone();
        let mut certificates = s["certificates"].as_array().unwrap().clone();
        change(&mut certificates);
        s["certificates"] = json!(certificates);
        Case {
            fixture: "aggregate",
            name: what.into(),
            statement: s,
            edit,
        }
    };
    let mut all = vec![
        case("honest", &|_| {}, ProofEdit::None),
        case("the other order", &|c| c.swap(0, 1), ProofEdit::None),
        case(
            "another message",
            &|c| {
                let mut m = unhex(c[0]["message"].as_str().unwrap());
                m.push(b'!');
                c[0]["message"] = json!(hex(&m));
            },
            ProofEdit::None,
        ),
        case(
            "another commitment",
            &|c| {
                let mut s = c[1]["commitment"].as_str().unwrap().to_string();
                let last = if s.ends_with('0') { "1" } else { "0" };
                s.replace_range(s.len() - 1.., last);
                c[1]["commitment"] = json!(s);
            },
            ProofEdit::None,
        ),
        case(
            "threshold + 1",
            &|c| c[1]["threshold"] = json!(4),
            ProofEdit::None,
        ),
        case(
            "threshold - 1",
            &|c| c[1]["threshold"] = json!(2),
            ProofEdit::None,
        ),
        case("one statement fewer", &|c| drop(c.pop()), ProofEdit::None),
    ];
    let flips = [0, 31, 384, proof_len / 2, proof_len - 1];
    for (what, edit) in proof_edits(proof_len, &flips) {
        all.push(case(&what, &|_| {}, edit));
    }
    all
}

/// The certificates of an aggregation case, as the package takes them.
fn aggregated(statement: &Value) -> Vec<CertificateStatement> {
    statement["certificates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| CertificateStatement {
            commitment: c["commitment"].as_str().unwrap().into(),
            message: unhex(c["message"].as_str().unwrap()),
            threshold: c["threshold"].as_u64(),
        })
        .collect()
}

struct Fixture {
    statement: Value,
    vk: PathBuf,
    proof: Vec<u8>,
}

fn load(name: &str) -> Fixture {
    let d = fixtures().join(name);
    let statement = serde_json::from_slice(&fs::read(d.join("statement.json")).unwrap()).unwrap();
    Fixture {
        statement,
        vk: d.join("vk.bin"),
        proof: fs::read(d.join("proof.bin")).unwrap(),
    }
}

/// Whether a fixture's statement is of the Cardano backend.
fn is_cardano(statement: &Value) -> bool {
    statement["backend"] == "cardano"
}

/// The full test parameters at `k` of the fixture's backend, as a file `tms` reads.
fn params_file(statement: &Value) -> PathBuf {
    let k = statement["k"].as_u64().unwrap() as u32;
    let path = if is_cardano(statement) {
        let path =
            tms_cardano::backend::params_dir().join(format!("kzg_bls12_381_{k}.insecure-test.srs"));
        if !path.exists() {
            drop(tms_cardano::backend::kzg_params(k));
        }
        path
    } else {
        let path = params_dir().join(format!("kzg_bn254_{k}.insecure-test.srs"));
        if !path.exists() {
            drop(kzg_params(k));
        }
        path
    };
    assert!(path.exists(), "{}", path.display());
    path
}

/// The tool's verdict on `case` (its exit status), run in `dir`.
fn tool_verifies(dir: &Path, fixture: &Fixture, case: &Case) -> bool {
    let s = &case.statement;
    let proof = dir.join("proof.bin");
    fs::write(&proof, case.edit.apply(&fixture.proof)).unwrap();
    let mut args: Vec<String> = if case.fixture == "aggregate" {
        let mut args: Vec<String> = ["aggregate", "verify", "--scheme", "schnorr-atms"]
            .map(String::from)
            .into();
        args.push("--statement".into());
        for c in s["certificates"].as_array().unwrap() {
            args.push(format!(
                "{},{},{}",
                c["commitment"].as_str().unwrap(),
                c["message"].as_str().unwrap(),
                c["threshold"]
            ));
        }
        args
    } else if case.fixture == "chain" {
        vec![
            "chain".into(),
            "verify".into(),
            "--genesis-digest".into(),
            s["genesis"].as_str().unwrap().into(),
            "--last-digest".into(),
            s["lastRegistration"].as_str().unwrap().into(),
            "--epochs".into(),
            s["epochs"].to_string(),
        ]
    } else {
        vec![
            "verify".into(),
            "--scheme".into(),
            s["scheme"].as_str().unwrap().into(),
            "--commitment".into(),
            s["commitment"].as_str().unwrap().into(),
            "--threshold".into(),
            s["threshold"].to_string(),
            "--transcript".into(),
            s["transcript"].as_str().unwrap().into(),
        ]
    };
    if is_cardano(s) {
        args.extend(["--backend".into(), "cardano".into()]);
    }
    if case.fixture != "aggregate" {
        args.extend(["--message".into(), s["message"].as_str().unwrap().into()]);
    }
    args.extend([
        "--params".into(),
        params_file(s).to_str().unwrap().into(),
        "--vk".into(),
        fixture.vk.to_str().unwrap().into(),
        "--vk-fingerprint".into(),
        s["vkFingerprint"].as_str().unwrap().into(),
        "--proof".into(),
        proof.to_str().unwrap().into(),
    ]);
    let out = Command::new(env!("CARGO_BIN_EXE_tms"))
        .current_dir(dir)
        .args(&args)
        .output()
        .expect("run tms");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    // A refusal is an error line, never a crash.
    assert!(
        out.status.code().is_some_and(|c| c <= 2) && !stderr.contains("panicked"),
        "{} {}: {stderr}",
        case.fixture,
        case.name
    );
    if out.status.success() {
        assert!(stdout.starts_with("verified"), "{stdout}");
    }
    out.status.success()
}

/// The package's verdict on `case`: its verdict line or its one-line refusal.
/// The package's chain verdict on `case` with a verifier already made for the fixture's pins.
fn chain_verifies(
    verifier: &PinnedChainVerifier,
    case: &Case,
    proof: &[u8],
) -> Result<String, String> {
    let s = &case.statement;
    let text = |key: &str| s[key].as_str().unwrap().to_string();
    let trusted = TrustedChain {
        genesis: text("genesis"),
        last_registration: text("lastRegistration"),
        message: unhex(&text("message")),
        epochs: s["epochs"].as_u64().unwrap(),
    };
    let proof = case.edit.apply(proof);
    std::panic::catch_unwind(|| verifier.verify(&trusted, &proof))
        .unwrap_or_else(|_| panic!("chain {}: the package panicked", case.name))
}

fn package_verifies(fixture: &Fixture, case: &Case) -> Result<String, String> {
    let s = &case.statement;
    let text = |key: &str| s[key].as_str().unwrap().to_string();
    let vk = fs::read(&fixture.vk).unwrap();
    let params_name = if is_cardano(s) {
        "cardano/params.bin"
    } else {
        "params.bin"
    };
    let params = fs::read(fixtures().join(params_name)).unwrap();
    let proof = case.edit.apply(&fixture.proof);
    let message = s.get("message").map(|m| unhex(m.as_str().unwrap()));
    std::panic::catch_unwind(|| {
        if case.fixture == "aggregate" {
            let verifier = PinnedAggregationVerifier::new(
                &text("scheme"),
                &vk,
                &text("vkFingerprint"),
                &params,
                &text("paramsFingerprint"),
            )?;
            verifier.verify(&aggregated(s), &proof)
        } else if is_cardano(s) {
            let verifier = CardanoVerifier::new(
                &text("scheme"),
                &vk,
                &text("vkFingerprint"),
                &params,
                &text("paramsFingerprint"),
            )?;
            let statement = CardanoStatement {
                commitment: text("commitment"),
                message: message.clone().unwrap(),
                threshold: s["threshold"].as_u64(),
                transcript: text("transcript"),
            };
            verifier.verify(&statement, &proof)
        } else if case.fixture == "chain" {
            let verifier = PinnedChainVerifier::new(
                &vk,
                &text("vkFingerprint"),
                &params,
                &text("paramsFingerprint"),
            )?;
            let trusted = TrustedChain {
                genesis: text("genesis"),
                last_registration: text("lastRegistration"),
                message: message.clone().unwrap(),
                epochs: s["epochs"].as_u64().unwrap(),
            };
            verifier.verify(&trusted, &proof)
        } else {
            let verifier = PinnedVerifier::new(
                &text("scheme"),
                &vk,
                &text("vkFingerprint"),
                &params,
                &text("paramsFingerprint"),
            )?;
            let statement = Statement {
                commitment: text("commitment"),
                message: message.clone().unwrap(),
                threshold: s["threshold"].as_u64(),
                transcript: parse_transcript(&text("transcript"))?,
            };
            verifier.verify(&statement, &proof)
        }
    })
    .unwrap_or_else(|_| panic!("{} {}: the package panicked", case.fixture, case.name))
}

/// Runs every case of the fixture `name` through the tool and the package, asserts that they
/// agree (and that only the honest case verifies) and returns the cases with their verdicts.
fn agreed_rows(dir: &Path, name: &'static str) -> Vec<Value> {
    let fixture = load(name);
    let mut rows = Vec::new();
    let all = if name == "aggregate" {
        aggregate_cases(&fixture.statement, fixture.proof.len())
    } else {
        cases(name, &fixture.statement, fixture.proof.len())
    };
    for case in all {
        let tool = tool_verifies(dir, &fixture, &case);
        let package = package_verifies(&fixture, &case);
        assert_eq!(
            tool,
            package.is_ok(),
            "{name} {}: tms says {tool}, the package {package:?}",
            case.name
        );
        assert_eq!(tool, case.name == "honest", "{name} {}", case.name);
        if let Err(e) = &package {
            assert!(!e.contains('\n'), "{name} {}: {e}", case.name);
        }
        rows.push(row(&case, tool));
    }
    rows
}

fn row(case: &Case, verified: bool) -> Value {
    json!({
        "fixture": case.fixture,
        "case": case.name,
        "statement": case.statement,
        "proofEdit": case.edit.json(),
        "verified": verified,
    })
}

/// Writes `rows` to `path` under `TMS_BLESS`, else asserts that the file holds them.
fn blessed(path: &Path, rows: &[Value]) {
    let written = format!("{}\n", serde_json::to_string_pretty(rows).unwrap());
    if std::env::var_os("TMS_BLESS").is_some() {
        fs::write(path, &written).unwrap();
    }
    assert_eq!(
        fs::read_to_string(path).unwrap_or_default(),
        written,
        "{} is stale: TMS_BLESS=1 cargo test --test wasm_agreement (the chain's: with -- \
         --ignored the_tool_and_the_package_agree_on_the_chain)",
        path.display()
    );
}

fn workdir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// The Cardano backend's fixtures through `tms verify --backend cardano` and the package's
/// Cardano verifier: the same verdict on every case, recorded for the Node test.
#[test]
fn the_tool_and_the_package_give_the_same_cardano_verdicts() {
    let dir = workdir("wasm-agreement-cardano");
    let rows: Vec<Value> = ["cardano/schnorr-atms", "cardano/mithril"]
        .into_iter()
        .flat_map(|name| agreed_rows(&dir, name))
        .collect();
    blessed(&fixtures().join("cardano/verdicts.json"), &rows);
}

/// The aggregation fixture (`wasm/fixtures/make-aggregate.sh`: two Schnorr ATMS certificates in
/// one proof at k = 20) through `tms aggregate verify` and the package's aggregation verifier:
/// the same verdict on every case, recorded for the Node test.
#[test]
fn the_tool_and_the_package_give_the_same_aggregation_verdicts() {
    let dir = workdir("wasm-agreement-aggregate");
    let rows = agreed_rows(&dir, "aggregate");
    blessed(&fixtures().join("aggregate/verdicts.json"), &rows);
}

fn chain_verdicts() -> PathBuf {
    fixtures().join("chain/verdicts.json")
}

#[test]
fn the_tool_and_the_package_give_the_same_verdicts() {
    let dir = workdir("wasm-agreement");
    // Every certificate fixture is committed (the BLS ATMS one is made by `cargo test -p
    // tms-wasm --test agreement -- --ignored make_bls_fixture`: a pairing circuit, minutes).
    let present: Vec<&'static str> = vec!["schnorr-atms", "bls-atms", "mithril"];
    for name in &present {
        assert!(
            fixtures().join(name).join("statement.json").exists(),
            "wasm/fixtures/{name} is missing"
        );
    }
    println!("wasm-agreement fixtures={present:?}");
    let rows: Vec<Value> = present
        .into_iter()
        .flat_map(|name| agreed_rows(&dir, name))
        .collect();
    blessed(&fixtures().join("verdicts.json"), &rows);
}

/// The chain fixture through `tms chain verify` (k = 22 parameters: made once, minutes, 512 MiB
/// cached in `params/`) and the package; `TMS_BLESS=1` records the verdicts that
/// [`the_package_gives_the_tools_chain_verdicts`] and the Node test check.
#[test]
#[ignore = "tms chain verify reads the k = 22 parameters (made once: minutes, 512 MiB)"]
fn the_tool_and_the_package_agree_on_the_chain() {
    let dir = workdir("wasm-agreement-chain");
    let rows = agreed_rows(&dir, "chain");
    blessed(&chain_verdicts(), &rows);
}

/// The package's chain verifier on every chain case gives the verdict `tms chain verify` gave
/// (recorded by the ignored test above), and the recorded cases are this test's cases.
#[test]
fn the_package_gives_the_tools_chain_verdicts() {
    if !fixtures().join("chain/statement.json").exists() {
        // Made by wasm/fixtures/make-chain.sh (a k = 22 aggregation: minutes, 10-14 GiB).
        println!("SKIP: no wasm/fixtures/chain yet");
        return;
    }
    let fixture = load("chain");
    let recorded: Vec<Value> = serde_json::from_slice(
        &fs::read(chain_verdicts()).expect("wasm/fixtures/chain/verdicts.json"),
    )
    .unwrap();
    let cases = cases("chain", &fixture.statement, fixture.proof.len());
    assert_eq!(recorded.len(), cases.len(), "chain cases");
    // The honest case builds the verifier as a client would (pins, key, parameters); the other
    // cases change the statement or the proof, not the pins, so they reuse one verifier (a
    // k = 22 key read is about 1.7 CPU-s and 2.3 GiB here: halo2-axiom's FFT tables).
    let s = &fixture.statement;
    let text = |key: &str| s[key].as_str().unwrap().to_string();
    let verifier = PinnedChainVerifier::new(
        &fs::read(&fixture.vk).unwrap(),
        &text("vkFingerprint"),
        &fs::read(fixtures().join("params.bin")).unwrap(),
        &text("paramsFingerprint"),
    )
    .unwrap();
    for (case, tool) in cases.iter().zip(&recorded) {
        let verified = tool["verified"].as_bool().unwrap();
        assert_eq!(
            row(case, verified),
            *tool,
            "chain {}: another case",
            case.name
        );
        assert_eq!(
            case.statement["vkFingerprint"], s["vkFingerprint"],
            "chain {}: a case with another pin needs its own verifier",
            case.name
        );
        let package = if case.name == "honest" {
            package_verifies(&fixture, case)
        } else {
            chain_verifies(&verifier, case, &fixture.proof)
        };
        assert_eq!(
            verified,
            package.is_ok(),
            "chain {}: tms said {verified}, the package {package:?}",
            case.name
        );
        assert_eq!(verified, case.name == "honest", "chain {}", case.name);
        if let Err(e) = &package {
            assert!(!e.contains('\n'), "chain {}: {e}", case.name);
        }
    }
    // The native verify time of the same verifier (median of 10 after load), beside the
    // `runtime=node|chromium` lines of the JavaScript tests.
    let trusted = TrustedChain {
        genesis: text("genesis"),
        last_registration: text("lastRegistration"),
        message: unhex(&text("message")),
        epochs: s["epochs"].as_u64().unwrap(),
    };
    let mut times: Vec<f64> = (0..10)
        .map(|_| {
            let start = std::time::Instant::now();
            verifier.verify(&trusted, &fixture.proof).unwrap();
            start.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    times.sort_by(f64::total_cmp);
    println!(
        "wasm-verify runtime=native scheme=chain proof_bytes={} median_ms={:.1}",
        fixture.proof.len(),
        (times[4] + times[5]) / 2.0
    );
}
