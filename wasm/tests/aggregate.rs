//! The package's aggregation verifier (`tms_wasm::aggregate`) against the library's
//! (`tms_aggregation::aggregation_verify` with the full k = 20 parameters) on the committed
//! fixture `wasm/fixtures/aggregate/` (two Schnorr ATMS certificates aggregated by `tms aggregate
//! prove`; made by `wasm/fixtures/make-aggregate.sh`): the honest statements verify in both, and
//! each one-change case (the order, a message, a commitment, a threshold, a proof byte, the
//! proof's length) is refused by both; a key or parameters not matching their pins, a count of
//! statements that is not the key's, a missing or zero threshold, a key of another scheme or of a
//! chain, a certificate key are refused before any proof is checked.

use std::fs;

use serde_json::Value;
use tms_aggregation::{aggregation_verify, split_proof_file};
use tms_gadgets::{proving::params::kzg_params, proving::Transcript, Fr};
use tms_wasm::aggregate::{CertificateStatement, PinnedAggregationVerifier};

mod common;
use common::{dir, median_ms, unhex};

struct Aggregate {
    statement: Value,
    certificates: Vec<CertificateStatement>,
    vk: Vec<u8>,
    params: Vec<u8>,
    proof: Vec<u8>,
}

fn load() -> Aggregate {
    let d = dir("", "aggregate");
    let read = |name: &str| fs::read(d.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    let statement: Value = serde_json::from_slice(&read("statement.json")).unwrap();
    let certificates = statement["certificates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| CertificateStatement {
            commitment: c["commitment"].as_str().unwrap().into(),
            message: unhex(c["message"].as_str().unwrap()),
            threshold: c["threshold"].as_u64(),
        })
        .collect();
    Aggregate {
        statement,
        certificates,
        vk: read("vk.bin"),
        params: fs::read(dir("", "").join("params.bin")).unwrap(),
        proof: read("proof.bin"),
    }
}

impl Aggregate {
    fn pin(&self, key: &str) -> String {
        self.statement[key].as_str().unwrap().into()
    }

    fn verifier(&self) -> PinnedAggregationVerifier {
        PinnedAggregationVerifier::new(
            "schnorr-atms",
            &self.vk,
            &self.pin("vkFingerprint"),
            &self.params,
            &self.pin("paramsFingerprint"),
        )
        .unwrap()
    }
}

fn fr(hex_be: &str) -> Fr {
    let mut bytes = unhex(hex_be);
    bytes.reverse();
    Option::from(<Fr as ff::PrimeField>::from_repr(bytes.try_into().unwrap())).unwrap()
}

/// The library's verdict, with the certificates' public inputs built by the scheme's own
/// instance (as `tms aggregate verify` builds them) and the full parameters.
fn library_verifies(
    params: &tms_gadgets::halo2_base::halo2_proofs::poly::kzg::commitment::ParamsKZG<
        tms_gadgets::halo2_base::halo2_proofs::halo2curves::bn256::Bn256,
    >,
    vk_file: &[u8],
    certificates: &[CertificateStatement],
    proof_file: &[u8],
) -> bool {
    let (header, vk) = tms_aggregation::read_vk_file(vk_file).unwrap();
    let Ok((mut inputs, proof)) = split_proof_file(proof_file) else {
        return false;
    };
    for c in certificates {
        inputs.extend(
            schnorr_atms::AtmsInstance::from_trusted_commitment(
                fr(&c.commitment),
                &c.message,
                c.threshold.unwrap(),
            )
            .to_public_inputs(),
        );
    }
    inputs.len() == header.num_instances
        && aggregation_verify(params, &vk, &inputs, &proof, Transcript::Evm)
}

