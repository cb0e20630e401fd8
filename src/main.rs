//! `tms`: threshold multisignature certificates as Halo2 proofs.
//!
//! ```text
//! tms committee --scheme schnorr-atms --size 6 --out committee.json --keys-dir keys
//! tms sign --scheme schnorr-atms --key keys/member-0.json --message 0x68656c6c6f --out s0.json
//! tms certify --scheme schnorr-atms --committee committee.json --message 0x68656c6c6f \
//!             --out cert.json s0.json s2.json s3.json
//! tms setup --k 12 --insecure-test --out params.srs        # or --ptau ceremony.ptau
//! tms keygen --scheme schnorr-atms --committee committee.json --params params.srs --pk a.pk --vk a.vk
//! tms prove --scheme schnorr-atms --committee committee.json --certificate cert.json --threshold 3 \
//!           --params params.srs --pk a.pk --proof proof.bin --public public.json
//! tms verify --scheme schnorr-atms --committee committee.json --message 0x68656c6c6f \
//!            --threshold 3 --params params.srs --vk a.vk --proof proof.bin
//! tms demo [--scheme bls-atms|mithril]
//! tms demo --backend cardano          # the Schnorr ATMS on Jubjub, KZG over BLS12-381
//! tms demo --scheme mithril --backend cardano   # SNARK-Mithril on Jubjub
//! tms export-plutus --vk a.vk --params params.srs --committee committee.json --threshold 3 --out plutus
//! ```
//! `--backend cardano` (committee, register, sign, certify, setup, keygen, prove, verify, demo)
//! runs the Schnorr ATMS and SNARK-Mithril on Jubjub with KZG over BLS12-381, whose proofs the
//! Plutus validator of `tms export-plutus` checks; the default `--backend bn254` (alias `evm`)
//! is everything else. Every (scheme, backend) pair goes through one interface
//! (`tms::interface`). Phase timings: `RUST_LOG=tms::phase=debug`.
//! BLS ATMS and SNARK-Mithril take the same commands with `--scheme`; Mithril adds `tms register`
//! (a registration from a stakes file) and signs against it. See the guide (`docs/`) for every format.
//! Logs: `RUST_LOG=tms=info` (or `debug`) prints what each step read, built and how long it took.
//! Every error is one line naming the file and the problem, with a non-zero exit code; output
//! files are written atomically, so a failed command leaves none behind.
#![deny(missing_docs)]
#![deny(clippy::unwrap_used)]

use std::{path::PathBuf, process::ExitCode};

use clap::{Args, Parser, Subcommand};

use tms::{
    backends::bn254,
    backends::cardano,
    commands::{self, aggregate, chain, chunk, driver, stm_chain, JsonArgs},
    interface::{
        CertifyArgs, CommitteeArgs, Driver, Groth16Trust, KeyTrust, KeygenArgs, ProofOutput,
        ProveArgs, ServeArgs, ShapeOptions, SignArgs, VerifyArgs, WrapArgs, WrapSetup, WrapTarget,
    },
    io::{message_bytes, usage, Result},
    options::{
        Backend, Format, HashMode, HashName, Mode, PlutusForm, Preset, Scheme, TranscriptName,
    },
    schemes::{
        bls::bn254 as bls,
        mithril::{
            bn254::{self as mithril, MithrilBn254},
            cardano::{self as mithril_cardano, MithrilCardano},
            register, stm as mithril_stm,
        },
        schnorr::cardano as schnorr_cardano,
    },
};

/// The largest committee `tms committee` makes.
const MAX_COMMITTEE: u64 = tms::io::MAX_MEMBERS as u64;

/// Threshold multisignature certificates as Halo2 proofs (KZG over BN254; `--backend cardano`:
/// over BLS12-381, verifiable in Plutus).
#[derive(Parser, Debug)]
#[command(name = "tms", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// The message: bytes, mapped to the signed field element as keccak-256(bytes) mod r.
#[derive(Args, Debug)]
struct MessageArgs {
    /// The message bytes as 0x-hex (any length; `0x` is the empty message).
    #[arg(
        long,
        conflicts_with = "message_file",
        required_unless_present = "message_file"
    )]
    message: Option<String>,
    /// A file holding the message bytes.
    #[arg(long)]
    message_file: Option<PathBuf>,
}

impl MessageArgs {
    fn bytes(&self) -> Result<Vec<u8>> {
        message_bytes(self.message.as_deref(), self.message_file.as_deref())
    }
}

/// The scheme and the backend a command runs on: the pair [`driver`] hands it.
#[derive(Args, Debug)]
struct PairArgs {
    /// The scheme.
    #[arg(long, value_enum, default_value_t)]
    scheme: Scheme,
    /// The backend: bn254 (alias evm, the default) or cardano (Schnorr ATMS or SNARK-Mithril
    /// on Jubjub, KZG over BLS12-381, verifiable in Plutus).
    #[arg(long, value_enum, default_value_t)]
    backend: Backend,
}

impl PairArgs {
    fn driver(&self) -> Result<&'static dyn Driver> {
        driver(self.scheme, self.backend)
    }
}

/// Where a Mithril chain certificate hands over (`tms sign`, `tms certify`; `tms chain`).
#[derive(Args, Debug)]
struct HandOverArgs {
    /// Mithril chains: the registration that signs the next epoch; the signature is on the
    /// link message binding its digest, the message and `--epoch` (`tms certify`: as the
    /// signatures were made with).
    #[arg(long)]
    next_registration: Option<PathBuf>,
    /// Mithril chains: the epoch signed for, counted from the chain's genesis registration
    /// (which signs epoch 0); required with `--next-registration`.
    #[arg(long, requires = "next_registration")]
    epoch: Option<u64>,
}

/// What `tms sign` and `tms certify` sign: the message and, on a Mithril chain, where it hands
/// over.
#[derive(Args, Debug)]
struct SignedArgs {
    #[command(flatten)]
    hand_over: HandOverArgs,
    #[command(flatten)]
    message: MessageArgs,
}

/// A Groth16 wrapper's verifying key, pinned (`tms verify` of a wrapped proof, `tms
/// export-plutus --groth16`).
#[derive(Args, Debug)]
struct Groth16KeyArgs {
    /// A Groth16 wrapper's key over BLS12-381 (`plutus-key.json` of `tms wrap --for cardano`,
    /// or `ceremony-extract -plutus-key`): verify (or export the validator of) a wrapped proof.
    #[arg(long)]
    groth16: Option<PathBuf>,
    /// Its expected SHA-256 (as `tms wrap` printed it): required with --groth16.
    #[arg(long, requires = "groth16")]
    groth16_fingerprint: Option<String>,
}

/// Whose files a command reads.
#[derive(Args, Debug)]
struct FormatArgs {
    /// Whose files: tms's or mithril-stm's (with --scheme mithril --backend cardano).
    #[arg(long, value_enum, default_value_t)]
    format: Format,
}

impl FormatArgs {
    /// The pair the command drives: `--format mithril-stm` names its own.
    fn driver(&self, pair: &PairArgs) -> Result<&'static dyn Driver> {
        match self.format {
            Format::Tms => pair.driver(),
            Format::MithrilStm => tms::commands::mithril_stm_driver(pair.scheme, pair.backend),
        }
    }
}

/// The pair a command drives, whose files it reads, and the committee it is for (`tms certify`,
/// `keygen`, `prove`).
#[derive(Args, Debug)]
struct CommitteeInput {
    #[command(flatten)]
    pair: PairArgs,
    #[command(flatten)]
    format: FormatArgs,
    /// The committee (Mithril: registration) file (keygen: its size fixes the circuit).
    #[arg(long)]
    committee: PathBuf,
}

