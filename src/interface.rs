//! The one interface every (scheme, backend) pair goes through.
//!
//! A [`ProvingBackend`] owns what does not depend on the scheme: its parameters, the transcripts
//! it proves in, how its files are tagged and how a proof is written. A [`CertificateScheme`]
//! proved on a backend owns what does: its files (keys, signatures, certificates), its circuit
//! shape, the witness of a certificate, and the statement a verifier builds from what it holds.
//! The flows of `keygen`, `prove`, `verify` and `demo` are written once over any pair
//! (`commands::drive`); [`crate::commands::driver`] hands a command the pair it names. Adding a
//! scheme or a backend means implementing one of the two traits, not copying a command module.

use std::{
    fmt::Debug,
    path::{Path, PathBuf},
};

use serde::{de::DeserializeOwned, Serialize};
use tms_gadgets::{
    proving::{keys::fingerprint, Transcript},
    Fr,
};

use crate::{
    formats::{bytes_to_hex, PublicFile},
    io::{at, read_bytes, usage, write_atomic, CliError, Result},
    options::{Mode, Scheme},
};

/// What a proving backend does for every scheme.
pub trait ProvingBackend {
    /// The tag in this backend's file headers (`None`: BN254, whose files carry none).
    const TAG: Option<&'static str>;
    /// KZG parameters.
    type Params;
    /// The field of the public inputs.
    type Scalar;
    /// A verifying key.
    type Vk;

    /// Reads parameters from a file, refusing another backend's.
    fn load_params(path: &Path) -> Result<Self::Params>;
    /// log2 of the rows the parameters serve.
    fn params_k(params: &Self::Params) -> u32;
    /// The insecure parameters of the demos (fixed public seed).
    fn test_params(k: u32) -> Self::Params;
    /// Refuses a transcript this backend does not prove in.
    fn check_transcript(transcript: Transcript) -> Result<()>;
    /// Refuses parameters a verifier cannot use with a key of `key_k`.
    fn check_verifier_params(path: &Path, params: &Self::Params, key_k: u32) -> Result<()>;
    /// Writes the proof and the prover's statement; the lines that say so.
    fn write_proof<S: Serialize>(
        out: &ProofOutput,
        proof: &[u8],
        public: &PublicFile<S>,
        public_inputs: &[Self::Scalar],
        seconds: f64,
    ) -> Result<Vec<String>>;
    /// The error for a proof that does not verify for the trusted statement.
    fn rejected(args: &VerifyArgs) -> CliError;
}

/// What `tms committee` is given.
pub struct CommitteeArgs {
    /// Members.
    pub size: usize,
    /// Seed of the keys (else the OS).
    pub seed: Option<u64>,
    /// Each member's stake (Mithril).
    pub stake: u64,
    /// The committee (or stakes) file.
    pub out: PathBuf,
    /// Where the secret keys go.
    pub keys_dir: PathBuf,
}

/// What `tms sign` is given.
pub struct SignArgs {
    /// The member's secret key file.
    pub key: PathBuf,
    /// The registration (Mithril).
    pub registration: Option<PathBuf>,
    /// The registration the certificate hands over to (Mithril chains).
    pub next_registration: Option<PathBuf>,
    /// The chain epoch the certificate signs for (Mithril chains).
    pub epoch: Option<u64>,
    /// The message bytes.
    pub message: Vec<u8>,
    /// The signature file.
    pub out: PathBuf,
}

/// What `tms certify` is given.
pub struct CertifyArgs {
    /// The committee or registration file.
    pub committee: PathBuf,
    /// The registration the certificate hands over to (Mithril chains).
    pub next_registration: Option<PathBuf>,
    /// The chain epoch the certificate signs for (Mithril chains).
    pub epoch: Option<u64>,
    /// The message bytes.
    pub message: Vec<u8>,
    /// The certificate file.
    pub out: PathBuf,
    /// The signature files.
    pub signatures: Vec<PathBuf>,
}

/// The circuit options of `tms keygen`; each scheme reads its own.
pub struct ShapeOptions {
    /// Commitment mode (Schnorr ATMS).
    pub mode: Mode,
    /// Signer slots in Merkle mode (Schnorr ATMS).
    pub slots: Option<usize>,
    /// Non-signer slots (BLS ATMS).
    pub capacity: Option<usize>,
    /// Signer slots (Mithril).
    pub signer_slots: Option<usize>,
}

