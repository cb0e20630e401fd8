//! The subcommands: one module per scheme with its files and its side of the tool's interface
//! ([`crate::interface`]), the BN254 backend ([`Bn254`]; the Cardano one is in [`cardano`]),
//! aggregation, chains and chunks, and what every scheme shares here (parameters, the hash tool,
//! the checks of `verify` that do not depend on the scheme). Each command returns a one-line
//! error naming the file it concerns.

pub mod aggregate;
pub mod bls;
pub mod cardano;
pub mod chain;
pub mod chunk;
mod drive;
pub mod mithril;
pub mod mithril_cardano;
pub mod schnorr;

pub use crate::interface::{KeyTrust, ProofOutput, VerifyArgs};
pub use drive::driver;
pub(crate) use drive::Pair;

use std::path::Path;

use halo2_base::halo2_proofs::{
    halo2curves::bn256::Bn256,
    poly::{commitment::Params, kzg::commitment::ParamsKZG},
};
use serde::Serialize;
use tms_evm::{
    certificate::{self, Contracts, Trusted},
    machine::Machine,
    EIP170_LIMIT,
};
use tms_gadgets::{
    hash::{rescue::rescue_prime_hash, NativeHash, Poseidon, RescuePrime},
    proving::{
        keys::fingerprint,
        params::{insecure_test_params, is_insecure_test_params, params_from_ptau, sha256_hex},
        Transcript,
    },
    Fr,
};

use crate::{
    formats::{bytes_to_hex, fr_from_str, fr_to_hex, PublicFile},
    interface::{CertificateScheme, ProvingBackend},
    io::{at, load_params, read_bytes, sha_path, usage, write_atomic, Result},
    io::{CliError, INSECURE_WARNING},
    options::{HashMode, HashName, Scheme},
};

/// `tms setup`.
pub fn setup(k: u32, ptau: Option<&Path>, halo2: Option<&Path>, out: &Path) -> Result<()> {
    if !(10..=24).contains(&k) {
        return Err(usage(format!("--k: {k} is outside 10..=24")));
    }
    let bar = crate::io::spinner("making the parameters");
    let params = match (ptau, halo2) {
        (Some(path), _) => params_from_ptau(&read_bytes(path)?, k).map_err(|e| at(path, e))?,
        (None, Some(path)) => {
            let mut params = load_params(path)?;
            if params.k() < k {
                return Err(at(
                    path,
                    format!("holds 2^{} powers, 2^{k} are needed", params.k()),
                ));
            }
            if params.k() > k && is_insecure_test_params(&params) {
                // The powers a cut would keep, made in O(2^k) instead of by the FFT (a test
                // pins the bytes equal).
                bar.suspend(|| {
                    eprintln!(
                        "{}: insecure test parameters: made afresh for 2^{k} rows from the same \
                         seed (the same powers as a cut, without its Lagrange basis FFT)",
                        path.display()
                    )
                });
                params = insecure_test_params(k);
            } else if params.k() > k {
                // Downsizing recomputes the Lagrange basis (an FFT over curve points: 12
                // minutes from 2^21 to 2^20 here), so only a smaller k pays for it.
                params.downsize(k);
            }
            params
        }
        (None, None) => {
            bar.suspend(|| eprintln!("{INSECURE_WARNING}"));
            insecure_test_params(k)
        }
    };
    let mut bytes = vec![];
    params.write(&mut bytes).expect("writing to memory");
    let digest = sha256_hex(&bytes);
    write_atomic(out, &bytes)?;
    let name = out
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    write_atomic(&sha_path(out), format!("{digest}  {name}\n").as_bytes())?;
    bar.finish_and_clear();
    println!(
        "parameters for 2^{k} rows written to {} (sha256 {digest})",
        out.display()
    );
    Ok(())
}