impl CommitteeInput {
    /// The pair the command drives ([`FormatArgs::driver`]).
    fn driver(&self) -> Result<&'static dyn Driver> {
        self.format.driver(&self.pair)
    }
}

/// The circuit options of `tms keygen`; each scheme reads its own.
#[derive(Args, Debug)]
struct ShapeArgs {
    /// Schnorr ATMS: commitment mode.
    #[arg(long, value_enum, default_value = "flat")]
    mode: Mode,
    /// Schnorr ATMS: signer slots (Merkle mode).
    #[arg(long)]
    slots: Option<usize>,
    /// BLS ATMS: non-signer slots (default half the committee).
    #[arg(long)]
    capacity: Option<usize>,
    /// Mithril: signer slots (default the quorum k).
    #[arg(long)]
    signer_slots: Option<usize>,
}

impl ShapeArgs {
    fn options(self) -> ShapeOptions {
        ShapeOptions {
            mode: self.mode,
            slots: self.slots,
            capacity: self.capacity,
            signer_slots: self.signer_slots,
        }
    }
}

/// Where `tms prove` writes, and in which transcript it proves.
#[derive(Args, Debug)]
struct ProofOutArgs {
    /// Proof file to write.
    #[arg(long)]
    proof: PathBuf,
    /// The statement file to write (for the verifier to compare, never to trust).
    #[arg(long)]
    public: PathBuf,
    /// The transcript: `evm` for a proof the generated Solidity verifier checks (its
    /// calldata is written to `<proof>.calldata`).
    #[arg(long, value_enum, default_value_t)]
    transcript: TranscriptName,
}

