//! `CertificateVerifier.sol`: the contracts a bridge deploys beside the generated verifier,
//! exported with it and tied to it. `tms export-verifier` (through [`Contracts::build`]) writes
//! the verifier's code hash, public-input count, accumulator words and exact proof length into
//! the template ([`TEMPLATE`], [`wrapper_source`]); each statement kind is its own contract with
//! its layout fixed in its source:
//!
//! | contract | statement after the accumulator | [`Trusted`] |
//! |---|---|---|
//! | `AtmsCertificateVerifier` | `[commitment, keccak256(message) mod r, t]` | [`Trusted::Atms`] |
//! | `MithrilCertificateVerifier` | `[registration digest, keccak256(message) mod r]` | [`Trusted::Mithril`] |
//! | `MithrilBatchVerifier` | `[registration digest, keccak256(message_i) mod r]` for each of N messages | [`Trusted::MithrilBatch`] |
//! | `ChainVerifier` | `[genesis, last registration, keccak256(message) mod r, epochs]` | [`Trusted::Chain`] |
//!
//! A constructor reverts on an address without code (`NoVerifierCode`), on code other than the
//! exported verifier's (`WrongVerifier`), on a statement that does not fill the verifier's
//! public inputs (`LayoutMismatch`) and on a contract of another statement kind than the key's
//! (`WrongStatementKind`: the exporter writes [`StatementKind`] from the key file's header, so
//! a `MithrilBatchVerifier` of two certificates cannot stand in front of a chain key although
//! both statements have four words); a call with a proof of any other length reverts with
//! `WrongProofLength`. Proof bytes stay malleable (scalar words are reduced mod r), so the
//! `consume*` functions key replay protection on `keccak256(statement)`.
//!
//! This module encodes the constructors and calls by hand (the ABI of a few words and dynamic
//! `bytes` is short) and deploys a pair in a [`Machine`].

use std::collections::BTreeMap;

use halo2_base::halo2_proofs::{
    halo2curves::{
        bn256::{Bn256, Fr, G1Affine},
        ff::PrimeField,
    },
    plonk::VerifyingKey,
    poly::kzg::commitment::ParamsKZG,
};
use revm::primitives::Address;
use sha3::{Digest, Keccak256};

use crate::{
    machine::{Call, Machine},
    solc::{compile, compile_all, Compiled},
    verifier::{proof_length_for, verifier_source_for, CONTRACT},
    EvmError,
};
use tms_gadgets::proving::MultiOpen;

/// The contracts' Solidity template: [`wrapper_source`] fills in the verifier's constants.
pub const TEMPLATE: &str = include_str!("../contracts/CertificateVerifier.sol");
/// Its file name (the exported file's too).
pub const FILE: &str = "CertificateVerifier.sol";
/// The file name of gnark's exported Groth16 verifier.
pub const GROTH16_FILE: &str = "Groth16Verifier.sol";

/// A Groth16 verifier contract and how the contracts call it: `selector(signature) || the
/// proof's words || the statement`, its `verifyProof` reverting on a proof it refuses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Groth16Verifier {
    /// Its Solidity source.
    pub source: String,
    /// The contract's name in it.
    pub contract: String,
    /// The words of a proof, in the order the call takes them.
    pub proof_words: usize,
    /// The call's signature up to the statement: `verifyProof(uint256[8],` for gnark's
    /// `ExportSolidity` of a circuit without commitments, `verifyProof(uint256[8],uint256[2],
    /// uint256[2],` with one BSB22 commitment (static arrays are laid out in line, so both
    /// take the proof's words then the statement).
    pub signature_prefix: String,
    /// Its one public input is `keccak256(statement) mod r` (the statement's 32-byte words
    /// hashed in the circuit), not the statement's words.
    pub hashed_statement: bool,
    /// Accept a verifier whose key is INSECURE (its `SETUP` constant says so, or it has none):
    /// a seeded or single-process setup, whose toxic waste someone knows. Tests only.
    pub insecure_test_key: bool,
}

/// The `SETUP` constant the Groth16 exporter (`evm/groth16`) writes into a verifier: where
/// its key comes from (`"INSECURE seeded: <seed>"`, `"INSECURE single-process"`, or a
/// ceremony's description).
pub const GROTH16_SETUP_CONSTANT: &str = "string public constant SETUP = \"";