/// What `tms keygen` is given.
pub struct KeygenArgs {
    /// The committee or registration file.
    pub committee: PathBuf,
    /// The circuit options.
    pub options: ShapeOptions,
    /// Parameters.
    pub params: PathBuf,
    /// The proving key file.
    pub pk: PathBuf,
    /// The verifying key file.
    pub vk: PathBuf,
    /// `--json`: one JSON object on stdout instead of the line.
    pub json: bool,
}

/// What `tms prove` is given.
pub struct ProveArgs {
    /// The committee or registration file.
    pub committee: PathBuf,
    /// The certificate file.
    pub certificate: PathBuf,
    /// The threshold to prove (ATMS; Mithril proves its registration's quorum).
    pub threshold: Option<u64>,
    /// Parameters.
    pub params: PathBuf,
    /// The proving key file.
    pub pk: PathBuf,
    /// Where the proof goes, and its transcript.
    pub out: ProofOutput,
    /// `--json`: one JSON object on stdout instead of the lines.
    pub json: bool,
}

/// What `tms serve` is given: the parameters and the proving key it reads once; the requests
/// come from stdin.
pub struct ServeArgs {
    /// Parameters.
    pub params: PathBuf,
    /// The proving key file.
    pub pk: PathBuf,
}

/// The statement a verifier built: as the prover's statement file writes it, and as the circuit's
/// public inputs.
pub struct Trusted<S: CertificateScheme + ?Sized> {
    /// The statement in the form of a `--public` file, compared with the prover's.
    pub public: PublicFile<S::ShapeFile>,
    /// The circuit's instance.
    pub instance: S::Instance,
}

/// A certificate the demo proves: an embedded committee and its signatures.
pub struct DemoCertificate<S: CertificateScheme + ?Sized> {
    /// The circuit shape.
    pub shape: S::Shape,
    /// The witness.
    pub witness: S::Witness,
    /// What the demo's verifier holds (committee, message bytes, threshold), as it builds it.
    pub trusted: Trusted<S>,
    /// What the demo prints first: the committee and the certificate.
    pub description: Vec<String>,
}

/// The outcome of a verification: accepted, the proof rejected for the trusted statement, or an
/// error with its message.
pub type Verdict = std::result::Result<(), Rejection>;

/// Why a verification failed.
pub enum Rejection {
    /// The proof does not verify for the statement.
    Proof,
    /// Anything else (a statement out of the key's range, say).
    Other(CliError),
}

impl Rejection {
    /// `Proof` where the library said the proof does not verify (`proof_rejected`), else
    /// `Other` with its error's message.
    pub fn of(proof_rejected: bool, error: impl std::fmt::Display) -> Self {
        if proof_rejected {
            Self::Proof
        } else {
            Self::Other(crate::io::usage(error))
        }
    }
}

/// A certificate scheme proved on [`CertificateScheme::Backend`].
pub trait CertificateScheme {
    /// The backend.
    type Backend: ProvingBackend;
    /// The scheme's name in the tool (`--scheme`).
    const SCHEME: Scheme;
    /// What `tms keygen` says while it runs.
    const KEYGEN: &'static str = "generating keys";
    /// What `tms prove` says while it runs.
    const PROVING: &'static str = "proving";
    /// Whether `--threshold` is the statement's (ATMS) or refused (Mithril proves its
    /// registration's quorum).
    const TAKES_THRESHOLD: bool = true;

    /// The committee (or registration) as loaded from its file.
    type Committee;
    /// The circuit shape, recorded in key files.
    type Shape: Clone + Debug;
    /// The shape as statement files write it.
    type ShapeFile: Serialize + DeserializeOwned + PartialEq;
    /// Proving key with its shape.
    type Keys;
    /// A certificate laid out for the circuit.
    type Witness;
    /// The circuit's public inputs.
    type Instance;

    /// `tms committee`.
    fn committee(args: &CommitteeArgs) -> Result<()>;
    /// `tms sign`.
    fn sign(args: &SignArgs) -> Result<()>;
    /// `tms certify`.
    fn certify(args: &CertifyArgs) -> Result<()>;