impl ProofOutArgs {
    fn output(self) -> ProofOutput {
        ProofOutput {
            proof: self.proof,
            public: self.public,
            transcript: self.transcript.transcript(),
        }
    }
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Generate members' keys: public keys to `--out` (Mithril: a stakes file), one secret key
    /// file per member in `--keys-dir`.
    Committee {
        #[command(flatten)]
        pair: PairArgs,
        /// Number of members (at most 2^20).
        #[arg(long)]
        size: u64,
        /// Seed for reproducible test committees; without it keys come from the OS.
        #[arg(long)]
        seed: Option<u64>,
        /// Mithril: every party's stake in the stakes file (edit it before registering).
        #[arg(long, default_value_t = 1000)]
        stake: u64,
        /// Committee (or stakes) file to write.
        #[arg(long)]
        out: PathBuf,
        /// Folder for the members' secret key files.
        #[arg(long)]
        keys_dir: PathBuf,
    },
    /// Mithril: register the parties of a stakes file under STM parameters.
    Register {
        /// The stakes file (`tms committee --scheme mithril` writes one).
        #[arg(long)]
        stakes: PathBuf,
        /// The backend: bn254 (alias evm, the default) or cardano (Jubjub keys, BLS12-381).
        #[arg(long, value_enum, default_value_t)]
        backend: Backend,
        /// Parameter preset.
        #[arg(long, value_enum)]
        preset: Option<Preset>,
        /// Number of lotteries m.
        #[arg(long)]
        m: Option<u64>,
        /// Quorum k.
        #[arg(long)]
        k: Option<u64>,
        /// phi_f as num/den (e.g. 1/5).
        #[arg(long)]
        phi_f: Option<String>,
        /// Tree depth (default: the smallest that holds every party).
        #[arg(long)]
        depth: Option<usize>,
        /// Registration file to write.
        #[arg(long)]
        out: PathBuf,
    },
    /// One member signs a message.
    Sign {
        #[command(flatten)]
        pair: PairArgs,
        /// The member's secret key file.
        #[arg(long)]
        key: PathBuf,
        /// Mithril: the registration the signature (and its lotteries) are for.
        #[arg(long)]
        registration: Option<PathBuf>,
        #[command(flatten)]
        signed: SignedArgs,
        /// Signature file to write.
        #[arg(long)]
        out: PathBuf,
    },
    /// Check signatures and aggregate them into a certificate.
    Certify {
        #[command(flatten)]
        input: CommitteeInput,
        #[command(flatten)]
        signed: SignedArgs,
        /// Certificate file to write.
        #[arg(long)]
        out: PathBuf,
        /// Signature files.
        #[arg(required = true)]
        signatures: Vec<PathBuf>,
    },
    /// KZG parameters for 2^k rows: imported from a ceremony (BN254: a snarkjs powers-of-tau
    /// file; Cardano: Midnight's BLS12-381 SRS), or (INSECURE, tests and demos only) made from a
    /// fixed seed. Writes `<out>.sha256` beside them.
    Setup {
        /// log2 of the number of rows.
        #[arg(long)]
        k: u32,
        /// A snarkjs `.ptau` file (BN254) from a ceremony.
        #[arg(
            long,
            conflicts_with_all = ["insecure_test", "halo2", "srs"],
            required_unless_present_any = ["insecure_test", "halo2", "srs"]
        )]
        ptau: Option<PathBuf>,
        /// A parameters file in halo2's KZG format (e.g. from another halo2 project), cut to 2^k.
        #[arg(long, conflicts_with_all = ["insecure_test", "srs"])]
        halo2: Option<PathBuf>,
        /// With --backend cardano: Midnight's ceremony SRS (`bls_midnight_2p<K>`, any K >= k;
        /// midnight-proofs' raw format), its structure checked and cut to 2^k.
        #[arg(long, conflicts_with = "insecure_test")]
        srs: Option<PathBuf>,
        /// Make insecure parameters from a fixed public seed instead.
        #[arg(long)]
        insecure_test: bool,
        /// The backend: bn254 (alias evm, the default) or cardano (BLS12-381 parameters:
        /// --srs or --insecure-test).
        #[arg(long, value_enum, default_value_t)]
        backend: Backend,
        /// Parameters file to write.
        #[arg(long)]
        out: PathBuf,
    },
    /// Proving and verifying keys for a committee's (or registration's) circuit; prints the
    /// verifying key's fingerprint.
    Keygen {
        #[command(flatten)]
        input: CommitteeInput,
        #[command(flatten)]
        shape: ShapeArgs,
        /// KZG parameters.
        #[arg(long)]
        params: PathBuf,
        /// Proving key file to write.
        #[arg(long)]
        pk: PathBuf,
        /// Verifying key file to write.
        #[arg(long)]
        vk: PathBuf,
        #[command(flatten)]
        json: JsonArgs,
    },
    /// Prove that a certificate meets a threshold (Mithril: the registration's quorum).
    Prove {
        #[command(flatten)]
        input: CommitteeInput,
        /// The certificate file.
        #[arg(long)]
        certificate: PathBuf,
        /// ATMS: the threshold t (at least t valid signatures).
        #[arg(long)]
        threshold: Option<u64>,
        /// KZG parameters.
        #[arg(long)]
        params: PathBuf,
        /// Proving key file.
        #[arg(long)]
        pk: PathBuf,
        #[command(flatten)]
        out: ProofOutArgs,
        #[command(flatten)]
        json: JsonArgs,
    },
    /// A prover that stays up: reads the parameters and the proving key once, then proves one
    /// request per line of stdin and answers each with one line on stdout. A request is a JSON
    /// object: `committee`, `certificate`, `threshold` (ATMS), `proof`, `public` (the files to
    /// write) and optionally `transcript` (blake2b, evm, poseidon); paths from the working
    /// directory. An answer is `tms prove --json`'s object with the request's line number; a
    /// refused request is answered with its error and the next one is served. Exits at the end
    /// of stdin, with status 1 if any request was refused.
    Serve {
        #[command(flatten)]
        pair: PairArgs,
        #[command(flatten)]
        format: FormatArgs,
        /// KZG parameters.
        #[arg(long)]
        params: PathBuf,
        /// Proving key file.
        #[arg(long)]
        pk: PathBuf,
    },
    /// BLS ATMS: check with MockProver (no parameters, keys or proof) that a certificate
    /// satisfies the circuit for the statement built from the committee and its message.
    Check {
        /// The scheme (bls-atms only: the others prove in seconds).
        #[arg(long, value_enum, default_value_t)]
        scheme: Scheme,
        /// The committee file.
        #[arg(long)]
        committee: PathBuf,
        /// The certificate file.
        #[arg(long)]
        certificate: PathBuf,
        /// The threshold t.
        #[arg(long)]
        threshold: u64,
        /// Non-signer slots (default half the committee).
        #[arg(long)]
        capacity: Option<usize>,
        /// log2 of the circuit's rows.
        #[arg(long, default_value_t = 20)]
        k: u32,
    },
    /// Verify a proof against the statement built from what the verifier trusts: the committee
    /// (or its commitment), the message bytes, the threshold, and a verifying key it pinned
    /// (--vk-fingerprint) or regenerates (--regenerate-vk); one of the two is required.
    Verify {
        #[command(flatten)]
        pair: PairArgs,
        #[command(flatten)]
        format: FormatArgs,
        #[command(flatten)]
        certificate: CertificateArgs,
        /// The prover's statement file: refused if it differs from the trusted statement.
        #[arg(long)]
        public: Option<PathBuf>,
        /// The transcript the proof was made in.
        #[arg(long, value_enum, default_value_t)]
        transcript: TranscriptName,
        #[command(flatten)]
        json: JsonArgs,
        /// With --groth16: --proof is a wrapped proof (`wrapped.json` of `tms wrap --for
        /// cardano`), verified natively for the statement built as for the certificate (--vk
        /// and --params still build and bind it).
        #[command(flatten)]
        groth16: Groth16KeyArgs,
        /// Accept a Groth16 key made without a ceremony (an INSECURE seeded setup): tests only.
        #[arg(long, requires = "groth16")]
        insecure_test_key: bool,
    },
    /// Wrap a BN254 certificate proof (made with --transcript poseidon) in Groth16: the
    /// certificate is verified for the trusted statement, its verifier recorded as a program
    /// (`program.json`, `witness.json`) and proved by the Go program of evm/groth16 (built on
    /// first use; needs Go): --for cardano writes `wrapped.json` and `plutus-key.json`
    /// (BLS12-381, for `tms verify --groth16` and `tms export-plutus --groth16`); --for evm
    /// `proof.json`, `calldata.hex` and `Groth16Verifier.sol` (BN254).
    Wrap {
        #[command(flatten)]
        pair: PairArgs,
        /// The certificate (proved with --transcript poseidon) and what the verifier trusts.
        #[command(flatten)]
        certificate: CertificateArgs,
        #[command(flatten)]
        wrapper: WrapperArgs,
    },
    /// Write the Solidity verifier of a verifying key (generated by snark-verifier),
    /// CertificateVerifier.sol tied to it, and the creation bytecode of the verifier and of the
    /// contract for the key's statement; needs `npm ci --prefix evm/solc`. An aggregation key
    /// (chunk join, chain root) is recognised by its header.
    ExportVerifier {
        /// The scheme.
        #[arg(long, value_enum, default_value_t)]
        scheme: Scheme,
        /// Verifying key file.
        #[arg(long)]
        vk: PathBuf,
        /// KZG parameters (the verifier embeds [1]_2 and [s]_2).
        #[arg(long)]
        params: PathBuf,
        /// The expected SHA-256 of the verifying key file (the fingerprint keygen printed).
        #[arg(long)]
        vk_fingerprint: Option<String>,
        /// Regenerate a certificate key from its shape and refuse a file that differs.
        #[arg(long)]
        regenerate_vk: bool,
        /// Directory to write.
        #[arg(long)]
        out: PathBuf,
    },
    /// Write the Plutus V3 validator of a Cardano-backend verifying key with the trusted
    /// statement as script parameters (Schnorr ATMS: committee commitment and threshold;
    /// SNARK-Mithril: registration digest): `validator.cbor` (flat UPLC wrapped in CBOR); with
    /// --proof and --message, also `redeemer.cbor` and the budget of the honest evaluation
    /// (uplc 1.1.24, pinned Plutus V3 cost model).
    ExportPlutus {
        /// The scheme: schnorr-atms (the default) or mithril.
        #[arg(long, value_enum, default_value_t)]
        scheme: Scheme,
        /// Whose key: tms's, or one of the mithril-stm relation (--scheme mithril; --committee
        /// its registration or aggregate key; the signed 32 bytes are blake2b-256 of the
        /// script's message bytes).
        #[command(flatten)]
        format: FormatArgs,
        /// Verifying key file (`tms keygen --backend cardano`).
        #[arg(long, required_unless_present = "groth16", conflicts_with = "groth16")]
        vk: Option<PathBuf>,
        /// BLS12-381 KZG parameters (the verifier embeds [s]_2).
        #[arg(long, required_unless_present = "groth16", conflicts_with = "groth16")]
        params: Option<PathBuf>,
        /// The validator of a Groth16 wrapper's key instead (--form state-thread or observer,
        /// --commitment): a seeded key, or one without a ceremony record that holds, is
        /// refused without --insecure-test.
        #[command(flatten)]
        groth16: Groth16KeyArgs,
        /// The trusted committee file (Mithril: registration file).
        #[arg(
            long,
            conflicts_with_all = ["commitment", "groth16"],
            required_unless_present = "commitment"
        )]
        committee: Option<PathBuf>,
        /// Or the trusted committee commitment (Mithril: registration digest; 0x + 64 hex
        /// digits, big-endian).
        #[arg(long)]
        commitment: Option<String>,
        /// The threshold the script requires (Schnorr ATMS; Mithril's quorum is in the key).
        #[arg(long)]
        threshold: Option<u64>,
        /// Protocol version the script targets: 10 (mainnet today; the MSM as a fold) or 11
        /// (the CIP-0133 MSM builtin).
        #[arg(long, default_value_t = 10)]
        protocol_version: u16,
        /// A proof to evaluate the validator on (with --message).
        #[arg(long, requires = "message")]
        proof: Option<PathBuf>,
        /// The message bytes of --proof's certificate (0x-hex).
        #[arg(long, requires = "proof")]
        message: Option<String>,
        /// The expected SHA-256 of the verifying key file (the fingerprint keygen printed).
        #[arg(long)]
        vk_fingerprint: Option<String>,
        /// Regenerate the verifying key from its shape and refuse a file that differs.
        #[arg(long)]
        regenerate_vk: bool,
        /// Accept the INSECURE seeded test parameters (refused otherwise): the script is then
        /// written as `validator.INSECURE-TEST.cbor` beside a note; never deploy it.
        #[arg(long)]
        insecure_test: bool,
        /// The script: example, state-thread (with --thread-policy) or observer.
        #[arg(long, value_enum, default_value_t)]
        form: PlutusForm,
        /// The state thread's token: its policy id (0x + 56 hex digits) and asset name (0x-hex).
        #[arg(long, requires = "thread_name")]
        thread_policy: Option<String>,
        /// The state thread's token's asset name (0x-hex, at most 32 bytes).
        #[arg(long, requires = "thread_policy")]
        thread_name: Option<String>,
        /// Directory to write.
        #[arg(long)]
        out: PathBuf,
    },
    /// Hash field elements as the circuits do (for tooling that must match commitments).
    Hash {
        /// The hash.
        #[arg(long, value_enum)]
        hash: HashName,
        /// The mode.
        #[arg(long, value_enum)]
        mode: HashMode,
        /// Field elements: 0x-hex (64 digits, big-endian) or decimal, below r.
        #[arg(required = true)]
        inputs: Vec<String>,
    },
    /// N certificate proofs of one scheme in one proof: `prove`, `verify`.
    Aggregate {
        #[command(subcommand)]
        action: AggregateCommand,
    },
    /// A Schnorr ATMS committee proved in chunks joined by one proof: `split`, `join`, `verify`.
    Chunk {
        #[command(subcommand)]
        action: ChunkCommand,
    },
    /// Mithril certificate chains in one proof (light clients): `prove`, `verify`.
    Chain {
        #[command(subcommand)]
        action: ChainCommand,
    },
    /// The main job on an embedded default: keys, signatures, certificate, proof, verification.
    Demo {
        /// The scheme (default: the fast Schnorr ATMS demo).
        #[arg(long, value_enum, default_value_t)]
        scheme: Scheme,
        /// The backend: bn254 (alias evm, the default) or cardano (Schnorr ATMS or SNARK-Mithril
        /// on Jubjub, KZG over BLS12-381, verifiable in Plutus).
        #[arg(long, value_enum, default_value_t)]
        backend: Backend,
    },
}

