//! `tms`: threshold multisignature certificates as Halo2 proofs.
//!
//! ```text
//! tms committee --size 6 --out committee.json --keys-dir keys     # members' keys
//! tms sign --key keys/member-0.json --message 0x...01 --out sig0.json
//! tms certify --committee committee.json --message 0x...01 --out cert.json sig0.json sig2.json ...
//! tms setup --k 17 --ptau ceremony.ptau --out params.srs          # or --insecure-test
//! tms keygen --committee committee.json --params params.srs --pk atms.pk --vk atms.vk
//! tms prove --committee committee.json --certificate cert.json --threshold 3 \
//!           --params params.srs --pk atms.pk --proof proof.bin --public public.json
//! tms verify --params params.srs --vk atms.vk --public public.json --proof proof.bin
//! tms hash --hash rescue-prime --mode leaf 1 2 3
//! tms demo
//! ```
//! Logs: `RUST_LOG=tms=info` (or `debug`) prints what each step read, built and how long it took.
//! Every error is one line naming the file and the problem, with a non-zero exit code; output
//! files are written atomically, so a failed command leaves none behind.
#![deny(missing_docs)]

mod commands;
mod formats;

use std::{path::PathBuf, process::ExitCode};

use clap::{Parser, Subcommand, ValueEnum};

/// Threshold multisignature certificates as Halo2 proofs (KZG over BN254).
#[derive(Parser, Debug)]
#[command(name = "tms", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// The circuit a command is for.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scheme {
    /// Schnorr ATMS on Grumpkin (the only scheme so far).
    SchnorrAtms,
}

/// Committee commitment mode.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// One Rescue-Prime hash of all keys, one slot per member.
    Flat,
    /// A Rescue-Prime Merkle root, `--slots` signer slots.
    Merkle,
}

/// Hash functions for `tms hash`.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum HashName {
    /// Poseidon (circomlib's parameters).
    Poseidon,
    /// Rescue-Prime (m = 4, rate 3).
    RescuePrime,
}