#[test]
fn the_package_and_the_library_agree_on_the_aggregation() {
    let f = load();
    let verifier = f.verifier();
    assert_eq!(
        verifier.describe(),
        "aggregation of 2 schnorr-atms certificates, 2^20 rows"
    );
    let params = kzg_params(f.statement["k"].as_u64().unwrap() as u32);
    let verdict = verifier.verify(&f.certificates, &f.proof).unwrap();
    assert!(
        verdict.starts_with("verified: 2 schnorr-atms certificates in one proof; 0: commitment "),
        "{verdict}"
    );
    for c in &f.certificates {
        assert!(verdict.contains(&c.commitment), "{verdict}");
    }
    assert!(verdict.contains(&format!(
        "aggregation key pinned (sha256 {})",
        f.pin("vkFingerprint")
    )));
    assert!(library_verifies(&params, &f.vk, &f.certificates, &f.proof));

    let mut cases: Vec<(String, Vec<CertificateStatement>, Vec<u8>)> = Vec::new();
    let mut case = |name: &str, change: &dyn Fn(&mut Vec<CertificateStatement>, &mut Vec<u8>)| {
        let (mut c, mut p) = (f.certificates.clone(), f.proof.clone());
        change(&mut c, &mut p);
        cases.push((name.into(), c, p));
    };
    case("the other order", &|c, _| c.swap(0, 1));
    case("another message", &|c, _| c[0].message.push(b'!'));
    case("another commitment", &|c, _| {
        let last = if c[1].commitment.ends_with('0') {
            "1"
        } else {
            "0"
        };
        let n = c[1].commitment.len();
        c[1].commitment.replace_range(n - 1.., last);
    });
    case("threshold + 1", &|c, _| c[1].threshold = Some(4));
    case("threshold - 1", &|c, _| c[1].threshold = Some(2));
    case("both certificates the first", &|c, _| c[1] = c[0].clone());
    for at in [0, 31, 383, 384, f.proof.len() / 2, f.proof.len() - 1] {
        case(&format!("proof byte {at} changed"), &|_, p| p[at] ^= 1);
    }
    case("proof cut by one byte", &|_, p| {
        p.pop();
    });
    case("proof one byte longer", &|_, p| p.push(0));
    for (name, certificates, proof) in &cases {
        let package = std::panic::catch_unwind(|| verifier.verify(certificates, proof))
            .unwrap_or_else(|_| panic!("{name}: the package panicked"));
        let library = library_verifies(&params, &f.vk, certificates, proof);
        assert!(!library, "{name}: the library verifies");
        let refusal = package.expect_err(name);
        assert!(
            refusal
                == "the aggregation proof does not verify for these trusted statements (in this \
                    order)",
            "{name}: {refusal}"
        );
    }
    println!("wasm-aggregate cases={} agree", cases.len() + 1);
    let ms = median_ms(|| {
        verifier.verify(&f.certificates, &f.proof).unwrap();
    });
    println!(
        "wasm-verify runtime=native scheme=aggregate proof_bytes={} median_ms={ms:.1}",
        f.proof.len()
    );
}

#[test]
fn refusals_before_verifying() {
    let f = load();
    let verifier = f.verifier();
    let refused = |certificates: &[CertificateStatement], says: &str| {
        let e = verifier.verify(certificates, &f.proof).unwrap_err();
        assert!(e.contains(says), "{e}");
        assert!(!e.contains('\n'), "{e}");
    };
    refused(
        &f.certificates[..1],
        "the aggregation key is for 2 schnorr-atms certificates; 1 statements were given",
    );
    let three = [f.certificates.clone(), f.certificates[..1].to_vec()].concat();
    refused(&three, "3 statements were given");
    let mut c = f.certificates.clone();
    c[1].threshold = None;
    refused(
        &c,
        "certificate 1: give the threshold: the verifier decides it",
    );
    c[1].threshold = Some(0);
    refused(&c, "certificate 1: threshold 0");
    let mut c = f.certificates.clone();
    c[0].commitment = "0x1234".into();
    refused(
        &c,
        "certificate 0: commitment \"0x1234\": give 0x followed by 64 hex digits",
    );
    let e = verifier
        .verify(&f.certificates, &f.proof[..100])
        .unwrap_err();
    assert!(
        e.starts_with("aggregation proof: this proof file starts with 12 words"),
        "{e}"
    );

    let new = |scheme: &str, vk: &[u8], vk_pin: &str, params_pin: &str| {
        PinnedAggregationVerifier::new(scheme, vk, vk_pin, &f.params, params_pin)
            .err()
            .expect("refused")
    };
    let (vk_pin, params_pin) = (f.pin("vkFingerprint"), f.pin("paramsFingerprint"));
    let flip = |pin: &str| {
        let last = if pin.ends_with('0') { "1" } else { "0" };
        format!("{}{last}", &pin[..pin.len() - 1])
    };
    let e = new("schnorr-atms", &f.vk, &flip(&vk_pin), &params_pin);
    assert!(e.starts_with("aggregation key: fingerprint"), "{e}");
    let mut vk = f.vk.clone();
    *vk.last_mut().unwrap() ^= 1;
    let e = new("schnorr-atms", &vk, &vk_pin, &params_pin);
    assert!(e.contains("differs from the pinned"), "{e}");
    let e = new("schnorr-atms", &f.vk, &vk_pin, &flip(&params_pin));
    assert!(e.starts_with("verifier parameters: fingerprint"), "{e}");
    let e = new("mithril", &f.vk, &vk_pin, &params_pin);
    assert_eq!(
        e,
        "aggregation key: a key for \"aggregate schnorr-atms x2\", not an aggregation of mithril \
         certificates"
    );
    let e = new("stark", &f.vk, &vk_pin, &params_pin);
    assert!(e.starts_with("scheme \"stark\""), "{e}");
    // A chain root's key and a certificate's key, each under its own pin.
    for (fixture, says) in [
        (
            "chain",
            "aggregation key: a key for \"mithril-chain\", not an aggregation",
        ),
        (
            "schnorr-atms",
            "aggregation key: malformed aggregation key file",
        ),
    ] {
        let d = dir("", fixture);
        let vk = fs::read(d.join("vk.bin")).unwrap();
        let pin = tms_wasm::pin::sha256_hex(&vk);
        let e = new("schnorr-atms", &vk, &pin, &params_pin);
        assert!(e.starts_with(says), "{fixture}: {e}");
    }
}