/// A registration given by its file or by its digest, one of the two required: the struct
/// `$name` with the options `--$file` and `--$digest`, and what `tms chain verify` takes of it.
macro_rules! registration_args {
    ($(#[$doc:meta])* $name:ident { $(#[$file_doc:meta])* $file:ident, $(#[$digest_doc:meta])* $digest:ident }) => {
        $(#[$doc])*
        #[derive(Args, Debug)]
        struct $name {
            $(#[$file_doc])*
            #[arg(
                long,
                conflicts_with = stringify!($digest),
                required_unless_present = stringify!($digest)
            )]
            $file: Option<PathBuf>,
            $(#[$digest_doc])*
            #[arg(long)]
            $digest: Option<String>,
        }

        impl $name {
            fn registration(&self) -> Result<chain::RegistrationArg<'_>> {
                match (&self.$file, &self.$digest) {
                    (Some(path), _) => Ok(chain::RegistrationArg::File(path.as_path())),
                    (None, Some(hex)) => Ok(chain::RegistrationArg::Digest(hex.as_str())),
                    (None, None) => Err(usage("a registration file or digest is needed")),
                }
            }
        }
    };
}

registration_args!(
    /// A registration the verifier holds: its file or its digest.
    GenesisArgs {
        /// The genesis registration file (the registration the verifier trusts).
        genesis,
        /// Or only its digest (0x-hex), as a contract holds it.
        genesis_digest
    }
);

registration_args!(
    /// The registration a chain is claimed to hand over to: its file or its digest.
    LastArgs {
        /// The registration file the chain is claimed to hand over to.
        last_registration,
        /// Or only its digest (0x-hex).
        last_digest
    }
);

/// A verifying key file and how the verifier trusts it: pinned or regenerated, one is required.
#[derive(Args, Debug)]
struct TrustedKey {
    /// Verifying key file.
    #[arg(long)]
    vk: PathBuf,
    /// Its expected SHA-256, as the keygen you ran (or audited) printed it.
    #[arg(long)]
    vk_fingerprint: Option<String>,
    /// Regenerate the key from what you hold (keygen is deterministic) and refuse a file that
    /// differs.
    #[arg(long)]
    regenerate_vk: bool,
}

impl TrustedKey {
    fn trust(&self) -> KeyTrust<'_> {
        KeyTrust {
            vk: &self.vk,
            fingerprint: self.vk_fingerprint.as_deref(),
            regenerate: self.regenerate_vk,
        }
    }
}

/// A certificate proof and what its verifier trusts (`tms verify`, `tms wrap`): the statement
/// is built from the committee or its commitment, the message and the threshold, never read
/// from the prover.
#[derive(Args, Debug)]
struct CertificateArgs {
    /// KZG parameters.
    #[arg(long)]
    params: PathBuf,
    #[command(flatten)]
    key: TrustedKey,
    /// Proof file.
    #[arg(long)]
    proof: PathBuf,
    /// The trusted committee (Mithril: registration) file.
    #[arg(long, conflicts_with = "commitment")]
    committee: Option<PathBuf>,
    /// Or the trusted commitment (ATMS: the committee commitment or digest; Mithril: the
    /// registration digest), 0x-hex.
    #[arg(long)]
    commitment: Option<String>,
    #[command(flatten)]
    message: MessageArgs,
    /// ATMS: the threshold required (required: the verifier decides it; Mithril: optional, the
    /// trusted registration's quorum, which it must equal).
    #[arg(long)]
    threshold: Option<u64>,
}

impl CertificateArgs {
    /// The verify request for these files, with the rest of `tms verify`'s choices.
    fn verify_args(
        self,
        transcript: tms_gadgets::proving::Transcript,
        public: Option<PathBuf>,
        json: bool,
        groth16: Option<Groth16Trust>,
    ) -> Result<VerifyArgs> {
        Ok(VerifyArgs {
            json,
            transcript,
            message: self.message.bytes()?,
            params: self.params,
            vk: self.key.vk,
            proof: self.proof,
            committee: self.committee,
            commitment: self.commitment,
            threshold: self.threshold,
            public,
            vk_fingerprint: self.key.vk_fingerprint,
            regenerate_vk: self.key.regenerate_vk,
            groth16,
        })
    }
}

/// The Groth16 wrapper `tms wrap` and `tms aggregate wrap` make: for which chain, from which
/// keys, and where.
#[derive(Args, Debug)]
struct WrapperArgs {
    /// Which chain's wrapper: cardano (BLS12-381) or evm (BN254).
    #[arg(long = "for", value_enum)]
    target: WrapTarget,
    /// An INSECURE Groth16 setup whose toxic waste derives from this seed (anyone with it can
    /// forge wrapped proofs): tests only.
    #[arg(long, conflicts_with_all = ["groth16_pk", "groth16_vk"])]
    insecure_test_seed: Option<String>,
    /// A ceremony's Groth16 proving key (`ceremony-extract -pk`).
    #[arg(long, requires = "groth16_vk")]
    groth16_pk: Option<PathBuf>,
    /// Its verifying key: --for cardano the Plutus key (`ceremony-extract -plutus-key`), --for
    /// evm gnark's (`ceremony-extract -vk`, its `.setup` beside it).
    #[arg(long, requires = "groth16_pk")]
    groth16_vk: Option<PathBuf>,
    /// Only record the program and witness (what `ceremony-init -program` takes) and check them
    /// by the Go program's native replay: no Groth16 setup or proof.
    #[arg(long)]
    program_only: bool,
    /// One Groth16 public input, keccak256 of the statement's words (mod the wrapper's r), in
    /// place of one per word: cheaper to verify on chain (about 0.26 G Plutus steps fewer for
    /// three words), about 0.26 M constraints more to prove.
    #[arg(long)]
    hash_statement: bool,
    /// Keep the compiled Groth16 circuit in this file: compiled and written on the first call,
    /// read back (checked against the recorded program and the Go program's build) on the next
    /// ones with --groth16-pk (a setup, --insecure-test-seed, always compiles); at 6.2 M
    /// constraints it saves the compile, about 30 CPU-s of the wrap.
    #[arg(long, conflicts_with = "program_only")]
    groth16_circuit: Option<PathBuf>,
    /// Directory to write.
    #[arg(long)]
    out: PathBuf,
}

impl WrapperArgs {
    /// The wrapper to make; refused without a setup (a seed, a ceremony's keys or
    /// --program-only).
    fn setup(self, command: &str) -> Result<WrapSetup> {
        if self.insecure_test_seed.is_none() && self.groth16_pk.is_none() && !self.program_only {
            return Err(usage(format!(
                "{command}: give --insecure-test-seed SEED (an INSECURE test setup), \
                 --groth16-pk PK --groth16-vk VK (a ceremony's keys) or --program-only"
            )));
        }
        Ok(WrapSetup {
            target: self.target,
            insecure_test_seed: self.insecure_test_seed,
            keys: self.groth16_pk.zip(self.groth16_vk),
            program_only: self.program_only,
            hash_statement: self.hash_statement,
            kept_circuit: self.groth16_circuit,
            out: self.out,
        })
    }
}