impl Groth16Verifier {
    /// The verifier's `SETUP` constant, if it has one.
    pub fn setup(&self) -> Option<&str> {
        let at = self.source.find(GROTH16_SETUP_CONSTANT)? + GROTH16_SETUP_CONSTANT.len();
        let len = self.source[at..].find('"')?;
        Some(&self.source[at..at + len])
    }

    /// Refuses an INSECURE key (or one of unknown origin: no `SETUP` constant) unless
    /// [`Self::insecure_test_key`].
    pub fn check_setup(&self) -> Result<(), EvmError> {
        match self.setup() {
            Some(setup) if !setup.starts_with("INSECURE") => Ok(()),
            _ if self.insecure_test_key => Ok(()),
            Some(setup) => Err(EvmError::Input(format!(
                "the Groth16 verifier's key is from an insecure setup ({setup}): for tests only"
            ))),
            None => Err(EvmError::Input(
                "the Groth16 verifier has no SETUP constant: its key's origin is unknown".into(),
            )),
        }
    }

    /// The verifier's `STATEMENT_KIND` (what its program proves); an error if it has none or
    /// an unknown one.
    pub fn statement_kind(&self) -> Result<StatementKind, EvmError> {
        let at = self
            .source
            .find(GROTH16_STATEMENT_KIND_CONSTANT)
            .map(|at| at + GROTH16_STATEMENT_KIND_CONSTANT.len())
            .ok_or_else(|| {
                EvmError::Input(
                    "the Groth16 verifier has no STATEMENT_KIND constant: what its key proves is \
                     unknown (re-export it from a program with its statement_kind)"
                        .into(),
                )
            })?;
        let len = self.source[at..]
            .find('"')
            .ok_or_else(|| EvmError::Input("STATEMENT_KIND is not a string".into()))?;
        StatementKind::from_name(&self.source[at..at + len])
    }

    /// The call's full signature for `num_inputs` statement words.
    pub fn signature(&self, num_inputs: usize) -> String {
        format!("{}uint256[{num_inputs}])", self.signature_prefix)
    }
}

/// What a verifying key proves, as the contracts of [`FILE`] name it: the exporter writes it
/// into their `STATEMENT_KIND` constant from the key file's header (a Groth16 verifier's from
/// its own `STATEMENT_KIND`, which `evm/groth16` writes from the program's `statement_kind`),
/// and each contract's constructor refuses a verifier of another kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StatementKind {
    /// No contract of [`FILE`] builds this key's statement (every constructor refuses it); a
    /// caller builds the public inputs itself.
    Unbound,
    /// `AtmsCertificateVerifier`: `[commitment, m, t]`.
    Atms,
    /// `MithrilCertificateVerifier`: `[registration, m]`.
    Mithril,
    /// `MithrilBatchVerifier`: `[registration, m_i]` for each of N certificates.
    MithrilBatch,
    /// `ChainVerifier`: `[genesis, last registration, m, epochs]`.
    Chain,
}

impl StatementKind {
    /// Every kind, in code order.
    pub const ALL: [Self; 5] = [
        Self::Unbound,
        Self::Atms,
        Self::Mithril,
        Self::MithrilBatch,
        Self::Chain,
    ];

    /// The `KIND_*` constant of [`FILE`] (`STATEMENT_KIND`'s value).
    pub fn code(self) -> u8 {
        match self {
            Self::Unbound => 0,
            Self::Atms => 1,
            Self::Mithril => 2,
            Self::MithrilBatch => 3,
            Self::Chain => 4,
        }
    }

    /// Its name in a Groth16 program and verifier (`statement_kind`, `STATEMENT_KIND`).
    pub fn name(self) -> &'static str {
        match self {
            Self::Unbound => "unbound",
            Self::Atms => "atms",
            Self::Mithril => "mithril",
            Self::MithrilBatch => "mithril-batch",
            Self::Chain => "chain",
        }
    }

    /// The kind named `name` ([`Self::name`]).
    pub fn from_name(name: &str) -> Result<Self, EvmError> {
        Self::ALL
            .into_iter()
            .find(|kind| kind.name() == name)
            .ok_or_else(|| EvmError::Input(format!("unknown statement kind {name:?}")))
    }
}

/// The `STATEMENT_KIND` constant the Groth16 exporter (`evm/groth16`) writes into a verifier.
pub const GROTH16_STATEMENT_KIND_CONSTANT: &str = "string public constant STATEMENT_KIND = \"";