/// `tms hash`.
pub fn hash(name: HashName, mode: HashMode, inputs: &[String]) -> Result<()> {
    let xs = inputs
        .iter()
        .enumerate()
        .map(|(i, s)| fr_from_str(s, &format!("input {i}")))
        .collect::<std::result::Result<Vec<Fr>, _>>()
        .map_err(CliError)?;
    let out = match (name, mode) {
        (_, HashMode::Node) if xs.len() != 2 => {
            return Err(usage("node mode hashes exactly two elements"))
        }
        (HashName::Poseidon, HashMode::Node) => Poseidon.hash_node(xs[0], xs[1]),
        (HashName::RescuePrime, HashMode::Node) => RescuePrime.hash_node(xs[0], xs[1]),
        (HashName::Poseidon, HashMode::Leaf) => Poseidon.hash_leaf(&xs).map_err(usage)?,
        (HashName::RescuePrime, HashMode::Leaf) => RescuePrime.hash_leaf(&xs).map_err(usage)?,
        (HashName::RescuePrime, HashMode::Sponge) => rescue_prime_hash(&xs)[0],
        (HashName::Poseidon, HashMode::Sponge) => {
            return Err(usage(
                "sponge mode is Rescue-Prime's padded hash; use --hash rescue-prime",
            ))
        }
    };
    println!("{}", fr_to_hex(&out));
    Ok(())
}

/// Keygen again from what the exporter holds: the verifying key file of a certificate shape.
type Regenerate<'a> = Box<dyn FnOnce(&ParamsKZG<Bn256>) -> Result<Vec<u8>> + 'a>;

/// The contract in front of a `tms aggregate` key whose header says `statement` ("aggregate
/// <scheme> x<N>"): one certificate (the final wrapper) gets that certificate's contract; N
/// SNARK-Mithril certificates `MithrilBatchVerifier` (N under one registration); `None` for N
/// certificates of an ATMS, whose statements a contract would take from the caller.
fn aggregate_contract(statement: &str) -> Option<Trusted> {
    let count: usize = statement.rsplit_once(" x")?.1.parse().ok()?;
    let scheme = <Scheme as clap::ValueEnum>::value_variants()
        .iter()
        .find(|s| aggregate::statement_name(**s, count) == statement)?;
    match (scheme, count) {
        (Scheme::SchnorrAtms | Scheme::BlsAtms, 1) => Some(Trusted::Atms {
            committee: Fr::zero(),
            threshold: 1,
        }),
        (Scheme::Mithril, 1) => Some(Trusted::Mithril {
            registration: Fr::zero(),
        }),
        (Scheme::Mithril, 2..) => Some(Trusted::MithrilBatch {
            registration: Fr::zero(),
            certificates: count,
        }),
        _ => None,
    }
}