/// An aggregation proof and its key, as `tms aggregate verify` and `tms aggregate wrap` take
/// them.
#[derive(Args, Debug)]
struct AggregationProof {
    /// The scheme.
    #[arg(long, value_enum, default_value_t)]
    scheme: Scheme,
    /// KZG parameters of the aggregation circuit.
    #[arg(long)]
    params: PathBuf,
    /// The aggregation key: pinned (`tms aggregate keygen` printed the fingerprint) or
    /// regenerated from --inner-vk.
    #[command(flatten)]
    key: TrustedKey,
    /// With --regenerate-vk: the certificates' verifying key (regenerated from its shape).
    #[arg(long, requires = "inner_params")]
    inner_vk: Option<PathBuf>,
    /// With --regenerate-vk: the certificates' KZG parameters.
    #[arg(long)]
    inner_params: Option<PathBuf>,
    /// Aggregation proof file.
    #[arg(long)]
    proof: PathBuf,
}

impl AggregationProof {
    /// What `verify` and `wrap` check: this proof for `statements`, in `transcript`.
    fn verify_args<'a>(
        &'a self,
        statements: &'a [String],
        transcript: tms_gadgets::proving::Transcript,
    ) -> aggregate::AggregateVerifyArgs<'a> {
        aggregate::AggregateVerifyArgs {
            scheme: self.scheme,
            params: &self.params,
            key: self.key.trust(),
            inner: self.inner_vk.as_deref().zip(self.inner_params.as_deref()),
            proof: &self.proof,
            statements,
            transcript,
        }
    }
}

/// Inner proofs (Poseidon transcript, one verifying key) and where their aggregation goes.
#[derive(Args, Debug)]
struct InnerProofs {
    /// KZG parameters of the inner proofs' circuit.
    #[arg(long)]
    params: PathBuf,
    /// The inner proofs' verifying key.
    #[arg(long)]
    vk: PathBuf,
    /// Inner proofs (`tms prove --transcript poseidon`), in order (chunks: chunk order).
    #[arg(long, num_args = 1.., required = true)]
    proofs: Vec<PathBuf>,
    /// Their statements (`public.json` of `tms prove`), in the same order.
    #[arg(long, num_args = 1.., required = true)]
    publics: Vec<PathBuf>,
    /// KZG parameters of the aggregation circuit, from the same setup (2^22 rows: about 8 M
    /// cells per SNARK-Mithril proof, 6 M per Schnorr ATMS proof).
    #[arg(long)]
    aggregation_params: PathBuf,
    /// Aggregation proof file to write (accumulator words, then the proof: EVM transcript
    /// unless a join says otherwise).
    #[arg(long)]
    proof: PathBuf,
    /// Aggregation verifying key file to write.
    #[arg(long)]
    out_vk: PathBuf,
}

#[derive(Subcommand, Debug)]
enum ChunkCommand {
    /// Make a join tree's top key from the chunk key and the tree alone (no proof): run by a
    /// verifier once, which then pins the fingerprint it prints.
    Keygen {
        /// The chunk circuit's KZG parameters.
        #[arg(long)]
        params: PathBuf,
        /// The chunk verifying key (`tms keygen` over chunk 0), pinned or regenerated.
        #[command(flatten)]
        chunk: TrustedKey,
        /// Chunks the committee is split into.
        #[arg(long)]
        chunks: usize,
        /// Inputs per join (default: all chunks in one join).
        #[arg(long)]
        fanout: Option<usize>,
        /// Each chunk proof is wrapped alone first.
        #[arg(long)]
        wrap: bool,
        /// KZG parameters of the join circuits.
        #[arg(long)]
        aggregation_params: PathBuf,
        /// Top join verifying key file to write.
        #[arg(long)]
        out_vk: PathBuf,
    },
    /// Split a committee (Merkle mode) and its certificate into chunks: a committee and a
    /// certificate file per chunk, and `manifest.json` with each chunk's threshold and root.
    Split {
        /// The committee file.
        #[arg(long)]
        committee: PathBuf,
        /// The certificate file.
        #[arg(long)]
        certificate: PathBuf,
        /// Number of chunks: a power of two, at least 2 (each chunk a subtree of the committee's
        /// Merkle tree).
        #[arg(long)]
        chunks: usize,
        /// Folder for the chunk files and the manifest.
        #[arg(long)]
        out_dir: PathBuf,
    },
    /// Join the chunk proofs (`tms prove --transcript poseidon` of each chunk, one key) into
    /// one proof of the whole committee's statement; or, in a join tree, the chunks of one
    /// subtree (`--part`), or the lower joins' proofs (`--vk` their key). One input is a wrap
    /// (`--part i/P` over chunk i alone): the same statement in a proof of a few columns, which
    /// joins above verify with less memory.
    Join {
        /// The whole committee's file.
        #[arg(long)]
        committee: PathBuf,
        /// The threshold t the joined proof claims (at most the sum of the inputs'; default:
        /// that sum).
        #[arg(long)]
        threshold: Option<u64>,
        /// A lower join of a join tree: subtree g of m (`g/m`) of the committee, whose chunks
        /// (or lower joins) are the inputs.
        #[arg(long)]
        part: Option<String>,
        /// The join proof's transcript: `evm` for the top join (verifiers, contracts),
        /// `poseidon` for a lower join (the next join replays it).
        #[arg(long, value_enum, default_value = "evm")]
        transcript: TranscriptName,
        /// Where to write the join's statement (`public.json` format) for the next level.
        #[arg(long)]
        public: Option<PathBuf>,
        #[command(flatten)]
        inner: InnerProofs,
    },
    /// Verify a join proof against the trusted committee, message and threshold.
    Verify {
        /// The trusted committee file.
        #[arg(long)]
        committee: PathBuf,
        #[command(flatten)]
        message: MessageArgs,
        /// The threshold the verifier requires.
        #[arg(long)]
        threshold: u64,
        /// KZG parameters of the join circuit.
        #[arg(long)]
        params: PathBuf,
        /// The top join's key: pinned (`tms chunk keygen` printed the fingerprint) or
        /// regenerated from --chunk-vk and the tree.
        #[command(flatten)]
        key: TrustedKey,
        /// With --regenerate-vk: the chunk key, its parameters and the tree.
        #[command(flatten)]
        tree: TreeArgs,
        /// Join proof file.
        #[arg(long)]
        proof: PathBuf,
        /// Also verify on the EVM: generate and compile the join key's Solidity verifier and
        /// `CertificateVerifier` (bound to the committee root and the threshold), deploy both
        /// in revm and call `verifyCertificate(message, proof)`; reports sizes and gas. Needs
        /// `npm ci --prefix evm/solc`.
        #[arg(long)]
        evm: bool,
    },
}

/// A join tree: the chunk key and parameters, the chunks, the fan-out and the wraps.
#[derive(Args, Debug)]
struct TreeArgs {
    /// The chunk verifying key (`tms keygen` over chunk 0), regenerated from its shape.
    #[arg(long, requires_all = ["chunk_params", "chunks"])]
    chunk_vk: Option<PathBuf>,
    /// The chunk circuit's KZG parameters.
    #[arg(long)]
    chunk_params: Option<PathBuf>,
    /// Chunks the committee was split into.
    #[arg(long)]
    chunks: Option<usize>,
    /// Inputs per join (default: all chunks in one join).
    #[arg(long)]
    fanout: Option<usize>,
    /// Each chunk proof was wrapped alone first.
    #[arg(long)]
    wrap: bool,
}

