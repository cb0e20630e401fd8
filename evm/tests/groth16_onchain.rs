//! Certificates verified on chain through a Groth16 proof of their halo2 verifier.
//!
//! Each fixture is one run of the whole path (`go run . program-prove`, evm/groth16/README.md):
//! a halo2 verifier recorded by `tms_evm::groth16` (`groth16_program.rs`), replayed in a gnark
//! v0.16.1 circuit, an INSECURE seeded Groth16 setup, one proof, and our batched verifier
//! contract of that setup (`Groth16Verifier.sol`, its `SETUP` and `STATEMENT_KIND` constants).
//! Every key is INSECURE: `Contracts::for_groth16` refuses it unless the test says so
//! (`insecure_test_key`), which each test checks first. The fixtures: the final wrapper's twin
//! with a Schnorr ATMS statement (`groth16/testdata/twin_k10.insecure`), and with Schnorr ATMS,
//! SNARK-Mithril and chain statements hashed into one public input
//! (`groth16-*-twin-hashed`). Each is checked against the program its key gives (pinned
//! keccak-256), then its statement is built by `AtmsCertificateVerifier`,
//! `MithrilCertificateVerifier` or `ChainVerifier` from what the contract trusts and the message
//! bytes, the verifiers and the contract are deployed **with EIP-170 enforced**, the proof
//! verifies (the `evm-gas` line is printed), and every one-change certificate is refused: each
//! proof point changed, another message, another trusted value, a chain's other last
//! registration or epoch count, a proof a word short or long; a certificate statement is
//! consumed once; every contract of another kind is refused at construction.
//!
//! `cargo test -p tms-evm --test groth16_onchain -- --nocapture` (in CI, seconds). Needs `npm ci
//! --prefix evm/solc`.

mod common;

use std::{fs, path::PathBuf};