    /// Reads (and registers) a committee file.
    fn load_committee(path: &Path) -> Result<Self::Committee>;
    /// Refuses a committee of another size than `shape`'s (`key` names the key file's kind).
    fn check_committee(
        path: &Path,
        committee: &Self::Committee,
        shape: &Self::Shape,
        key: &str,
    ) -> Result<()>;

    /// The shape `tms keygen` makes for `committee` on parameters of `k`, from its options.
    fn keygen_shape(
        committee: &Self::Committee,
        options: &ShapeOptions,
        k: u32,
    ) -> Result<Self::Shape>;
    /// The smallest k the shape fits, where the scheme can tell without keygen.
    fn min_k(shape: &Self::Shape) -> Result<Option<u32>>;
    /// `Some(the smallest k it fits)` when the shape does not fit `2^k` rows; `None` when it does
    /// or the scheme cannot tell without keygen. By default from [`CertificateScheme::min_k`]; a
    /// scheme whose check is a layout lays it out once at `k` (the search only on a refusal).
    fn needed_k(shape: &Self::Shape, k: u32) -> Result<Option<u32>> {
        Ok(Self::min_k(shape)?.filter(|needed| k < *needed))
    }
    /// log2 of the shape's rows.
    fn k(shape: &Self::Shape) -> u32;
    /// Proving and verifying keys (one-time work per shape); errors name `params_path`.
    fn keygen(
        params: &<Self::Backend as ProvingBackend>::Params,
        shape: &Self::Shape,
        params_path: &Path,
    ) -> Result<Self::Keys>;
    /// The proving key file.
    fn pk_file(keys: &Self::Keys) -> Vec<u8>;
    /// The verifying key file (what `tms verify` reads, pins or regenerates).
    fn vk_file(keys: &Self::Keys) -> Vec<u8>;
    /// What `tms keygen` says the keys are for (`"6 members (stats)"`).
    fn describe_keys(keys: &Self::Keys) -> String;
    /// Reads a proving key file.
    fn read_pk(path: &Path) -> Result<Self::Keys>;
    /// The shape of a proving key.
    fn keys_shape(keys: &Self::Keys) -> &Self::Shape;
    /// Reads a verifying key file: its shape and key.
    fn read_vk(
        path: &Path,
        bytes: &[u8],
    ) -> Result<(Self::Shape, <Self::Backend as ProvingBackend>::Vk)>;
    /// The verifying key file keygen makes for `shape` (regeneration by the verifier).
    fn regenerate_vk(
        params: &<Self::Backend as ProvingBackend>::Params,
        shape: &Self::Shape,
        vk_path: &Path,
    ) -> Result<Vec<u8>> {
        Self::keygen(params, shape, vk_path).map(|keys| Self::vk_file(&keys))
    }

    /// The witness of a certificate file for `shape` (and the threshold), with the prover's
    /// statement.
    fn witness(
        shape: &Self::Shape,
        committee: &Self::Committee,
        certificate: &Path,
        threshold: Option<u64>,
    ) -> Result<(Self::Witness, PublicFile<Self::ShapeFile>)>;
    /// A proof of `witness` in `transcript`.
    fn prove(
        params: &<Self::Backend as ProvingBackend>::Params,
        keys: &Self::Keys,
        witness: &Self::Witness,
        transcript: Transcript,
    ) -> std::result::Result<Vec<u8>, String>;
    /// The public inputs of `witness` (the EVM calldata carries them).
    fn public_inputs(witness: &Self::Witness) -> Vec<<Self::Backend as ProvingBackend>::Scalar>;

    /// The statement from what the verifier holds (`--committee` or `--commitment`, message
    /// bytes, `--threshold`), never from the prover; `public` is the prover's statement file,
    /// read only for a threshold the verifier did not give.
    fn trusted(
        shape: &Self::Shape,
        args: &VerifyArgs,
        public: Option<&PublicFile<Self::ShapeFile>>,
    ) -> Result<Trusted<Self>>;
    /// Checks `proof` for the trusted instance.
    fn verify(
        params: &<Self::Backend as ProvingBackend>::Params,
        shape: &Self::Shape,
        vk: &<Self::Backend as ProvingBackend>::Vk,
        instance: &Self::Instance,
        proof: &[u8],
        transcript: Transcript,
    ) -> Verdict;
    /// What a verified proof means, in one line.
    fn verdict(shape: &Self::Shape, trusted: &Trusted<Self>, args: &VerifyArgs) -> String;