/// What ties the contracts to one generated verifier: written into their source as constants.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Binding {
    /// keccak-256 of the verifier's deployed (runtime) code.
    pub verifier_codehash: [u8; 32],
    /// The verifier's public inputs (accumulator limbs included).
    pub num_instances: usize,
    /// Leading public inputs that are accumulator limbs (carried in front of the proof).
    pub accumulator_words: usize,
    /// The exact length of the verifier's proofs, in bytes.
    pub proof_length: usize,
    /// `None` for a generated Halo2 verifier; for gnark's Groth16 verifier, the selector of its
    /// `verifyProof(uint256[8],uint256[num_instances])`.
    pub groth16_selector: Option<[u8; 4]>,
    /// For a Groth16 verifier: its one public input is `keccak256(statement) mod r`.
    pub groth16_statement_hashed: bool,
    /// What the verifier's key proves: the one contract that may stand in front of it.
    pub statement_kind: StatementKind,
}

/// The template with `binding`'s constants written in; an error if the template lacks one of
/// them or keeps another placeholder.
pub fn wrapper_source(binding: &Binding) -> Result<String, EvmError> {
    let values = [
        (
            "VERIFIER_CODEHASH",
            format!("0x{}", hex::encode(binding.verifier_codehash)),
        ),
        ("NUM_INSTANCES", binding.num_instances.to_string()),
        ("ACCUMULATOR_WORDS", binding.accumulator_words.to_string()),
        ("PROOF_LENGTH", binding.proof_length.to_string()),
        (
            "GROTH16_SELECTOR",
            format!(
                "0x{}",
                hex::encode(binding.groth16_selector.unwrap_or_default())
            ),
        ),
        (
            "GROTH16_STATEMENT_HASHED",
            binding.groth16_statement_hashed.to_string(),
        ),
        ("STATEMENT_KIND", binding.statement_kind.code().to_string()),
    ];
    let mut source = TEMPLATE.to_string();
    for (name, value) in values {
        let placeholder = format!("{{{{{name}}}}}");
        if source.matches(&placeholder).count() != 1 {
            return Err(EvmError::Generation(format!(
                "{FILE}: {placeholder} is not in the template exactly once"
            )));
        }
        source = source.replace(&placeholder, &value);
    }
    if source.contains("{{") {
        return Err(EvmError::Generation(format!(
            "{FILE}: a placeholder is left"
        )));
    }
    Ok(source)
}

/// What a deployed contract trusts, and so which contract it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Trusted {
    /// `AtmsCertificateVerifier`: a Schnorr ATMS committee commitment and threshold.
    Atms {
        /// The committee commitment (flat digest or Merkle root).
        committee: Fr,
        /// The threshold every certificate must prove.
        threshold: u64,
    },
    /// `MithrilCertificateVerifier`: a SNARK-Mithril registration digest.
    Mithril {
        /// The registration digest.
        registration: Fr,
    },
    /// `MithrilBatchVerifier`: a SNARK-Mithril registration digest, for an aggregation of
    /// `certificates` certificates (N, fixed by the verifier the contract is exported with).
    MithrilBatch {
        /// The registration digest every certificate is for.
        registration: Fr,
        /// N: the certificates of every proof.
        certificates: usize,
    },
    /// `ChainVerifier`: the genesis registration digest of a Mithril chain.
    Chain {
        /// The digest of the registration that signs epoch 0.
        genesis: Fr,
    },
}

impl Trusted {
    /// The contract's name in [`FILE`].
    pub fn contract(&self) -> &'static str {
        match self {
            Self::Atms { .. } => "AtmsCertificateVerifier",
            Self::Mithril { .. } => "MithrilCertificateVerifier",
            Self::MithrilBatch { .. } => "MithrilBatchVerifier",
            Self::Chain { .. } => "ChainVerifier",
        }
    }

    /// Its statement kind: the contract's `KIND_*`.
    pub fn kind(&self) -> StatementKind {
        match self {
            Self::Atms { .. } => StatementKind::Atms,
            Self::Mithril { .. } => StatementKind::Mithril,
            Self::MithrilBatch { .. } => StatementKind::MithrilBatch,
            Self::Chain { .. } => StatementKind::Chain,
        }
    }

    /// Its statement's words (after the accumulator limbs).
    pub fn statement_words(&self) -> usize {
        match self {
            Self::Atms { .. } => 3,
            Self::Mithril { .. } => 2,
            Self::MithrilBatch { certificates, .. } => 2 * certificates,
            Self::Chain { .. } => 4,
        }
    }

    /// Its constructor's arguments after the verifier address.
    fn arguments(&self) -> Vec<[u8; 32]> {
        match self {
            Self::Atms {
                committee,
                threshold,
            } => vec![word_fr(committee), word_u64(*threshold)],
            Self::Mithril { registration } | Self::MithrilBatch { registration, .. } => {
                vec![word_fr(registration)]
            }
            Self::Chain { genesis } => vec![word_fr(genesis)],
        }
    }
}