/// `tms export-verifier`: the generated Solidity verifier of a verifying key file,
/// `CertificateVerifier.sol` tied to it (its code hash, public-input count, accumulator words
/// and exact proof length written in) and the creation bytecode of the verifier and of the
/// contract for the key's statement, written to `out`; both are deployed in revm, the contract
/// in front of the verifier, and the verifier's size is checked against EIP-170. An aggregation
/// key file (a chunk join or a chain root, `tms-aggregation-vk-v1`) says what it proves in its
/// header; any other key is `scheme`'s certificate key. A contract verifies whatever key it is
/// generated from, so the key file is trusted as by `verify` (`trust`: pinned, or for a
/// certificate key regenerated from its shape).
pub fn export_verifier(
    scheme: Scheme,
    trust: KeyTrust<'_>,
    params_path: &Path,
    out: &Path,
) -> Result<()> {
    use tms_aggregation::ACCUMULATOR_LIMBS;
    let vk_path = trust.vk;
    let params = load_params(params_path)?;
    let vk_file = trust.read()?;
    refuse_step_key(vk_path, &vk_file)?;
    // What regenerating the key takes: a certificate key's shape (an aggregation key needs its
    // inner keys: its own keygen command prints the fingerprint to pin).
    let mut regenerate: Option<Regenerate> = None;
    let on_vk = |e: &dyn std::fmt::Display| at(vk_path, e);
    // The contract in front of the verifier, with placeholder trusted values (a deployment
    // sets its own): none where a contract cannot build the statement.
    let atms = Trusted::Atms {
        committee: Fr::zero(),
        threshold: 1,
    };
    let (what, k, vk, num_instances, accumulator, trusted) =
        if let Ok((header, vk)) = tms_aggregation::read_vk_file(&vk_file) {
            let trusted = if header.statement == chain::STATEMENT
                || header.statement == chain::WRAPPED_STATEMENT
            {
                Some(Trusted::Chain {
                    genesis: Fr::zero(),
                })
            } else if header.statement.starts_with(chunk::STATEMENT) {
                Some(atms)
            } else {
                // `tms aggregate`: N statements in one proof (see `aggregate_contract`).
                aggregate_contract(&header.statement)
            };
            (
                header.statement,
                header.config.degree,
                vk,
                header.num_instances,
                ACCUMULATOR_LIMBS,
                trusted,
            )
        } else {
            match scheme {
                Scheme::SchnorrAtms => {
                    let (shape, vk) = schnorr_atms::read_vk(&vk_file).map_err(|e| on_vk(&e))?;
                    regenerate = Some(Box::new(move |p| {
                        schnorr::SchnorrBn254::regenerate_vk(p, &shape, vk_path)
                    }));
                    let n = schnorr_atms::AtmsInstance::NUM_PUBLIC_INPUTS;
                    (scheme.name().to_string(), shape.k, vk, n, 0, Some(atms))
                }
                Scheme::BlsAtms => {
                    // `[committee digest, m, t]`: the ATMS layout (the circuit hashes m to G2).
                    let (shape, vk) = bls_atms::read_vk(&vk_file).map_err(|e| on_vk(&e))?;
                    regenerate = Some(Box::new(move |p| {
                        bls::BlsBn254::regenerate_vk(p, &shape, vk_path)
                    }));
                    let n = bls_atms::AtmsInstance::NUM_PUBLIC_INPUTS;
                    (scheme.name().to_string(), shape.k, vk, n, 0, Some(atms))
                }
                Scheme::Mithril => {
                    let (shape, vk) = mithril_snark::read_vk(&vk_file).map_err(|e| on_vk(&e))?;
                    regenerate = Some(Box::new(move |p| {
                        mithril::MithrilBn254::regenerate_vk(p, &shape, vk_path)
                    }));
                    let n = mithril_snark::MithrilInstance::NUM_PUBLIC_INPUTS;
                    let trusted = Trusted::Mithril {
                        registration: Fr::zero(),
                    };
                    (scheme.name().to_string(), shape.k, vk, n, 0, Some(trusted))
                }
            }
        };
    check_params_k(params_path, params.k(), k)?;
    if trust.regenerate {
        let regenerate = regenerate.ok_or_else(|| {
            at(
                vk_path,
                "an aggregation key is regenerated from its inner keys: pin it with \
                 --vk-fingerprint (its keygen command printed it)",
            )
        })?;
        trust.check_regenerated(&vk_file, "its shape", || regenerate(&params))?;
    }
    let bar = crate::io::spinner("generating and compiling the verifier");
    // Not the key file's fault when solc-js is missing: the error names what to install.
    // The key's statement kind, from its header: the one contract that may stand in front.
    let kind = trusted
        .as_ref()
        .map_or(certificate::StatementKind::Unbound, Trusted::kind);
    let contracts =
        Contracts::build_with_accumulator(&params, &vk, num_instances, accumulator, kind)
            .map_err(|e| CliError(e.to_string()))?;
    bar.finish_and_clear();
    std::fs::create_dir_all(out).map_err(|e| at(out, e))?;
    let mut files: Vec<(String, Vec<u8>)> = vec![
        (
            "Halo2Verifier.sol".into(),
            contracts.verifier_source.clone().into_bytes(),
        ),
        (
            "Halo2Verifier.bin".into(),
            hex_line(&contracts.verifier.creation),
        ),
    ];
    if let Some(trusted) = &trusted {
        let wrapper = contracts
            .wrapper(trusted)
            .map_err(|e| CliError(e.to_string()))?;
        files.push((
            certificate::FILE.into(),
            contracts.wrapper_source.clone().into_bytes(),
        ));
        files.push((
            format!("{}.bin", trusted.contract()),
            hex_line(&wrapper.creation),
        ));
    }
    for (name, bytes) in &files {
        write_atomic(&out.join(name), bytes)?;
    }
    let mut machine = Machine::new(false);
    let deployed = machine
        .deploy(contracts.verifier.creation.clone())
        .map_err(|e| CliError(e.to_string()))?;
    let size = contracts.verifier.runtime.len();
    println!(
        "Halo2Verifier ({what}, {num_instances} public inputs, {accumulator} of them accumulator \
         limbs; proofs of exactly {} bytes): {size} bytes deployed ({}), deployment {} gas",
        contracts.binding.proof_length,
        if size <= EIP170_LIMIT {
            format!("within EIP-170's {EIP170_LIMIT}")
        } else {
            format!("OVER EIP-170's {EIP170_LIMIT}: mainnet refuses it")
        },
        deployed.gas
    );
    match trusted {
        Some(trusted) => {
            // The exported pair deploys together (the constructor checks the verifier's code).
            let code = contracts
                .creation_code(&trusted, deployed.address)
                .map_err(|e| CliError(e.to_string()))?;
            machine.deploy(code).map_err(|e| CliError(e.to_string()))?;
            let arguments = match trusted {
                Trusted::Atms { .. } => "committee commitment, threshold",
                Trusted::Mithril { .. } | Trusted::MithrilBatch { .. } => "registration digest",
                Trusted::Chain { .. } => "genesis registration digest",
            };
            println!(
                "{}: {} bytes deployed; constructor(verifier, {arguments}); tied to this \
                 Halo2Verifier.bin (code hash {}): deploy that file as written",
                trusted.contract(),
                contracts.wrapper(&trusted).map_or(0, |c| c.runtime.len()),
                bytes_to_hex(&contracts.binding.verifier_codehash),
            );
        }
        None => println!(
            "no contract for this statement in {}: a caller builds the public inputs itself, \
             as canonical words below r",
            certificate::FILE
        ),
    }
    println!("  {}", trust.describe(&vk_file));
    println!("written to {}", out.display());
    Ok(())
}