    /// The certificate verifier of `vk` recorded as a straight-line program for the Groth16
    /// wrapper (`evm/groth16`, `PROGRAM.md`) with its witness for `proof` (Poseidon transcript),
    /// the trusted `instance`'s inputs its statement. `None`: this pair has no wrapper (only
    /// BN254 certificates are wrapped).
    fn wrap_program(
        _params: &<Self::Backend as ProvingBackend>::Params,
        _vk: &<Self::Backend as ProvingBackend>::Vk,
        _instance: &Self::Instance,
        _proof: &[u8],
    ) -> Option<Result<(tms_evm::groth16::Program, tms_evm::groth16::ProgramWitness)>> {
        None
    }
    /// The trusted instance's public inputs as integers: a wrapped proof's statement words.
    /// `None` where there is no wrapper.
    fn wrap_words(_instance: &Self::Instance) -> Option<Vec<num_bigint::BigUint>> {
        None
    }

    /// The demo's certificate.
    fn demo_certificate() -> Result<DemoCertificate<Self>>;
    /// The circuit in the demo's table.
    fn describe_circuit(keys: &Self::Keys) -> String;
    /// What the demo does after verifying natively (Cardano: the Plutus budget).
    fn after_demo(
        _params: &<Self::Backend as ProvingBackend>::Params,
        _keys: &Self::Keys,
        _demo: &DemoCertificate<Self>,
        _proof: &[u8],
    ) -> Result<()> {
        Ok(())
    }
}

/// The commands every pair answers, object-safe so that [`crate::commands::driver`] can hand any
/// pair out.
pub trait Driver {
    /// `tms committee`.
    fn committee(&self, args: &CommitteeArgs) -> Result<()>;
    /// `tms sign`.
    fn sign(&self, args: &SignArgs) -> Result<()>;
    /// `tms certify`.
    fn certify(&self, args: &CertifyArgs) -> Result<()>;
    /// `tms keygen`.
    fn keygen(&self, args: &KeygenArgs) -> Result<()>;
    /// `tms prove`.
    fn prove(&self, args: &ProveArgs) -> Result<()>;
    /// `tms serve`: proving requests from stdin, the key read once.
    fn serve(&self, args: &ServeArgs) -> Result<()>;
    /// `tms verify`.
    fn verify(&self, args: &VerifyArgs) -> Result<()>;
    /// `tms demo`.
    fn demo(&self) -> Result<()>;
    /// `tms wrap`.
    fn wrap(&self, args: &WrapArgs) -> Result<()>;
}

/// How `tms verify` trusts a Groth16 wrapper's key (`--groth16-key`): pinned by SHA-256, and
/// refused when seeded unless told it is a test.
pub struct Groth16Trust {
    /// The key file (`plutus-key.json`).
    pub key: PathBuf,
    /// Its expected SHA-256 (`tms wrap` printed it).
    pub fingerprint: Option<String>,
    /// Accept an INSECURE (seeded) key.
    pub insecure_test_key: bool,
}

/// Which chain a wrapped proof is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum WrapTarget {
    /// Groth16 over BLS12-381, verified by the Plutus validator (`tms export-plutus --groth16`).
    Cardano,
    /// Groth16 over BN254, verified by `Groth16Verifier.sol` (the batched verifier).
    Evm,
}

/// What `tms wrap` is given: the certificate as `tms verify` takes it, and the Groth16 keys.
pub struct WrapArgs {
    /// The certificate, its key and the trusted statement (as for `tms verify`).
    pub verify: VerifyArgs,
    /// The Groth16 wrapper to make.
    pub wrapper: WrapSetup,
}