/// The first four bytes of `keccak256(signature)`: a function's selector, or a custom error's
/// (revert data starts with it).
pub fn selector(signature: &str) -> [u8; 4] {
    let digest = Keccak256::digest(signature.as_bytes());
    [digest[0], digest[1], digest[2], digest[3]]
}

/// Whether `output` (revert data) is the custom error `signature`, e.g. `"NoVerifierCode()"`.
pub fn is_error(output: &[u8], signature: &str) -> bool {
    output.len() >= 4 && output[..4] == selector(signature)
}

/// A 32-byte big-endian word of a field element.
pub fn word_fr(x: &Fr) -> [u8; 32] {
    let mut w = x.to_repr();
    w.reverse();
    w
}

/// A 32-byte big-endian word of an integer.
pub fn word_u64(x: u64) -> [u8; 32] {
    let mut w = [0u8; 32];
    w[24..].copy_from_slice(&x.to_be_bytes());
    w
}

/// One ABI argument.
enum Arg<'a> {
    Word([u8; 32]),
    Bytes(&'a [u8]),
    /// `bytes[]`.
    BytesArray(&'a [Vec<u8>]),
}

/// The tail encoding of one `bytes` value: its length, then its bytes padded to whole words.
fn encoded_bytes(bytes: &[u8]) -> Vec<u8> {
    let mut out = word_u64(bytes.len() as u64).to_vec();
    out.extend(bytes);
    out.resize(32 + bytes.len().div_ceil(32) * 32, 0);
    out
}

/// `selector(signature)` and `args`, ABI-encoded (static words in place, `bytes` and `bytes[]`
/// as offsets into the tail, each `bytes` padded to whole words; a `bytes[]` is its length, an
/// offset per element counted from just after the length, then the elements).
fn encode_call(signature: &str, args: &[Arg]) -> Vec<u8> {
    let mut head = selector(signature).to_vec();
    let mut tail = vec![];
    for arg in args {
        match arg {
            Arg::Word(w) => head.extend(w),
            Arg::Bytes(bytes) => {
                head.extend(word_u64((32 * args.len() + tail.len()) as u64));
                tail.extend(encoded_bytes(bytes));
            }
            Arg::BytesArray(items) => {
                head.extend(word_u64((32 * args.len() + tail.len()) as u64));
                tail.extend(word_u64(items.len() as u64));
                let elements: Vec<Vec<u8>> = items.iter().map(|b| encoded_bytes(b)).collect();
                let mut offset = 32 * items.len();
                for element in &elements {
                    tail.extend(word_u64(offset as u64));
                    offset += element.len();
                }
                tail.extend(elements.concat());
            }
        }
    }
    head.extend(tail);
    head
}

/// The calldata of `verifyCertificate(message, proof)` (ATMS and Mithril).
pub fn verify_certificate_calldata(message: &[u8], proof: &[u8]) -> Vec<u8> {
    encode_call(
        "verifyCertificate(bytes,bytes)",
        &[Arg::Bytes(message), Arg::Bytes(proof)],
    )
}

/// The calldata of `consumeCertificate(message, proof)` (ATMS and Mithril).
pub fn consume_certificate_calldata(message: &[u8], proof: &[u8]) -> Vec<u8> {
    encode_call(
        "consumeCertificate(bytes,bytes)",
        &[Arg::Bytes(message), Arg::Bytes(proof)],
    )
}

/// The calldata of `verifyCertificates(messages, proof)` (`MithrilBatchVerifier`).
pub fn verify_certificates_calldata(messages: &[Vec<u8>], proof: &[u8]) -> Vec<u8> {
    encode_call(
        "verifyCertificates(bytes[],bytes)",
        &[Arg::BytesArray(messages), Arg::Bytes(proof)],
    )
}

/// The calldata of `consumeCertificates(messages, proof)` (`MithrilBatchVerifier`).
pub fn consume_certificates_calldata(messages: &[Vec<u8>], proof: &[u8]) -> Vec<u8> {
    encode_call(
        "consumeCertificates(bytes[],bytes)",
        &[Arg::BytesArray(messages), Arg::Bytes(proof)],
    )
}

/// The calldata of `verifyChain(lastRegistration, message, epochs, proof)`.
pub fn verify_chain_calldata(
    last_registration: &Fr,
    message: &[u8],
    epochs: u64,
    proof: &[u8],
) -> Vec<u8> {
    encode_call(
        "verifyChain(uint256,bytes,uint256,bytes)",
        &[
            Arg::Word(word_fr(last_registration)),
            Arg::Bytes(message),
            Arg::Word(word_u64(epochs)),
            Arg::Bytes(proof),
        ],
    )
}

/// The generated verifier and the contracts tied to it, compiled.
#[derive(Clone, Debug)]
pub struct Contracts {
    /// The generated Halo2 verifier's Solidity source.
    pub verifier_source: String,
    /// The generated verifier, compiled.
    pub verifier: Compiled,
    /// What the contracts were tied to.
    pub binding: Binding,
    /// [`FILE`] with the binding written in.
    pub wrapper_source: String,
    /// Its contracts, compiled, by name.
    pub wrappers: BTreeMap<String, Compiled>,
}

impl Contracts {
    /// Generates the verifier of `vk` for `num_instances` public inputs, ties the contracts to
    /// it and to `kind` (what the key proves, from its key file) and compiles them.
    pub fn build(
        params: &ParamsKZG<Bn256>,
        vk: &VerifyingKey<G1Affine>,
        num_instances: usize,
        kind: StatementKind,
    ) -> Result<Self, EvmError> {
        Self::build_with_accumulator(params, vk, num_instances, 0, kind)
    }

    /// [`Self::build`] for an outer proof whose first `accumulator_limbs` public inputs are a
    /// KZG accumulator.
    pub fn build_with_accumulator(
        params: &ParamsKZG<Bn256>,
        vk: &VerifyingKey<G1Affine>,
        num_instances: usize,
        accumulator_limbs: usize,
        kind: StatementKind,
    ) -> Result<Self, EvmError> {
        Self::build_for(
            params,
            vk,
            num_instances,
            accumulator_limbs,
            MultiOpen::Shplonk,
            kind,
        )
    }

    /// [`Self::build_with_accumulator`] for proofs that end with the multi-opening argument
    /// `open` (the verifier and the proof length are `open`'s).
    pub fn build_for(
        params: &ParamsKZG<Bn256>,
        vk: &VerifyingKey<G1Affine>,
        num_instances: usize,
        accumulator_limbs: usize,
        open: MultiOpen,
        kind: StatementKind,
    ) -> Result<Self, EvmError> {
        let verifier_source =
            verifier_source_for(params, vk, num_instances, accumulator_limbs, open)?;
        let verifier = compile(
            &[("Halo2Verifier.sol", &verifier_source)],
            "Halo2Verifier.sol",
            CONTRACT,
            false,
        )?;
        let binding = Binding {
            verifier_codehash: Keccak256::digest(&verifier.runtime).into(),
            num_instances,
            accumulator_words: accumulator_limbs,
            proof_length: proof_length_for(params, vk, num_instances, accumulator_limbs, open)?,
            groth16_selector: None,
            groth16_statement_hashed: false,
            statement_kind: kind,
        };
        let wrapper_source = wrapper_source(&binding)?;
        let wrappers = compile_all(&[(FILE, &wrapper_source)], FILE, true)?;
        Ok(Self {
            verifier_source,
            verifier,
            binding,
            wrapper_source,
            wrappers,
        })
    }

    /// Ties the contracts to a Groth16 verifier of a halo2 proof ([`crate::groth16`]) whose
    /// public inputs are the statement of `num_inputs` words alone, or its hash (the halo2
    /// proof's accumulator, if any, is checked inside the Groth16 circuit).
    /// Refuses a verifier of an insecure setup unless the caller says it is a test
    /// ([`Groth16Verifier::insecure_test_key`]).
    /// The statement kind is the verifier's own `STATEMENT_KIND` (written by the exporter from
    /// its program): one without it is refused.
    pub fn for_groth16(verifier: &Groth16Verifier, num_inputs: usize) -> Result<Self, EvmError> {
        verifier.check_setup()?;
        let statement_kind = verifier.statement_kind()?;
        let compiled = compile(
            &[(GROTH16_FILE, &verifier.source)],
            GROTH16_FILE,
            &verifier.contract,
            true,
        )?;
        let signature = verifier.signature(if verifier.hashed_statement {
            1
        } else {
            num_inputs
        });
        let binding = Binding {
            verifier_codehash: Keccak256::digest(&compiled.runtime).into(),
            num_instances: num_inputs,
            accumulator_words: 0,
            proof_length: 32 * verifier.proof_words,
            groth16_selector: Some(selector(&signature)),
            groth16_statement_hashed: verifier.hashed_statement,
            statement_kind,
        };
        let wrapper_source = wrapper_source(&binding)?;
        let wrappers = compile_all(&[(FILE, &wrapper_source)], FILE, true)?;
        Ok(Self {
            verifier_source: verifier.source.clone(),
            verifier: compiled,
            binding,
            wrapper_source,
            wrappers,
        })
    }

    /// The compiled contract for `trusted`.
    pub fn wrapper(&self, trusted: &Trusted) -> Result<&Compiled, EvmError> {
        self.wrappers
            .get(trusted.contract())
            .ok_or_else(|| EvmError::Compilation(format!("no {} in {FILE}", trusted.contract())))
    }

    /// The creation code of `trusted`'s contract with its constructor arguments: `verifier`,
    /// then what it trusts.
    pub fn creation_code(&self, trusted: &Trusted, verifier: Address) -> Result<Vec<u8>, EvmError> {
        let mut code = self.wrapper(trusted)?.creation.clone();
        let mut address = [0u8; 32];
        address[12..].copy_from_slice(verifier.as_slice());
        code.extend(address);
        for word in trusted.arguments() {
            code.extend(word);
        }
        Ok(code)
    }
}

/// A deployed verifier and the contract in front of it.
#[derive(Clone, Copy, Debug)]
pub struct Deployment {
    /// The generated verifier's address.
    pub verifier: Address,
    /// Its deployment gas.
    pub verifier_gas: u64,
    /// The contract's address.
    pub wrapper: Address,
    /// Its deployment gas.
    pub wrapper_gas: u64,
}

impl Deployment {
    /// Deploys the verifier and `trusted`'s contract in front of it in `machine`.
    pub fn deploy(
        machine: &mut Machine,
        contracts: &Contracts,
        trusted: &Trusted,
    ) -> Result<Self, EvmError> {
        let verifier = machine.deploy(contracts.verifier.creation.clone())?;
        let wrapper = machine.deploy(contracts.creation_code(trusted, verifier.address)?)?;
        Ok(Self {
            verifier: verifier.address,
            verifier_gas: verifier.gas,
            wrapper: wrapper.address,
            wrapper_gas: wrapper.gas,
        })
    }

    /// `verifyCertificate(message, proof)`: accepted if the call returns true.
    pub fn verify_certificate(
        &self,
        machine: &mut Machine,
        message: &[u8],
        proof: &[u8],
    ) -> Result<Call, EvmError> {
        let call = machine.call(self.wrapper, verify_certificate_calldata(message, proof))?;
        Ok(returned_true(call))
    }

    /// `consumeCertificate(message, proof)`: accepted if the call returns a statement key.
    pub fn consume_certificate(
        &self,
        machine: &mut Machine,
        message: &[u8],
        proof: &[u8],
    ) -> Result<Call, EvmError> {
        let mut call = machine.call(self.wrapper, consume_certificate_calldata(message, proof))?;
        call.success &= call.output.len() == 32;
        Ok(call)
    }

    /// `verifyCertificates(messages, proof)`: accepted if the call returns true.
    pub fn verify_certificates(
        &self,
        machine: &mut Machine,
        messages: &[Vec<u8>],
        proof: &[u8],
    ) -> Result<Call, EvmError> {
        let call = machine.call(self.wrapper, verify_certificates_calldata(messages, proof))?;
        Ok(returned_true(call))
    }

    /// `consumeCertificates(messages, proof)`: accepted if the call returns a statement key.
    pub fn consume_certificates(
        &self,
        machine: &mut Machine,
        messages: &[Vec<u8>],
        proof: &[u8],
    ) -> Result<Call, EvmError> {
        let mut call =
            machine.call(self.wrapper, consume_certificates_calldata(messages, proof))?;
        call.success &= call.output.len() == 32;
        Ok(call)
    }

    /// `verifyChain(lastRegistration, message, epochs, proof)`: accepted if it returns true.
    pub fn verify_chain(
        &self,
        machine: &mut Machine,
        last_registration: &Fr,
        message: &[u8],
        epochs: u64,
        proof: &[u8],
    ) -> Result<Call, EvmError> {
        let call = machine.call(
            self.wrapper,
            verify_chain_calldata(last_registration, message, epochs, proof),
        )?;
        Ok(returned_true(call))
    }
}

/// A successful call returns the ABI word `true`; anything else is a rejection.
fn returned_true(mut call: Call) -> Call {
    call.success &= call.output == word_u64(1);
    call
}

/// The on-chain cost of one certificate: sizes and gas, measured in a fresh [`Machine`] with the
/// EIP-170 limit lifted (so that a verifier over it is still measured; see `within_eip170`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GasReport {
    /// The generated verifier's deployed code, in bytes.
    pub verifier_bytes: usize,
    /// Whether it is at most EIP-170's limit (mainnet deploys it).
    pub within_eip170: bool,
    /// Gas of deploying the generated verifier.
    pub verifier_deploy_gas: u64,
    /// Gas of deploying the certificate contract.
    pub certificate_deploy_gas: u64,
    /// Gas of one transaction calling the generated verifier with the proof's calldata.
    pub verifier_call_gas: u64,
    /// Gas of one `verifyCertificate(message, proof)` transaction.
    pub certificate_call_gas: u64,
    /// The proof, in bytes.
    pub proof_bytes: usize,
}

