//! A Schnorr ATMS certificate verified on chain through a Groth16 proof of its halo2 verifier.
//!
//! The fixture (`tests/fixtures/groth16-schnorr-atms/`) is one run of the whole path, written by
//! `go run . program-prove` (evm/groth16/README.md): the certificate proof's verifier recorded by
//! `tms_evm::groth16` (`groth16_program.rs`), replayed in a gnark circuit, an INSECURE seeded
//! Groth16 setup, a proof, and the verifier contract exported from that setup. The statement
//! `[commitment, keccak256(message) mod r, t]` is the Groth16 circuit's public input; this test
//! builds it in `AtmsCertificateVerifier` from the committee and threshold it trusts and the
//! message bytes, deploys the verifier and the contract **with EIP-170 enforced**, verifies the
//! proof, prints the `evm-gas` line and refuses every one-change certificate: each proof point
//! changed, another message, another threshold, a proof a word short or long; a statement is
//! consumed once.
//!
//! `cargo test -p tms-evm --test groth16_onchain -- --nocapture` (in CI, seconds). Needs `npm ci
//! --prefix evm/solc`.

mod common;

use std::{fs, path::PathBuf};

use halo2_base::halo2_proofs::halo2curves::ff::PrimeField;
use serde::Deserialize;
use tms_evm::{
    certificate::{Contracts, Deployment, Groth16Verifier, Trusted},
    gas_line,
    machine::Machine,
    EIP170_LIMIT,
};
use tms_gadgets::{message::message_to_field, Fr};

/// A file of the fixture directory `dir` (relative to the crate).
fn fixture(dir: &str, name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join(dir)
        .join(name)
}

/// `proof.json` as `go run . program-prove` writes it (decimal words).
#[derive(Deserialize)]
struct ProofFile {
    /// `verifyProof(...)` of the exported contract.
    signature: String,
    /// A, B, C in EIP-197 order.
    proof: Vec<String>,
    /// The BSB22 commitment (empty without).
    #[serde(default)]
    commitments: Vec<String>,
    /// Its proof of knowledge.
    #[serde(default)]
    commitment_pok: Vec<String>,
    /// The public inputs.
    input: Vec<String>,
}

#[derive(Deserialize)]
struct StatementFile {
    committee: String,
    message: String,
    threshold: u64,
}

fn word(decimal: &str) -> [u8; 32] {
    let bytes = num_bigint::BigUint::parse_bytes(decimal.as_bytes(), 10)
        .expect("a decimal word")
        .to_bytes_be();
    let mut word = [0u8; 32];
    word[32 - bytes.len()..].copy_from_slice(&bytes);
    word
}

fn hex_word(hex_word: &str) -> [u8; 32] {
    let bytes = hex::decode(hex_word.trim_start_matches("0x")).unwrap();
    let mut word = [0u8; 32];
    word[32 - bytes.len()..].copy_from_slice(&bytes);
    word
}

fn fr(word: [u8; 32]) -> Fr {
    let mut le = word;
    le.reverse();
    Option::from(Fr::from_repr(le)).expect("a canonical field element")
}

fn be(x: Fr) -> [u8; 32] {
    let mut word = x.to_repr();
    word.reverse();
    word
}