/// Which Groth16 wrapper `tms wrap` and `tms aggregate wrap` make, from which keys, and where.
pub struct WrapSetup {
    /// Which wrapper.
    pub target: WrapTarget,
    /// `Some(seed)`: an INSECURE seeded Groth16 setup (tests only).
    pub insecure_test_seed: Option<String>,
    /// A ceremony's Groth16 keys: the proving key and the verifying key (`--for cardano`: the
    /// Plutus key JSON of `ceremony-extract -plutus-key`; `--for evm`: gnark's verifying key
    /// with its `.setup` beside it).
    pub keys: Option<(PathBuf, PathBuf)>,
    /// Only record the program and its witness (what `ceremony-init -program` takes) and check
    /// them with the Go program's native replay; no Groth16 setup or proof.
    pub program_only: bool,
    /// The Groth16 proof's one public input is `keccak256` of the statement's words (a hashed
    /// statement): one input on chain instead of one per word.
    pub hash_statement: bool,
    /// The compiled Groth16 circuit kept in this file: read back (checked against the recorded
    /// program and the Go program's build) when it is there and the keys are a ceremony's,
    /// else compiled and written there (a setup is never made from a file).
    pub kept_circuit: Option<PathBuf>,
    /// The folder to write.
    pub out: PathBuf,
}

/// What `tms verify` is given, for every scheme.
pub struct VerifyArgs {
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
    /// Print the verdict as one JSON object.
    pub json: bool,
    /// `Some`: `proof` is a Groth16 wrapper's proof (`wrapped.json` of `tms wrap --for
    /// cardano`) under this key, for the statement built as for the certificate.
    pub groth16: Option<Groth16Trust>,
}

impl VerifyArgs {
    /// How the verifying key file is trusted.
    pub fn key_trust(&self) -> KeyTrust<'_> {
        KeyTrust {
            vk: &self.vk,
            fingerprint: self.vk_fingerprint.as_deref(),
            regenerate: self.regenerate_vk,
        }
    }

    /// The verifying key file: refused unless pinned (`--vk-fingerprint`, checked here) or to be
    /// regenerated (`--regenerate-vk`, checked by [`KeyTrust::check_regenerated`]).
    pub fn vk_file(&self) -> Result<Vec<u8>> {
        self.key_trust().read()
    }

    /// The threshold the verifier requires: `--threshold`, never the prover's statement file (a
    /// prover would choose the smallest); the statement file, if given, must agree. Zero is
    /// refused: a certificate of no signature certifies anything.
    pub fn threshold<S>(&self, public: Option<&PublicFile<S>>) -> Result<u64> {
        let t = self.threshold.ok_or_else(|| {
            usage("give --threshold: the verifier decides the threshold, not the prover")
        })?;
        if t == 0 {
            return Err(usage(
                "--threshold 0: a certificate needs at least one signature",
            ));
        }
        match public {
            Some(p) if p.threshold != t => Err(at(
                self.public.as_deref().expect("public file given"),
                format!("threshold {} differs from --threshold {t}", p.threshold),
            )),
            _ => Ok(t),
        }
    }
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

    /// Writes the proof and the prover's statement; the line that says so.
    pub fn write_without_calldata<S: Serialize>(
        &self,
        proof: &[u8],
        public: &PublicFile<S>,
        seconds: f64,
    ) -> Result<Vec<String>> {
        write_atomic(&self.proof, proof)?;
        crate::io::write_json(&self.public, public)?;
        Ok(vec![format!(
            "proof ({} bytes, {} transcript, {seconds:.1} s) written to {}",
            proof.len(),
            self.transcript.name(),
            self.proof.display()
        )])
    }

    /// Writes the proof and the prover's statement; the lines that say so. An EVM proof also
    /// gets its verifier calldata (`public_inputs` as 32-byte big-endian words, then the proof)
    /// in hex.
    pub fn write<S: Serialize>(
        &self,
        proof: &[u8],
        public: &PublicFile<S>,
        public_inputs: &[Fr],
        seconds: f64,
    ) -> Result<Vec<String>> {
        let mut lines = self.write_without_calldata(proof, public, seconds)?;
        if self.transcript == Transcript::Evm {
            let calldata = tms_evm::verifier::calldata(public_inputs, proof);
            let path = self.calldata_path();
            write_atomic(&path, format!("{}\n", bytes_to_hex(&calldata)).as_bytes())?;
            lines.push(format!(
                "verifier calldata ({} bytes) written to {}",
                calldata.len(),
                path.display()
            ));
        }
        Ok(lines)
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