impl GasReport {
    /// Deploys `contracts` for `trusted` (ATMS or Mithril), verifies `proof` of `public_inputs`
    /// (built by the caller from `trusted` and `message`) both ways, and reports; an error if
    /// either call rejects it. For an outer proof `proof` starts with the accumulator limbs, as
    /// `verifyCertificate` takes it.
    pub fn measure(
        contracts: &Contracts,
        trusted: &Trusted,
        public_inputs: &[Fr],
        message: &[u8],
        proof: &[u8],
    ) -> Result<Self, EvmError> {
        match trusted {
            Trusted::Chain { .. } => {
                return Err(EvmError::Input(
                    "a chain proof is verified by verifyChain, not verifyCertificate".into(),
                ))
            }
            Trusted::MithrilBatch { .. } => {
                return Err(EvmError::Input(
                    "a batch is verified by verifyCertificates, not verifyCertificate".into(),
                ))
            }
            Trusted::Atms { .. } | Trusted::Mithril { .. } => {}
        }
        let mut machine = Machine::new(false);
        let deployment = Deployment::deploy(&mut machine, contracts, trusted)?;
        // The raw verifier takes every public input (accumulator limbs included) up front.
        let split = (contracts.binding.accumulator_words * 32).min(proof.len());
        let raw = machine.call(
            deployment.verifier,
            crate::verifier::calldata(public_inputs, &proof[split..]),
        )?;
        let certificate = deployment.verify_certificate(&mut machine, message, proof)?;
        if !raw.success || !certificate.success {
            return Err(EvmError::Input(
                "the deployed verifier rejected the certificate".into(),
            ));
        }
        let verifier_bytes = contracts.verifier.runtime.len();
        Ok(Self {
            verifier_bytes,
            within_eip170: verifier_bytes <= crate::EIP170_LIMIT,
            verifier_deploy_gas: deployment.verifier_gas,
            certificate_deploy_gas: deployment.wrapper_gas,
            verifier_call_gas: raw.gas,
            certificate_call_gas: certificate.gas,
            proof_bytes: proof.len(),
        })
    }
}