impl TreeArgs {
    fn tree(&self) -> Option<chunk::JoinTreeArgs<'_>> {
        Some(chunk::JoinTreeArgs {
            chunk_params: self.chunk_params.as_deref()?,
            chunk_key: KeyTrust {
                vk: self.chunk_vk.as_deref()?,
                fingerprint: None,
                regenerate: true,
            },
            chunks: self.chunks?,
            fanout: self.fanout,
            wrap: self.wrap,
        })
    }
}

#[derive(Subcommand, Debug)]
enum AggregateCommand {
    /// Make the aggregation key of N certificates from their verifying key alone (no proof):
    /// run by a verifier once, which then pins the fingerprint it prints.
    Keygen {
        /// The scheme.
        #[arg(long, value_enum, default_value_t)]
        scheme: Scheme,
        /// KZG parameters of the certificates' circuit.
        #[arg(long)]
        params: PathBuf,
        /// The certificates' verifying key, pinned or regenerated from its shape.
        #[command(flatten)]
        inner: TrustedKey,
        /// The number of certificates.
        #[arg(long)]
        count: usize,
        /// KZG parameters of the aggregation circuit.
        #[arg(long)]
        aggregation_params: PathBuf,
        /// Aggregation verifying key file to write.
        #[arg(long)]
        out_vk: PathBuf,
    },
    /// Aggregate certificate proofs made with `tms prove --transcript poseidon` (one key).
    Prove {
        /// The scheme.
        #[arg(long, value_enum, default_value_t)]
        scheme: Scheme,
        /// The aggregation proof's transcript: `evm` for the EVM's verifiers and contracts,
        /// `poseidon` for `tms aggregate wrap` (the final wrapper of one certificate, wrapped in
        /// Groth16 for Cardano or the EVM).
        #[arg(long, value_enum, default_value = "evm")]
        transcript: TranscriptName,
        #[command(flatten)]
        inner: InnerProofs,
        /// Where the aggregation keys are kept between calls, if anywhere.
        #[command(flatten)]
        cache: commands::step_keys::AggregationKeyCache,
    },
    /// Verify an aggregation proof against the verifier's own statements, in order.
    Verify {
        #[command(flatten)]
        aggregation: AggregationProof,
        /// Each certificate's statement as you hold it, in the aggregation's order:
        /// COMMITTEE,MESSAGE,THRESHOLD (Mithril: REGISTRATION,MESSAGE), COMMITTEE a committee or
        /// registration file or its 0x commitment, MESSAGE 0x-hex bytes.
        #[arg(long = "statement", num_args = 1.., required = true)]
        statements: Vec<String>,
        /// The transcript the aggregation proof was made in.
        #[arg(long, value_enum, default_value = "evm")]
        transcript: TranscriptName,
    },
    /// Wrap the final wrapper of one certificate (`tms aggregate prove --transcript poseidon`
    /// over that proof) in Groth16: verified first for the statement you hold, as `tms aggregate
    /// verify` does, then its verifier recorded (the accumulator a private input, the statement
    /// the public one) and proved by the Go program of evm/groth16, as `tms wrap` does. Its
    /// verifier is about half the certificate's own (5.2 M constraints over BLS12-381 against
    /// 9.8 M), so this is the wrapper a 2-core machine can set up.
    Wrap {
        /// The final wrapper (Poseidon transcript) and its key.
        #[command(flatten)]
        aggregation: AggregationProof,
        /// The certificate's statement as you hold it: COMMITTEE,MESSAGE,THRESHOLD (Mithril:
        /// REGISTRATION,MESSAGE), as for `tms aggregate verify`.
        #[arg(long)]
        statement: String,
        #[command(flatten)]
        wrapper: WrapperArgs,
    },
}

#[derive(Subcommand, Debug)]
enum ChainCommand {
    /// Make a chain's verifying key from the certificate key alone (no proof): a tree's root key
    /// (from the tree's shape), or with `--step` / `--wrapped` the key of `tms chain extend` /
    /// `tms chain wrap`; run by a verifier once, which then pins the fingerprint it prints.
    Keygen {
        /// KZG parameters of the certificates' circuit.
        #[arg(long)]
        params: PathBuf,
        /// The SNARK-Mithril certificate key, pinned or regenerated from its shape.
        #[command(flatten)]
        certificate: TrustedKey,
        /// KZG parameters of the aggregation tree (or of the step circuit and its wrapper).
        #[arg(long)]
        chain_params: PathBuf,
        /// The tree: certificates per leaf, proofs per node, node levels.
        #[arg(long, default_value = "2,2,2", conflicts_with_all = ["step", "wrapped"])]
        tree: String,
        /// The step key (`tms chain extend`'s) instead of a tree's root key.
        #[arg(long, conflicts_with = "wrapped")]
        step: bool,
        /// The wrapped chain's key (`tms chain wrap`'s, for contracts) instead of a tree's root.
        #[arg(long)]
        wrapped: bool,
        /// Verifying key file to write.
        #[arg(long)]
        out_vk: PathBuf,
        /// mithril-stm: the step key of chains of mithril-stm certificates (Cardano backend;
        /// with --step, the certificate key from `tms keygen --format mithril-stm`, whose shape's
        /// chain layout the step verifies).
        #[arg(long, value_enum, default_value_t)]
        format: Format,
    },
    /// mithril-stm: print the 32 bytes epoch E's signers sign on a chain (the link of the next
    /// registration's root, the application message and E; `tms certify --format mithril-stm
    /// --next-registration --epoch` checks the signatures on it).
    Link {
        /// The registration this epoch hands over to (mithril-stm's registration file, or its
        /// aggregate key with the parameters).
        #[arg(long)]
        next_registration: PathBuf,
        /// The epoch signed for, counted from the chain's genesis registration (epoch 0).
        #[arg(long)]
        epoch: u64,
        /// The application message (32 bytes).
        #[command(flatten)]
        message: MessageArgs,
    },
    /// Prove E consecutive SNARK-Mithril chain certificates in one proof: each certificate is
    /// proved, then aggregated in a tree (minutes per aggregation proof, several GiB).
    Prove(chain::ChainProveArgs),
    /// Extend a chain proof by one epoch (incremental, one step proof per epoch): makes the step
    /// keys on the first call (minutes, about 12 GiB; kept for the next, see --step-cache),
    /// proves the certificate and a step that verifies the previous chain proof and the
    /// certificate. Without --previous, the genesis epoch.
    Extend(chain::ChainExtendArgs),
    /// Wrap an extended chain's proof for contracts (`ChainVerifier`, as a tree's root): one
    /// proof that verifies the step proof under the step key and exposes the chain's statement
    /// alone, in the EVM transcript (minutes, GiB; at the step's parameters).
    Wrap(chain::ChainWrapArgs),
    /// Verify a chain proof against the statement the verifier holds.
    Verify {
        #[command(flatten)]
        genesis: GenesisArgs,
        #[command(flatten)]
        last: LastArgs,
        /// The last epoch's application message.
        #[command(flatten)]
        message: MessageArgs,
        /// The number of epochs claimed.
        #[arg(long)]
        epochs: usize,
        /// KZG parameters of the aggregation tree.
        #[arg(long)]
        params: PathBuf,
        /// The root key: pinned (`tms chain keygen` printed the fingerprint) or regenerated
        /// from --tree and --certificate-vk.
        #[command(flatten)]
        key: TrustedKey,
        /// With --regenerate-vk of a tree's root key: the tree (PER_LEAF,PER_NODE,LEVELS).
        #[arg(long, requires = "certificate_vk")]
        tree: Option<String>,
        /// With --regenerate-vk: the SNARK-Mithril certificate key (regenerated from its shape).
        #[arg(long, requires = "certificate_params")]
        certificate_vk: Option<PathBuf>,
        /// With --regenerate-vk: the certificates' KZG parameters.
        #[arg(long)]
        certificate_params: Option<PathBuf>,
        /// Chain proof file.
        #[arg(long)]
        proof: PathBuf,
        /// mithril-stm: a chain of mithril-stm certificates (Cardano backend); the registrations
        /// are mithril-stm's files or their roots (0x-hex), the certificate key is given with
        /// --certificate-vk and --certificate-params and regenerated from its shape, in the
        /// layout a chain proves its certificates in.
        #[arg(long, value_enum, default_value_t)]
        format: Format,
        #[command(flatten)]
        json: JsonArgs,
    },
}