/// Refuses a chain step key (from its header alone): a step proof's last public input is the
/// digest of the key it was verified under, which a bare verifier does not check (a stand-in
/// circuit of the step's shape makes the base case, so any genesis would pass), so no contract
/// is made for it.
fn refuse_step_key(vk_path: &Path, vk_file: &[u8]) -> Result<()> {
    match tms_aggregation::snark::read_vk_header(vk_file) {
        Ok((header, _)) if header.statement == chain::STEP_STATEMENT => Err(at(
            vk_path,
            "a chain step key: its proofs carry the step key's digest, which a bare verifier \
             does not check; wrap the chain for contracts (`tms chain wrap`) and export the \
             wrapped key (`tms chain keygen --wrapped` makes it from the certificate key)",
        )),
        _ => Ok(()),
    }
}

/// KZG over BN254 (halo2-base): proofs a Solidity verifier checks in the EVM transcript.
pub struct Bn254;

impl ProvingBackend for Bn254 {
    const TAG: Option<&'static str> = None;
    type Params = ParamsKZG<Bn256>;
    type Scalar = Fr;

    fn load_params(path: &Path) -> Result<ParamsKZG<Bn256>> {
        load_params(path)
    }

    fn params_k(params: &ParamsKZG<Bn256>) -> u32 {
        params.k()
    }

    fn test_params(k: u32) -> ParamsKZG<Bn256> {
        tms_gadgets::proving::params::kzg_params(k)
    }

    fn check_transcript(_: Transcript) -> Result<()> {
        Ok(())
    }

    // A KZG verifier needs only the setup's generators and `[s]G2`, the same at every size.
    fn check_verifier_params(_: &Path, _: &ParamsKZG<Bn256>, _: u32) -> Result<()> {
        Ok(())
    }

    fn write_proof<S: Serialize>(
        out: &ProofOutput,
        proof: &[u8],
        public: &PublicFile<S>,
        public_inputs: &[Fr],
        seconds: f64,
    ) -> Result<()> {
        out.write(proof, public, public_inputs, seconds)
    }

    fn rejected(args: &VerifyArgs) -> CliError {
        proof_rejected(args)
    }
}

fn hex_line(bytes: &[u8]) -> Vec<u8> {
    format!("{}\n", bytes_to_hex(bytes)).into_bytes()
}

/// Refuses a prover's statement that differs from the one the verifier built from what it
/// trusts, naming the first field that differs.
pub fn check_statement<S: PartialEq + Serialize>(
    args: &VerifyArgs,
    public: Option<&PublicFile<S>>,
    trusted: &PublicFile<S>,
) -> Result<()> {
    let (Some(public), Some(path)) = (public, args.public.as_deref()) else {
        return Ok(());
    };
    if public.shape != trusted.shape {
        return Err(at(
            path,
            format!(
                "circuit shape {} differs from the verifying key's {}",
                serde_json::to_string(&public.shape).expect("serializable"),
                serde_json::to_string(&trusted.shape).expect("serializable")
            ),
        ));
    }
    let fields = [
        ("commitment", &public.commitment, &trusted.commitment),
        ("message", &public.message, &trusted.message),
    ];
    for (name, theirs, ours) in fields {
        if !theirs.eq_ignore_ascii_case(ours) {
            return Err(at(
                path,
                format!("{name} {theirs} differs from the trusted {name} {ours}"),
            ));
        }
    }
    Ok(())
}