impl std::fmt::Display for GasReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "verifier_bytes={} eip170={} verifier_deploy_gas={} certificate_deploy_gas={} \
             verifier_call_gas={} verify_certificate_gas={} evm_proof_bytes={}",
            self.verifier_bytes,
            if self.within_eip170 { "within" } else { "over" },
            self.verifier_deploy_gas,
            self.certificate_deploy_gas,
            self.verifier_call_gas,
            self.certificate_call_gas,
            self.proof_bytes
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selector_matches_the_solidity_abi() {
        // keccak256("transfer(address,uint256)")[..4], the best-known selector.
        assert_eq!(
            selector("transfer(address,uint256)"),
            [0xa9, 0x05, 0x9c, 0xbb]
        );
    }

    #[test]
    fn the_template_takes_every_constant() {
        let source = wrapper_source(&Binding {
            verifier_codehash: [0xab; 32],
            num_instances: 15,
            accumulator_words: 12,
            proof_length: 4800,
            groth16_selector: None,
            groth16_statement_hashed: false,
            statement_kind: StatementKind::Chain,
        })
        .unwrap();
        assert!(source.contains("STATEMENT_KIND = 4;"));
        assert!(source.contains("GROTH16_SELECTOR = 0x00000000;"));
        assert!(source.contains("GROTH16_STATEMENT_HASHED = false;"));
        assert!(source.contains(&format!("VERIFIER_CODEHASH = 0x{};", "ab".repeat(32))));
        assert!(source.contains("NUM_INSTANCES = 15;"));
        assert!(source.contains("ACCUMULATOR_WORDS = 12;"));
        assert!(source.contains("PROOF_LENGTH = 4800;"));
    }

    #[test]
    fn statement_kinds_match_the_template_constants() {
        for kind in StatementKind::ALL {
            assert_eq!(StatementKind::from_name(kind.name()).unwrap(), kind);
            if kind != StatementKind::Unbound {
                let constant = format!(
                    "uint256 internal constant KIND_{} = {};",
                    kind.name().to_uppercase().replace('-', "_"),
                    kind.code()
                );
                assert!(TEMPLATE.contains(&constant), "{constant}");
            }
        }
        assert!(StatementKind::from_name("batch").is_err());
        let verifier = |source: &str| Groth16Verifier {
            source: source.into(),
            contract: "Groth16Verifier".into(),
            proof_words: 12,
            signature_prefix: String::new(),
            hashed_statement: true,
            insecure_test_key: true,
        };
        assert_eq!(
            verifier(r#"string public constant STATEMENT_KIND = "chain";"#)
                .statement_kind()
                .unwrap(),
            StatementKind::Chain
        );
        assert!(verifier("contract Groth16Verifier {}")
            .statement_kind()
            .is_err());
    }

    #[test]
    fn static_words_stay_in_the_head() {
        let data = verify_chain_calldata(&Fr::from(5), &[7; 2], 8, &[9; 40]);
        // selector, four head words, (len, 1 word), (len, 2 words)
        assert_eq!(data.len(), 4 + 32 * 4 + 32 * 2 + 32 * 3);
        assert_eq!(data[4 + 31], 5);
        assert_eq!(data[4 + 63], 128);
        assert_eq!(data[4 + 95], 8);
        assert_eq!(data[4 + 127], 192);
        assert_eq!(data[4 + 128 + 31], 2);
        assert_eq!(data[4 + 192 + 31], 40);
    }

    #[test]
    fn a_bytes_array_is_its_length_offsets_and_elements() {
        let messages = vec![vec![1u8, 2, 3], vec![4u8; 33]];
        let data = verify_certificates_calldata(&messages, &[9; 2]);
        let word = |i: usize| &data[4 + 32 * i..4 + 32 * (i + 1)];
        let value = |i: usize| u64::from_be_bytes(word(i)[24..].try_into().unwrap());
        // head: offsets of the array (word 2) and of the proof.
        assert_eq!((value(0), value(1)), (64, 64 + 32 * 8));
        // the array: length 2, element offsets from just after the length: 64, 64 + 64.
        assert_eq!((value(2), value(3), value(4)), (2, 64, 128));
        assert_eq!((value(5), &word(6)[..3]), (3, &[1u8, 2, 3][..]));
        assert_eq!((value(7), word(8), word(9)[0]), (33, &[4u8; 32][..], 4));
        // the proof: length 2, one padded word.
        assert_eq!((value(10), &word(11)[..2]), (2, &[9u8, 9][..]));
        assert_eq!(data.len(), 4 + 32 * 12);
    }

    #[test]
    fn dynamic_arguments_are_padded_to_words() {
        let data = verify_certificate_calldata(&[1, 2, 3], &[9; 33]);
        // selector, two offsets, (len, 1 word), (len, 2 words)
        assert_eq!(data.len(), 4 + 32 * 2 + 32 * 2 + 32 * 3);
        assert_eq!(data[4 + 31], 64);
        assert_eq!(data[4 + 63], 128);
        assert_eq!(data[4 + 64 + 31], 3);
        assert_eq!(&data[4 + 96..4 + 99], &[1, 2, 3]);
        assert_eq!(data[4 + 128 + 31], 33);
    }
}
