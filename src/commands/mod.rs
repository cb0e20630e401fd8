//! The subcommands: one module per scheme, and what every scheme shares here (parameters, the
//! hash tool, and the checks of `verify` that do not depend on the scheme). Each command returns
//! a one-line error naming the file it concerns.

pub mod aggregate;
pub mod bls;
pub mod cardano;
pub mod chain;
pub mod chunk;
pub mod mithril;
pub mod schnorr;

use std::path::{Path, PathBuf};

use halo2_base::halo2_proofs::{
    halo2curves::bn256::Bn256,
    poly::{commitment::Params, kzg::commitment::ParamsKZG},
};
use serde::{de::DeserializeOwned, Serialize};
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
    io::{at, load_params, read_bytes, read_json, sha_path, usage, write_atomic, Result},
    io::{CliError, INSECURE_WARNING},
    options::{HashMode, HashName, Scheme},
};

/// `tms setup`.
pub fn setup(k: u32, ptau: Option<&Path>, halo2: Option<&Path>, out: &Path) -> Result<()> {
    if !(10..=24).contains(&k) {
        return Err(usage(format!("--k: {k} is outside 10..=24")));
    }
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
                eprintln!(
                    "{}: insecure test parameters: made afresh for 2^{k} rows from the same \
                     seed (the same powers as a cut, without its Lagrange basis FFT)",
                    path.display()
                );
                params = insecure_test_params(k);
            } else if params.k() > k {
                // Downsizing recomputes the Lagrange basis (an FFT over curve points: 12
                // minutes from 2^21 to 2^20 here), so only a smaller k pays for it.
                params.downsize(k);
            }
            params
        }
        (None, None) => {
            eprintln!("{INSECURE_WARNING}");
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

/// `tms export-verifier`: the generated Solidity verifier of a verifying key file,
/// `CertificateVerifier.sol` tied to it (its code hash, public-input count, accumulator words
/// and exact proof length written in) and the creation bytecode of the verifier and of the
/// contract for the key's statement, written to `out`; both are deployed in revm, the contract
/// in front of the verifier, and the verifier's size is checked against EIP-170. An aggregation
/// key file (a chunk join or a chain root, `tms-aggregation-vk-v1`) says what it proves in its
/// header; any other key is `scheme`'s certificate key.
pub fn export_verifier(
    scheme: Scheme,
    vk_path: &Path,
    params_path: &Path,
    out: &Path,
) -> Result<()> {
    use tms_aggregation::ACCUMULATOR_LIMBS;
    let params = load_params(params_path)?;
    let vk_file = read_bytes(vk_path)?;
    let on_vk = |e: &dyn std::fmt::Display| at(vk_path, e);
    // The contract in front of the verifier, with placeholder trusted values (a deployment
    // sets its own): none where a contract cannot build the statement.
    let atms = Trusted::Atms {
        committee: Fr::zero(),
        threshold: 1,
    };
    let (what, k, vk, num_instances, accumulator, trusted) =
        if let Ok((header, vk)) = tms_aggregation::read_vk_file(&vk_file) {
            let trusted = if header.statement == chain::STATEMENT {
                Some(Trusted::Chain {
                    genesis: Fr::zero(),
                })
            } else if header.statement.starts_with(chunk::STATEMENT) {
                Some(atms)
            } else {
                // `tms aggregate`: N statements in one proof, checked by the verifier alone.
                None
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
                    let n = schnorr_atms::AtmsInstance::NUM_PUBLIC_INPUTS;
                    (scheme.name().to_string(), shape.k, vk, n, 0, Some(atms))
                }
                Scheme::BlsAtms => {
                    // Its message input is a digest of H(m) in G2, which no contract builds yet.
                    let (shape, vk) = bls_atms::read_vk(&vk_file).map_err(|e| on_vk(&e))?;
                    let n = bls_atms::AtmsInstance::NUM_PUBLIC_INPUTS;
                    (scheme.name().to_string(), shape.k, vk, n, 0, None)
                }
                Scheme::Mithril => {
                    let (shape, vk) = mithril_snark::read_vk(&vk_file).map_err(|e| on_vk(&e))?;
                    let n = mithril_snark::MithrilInstance::NUM_PUBLIC_INPUTS;
                    let trusted = Trusted::Mithril {
                        registration: Fr::zero(),
                    };
                    (scheme.name().to_string(), shape.k, vk, n, 0, Some(trusted))
                }
            }
        };
    check_params_k(params_path, params.k(), k)?;
    let bar = crate::io::spinner("generating and compiling the verifier");
    // Not the key file's fault when solc-js is missing: the error names what to install.
    let contracts = Contracts::build_with_accumulator(&params, &vk, num_instances, accumulator)
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
                Trusted::Mithril { .. } => "registration digest",
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
    println!("written to {}", out.display());
    Ok(())
}

