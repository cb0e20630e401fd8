//! The option values of the command line (schemes, modes, presets), shared by the commands.

use clap::ValueEnum;

/// Which Plutus script `tms export-plutus` writes.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum PlutusForm {
    /// The statement as script parameters, the message in the redeemer; reads nothing of the
    /// transaction (a budget yardstick: any certificate spends everything at its address).
    #[default]
    Example,
    /// A state thread: the thread token's UTxO moves to the next (statement, epoch) signed by
    /// the current statement (also writes the genesis datum).
    StateThread,
    /// A withdraw-zero (or minting) observer: the certificate signs the transaction's least
    /// input and its outputs.
    Observer,
}

/// The scheme a command is for.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Scheme {
    /// Schnorr ATMS on Grumpkin, Rescue-Prime commitments.
    #[default]
    SchnorrAtms,
    /// BLS ATMS on BN254: keys in G1 with proofs of possession, one pairing.
    BlsAtms,
    /// SNARK-Mithril: stake-based lotteries over unique Grumpkin signatures.
    Mithril,
}

impl Scheme {
    /// The name in files and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Scheme::SchnorrAtms => "schnorr-atms",
            Scheme::BlsAtms => "bls-atms",
            Scheme::Mithril => "mithril",
        }
    }
}

/// Whose files a command reads.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Format {
    /// tms's own files.
    #[default]
    Tms,
    /// mithril-stm 0.13's serde JSON: its registration or aggregate key, its SingleSignatures.
    MithrilStm,
}

/// The proof system a command uses.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Backend {
    /// KZG over BN254 (halo2-base), verified natively or by the generated Solidity verifier.
    #[default]
    #[value(alias = "evm")]
    Bn254,
    /// KZG over BLS12-381 (IOG's midnight stack), verified natively or by the generated Plutus
    /// validator; Schnorr ATMS on Jubjub only.
    Cardano,
}

/// Committee commitment mode (Schnorr ATMS).
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// One Rescue-Prime hash of all keys, one slot per member.
    Flat,
    /// A Rescue-Prime Merkle root, `--slots` signer slots.
    Merkle,
}

/// Mithril parameter presets.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Preset {
    /// Cardano mainnet: m = 16948, k = 1944, phi_f = 0.2.
    Mainnet,
    /// Cardano preprod: m = 100, k = 5, phi_f = 0.7.
    Preprod,
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

/// The Fiat-Shamir transcript of a proof file.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum TranscriptName {
    /// Blake2b: halo2's default, for `tms verify` and native verifiers.
    #[default]
    Blake2b,
    /// Keccak-256 in snark-verifier's layout: what the generated Solidity verifier checks.
    Evm,
    /// Poseidon in snark-verifier's layout: what `tms aggregate` takes.
    Poseidon,
}

impl TranscriptName {
    /// The transcript it names.
    pub fn transcript(self) -> tms_gadgets::proving::Transcript {
        match self {
            Self::Blake2b => tms_gadgets::proving::Transcript::Blake2b,
            Self::Evm => tms_gadgets::proving::Transcript::Evm,
            Self::Poseidon => tms_gadgets::proving::Transcript::Poseidon,
        }
    }
}