fn run_aggregate(action: AggregateCommand) -> Result<()> {
    match action {
        AggregateCommand::Prove {
            scheme,
            transcript,
            inner: i,
            cache,
        } => aggregate::prove(
            scheme,
            transcript.transcript(),
            &i.params,
            &i.vk,
            &i.proofs,
            &i.publics,
            &i.aggregation_params,
            &i.proof,
            &i.out_vk,
            &cache,
        ),
        AggregateCommand::Keygen {
            scheme,
            params,
            inner,
            count,
            aggregation_params,
            out_vk,
        } => aggregate::keygen(
            scheme,
            &params,
            inner.trust(),
            count,
            &aggregation_params,
            &out_vk,
        ),
        AggregateCommand::Verify {
            aggregation,
            statements,
            transcript,
        } => aggregate::verify(&aggregation.verify_args(&statements, transcript.transcript())),
        AggregateCommand::Wrap {
            aggregation,
            statement,
            wrapper,
        } => {
            let wrapper = wrapper.setup("tms aggregate wrap")?;
            let statements = [statement];
            aggregate::wrap(
                &aggregation.verify_args(&statements, tms_gadgets::proving::Transcript::Poseidon),
                &wrapper,
            )
        }
    }
}

fn run_chunk(action: ChunkCommand) -> Result<()> {
    match action {
        ChunkCommand::Split {
            committee,
            certificate,
            chunks,
            out_dir,
        } => chunk::split(&committee, &certificate, chunks, &out_dir),
        ChunkCommand::Join {
            committee,
            threshold,
            part,
            transcript,
            public,
            inner: i,
        } => chunk::join(&chunk::JoinRequest {
            committee: &committee,
            part: part.as_deref(),
            threshold,
            transcript,
            public: public.as_deref(),
            params: &i.params,
            vk: &i.vk,
            proofs: &i.proofs,
            publics: &i.publics,
            aggregation_params: &i.aggregation_params,
            out_proof: &i.proof,
            out_vk: &i.out_vk,
        }),
        ChunkCommand::Verify {
            committee,
            message,
            threshold,
            params,
            key,
            tree,
            proof,
            evm,
        } => chunk::verify(
            &committee,
            &message.bytes()?,
            threshold,
            &params,
            key.trust(),
            tree.tree().as_ref(),
            &proof,
            evm,
        ),
        ChunkCommand::Keygen {
            params,
            chunk,
            chunks,
            fanout,
            wrap,
            aggregation_params,
            out_vk,
        } => chunk::keygen(
            &chunk::JoinTreeArgs {
                chunk_params: &params,
                chunk_key: chunk.trust(),
                chunks,
                fanout,
                wrap,
            },
            &aggregation_params,
            &out_vk,
        ),
    }
}

fn run_chain(action: ChainCommand) -> Result<()> {
    match action {
        ChainCommand::Prove(args) => chain::prove(&args),
        ChainCommand::Extend(args) if args.format == Format::MithrilStm => stm_chain::extend(&args),
        ChainCommand::Extend(args) => chain::extend(&args),
        ChainCommand::Wrap(args) => chain::wrap(&args),
        ChainCommand::Link {
            next_registration,
            epoch,
            message,
        } => stm_chain::link(&next_registration, epoch, &message.bytes()?),
        ChainCommand::Keygen {
            format: Format::MithrilStm,
            params,
            certificate,
            chain_params,
            step,
            out_vk,
            ..
        } => {
            if !step {
                return Err(usage(
                    "--format mithril-stm: chains of mithril-stm certificates are extended one \
                     epoch at a time; give --step",
                ));
            }
            stm_chain::keygen(&params, &certificate.trust(), &chain_params, &out_vk)
        }
        ChainCommand::Keygen {
            params,
            certificate,
            chain_params,
            tree,
            step,
            wrapped,
            out_vk,
            ..
        } => chain::keygen(&chain::ChainKeygenArgs {
            params: &params,
            certificate_key: certificate.trust(),
            chain_params: &chain_params,
            key: if step {
                chain::ChainKey::Step
            } else if wrapped {
                chain::ChainKey::Wrapped
            } else {
                chain::ChainKey::Root(&tree)
            },
            out_vk: &out_vk,
        }),
        ChainCommand::Verify {
            format: Format::MithrilStm,
            genesis,
            last,
            message,
            epochs,
            params,
            key,
            certificate_vk,
            certificate_params,
            proof,
            json,
            ..
        } => {
            let (Some(certificate_vk), Some(certificate_params)) =
                (certificate_vk, certificate_params)
            else {
                return Err(usage(
                    "--format mithril-stm: give --certificate-vk and --certificate-params (the \
                     certificate key, regenerated from its shape: the step key is laid out over \
                     it and the proof's accumulator is checked against it)",
                ));
            };
            let application = message.bytes()?;
            stm_chain::verify(&stm_chain::StmChainVerifyArgs {
                genesis: stm_chain::registration_root(&genesis.registration()?)?,
                last_root: stm_chain::registration_root(&last.registration()?)?,
                application: &application,
                epochs: epochs as u64,
                chain_params: &params,
                key: key.trust(),
                certificate: (
                    KeyTrust {
                        vk: &certificate_vk,
                        fingerprint: None,
                        regenerate: true,
                    },
                    &certificate_params,
                ),
                proof: &proof,
                json: &json,
            })
        }
        ChainCommand::Verify {
            genesis,
            last,
            message,
            epochs,
            params,
            key,
            tree,
            certificate_vk,
            certificate_params,
            proof,
            ..
        } => {
            let application = message.bytes()?;
            chain::verify(&chain::ChainVerifyArgs {
                genesis: genesis.registration()?,
                last_registration: last.registration()?,
                application: &application,
                epochs,
                params: &params,
                key: key.trust(),
                regenerate_from: match (&tree, &certificate_vk, &certificate_params) {
                    (t, Some(v), Some(p)) => {
                        Some((t.as_deref().unwrap_or_default(), v.as_path(), p.as_path()))
                    }
                    _ => None,
                },
                proof: &proof,
            })
        }
    }
}