fn hex_line(bytes: &[u8]) -> Vec<u8> {
    format!("{}\n", bytes_to_hex(bytes)).into_bytes()
}

/// What `tms verify` is given, for every scheme.
pub struct VerifyArgs {
    /// The scheme.
    pub scheme: Scheme,
    /// KZG parameters.
    pub params: PathBuf,
    /// Verifying key file.
    pub vk: PathBuf,
    /// Proof file.
    pub proof: PathBuf,
    /// The trusted committee or registration file.
    pub committee: Option<PathBuf>,
    /// Or the trusted commitment.
    pub commitment: Option<String>,
    /// The message bytes.
    pub message: Vec<u8>,
    /// The threshold the verifier requires (ATMS).
    pub threshold: Option<u64>,
    /// The prover's statement, checked against the trusted one.
    pub public: Option<PathBuf>,
    /// The expected SHA-256 of the verifying key file.
    pub vk_fingerprint: Option<String>,
    /// Regenerate the verifying key from its shape and compare.
    pub regenerate_vk: bool,
    /// The transcript the proof was made in.
    pub transcript: Transcript,
}

/// What `verify` opens for every scheme: the parameters, the verifying key file and what
/// `read_vk` makes of it, and the prover's statement if given.
type Opened<K, S> = (ParamsKZG<Bn256>, Vec<u8>, K, Option<PublicFile<S>>);

impl VerifyArgs {
    /// Loads the parameters, the verifying key file (checked against `--vk-fingerprint`), reads
    /// it with `read_vk`, and reads the prover's statement if given.
    pub fn open<K, S: DeserializeOwned, E: std::fmt::Display>(
        &self,
        read_vk: impl FnOnce(&[u8]) -> std::result::Result<K, E>,
    ) -> Result<Opened<K, S>> {
        let params = load_params(&self.params)?;
        let vk_file = self.vk_file()?;
        let key = read_vk(&vk_file).map_err(|e| at(&self.vk, e))?;
        let public = self.public_file::<S>()?;
        Ok((params, vk_file, key, public))
    }

    /// How the verifying key file is trusted.
    pub fn key_trust(&self) -> KeyTrust<'_> {
        KeyTrust {
            vk: &self.vk,
            fingerprint: self.vk_fingerprint.as_deref(),
            regenerate: self.regenerate_vk,
        }
    }

    /// The verifying key file: refused unless pinned (`--vk-fingerprint`, checked here) or to be
    /// regenerated (`--regenerate-vk`, checked by [`VerifyArgs::check_regenerated`]).
    pub fn vk_file(&self) -> Result<Vec<u8>> {
        self.key_trust().read()
    }

    /// The prover's statement file, if given.
    pub fn public_file<S: DeserializeOwned>(&self) -> Result<Option<PublicFile<S>>> {
        self.public
            .as_deref()
            .map(|p| read_json(p, self.scheme))
            .transpose()
    }

    /// The threshold: `--threshold` if given, else the statement file's; both given must agree.
    pub fn threshold<S>(&self, public: Option<&PublicFile<S>>) -> Result<u64> {
        match (self.threshold, public) {
            (Some(t), Some(p)) if p.threshold != t => Err(at(
                self.public.as_deref().expect("public file given"),
                format!("threshold {} differs from --threshold {t}", p.threshold),
            )),
            (Some(t), _) => Ok(t),
            (None, Some(p)) => Ok(p.threshold),
            (None, None) => Err(usage(
                "give --threshold (or the prover's --public statement to read it from)",
            )),
        }
    }
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

/// Where `tms prove` writes, and in which transcript it proves.
pub struct ProofOutput {
    /// The proof file.
    pub proof: PathBuf,
    /// The prover's statement file.
    pub public: PathBuf,
    /// The transcript.
    pub transcript: Transcript,
}

impl ProofOutput {
    /// The calldata file written beside an EVM proof: `<proof>.calldata`, hex.
    pub fn calldata_path(&self) -> PathBuf {
        let mut name = self.proof.clone().into_os_string();
        name.push(".calldata");
        PathBuf::from(name)
    }