/// A one-line description of a message for the verdict: its bytes (shortened) and `m`.
pub fn describe_message(bytes: &[u8], m: &Fr) -> String {
    describe_message_bytes(bytes, &fr_to_hex(m))
}

/// [`describe_message`] with `m` already in hex (for fields other than BN254's).
pub fn describe_message_bytes(bytes: &[u8], m: &str) -> String {
    let hex = bytes_to_hex(bytes);
    let shown = if hex.len() > 42 {
        format!("{}..({} bytes)", &hex[..42], bytes.len())
    } else {
        hex
    };
    format!("message {shown} (m = {m})")
}

/// Refuses parameters of another size than the proving key's.
pub fn check_params_k(params_path: &Path, params_k: u32, key_k: u32) -> Result<()> {
    if params_k != key_k {
        return Err(at(
            params_path,
            format!("parameters are for k = {params_k}, the proving key for k = {key_k}"),
        ));
    }
    Ok(())
}

/// Refuses a committee of another size than the key's.
pub fn check_members(path: &Path, members: usize, key_n: usize, key: &str) -> Result<()> {
    if members != key_n {
        return Err(at(
            path,
            format!("has {members} members, the {key} is for {key_n}"),
        ));
    }
    Ok(())
}

/// Writes both key files and returns the verifying key file's fingerprint.
pub fn write_keys(pk: &Path, vk: &Path, pk_bytes: &[u8], vk_bytes: &[u8]) -> Result<String> {
    write_atomic(pk, pk_bytes)?;
    write_atomic(vk, vk_bytes)?;
    Ok(fingerprint(vk_bytes))
}

/// The error for a proof that does not verify, with a hint about the transcript.
pub fn proof_rejected(args: &VerifyArgs) -> CliError {
    let other = match args.transcript {
        Transcript::Blake2b => "evm",
        Transcript::Evm | Transcript::Poseidon => "blake2b",
    };
    at(
        &args.proof,
        format!(
            "the proof does not verify for the trusted statement in the {} transcript (a proof \
             made with `tms prove --transcript {other}` needs `--transcript {other}`)",
            args.transcript.name()
        ),
    )
}

/// Times the four steps of a demo and prints the summary table.
pub struct DemoClock {
    times: Vec<std::time::Duration>,
    start: std::time::Instant,
}

impl DemoClock {
    /// Starts the first step.
    pub fn start() -> Self {
        Self {
            times: vec![],
            start: std::time::Instant::now(),
        }
    }

    /// Ends a step and starts the next.
    pub fn lap(&mut self) {
        self.times.push(self.start.elapsed());
        self.start = std::time::Instant::now();
    }

    /// Prints the table: the circuit, parameters, keygen, prove and verify times, proof size.
    pub fn print(&self, circuit: &str, proof_bytes: usize) {
        let secs = |i: usize| self.times.get(i).map_or(0.0, |d| d.as_secs_f64());
        println!();
        println!("| what | value |");
        println!("|---|---|");
        println!("| circuit | {circuit} |");
        println!("| parameters (insecure, test) | {:.1} s |", secs(0));
        println!("| keygen | {:.1} s |", secs(1));
        println!("| prove | {:.1} s |", secs(2));
        println!("| verify | {:.1} ms |", secs(3) * 1e3);
        println!("| proof | {proof_bytes} bytes |");
        println!("| verified | true |");
    }
}

#[cfg(test)]
mod aggregate_contract_tests {
    use super::*;

    #[test]
    fn one_certificate_gets_its_contract_and_n_mithril_the_batch() {
        let name = |statement: &str| aggregate_contract(statement).map(|t| t.contract());
        assert_eq!(
            name("aggregate schnorr-atms x1"),
            Some("AtmsCertificateVerifier")
        );
        assert_eq!(
            name("aggregate bls-atms x1"),
            Some("AtmsCertificateVerifier")
        );
        assert_eq!(
            name("aggregate mithril x1"),
            Some("MithrilCertificateVerifier")
        );
        assert_eq!(name("aggregate mithril x2"), Some("MithrilBatchVerifier"));
        assert_eq!(
            aggregate_contract("aggregate mithril x4").map(|t| t.statement_words()),
            Some(8)
        );
        assert_eq!(name("aggregate schnorr-atms x11"), None);
        assert_eq!(name("aggregate mithril x"), None);
        assert_eq!(name("aggregate mithril x0"), None);
        assert_eq!(name("aggregate mithril x2 "), None);
        assert_eq!(name("mithril-chain"), None);
    }
}