/// Refuses every scheme but the Schnorr ATMS on `--backend cardano`.
fn run(command: Command) -> Result<()> {
    match command {
        Command::Committee {
            pair,
            size,
            seed,
            stake,
            out,
            keys_dir,
        } => {
            if !(1..=MAX_COMMITTEE).contains(&size) {
                return Err(usage(format!(
                    "--size: {size} is outside 1..={MAX_COMMITTEE}"
                )));
            }
            pair.driver()?.committee(&CommitteeArgs {
                size: size as usize,
                seed,
                stake,
                out,
                keys_dir,
            })
        }
        Command::Register {
            stakes,
            backend,
            preset,
            m,
            k,
            phi_f,
            depth,
            out,
        } => {
            let params = mithril::parameters(preset, m, k, phi_f.as_deref())?;
            match backend {
                Backend::Bn254 => register::<MithrilBn254>(&stakes, params, depth, &out),
                Backend::Cardano => register::<MithrilCardano>(&stakes, params, depth, &out),
            }
        }
        Command::Sign {
            pair,
            key,
            registration,
            signed,
            out,
        } => pair.driver()?.sign(&SignArgs {
            key,
            registration,
            next_registration: signed.hand_over.next_registration,
            epoch: signed.hand_over.epoch,
            message: signed.message.bytes()?,
            out,
        }),
        Command::Certify {
            input,
            signed,
            out,
            signatures,
        } => input.driver()?.certify(&CertifyArgs {
            committee: input.committee,
            next_registration: signed.hand_over.next_registration,
            epoch: signed.hand_over.epoch,
            message: signed.message.bytes()?,
            out,
            signatures,
        }),
        Command::Setup {
            k,
            ptau,
            halo2,
            srs,
            insecure_test: _,
            backend,
            out,
        } => match backend {
            Backend::Bn254 if srs.is_some() => Err(usage(
                "--srs is Midnight's BLS12-381 SRS: give --backend cardano (BN254 imports --ptau \
                 or --halo2)",
            )),
            Backend::Bn254 => bn254::setup(k, ptau.as_deref(), halo2.as_deref(), &out),
            Backend::Cardano if ptau.is_some() || halo2.is_some() => Err(usage(
                "--backend cardano: --ptau and --halo2 are BN254 formats; import Midnight's \
                 BLS12-381 ceremony with --srs, or use --insecure-test (INSECURE, tests and \
                 demos only)",
            )),
            Backend::Cardano => cardano::setup(k, srs.as_deref(), &out),
        },
        Command::Keygen {
            input,
            shape,
            params,
            pk,
            vk,
            json,
        } => input.driver()?.keygen(&KeygenArgs {
            committee: input.committee,
            options: shape.options(),
            params,
            pk,
            vk,
            json: json.json,
        }),
        Command::Prove {
            input,
            certificate,
            threshold,
            params,
            pk,
            out,
            json,
        } => input.driver()?.prove(&ProveArgs {
            committee: input.committee,
            certificate,
            threshold,
            params,
            pk,
            out: out.output(),
            json: json.json,
        }),
        Command::Serve {
            pair,
            format,
            params,
            pk,
        } => format.driver(&pair)?.serve(&ServeArgs { params, pk }),
        Command::Check {
            scheme,
            committee,
            certificate,
            threshold,
            capacity,
            k,
        } => match scheme {
            Scheme::BlsAtms => bls::check(&committee, &certificate, threshold, capacity, k),
            _ => Err(usage(
                "tms check is for --scheme bls-atms; the other schemes prove in seconds",
            )),
        },
        Command::Verify {
            pair,
            format,
            certificate,
            public,
            transcript,
            json,
            groth16,
            insecure_test_key,
        } => {
            let groth16 = groth16.groth16.map(|key| Groth16Trust {
                key,
                fingerprint: groth16.groth16_fingerprint,
                insecure_test_key,
            });
            let args =
                certificate.verify_args(transcript.transcript(), public, json.json, groth16)?;
            format.driver(&pair)?.verify(&args)
        }
        Command::Wrap {
            pair,
            certificate,
            wrapper,
        } => {
            let args = WrapArgs {
                wrapper: wrapper.setup("tms wrap")?,
                verify: certificate.verify_args(
                    tms_gadgets::proving::Transcript::Poseidon,
                    None,
                    false,
                    None,
                )?,
            };
            pair.driver()?.wrap(&args)
        }
        Command::ExportVerifier {
            scheme,
            vk,
            params,
            vk_fingerprint,
            regenerate_vk,
            out,
        } => commands::export_verifier(
            scheme,
            KeyTrust {
                vk: &vk,
                fingerprint: vk_fingerprint.as_deref(),
                regenerate: regenerate_vk,
            },
            &params,
            &out,
        ),
        Command::ExportPlutus {
            scheme,
            format,
            vk,
            params,
            committee,
            commitment,
            threshold,
            protocol_version,
            proof,
            message,
            vk_fingerprint,
            regenerate_vk,
            insecure_test,
            form,
            thread_policy,
            thread_name,
            out,
            groth16,
        } => {
            let bridge_out = cardano::BridgeOut {
                form,
                thread: thread_policy.as_deref().zip(thread_name.as_deref()),
                protocol_version,
                out: &out,
            };
            if let Some(key) = &groth16.groth16 {
                if proof.is_some() || regenerate_vk || vk_fingerprint.is_some() {
                    return Err(usage(
                        "--groth16: the validator of a Groth16 key (no --proof, --vk-fingerprint \
                         or --regenerate-vk: pin the key with --groth16-fingerprint)",
                    ));
                }
                return commands::wrap::export_plutus_groth16(&commands::wrap::ExportGroth16Args {
                    scheme,
                    key,
                    fingerprint: groth16.groth16_fingerprint.as_deref(),
                    commitment: commitment.as_deref().ok_or_else(|| {
                        usage("--groth16: give the trusted --commitment (0x-hex)")
                    })?,
                    threshold,
                    insecure_test,
                    bridge: bridge_out,
                });
            }
            let (Some(vk), Some(params)) = (vk, params) else {
                return Err(usage("--vk and --params (or --groth16)"));
            };
            let proof = match (&proof, &message) {
                (Some(p), Some(m)) => Some((p.as_path(), message_bytes(Some(m), None)?)),
                _ => None,
            };
            let args = cardano::ExportPlutusArgs {
                trust: KeyTrust {
                    vk: &vk,
                    fingerprint: vk_fingerprint.as_deref(),
                    regenerate: regenerate_vk,
                },
                vk: &vk,
                params: &params,
                committee: committee.as_deref(),
                commitment: commitment.as_deref(),
                threshold,
                protocol_version,
                proof,
                insecure_test,
                form,
                thread: thread_policy.as_deref().zip(thread_name.as_deref()),
                out: &out,
            };
            match (scheme, format.format) {
                (Scheme::Mithril, Format::MithrilStm) => mithril_stm::export_plutus(&args),
                (_, Format::MithrilStm) => Err(usage(
                    "--format mithril-stm: keys of mithril-stm's relation are --scheme mithril",
                )),
                (Scheme::SchnorrAtms, Format::Tms) => schnorr_cardano::export_plutus(&args),
                (Scheme::Mithril, Format::Tms) => mithril_cardano::export_plutus(&args),
                (Scheme::BlsAtms, Format::Tms) => Err(usage(
                    "tms export-plutus: --scheme schnorr-atms or mithril (BLS ATMS proofs are \
                     BN254: tms export-verifier)",
                )),
            }
        }
        Command::Hash { hash, mode, inputs } => commands::hash(hash, mode, &inputs),
        Command::Aggregate { action } => run_aggregate(action),
        Command::Chunk { action } => run_chunk(action),
        Command::Chain { action } => run_chain(action),
        Command::Demo { scheme, backend } => driver(scheme, backend)?.demo(),
    }
}

/// halo2-base panics when a layout at far too small a k overflows its columns; the BN254 keygen
/// catches that panic and reports the parameters as too small, so its message is not printed,
/// nor that of a panic `tms::io::catch_quietly` reports. Every other panic is printed as usual.
fn quiet_column_overflow() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let message = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied())
            .unwrap_or("");
        if !message.starts_with("NOT ENOUGH ADVICE COLUMNS") && !tms::io::panics_are_quiet() {
            default(info)
        }
    }));
}

fn main() -> ExitCode {
    // Logs go to stderr, off unless RUST_LOG asks (e.g. RUST_LOG=tms=info).
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::from_default_env())
        .with_writer(std::io::stderr)
        .init();
    quiet_column_overflow();
    let cli = Cli::parse();
    // Before any work: a build whose assembly this CPU cannot run would die on its first
    // BN254 field multiplication.
    if let Some(why) = tms_gadgets::cpu::unsupported() {
        eprintln!("error: {why}");
        return ExitCode::FAILURE;
    }
    match run(cli.command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