/// Hash modes for `tms hash`.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum HashMode {
    /// Merkle node of exactly two elements.
    Node,
    /// Fixed-length leaf hash of one or more elements.
    Leaf,
    /// Rescue-Prime's padded variable-length hash (first output element).
    Sponge,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Generate a committee's keys: public keys to `--out`, one secret key file per member.
    Committee {
        /// The scheme.
        #[arg(long, value_enum, default_value = "schnorr-atms")]
        scheme: Scheme,
        /// Number of members.
        #[arg(long)]
        size: usize,
        /// Seed for reproducible test committees; without it keys come from the OS.
        #[arg(long)]
        seed: Option<u64>,
        /// Committee file to write.
        #[arg(long)]
        out: PathBuf,
        /// Folder for the members' secret key files.
        #[arg(long)]
        keys_dir: PathBuf,
    },
    /// One member signs a message (a field element).
    Sign {
        /// The member's secret key file.
        #[arg(long)]
        key: PathBuf,
        /// The message: 0x-hex (big-endian) or decimal.
        #[arg(long)]
        message: String,
        /// Signature file to write.
        #[arg(long)]
        out: PathBuf,
    },
    /// Check signatures and aggregate them into a certificate.
    Certify {
        /// The committee file.
        #[arg(long)]
        committee: PathBuf,
        /// The message every signature must be on.
        #[arg(long)]
        message: String,
        /// Certificate file to write.
        #[arg(long)]
        out: PathBuf,
        /// Signature files.
        #[arg(required = true)]
        signatures: Vec<PathBuf>,
    },
    /// KZG parameters for 2^k rows: imported from a snarkjs powers-of-tau file, or (INSECURE,
    /// tests and demos only) made from a fixed seed. Writes `<out>.sha256` beside them.
    Setup {
        /// log2 of the number of rows.
        #[arg(long)]
        k: u32,
        /// A snarkjs `.ptau` file (BN254) from a ceremony.
        #[arg(
            long,
            conflicts_with_all = ["insecure_test", "halo2"],
            required_unless_present_any = ["insecure_test", "halo2"]
        )]
        ptau: Option<PathBuf>,
        /// A parameters file in halo2's KZG format (e.g. from another halo2 project), cut to 2^k.
        #[arg(long, conflicts_with = "insecure_test")]
        halo2: Option<PathBuf>,
        /// Make insecure parameters from a fixed public seed instead.
        #[arg(long)]
        insecure_test: bool,
        /// Parameters file to write.
        #[arg(long)]
        out: PathBuf,
    },
    /// Proving and verifying keys for a committee's size and mode.
    Keygen {
        /// The committee file (its size fixes the circuit).
        #[arg(long)]
        committee: PathBuf,
        /// Commitment mode.
        #[arg(long, value_enum, default_value = "flat")]
        mode: Mode,
        /// Signer slots (Merkle mode).
        #[arg(long)]
        slots: Option<usize>,
        /// KZG parameters.
        #[arg(long)]
        params: PathBuf,
        /// Proving key file to write.
        #[arg(long)]
        pk: PathBuf,
        /// Verifying key file to write.
        #[arg(long)]
        vk: PathBuf,
    },
    /// Prove that a certificate meets a threshold.
    Prove {
        /// The committee file.
        #[arg(long)]
        committee: PathBuf,
        /// The certificate file.
        #[arg(long)]
        certificate: PathBuf,
        /// The threshold t (at least t valid signatures).
        #[arg(long)]
        threshold: u64,
        /// KZG parameters.
        #[arg(long)]
        params: PathBuf,
        /// Proving key file.
        #[arg(long)]
        pk: PathBuf,
        /// Proof file to write.
        #[arg(long)]
        proof: PathBuf,
        /// Public-inputs file to write.
        #[arg(long)]
        public: PathBuf,
    },
    /// Verify a proof against its public inputs.
    Verify {
        /// KZG parameters.
        #[arg(long)]
        params: PathBuf,
        /// Verifying key file.
        #[arg(long)]
        vk: PathBuf,
        /// Public-inputs file.
        #[arg(long)]
        public: PathBuf,
        /// Proof file.
        #[arg(long)]
        proof: PathBuf,
    },
    /// Hash field elements as the circuits do (for tooling that must match commitments).
    Hash {
        /// The hash.
        #[arg(long, value_enum)]
        hash: HashName,
        /// The mode.
        #[arg(long, value_enum)]
        mode: HashMode,
        /// Field elements: 0x-hex (big-endian) or decimal.
        #[arg(required = true)]
        inputs: Vec<String>,
    },
    /// The main job on an embedded committee: keys, signatures, certificate, proof, verification.
    Demo,
}

fn main() -> ExitCode {
    // Logs go to stderr, off unless RUST_LOG asks (e.g. RUST_LOG=tms=info).
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::from_default_env())
        .with_writer(std::io::stderr)
        .init();
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Committee {
            scheme: _,
            size,
            seed,
            out,
            keys_dir,
        } => commands::committee(size, seed, &out, &keys_dir),
        Command::Sign { key, message, out } => commands::sign(&key, &message, &out),
        Command::Certify {
            committee,
            message,
            out,
            signatures,
        } => commands::certify(&committee, &message, &out, &signatures),
        Command::Setup {
            k,
            ptau,
            halo2,
            insecure_test: _,
            out,
        } => commands::setup(k, ptau.as_deref(), halo2.as_deref(), &out),
        Command::Keygen {
            committee,
            mode,
            slots,
            params,
            pk,
            vk,
        } => commands::keygen(&committee, mode, slots, &params, &pk, &vk),
        Command::Prove {
            committee,
            certificate,
            threshold,
            params,
            pk,
            proof,
            public,
        } => commands::prove(
            &committee,
            &certificate,
            threshold,
            &params,
            &pk,
            &proof,
            &public,
        ),
        Command::Verify {
            params,
            vk,
            public,
            proof,
        } => commands::verify(&params, &vk, &public, &proof),
        Command::Hash { hash, mode, inputs } => commands::hash(hash, mode, &inputs),
        Command::Demo => commands::demo(),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