/// The Groth16 proof in `dir` through gnark's exported verifier and `AtmsCertificateVerifier`:
/// the honest certificate and every one-change refusal; prints the `evm-gas` line as `path`.
fn through_groth16(dir: &str, file: &str, contract: &str, path: &str) {
    let read = |name: &str| fs::read_to_string(fixture(dir, name)).expect(name);
    let proof: ProofFile = serde_json::from_str(&read("proof.json")).unwrap();
    let statement: StatementFile = serde_json::from_str(&read("statement.json")).unwrap();
    let message = hex::decode(statement.message.trim_start_matches("0x")).unwrap();
    let committee = fr(hex_word(&statement.committee));
    // The statement the contract builds is the proof's public input.
    let inputs: Vec<[u8; 32]> = proof.input.iter().map(|w| word(w)).collect();
    assert_eq!(
        inputs,
        vec![
            be(committee),
            be(message_to_field(&message)),
            be(Fr::from(statement.threshold))
        ]
    );
    let words: Vec<&String> = proof
        .proof
        .iter()
        .chain(&proof.commitments)
        .chain(&proof.commitment_pok)
        .collect();
    let proof_bytes: Vec<u8> = words.iter().flat_map(|w| word(w)).collect();
    let verifier = Groth16Verifier {
        source: read(file),
        contract: contract.into(),
        proof_words: words.len(),
        signature_prefix: proof
            .signature
            .strip_suffix(&format!("uint256[{}])", inputs.len()))
            .expect("the signature ends with the statement")
            .to_string(),
        hashed_statement: false,
    };
    assert_eq!(verifier.signature(inputs.len()), proof.signature);

    let contracts = Contracts::for_groth16(&verifier, inputs.len()).unwrap();
    let trusted = Trusted::Atms {
        committee,
        threshold: statement.threshold,
    };
    let mut mainnet = Machine::new(true);
    let deployed = Deployment::deploy(&mut mainnet, &contracts, &trusted)
        .expect("the Groth16 verifier and its contract deploy under EIP-170");
    let verifier_bytes = contracts.verifier.runtime.len();
    assert!(verifier_bytes <= EIP170_LIMIT);
    let honest = deployed
        .verify_certificate(&mut mainnet, &message, &proof_bytes)
        .unwrap();
    assert!(honest.success, "the honest certificate is refused");
    println!("{}", gas_line(path, honest.gas, verifier_bytes));

    // One change at a time.
    let refused = |machine: &mut Machine, deployment: &Deployment, message: &[u8], proof: &[u8]| {
        !deployment
            .verify_certificate(machine, message, proof)
            .unwrap()
            .success
    };
    for (what, at) in [
        ("A", 0),
        ("B", 2),
        ("C", 6),
        ("a last word", verifier.proof_words - 1),
    ] {
        let mut changed = proof_bytes.clone();
        changed[32 * at + 31] ^= 1;
        assert!(
            refused(&mut mainnet, &deployed, &message, &changed),
            "{what} changed: accepted"
        );
    }
    let mut other_message = message.clone();
    other_message[0] ^= 1;
    assert!(refused(
        &mut mainnet,
        &deployed,
        &other_message,
        &proof_bytes
    ));
    assert!(refused(
        &mut mainnet,
        &deployed,
        &message,
        &proof_bytes[..proof_bytes.len() - 32]
    ));
    assert!(refused(
        &mut mainnet,
        &deployed,
        &message,
        &[proof_bytes.as_slice(), &[0u8; 32]].concat()
    ));
    let stronger = Trusted::Atms {
        committee,
        threshold: statement.threshold + 1,
    };
    let other = Deployment::deploy(&mut mainnet, &contracts, &stronger).unwrap();
    assert!(refused(&mut mainnet, &other, &message, &proof_bytes));
    // Once per statement.
    assert!(
        deployed
            .consume_certificate(&mut mainnet, &message, &proof_bytes)
            .unwrap()
            .success
    );
    assert!(
        !deployed
            .consume_certificate(&mut mainnet, &message, &proof_bytes)
            .unwrap()
            .success
    );
    // The contract refuses a verifier of another kind (another statement length) at
    // construction: the Mithril contract's two words do not fill three inputs.
    let mithril = Trusted::Mithril {
        registration: committee,
    };
    assert!(common::construction_refused(
        &mut mainnet,
        &contracts,
        &mithril,
        deployed.verifier,
        "LayoutMismatch(uint256,uint256)"
    ));
}

/// The final wrapper's twin (`groth16_program.rs`'s fixture: the final wrapper's layout, a
/// carried accumulator, the statement `[0xc0ffee, m, 3]`) through Groth16.
#[test]
fn final_wrapper_twin_through_groth16() {
    for (file, contract, path) in [
        (
            "Verifier.sol",
            "Verifier",
            "final-wrapper-twin groth16 gnark-verifier AtmsCertificateVerifier",
        ),
        (
            "Groth16Verifier.sol",
            "Groth16Verifier",
            "final-wrapper-twin groth16 batched-verifier AtmsCertificateVerifier",
        ),
    ] {
        through_groth16("groth16/testdata/twin_k10.insecure", file, contract, path);
    }
}

/// A Schnorr ATMS certificate (4 of 6, flat committee) verified directly by a Groth16 circuit
/// (no halo2 final wrapper): the fixture `tests/fixtures/groth16-schnorr-atms` holds the setup's
/// verifier and one proof. The program it was set up for is the one the certificate key gives
/// (`program.keccak256`, checked against `program_of_key` of a key regenerated here), so the
/// contract verifies exactly that key's certificates, given the setup.
#[test]
fn schnorr_atms_certificate_through_groth16() {
    use schnorr_atms::{CommitmentMode, Verification};
    use sha3::Digest;
    let dir = "tests/fixtures/groth16-schnorr-atms";
    let witness = schnorr_atms::example_witness(
        (6, 4),
        CommitmentMode::Flat,
        Verification::PerSignature,
        message_to_field(b"any message: the key does not depend on it"),
        7,
        4,
    )
    .unwrap();
    let params = tms_gadgets::proving::params::kzg_params(witness.shape.k);
    let keys = schnorr_atms::keygen(&params, witness.shape).unwrap();
    let all: Vec<usize> = (0..3).collect();
    let program = tms_evm::groth16::program_of_key(
        &params,
        keys.vk(),
        3,
        false,
        &all,
        "Schnorr ATMS 4 of 6 (flat), the certificate proof itself",
    )
    .unwrap();
    let digest = hex::encode(sha3::Keccak256::digest(
        serde_json::to_string(&program).unwrap().as_bytes(),
    ));
    let pinned = fs::read_to_string(fixture(dir, "program.keccak256")).unwrap();
    assert_eq!(
        digest,
        pinned.trim(),
        "the setup was made for another program"
    );
    for (file, contract, path) in [
        (
            "Verifier.sol",
            "Verifier",
            "schnorr-atms 4 of 6 groth16 gnark-verifier AtmsCertificateVerifier",
        ),
        (
            "Groth16Verifier.sol",
            "Groth16Verifier",
            "schnorr-atms 4 of 6 groth16 batched-verifier AtmsCertificateVerifier",
        ),
    ] {
        through_groth16(dir, file, contract, path);
    }
}