    /// Writes the proof and the prover's statement, and says so. An EVM proof also gets its
    /// verifier calldata (`public_inputs` as 32-byte big-endian words, then the proof) in hex.
    pub fn write<S: Serialize>(
        &self,
        proof: &[u8],
        public: &PublicFile<S>,
        public_inputs: &[Fr],
        seconds: f64,
    ) -> Result<()> {
        write_atomic(&self.proof, proof)?;
        crate::io::write_json(&self.public, public)?;
        println!(
            "proof ({} bytes, {} transcript, {seconds:.1} s) written to {}",
            proof.len(),
            self.transcript.name(),
            self.proof.display()
        );
        if self.transcript == Transcript::Evm {
            let calldata = tms_evm::verifier::calldata(public_inputs, proof);
            let path = self.calldata_path();
            write_atomic(&path, format!("{}\n", bytes_to_hex(&calldata)).as_bytes())?;
            println!(
                "verifier calldata ({} bytes) written to {}",
                calldata.len(),
                path.display()
            );
        }
        Ok(())
    }
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

impl VerifyArgs {
    /// With `--regenerate-vk`: refuses a verifying key file that `regenerate` (keygen for the
    /// file's shape) does not reproduce byte for byte.
    pub fn check_regenerated<E: std::fmt::Display>(
        &self,
        vk_file: &[u8],
        regenerate: impl FnOnce() -> std::result::Result<Vec<u8>, E>,
    ) -> Result<()> {
        self.key_trust()
            .check_regenerated(vk_file, "its shape", || {
                regenerate().map_err(|e| at(&self.vk, e))
            })
    }
}

/// How a verify command trusts its verifying key file. Anyone can write a key file (for a
/// circuit that proves nothing, labelled as ours), so a file is used only when the verifier has
/// pinned its fingerprint (`--vk-fingerprint`, printed by the keygen the verifier ran or
/// audited) or regenerates it from what it holds (`--regenerate-vk`: keygen is deterministic).
#[derive(Clone, Copy, Debug)]
pub struct KeyTrust<'a> {
    /// The verifying key file.
    pub vk: &'a Path,
    /// `--vk-fingerprint`: the file's expected SHA-256.
    pub fingerprint: Option<&'a str>,
    /// `--regenerate-vk`.
    pub regenerate: bool,
}

impl KeyTrust<'_> {
    /// The key file, checked against the pinned fingerprint; refused when neither pinned nor to
    /// be regenerated, with one line naming both ways.
    pub fn read(&self) -> Result<Vec<u8>> {
        if self.fingerprint.is_none() && !self.regenerate {
            return Err(at(
                self.vk,
                "a verifying key file is trusted only when pinned or regenerated: give \
                 --vk-fingerprint HEX (the fingerprint the keygen you ran printed) or \
                 --regenerate-vk (keygen again from what you hold)",
            ));
        }
        let bytes = read_bytes(self.vk)?;
        if let Some(expected) = self.fingerprint {
            let actual = fingerprint(&bytes);
            if !actual.eq_ignore_ascii_case(expected.trim_start_matches("0x")) {
                return Err(at(
                    self.vk,
                    format!("fingerprint {actual} differs from --vk-fingerprint {expected}"),
                ));
            }
        }
        Ok(bytes)
    }

    /// With `--regenerate-vk`: refuses a key file that `regenerate` (keygen from `from`, what the
    /// verifier holds) does not reproduce byte for byte.
    pub fn check_regenerated(
        &self,
        vk_file: &[u8],
        from: &str,
        regenerate: impl FnOnce() -> Result<Vec<u8>>,
    ) -> Result<()> {
        if !self.regenerate {
            return Ok(());
        }
        let bar = crate::io::spinner("regenerating the verifying key");
        let regenerated = regenerate()?;
        bar.finish_and_clear();
        if regenerated != vk_file {
            return Err(at(
                self.vk,
                format!("differs from the verifying key regenerated from {from}"),
            ));
        }
        Ok(())
    }

    /// How the key was trusted, for the verdict.
    pub fn describe(&self, vk_file: &[u8]) -> String {
        match (self.fingerprint, self.regenerate) {
            (_, true) => format!(
                "verifying key regenerated (sha256 {})",
                fingerprint(vk_file)
            ),
            _ => format!("verifying key pinned (sha256 {})", fingerprint(vk_file)),
        }
    }
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