use halo2_base::halo2_proofs::halo2curves::ff::{FromUniformBytes, PrimeField};
use serde::Deserialize;
use tms_evm::{
    certificate::{word_fr, Contracts, Deployment, Groth16Verifier, StatementKind, Trusted},
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

/// `statement.json`: what the contract trusts and what the caller sends.
#[derive(Deserialize)]
#[serde(untagged)]
enum StatementFile {
    /// `AtmsCertificateVerifier`.
    Atms {
        committee: String,
        message: String,
        threshold: u64,
    },
    /// `MithrilCertificateVerifier`.
    Mithril {
        registration: String,
        message: String,
    },
    /// `ChainVerifier`.
    Chain {
        genesis: String,
        last_registration: String,
        message: String,
        epochs: u64,
    },
}

/// A statement, its contract and its call.
struct Case {
    trusted: Trusted,
    message: Vec<u8>,
    /// For a chain: the last registration and the epoch count the caller sends.
    chain: Option<(Fr, u64)>,
    words: Vec<[u8; 32]>,
}

impl Case {
    fn of(file: &StatementFile) -> Self {
        let bytes = |m: &str| hex::decode(m.trim_start_matches("0x")).unwrap();
        match file {
            StatementFile::Atms {
                committee,
                message,
                threshold,
            } => {
                let message = bytes(message);
                let committee = fr(hex_word(committee));
                Case {
                    trusted: Trusted::Atms {
                        committee,
                        threshold: *threshold,
                    },
                    words: vec![
                        word_fr(&committee),
                        word_fr(&message_to_field(&message)),
                        word_fr(&Fr::from(*threshold)),
                    ],
                    message,
                    chain: None,
                }
            }
            StatementFile::Mithril {
                registration,
                message,
            } => {
                let message = bytes(message);
                let registration = fr(hex_word(registration));
                Case {
                    trusted: Trusted::Mithril { registration },
                    words: vec![word_fr(&registration), word_fr(&message_to_field(&message))],
                    message,
                    chain: None,
                }
            }
            StatementFile::Chain {
                genesis,
                last_registration,
                message,
                epochs,
            } => {
                let message = bytes(message);
                let (genesis, last) = (fr(hex_word(genesis)), fr(hex_word(last_registration)));
                Case {
                    trusted: Trusted::Chain { genesis },
                    words: vec![
                        word_fr(&genesis),
                        word_fr(&last),
                        word_fr(&message_to_field(&message)),
                        word_fr(&Fr::from(*epochs)),
                    ],
                    message,
                    chain: Some((last, *epochs)),
                }
            }
        }
    }

    /// The contract's call for `message` (and for a chain `last`, `epochs`): accepted or not.
    fn accepted(
        &self,
        machine: &mut Machine,
        deployed: &Deployment,
        message: &[u8],
        chain: Option<(Fr, u64)>,
        proof: &[u8],
    ) -> (bool, u64) {
        let call = match chain {
            Some((last, epochs)) => deployed.verify_chain(machine, &last, message, epochs, proof),
            None => deployed.verify_certificate(machine, message, proof),
        }
        .unwrap();
        (call.success, call.gas)
    }
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

/// The Groth16 proof in `dir` through the Groth16 verifier `contract` of `file` and the
/// statement's contract (`AtmsCertificateVerifier` or `ChainVerifier`), deployed with EIP-170
/// enforced: the honest certificate and every one-change refusal; prints the `evm-gas` line as
/// `path`. The proof's public input is the statement's words, or their hash when it has one.
fn through_groth16(dir: &str, file: &str, contract: &str, path: &str, key: KeyOrigin) {
    use sha3::Digest;
    let read = |name: &str| fs::read_to_string(fixture(dir, name)).expect(name);
    let proof: ProofFile = serde_json::from_str(&read("proof.json")).unwrap();
    let case = Case::of(&serde_json::from_str(&read("statement.json")).unwrap());
    // The statement the contract builds is the proof's public input (or hashes to it).
    let inputs: Vec<[u8; 32]> = proof.input.iter().map(|w| word(w)).collect();
    let hashed = inputs.len() == 1 && case.words.len() > 1;
    if hashed {
        let digest = sha3::Keccak256::digest(case.words.concat());
        let mut le: [u8; 32] = digest.into();
        le.reverse();
        let reduced =
            Fr::from_uniform_bytes(&[le.as_slice(), &[0u8; 32]].concat().try_into().unwrap());
        assert_eq!(inputs, vec![word_fr(&reduced)], "the hash of the statement");
    } else {
        assert_eq!(inputs, case.words);
    }
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
            .expect("the signature ends with the public inputs")
            .to_string(),
        hashed_statement: hashed,
        insecure_test_key: false,
    };
    assert_eq!(verifier.signature(inputs.len()), proof.signature);
    let verifier = match key {
        // A seeded key is refused unless the caller says it is a test.
        KeyOrigin::Seeded => {
            let refusal = Contracts::for_groth16(&verifier, case.words.len())
                .expect_err("an INSECURE key is refused without the test flag");
            assert!(
                refusal.to_string().to_lowercase().contains("setup"),
                "{refusal}"
            );
            Groth16Verifier {
                insecure_test_key: true,
                ..verifier
            }
        }
        // A ceremony's key is taken as it comes (its Pedersen G = γ), no flag.
        KeyOrigin::Ceremony => {
            let setup = verifier.setup().expect("the verifier has a SETUP constant");
            assert!(setup.starts_with("mpcsetup ceremony: "), "{setup}");
            verifier
        }
    };

    let contracts = Contracts::for_groth16(&verifier, case.words.len()).unwrap();
    // The kind comes from the verifier's own STATEMENT_KIND (its program's).
    assert_eq!(contracts.binding.statement_kind, case.trusted.kind());
    let mut mainnet = Machine::new(true);
    let deployed = Deployment::deploy(&mut mainnet, &contracts, &case.trusted)
        .expect("the Groth16 verifier and its contract deploy under EIP-170");
    let verifier_bytes = contracts.verifier.runtime.len();
    assert!(verifier_bytes <= EIP170_LIMIT);
    let (accepted, gas) = case.accepted(
        &mut mainnet,
        &deployed,
        &case.message,
        case.chain,
        &proof_bytes,
    );
    assert!(accepted, "the honest certificate is refused");
    println!("{}", gas_line(path, gas, verifier_bytes));

    // One change at a time.
    let mut refused = |deployment: &Deployment, message: &[u8], chain, proof: &[u8]| {
        !case
            .accepted(&mut mainnet, deployment, message, chain, proof)
            .0
    };
    for (what, at) in [
        ("A", 0),
        ("B", 2),
        ("C", 6),
        ("the last word", verifier.proof_words - 1),
    ] {
        let mut changed = proof_bytes.clone();
        changed[32 * at + 31] ^= 1;
        assert!(
            refused(&deployed, &case.message, case.chain, &changed),
            "{what} changed: accepted"
        );
    }
    let mut other_message = case.message.clone();
    other_message[0] ^= 1;
    assert!(refused(&deployed, &other_message, case.chain, &proof_bytes));
    assert!(refused(
        &deployed,
        &case.message,
        case.chain,
        &proof_bytes[..proof_bytes.len() - 32]
    ));
    assert!(refused(
        &deployed,
        &case.message,
        case.chain,
        &[proof_bytes.as_slice(), &[0u8; 32]].concat()
    ));
    if let Some((last, epochs)) = case.chain {
        assert!(refused(
            &deployed,
            &case.message,
            Some((last + Fr::one(), epochs)),
            &proof_bytes
        ));
        assert!(refused(
            &deployed,
            &case.message,
            Some((last, epochs + 1)),
            &proof_bytes
        ));
    }
    // Another trusted value (a stronger threshold, another genesis) refuses the same proof.
    let other_trust = match case.trusted {
        Trusted::Atms {
            committee,
            threshold,
        } => Trusted::Atms {
            committee,
            threshold: threshold + 1,
        },
        Trusted::Chain { genesis } => Trusted::Chain {
            genesis: genesis + Fr::one(),
        },
        Trusted::Mithril { registration } => Trusted::Mithril {
            registration: registration + Fr::one(),
        },
        _ => unreachable!("the fixtures are ATMS and chain statements"),
    };
    let other = Deployment::deploy(&mut mainnet, &contracts, &other_trust).unwrap();
    assert!(
        !case
            .accepted(
                &mut mainnet,
                &other,
                &case.message,
                case.chain,
                &proof_bytes
            )
            .0
    );
    if case.chain.is_none() {
        // Once per statement.
        let consume = |machine: &mut Machine| {
            deployed
                .consume_certificate(machine, &case.message, &proof_bytes)
                .unwrap()
                .success
        };
        assert!(consume(&mut mainnet));
        assert!(!consume(&mut mainnet));
    }
    // Every contract of another kind is refused at construction: by its word count where it
    // differs (`LayoutMismatch`), by the verifier's statement kind where words coincide (a
    // batch of two Mithril certificates has a chain's four words; a batch of one a Mithril
    // certificate's two).
    for other in [
        Trusted::Atms {
            committee: Fr::one(),
            threshold: 1,
        },
        Trusted::Mithril {
            registration: Fr::one(),
        },
        Trusted::MithrilBatch {
            registration: Fr::one(),
            certificates: case.words.len() / 2,
        },
        Trusted::Chain { genesis: Fr::one() },
    ] {
        if other.kind() == case.trusted.kind() {
            continue;
        }
        let fits = match other {
            Trusted::MithrilBatch { .. } => case.words.len().is_multiple_of(2),
            _ => other.statement_words() == case.words.len(),
        };
        let error = if fits {
            "WrongStatementKind(uint256,uint256)"
        } else {
            "LayoutMismatch(uint256,uint256)"
        };
        assert!(
            common::construction_refused(
                &mut mainnet,
                &contracts,
                &other,
                deployed.verifier,
                error
            ),
            "{} in front of a {} verifier: not refused with {error}",
            other.contract(),
            case.trusted.contract()
        );
    }
}

/// Where a fixture's Groth16 key comes from.
#[derive(Clone, Copy)]
enum KeyOrigin {
    /// `program-prove -seed`: INSECURE, accepted only with the test flag.
    Seeded,
    /// `ceremony-extract`: gnark's multi-party setup, accepted as it is.
    Ceremony,
}

/// The final wrapper's twin (`groth16_program.rs`'s fixture: the final wrapper's layout, a
/// carried accumulator, the statement `[0xc0ffee, m, 3]`) through Groth16, gnark v0.16.1's
/// circuit. Only our batched verifier: gnark v0.16's own `Verifier.sol` takes the proof as
/// `bytes`, another ABI than the one `CertificateVerifier.sol` calls. Its `SETUP` constant
/// names the seed.
#[test]
fn final_wrapper_twin_through_groth16() {
    let dir = "groth16/testdata/twin_k10.insecure";
    let source = fs::read_to_string(fixture(dir, "Groth16Verifier.sol")).unwrap();
    assert!(
        source.contains(r#"string public constant SETUP = "INSECURE seeded: insecure-test-seed";"#),
        "the verifier names its seeded setup"
    );
    through_groth16(
        dir,
        "Groth16Verifier.sol",
        "Groth16Verifier",
        "final-wrapper-twin groth16 batched-verifier AtmsCertificateVerifier",
        KeyOrigin::Seeded,
    );
}

/// The final wrapper's twin with its statement hashed (one public input,
/// `keccak256(statement) mod r`) through the Groth16 verifier of the fixture
/// `tests/fixtures/groth16-{name}` and `kind`'s contract: the gas no longer depends on the
/// statement's length. The setup was made for the program of the twin's key (a statement of
/// `words` words, hashed, labelled `kind`), checked first.
fn hashed_twin_through_groth16(
    name: &str,
    words: usize,
    kind: StatementKind,
    path: &str,
    key: KeyOrigin,
) {
    let dir = format!("tests/fixtures/groth16-{name}");
    // A ceremony's fixture proves the seeded twin's very program.
    let program_name = name.replace("-ceremony", "-hashed");
    let mut program = twin_program(words, &program_name).with_statement_kind(kind);
    program.statement_hash = Some("keccak256".into());
    assert_eq!(
        program_keccak(&program),
        fs::read_to_string(fixture(&dir, "program.keccak256"))
            .unwrap()
            .trim(),
        "{name}: the setup was made for another program"
    );
    through_groth16(&dir, "Groth16Verifier.sol", "Groth16Verifier", path, key);
}

/// The Schnorr ATMS statement `[c, m, t]`, hashed, through `AtmsCertificateVerifier`.
#[test]
fn atms_twin_with_a_hashed_statement_through_groth16() {
    hashed_twin_through_groth16(
        "atms-twin-hashed",
        3,
        StatementKind::Atms,
        "final-wrapper-twin groth16 batched-verifier hashed-statement AtmsCertificateVerifier",
        KeyOrigin::Seeded,
    );
}

/// The same program as `atms_twin_with_a_hashed_statement_through_groth16`, its keys from a
/// ceremony of 3 + 3 contributions (gnark's `mpcsetup`, `ceremony-*` commands; the run's record
/// in the fixture's `report.txt`): the contract takes the ceremony's key as it comes (Pedersen
/// G = γ, no test flag) and names the ceremony in its `SETUP`.
#[test]
fn atms_twin_from_a_ceremony_through_groth16() {
    hashed_twin_through_groth16(
        "atms-twin-ceremony",
        3,
        StatementKind::Atms,
        "final-wrapper-twin groth16 ceremony batched-verifier hashed-statement AtmsCertificateVerifier",
        KeyOrigin::Ceremony,
    );
}

/// A SNARK-Mithril statement `[registration, m]`, hashed, through
/// `MithrilCertificateVerifier`.
#[test]
fn mithril_twin_with_a_hashed_statement_through_groth16() {
    hashed_twin_through_groth16(
        "mithril-twin-hashed",
        2,
        StatementKind::Mithril,
        "final-wrapper-twin groth16 batched-verifier hashed-statement MithrilCertificateVerifier",
        KeyOrigin::Seeded,
    );
}

/// A chain statement `[genesis, last registration, m, epochs]`, hashed, through
/// `ChainVerifier` (a `MithrilBatchVerifier` of two certificates has its four words: refused by
/// the statement kind).
#[test]
fn chain_twin_with_a_hashed_statement_through_groth16() {
    hashed_twin_through_groth16(
        "chain-twin-hashed",
        4,
        StatementKind::Chain,
        "final-wrapper-twin groth16 batched-verifier hashed-statement ChainVerifier",
        KeyOrigin::Seeded,
    );
}

/// The program of the final wrapper's twin (`k = 10`, its layout, a carried accumulator) with a
/// statement of `words` words, from its key alone.
fn twin_program(words: usize, description: &str) -> tms_evm::groth16::Program {
    use snark_verifier_sdk::halo2::aggregation::AggregationConfigParams;
    use tms_aggregation::{
        stand_in::{stand_in, trivial_accumulator},
        ACCUMULATOR_LIMBS,
    };
    use tms_gadgets::proving::{params::kzg_params, MultiOpen, Transcript};
    const K: u32 = 10;
    let params = kzg_params(K);
    let mut inputs = trivial_accumulator(&params);
    inputs.extend((0..words as u64).map(|i| Fr::from(i + 1)));
    let layout = AggregationConfigParams {
        degree: K,
        num_advice: 1,
        num_lookup_advice: 1,
        num_fixed: 1,
        lookup_bits: K as usize - 1,
    };
    let twin = stand_in(
        &params,
        layout,
        &inputs,
        Transcript::Poseidon,
        MultiOpen::Shplonk,
    )
    .unwrap();
    let public: Vec<usize> = (ACCUMULATOR_LIMBS..inputs.len()).collect();
    tms_evm::groth16::program_of_key(&params, &twin.vk, inputs.len(), true, &public, description)
        .unwrap()
}

/// keccak-256 of a program's JSON, hex.
fn program_keccak(program: &tms_evm::groth16::Program) -> String {
    use sha3::Digest;
    hex::encode(sha3::Keccak256::digest(
        serde_json::to_string(program).unwrap().as_bytes(),
    ))
}
