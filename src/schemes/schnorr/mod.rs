//! The Schnorr ATMS: its files on every backend (committee, signatures, certificates), `tms
//! sign` and `tms certify` written once over [`SchnorrFiles`], and the scheme on BN254/Grumpkin
//! ([`bn254`]) and on Cardano's BLS12-381/Jubjub ([`cardano`]).

pub mod bn254;
pub mod cardano;

use std::path::Path;

use schnorr_atms::{CheckError, CommitmentMode};
use serde::{Deserialize, Serialize};

use super::{check_signed_message, demo_keys};
use crate::{
    formats::{bytes_from_hex, bytes_to_hex, Header, PublicFile},
    interface::{CertificateScheme, CertifyArgs, DemoCertificate, ProvingBackend, Trusted},
    io::{at, read_json_on, usage, write_json, CliError, MemberSecret, Result},
    options::Mode,
};

/// `committee.json`: the members' keys with their proofs of possession, in committee order.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct CommitteeFile {
    /// Version and scheme.
    #[serde(flatten)]
    pub header: Header,
    /// The members.
    pub members: Vec<RegisteredKey>,
}

/// One registered member: its key and its proof of possession.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
#[serde(from = "MemberEntry")]
pub struct RegisteredKey {
    /// Compressed public key.
    pub public_key: String,
    /// The key's signature of its possession message (`tms_gadgets::signature::schnorr`), in
    /// [`crate::formats::schnorr_signature_to_hex`]'s form. Required: `None` only when reading a
    /// file without one, which [`bn254::load_committee`] refuses by name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proof_of_possession: Option<String>,
}

/// A member entry as read: a registration, or the bare key of a file written before proofs of
/// possession (read only to be refused by name).
#[derive(Deserialize)]
#[serde(untagged)]
enum MemberEntry {
    Key(String),
    Registered {
        public_key: String,
        #[serde(default)]
        proof_of_possession: Option<String>,
    },
}

impl From<MemberEntry> for RegisteredKey {
    fn from(entry: MemberEntry) -> Self {
        match entry {
            MemberEntry::Key(public_key) => Self {
                public_key,
                proof_of_possession: None,
            },
            MemberEntry::Registered {
                public_key,
                proof_of_possession,
            } => Self {
                public_key,
                proof_of_possession,
            },
        }
    }
}

/// A Schnorr signature in a signature file.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct SignatureHex {
    /// The nonce commitment R.
    pub r: String,
    /// The response s.
    pub s: String,
}

/// A signature file.
pub type SignatureFile = crate::formats::SignatureFile<SignatureHex>;

/// One signature inside a certificate.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct CertifiedSignature {
    /// Member index.
    pub index: usize,
    /// R.
    pub r: String,
    /// s.
    pub s: String,
}

/// `certificate.json`: valid signatures by distinct members on one message.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct CertificateFile {
    /// Version and scheme.
    #[serde(flatten)]
    pub header: Header,
    /// The message bytes.
    pub message: String,
    /// Signatures by increasing member index.
    pub signatures: Vec<CertifiedSignature>,
}

/// `tms demo --scheme schnorr-atms` on either backend: members 0, 2, 3 and 5 of 6 sign this
/// message, under a flat commitment and threshold 3.
pub(crate) mod demo {
    /// Committee size.
    pub const COMMITTEE: usize = 6;
    /// The signers' member indices.
    pub const SIGNERS: [usize; 4] = [0, 2, 3, 5];
    /// The threshold.
    pub const THRESHOLD: u64 = 3;
    /// The message bytes.
    pub const MESSAGE: &[u8] = b"tms demo: epoch 1 committee handover";

    /// The demo's line about the certificate, the message described by the backend.
    pub fn signed(message: String) -> String {
        format!("certificate: members {SIGNERS:?} signed {message}; threshold {THRESHOLD}")
    }
}

/// The commitment mode of `keygen`'s options (the Schnorr ATMS on either backend).
pub fn commitment_mode(mode: Mode, slots: Option<usize>) -> Result<CommitmentMode> {
    match (mode, slots) {
        (Mode::Flat, None) => Ok(CommitmentMode::Flat),
        (Mode::Flat, Some(_)) => Err(usage("--slots applies to --mode merkle only")),
        (Mode::Merkle, Some(slots)) => Ok(CommitmentMode::Merkle { slots }),
        (Mode::Merkle, None) => Err(usage("--mode merkle needs --slots")),
    }
}

/// A backend's side of the Schnorr ATMS's files: how its keys and signatures are written, and
/// how signatures aggregate into a certificate. `tms sign` and `tms certify` are written once
/// over it.
pub trait SchnorrFiles: CertificateScheme {
    /// A member's public key.
    type Key;
    /// A Schnorr signature.
    type Signature: Copy;

    /// Reads a member key file, checking its public key is its secret key's.
    fn load_member(key: &Path) -> Result<Self::SigningKey>;
    /// A public key's hex.
    fn key_hex(key: &Self::Key) -> String;
    /// The circuit's shape for `n` members, committed to in `mode`, at `k`.
    fn shape_of(n: usize, mode: CommitmentMode, k: u32) -> Self::Shape;
    /// Parses a public key (hex).
    fn parse_key(hex: &str, what: &str) -> std::result::Result<Self::Key, String>;
    /// Parses a signature from its hex `r` and `s`.
    fn parse_signature(r: &str, s: &str) -> std::result::Result<Self::Signature, String>;
    /// A signature's hex `r` and `s`.
    fn signature_hex(signature: &Self::Signature) -> (String, String);
    /// Parses a proof of possession (hex `R || s`).
    fn parse_possession(hex: &str, what: &str) -> std::result::Result<Self::Signature, String>;
    /// The committee of registered keys, every proof of possession checked.
    fn register(
        members: &[(Self::Key, Self::Signature)],
    ) -> std::result::Result<Self::Committee, String>;
    /// The signatures by member index, each key a member's and each signature valid.
    fn aggregate(
        committee: &Self::Committee,
        message: &[u8],
        signed: &[(Self::Key, Self::Signature)],
    ) -> std::result::Result<Vec<(usize, Self::Signature)>, Refusal>;
    /// The circuit's witness of a certificate (message bytes and signatures by member index).
    fn atms_witness(
        shape: &Self::Shape,
        committee: &Self::Committee,
        message: &[u8],
        signatures: Vec<(usize, Self::Signature)>,
        threshold: u64,
    ) -> std::result::Result<Self::Witness, Refusal>;
    /// The statement a verifier builds from the committee, the message bytes and the threshold
    /// it holds.
    fn trusted_instance(
        shape: &Self::Shape,
        committee: &Self::Committee,
        message: &[u8],
        threshold: u64,
    ) -> std::result::Result<Self::Instance, String>;
    /// The statement a witness proves.
    fn witness_instance(witness: &Self::Witness) -> &Self::Instance;
    /// The prover's statement file of `instance`, a statement on `message`.
    fn statement_file(
        shape: &Self::Shape,
        instance: &Self::Instance,
        message: &[u8],
    ) -> PublicFile<Self::ShapeFile>;

    /// A member's secret key.
    type SigningKey: MemberSecret;
    /// `sk`'s public key.
    fn public_key(sk: &Self::SigningKey) -> Self::Key;
    /// `sk`'s signature of `message` (its bytes, mapped to the circuit's field).
    fn sign_message(
        sk: &Self::SigningKey,
        message: &[u8],
    ) -> std::result::Result<Self::Signature, String>;
    /// A committee of keys made here (the demo's seeded keys: no proofs of possession to check).
    fn new_committee(keys: Vec<Self::Key>) -> std::result::Result<Self::Committee, String>;
    /// The demo's circuit: `demo::COMMITTEE` members, flat, at the smallest k it fits.
    fn demo_shape() -> Result<Self::Shape>;
    /// The demo's line about its committee (keys, commitment).
    fn describe_demo(instance: &Self::Instance) -> String;
    /// Message bytes and their field element, described.
    fn describe_message(message: &[u8]) -> String;
}

/// `tms demo --scheme schnorr-atms` on either backend ([`demo`]): the seeded members, the
/// signers' certificate, its witness, and the statement the verifier rebuilds from the committee
/// and message it holds.
pub(crate) fn demo_certificate<S: SchnorrFiles>() -> Result<DemoCertificate<S>> {
    let members: Vec<S::SigningKey> = demo_keys(demo::COMMITTEE);
    let committee =
        S::new_committee(members.iter().map(S::public_key).collect()).map_err(CliError)?;
    let signed = demo::SIGNERS
        .iter()
        .map(|&i| {
            let signature = S::sign_message(&members[i], demo::MESSAGE).map_err(usage)?;
            Ok((S::public_key(&members[i]), signature))
        })
        .collect::<Result<Vec<_>>>()?;
    let refused = |Refusal(_, text): Refusal| CliError(text);
    let signatures = S::aggregate(&committee, demo::MESSAGE, &signed).map_err(refused)?;
    let shape = S::demo_shape()?;
    let (message, threshold) = (demo::MESSAGE, demo::THRESHOLD);
    let witness =
        S::atms_witness(&shape, &committee, message, signatures, threshold).map_err(refused)?;
    let instance = S::trusted_instance(&shape, &committee, message, threshold).map_err(CliError)?;
    let description = vec![
        S::describe_demo(&instance),
        demo::signed(S::describe_message(message)),
    ];
    Ok(DemoCertificate {
        trusted: Trusted {
            public: S::statement_file(&shape, &instance, message),
            instance,
        },
        description,
        shape,
        witness,
    })
}

/// The calls of [`SchnorrFiles`] into a circuit crate (`schnorr_atms` or
/// `schnorr_atms_jubjub`, whose `Committee`, `Certificate`, `AtmsWitness`, `AtmsInstance`,
/// `SigningKey`, `AtmsError` and `message_to_field` have the same shape) and the encodings of keys and signatures (the module
/// names its `point_from_hex`, `point_to_hex`, `scalar_from_hex`, `scalar_to_hex` and
/// `signature_from_hex`): written once.
macro_rules! circuit_calls {
    ($signature:ty) => {
        type Key = VerifyingKey;
        type Signature = $signature;

        fn parse_key(hex: &str, what: &str) -> std::result::Result<VerifyingKey, String> {
            point_from_hex(hex, what).map(VerifyingKey)
        }

        fn key_hex(key: &VerifyingKey) -> String {
            point_to_hex(&key.0)
        }

        fn parse_signature(r: &str, s: &str) -> std::result::Result<$signature, String> {
            Ok(Signature {
                r: point_from_hex(r, "r")?,
                s: scalar_from_hex(s, "s")?,
            })
        }

        fn signature_hex(signature: &$signature) -> (String, String) {
            (point_to_hex(&signature.r), scalar_to_hex(&signature.s))
        }

        fn parse_possession(hex: &str, what: &str) -> std::result::Result<$signature, String> {
            signature_from_hex(hex, what)
        }

        fn register(
            members: &[(VerifyingKey, $signature)],
        ) -> std::result::Result<Committee, String> {
            Committee::register(members).map_err(|e| e.to_string())
        }

        fn aggregate(
            committee: &Committee,
            message: &[u8],
            signed: &[(VerifyingKey, $signature)],
        ) -> std::result::Result<Vec<(usize, $signature)>, super::Refusal> {
            Certificate::aggregate(committee, message_to_field(message), signed)
                .map(|c| c.signatures)
                .map_err(super::Refusal::of)
        }

        fn atms_witness(
            shape: &AtmsShape,
            committee: &Committee,
            message: &[u8],
            signatures: Vec<(usize, $signature)>,
            threshold: u64,
        ) -> std::result::Result<AtmsWitness, super::Refusal> {
            let message = message_to_field(message);
            let certificate = Certificate {
                message,
                signatures,
            };
            AtmsWitness::new(*shape, committee, &certificate, threshold).map_err(super::Refusal::of)
        }

        fn trusted_instance(
            shape: &AtmsShape,
            committee: &Committee,
            message: &[u8],
            threshold: u64,
        ) -> std::result::Result<AtmsInstance, String> {
            AtmsInstance::from_trusted(shape, committee, message, threshold)
                .map_err(|e| e.to_string())
        }

        fn witness_instance(witness: &AtmsWitness) -> &AtmsInstance {
            &witness.instance
        }

        type SigningKey = SigningKey;

        fn public_key(sk: &SigningKey) -> VerifyingKey {
            sk.verifying_key()
        }

        fn new_committee(keys: Vec<VerifyingKey>) -> std::result::Result<Committee, String> {
            Committee::new(keys).map_err(|e| e.to_string())
        }
    };
}
use circuit_calls;

/// The calls of [`CertificateScheme`] both Schnorr ATMS pairs make the same way, written once:
/// `committee`, `sign` (refusing Mithril's registration options), `certify` and reading and
/// checking the committee (the module names its `committee`, `load_committee`, `AtmsShape`,
/// `AtmsKeys` and `Committee`), the shape keygen makes, the witness of a certificate file
/// (`AtmsWitness`) and its public inputs, and the demo's certificate.
macro_rules! scheme_calls {
    () => {
        fn committee(a: &CommitteeArgs) -> Result<()> {
            committee(a.size, a.seed, &a.out, &a.keys_dir)
        }

        fn sign(a: &SignArgs) -> Result<()> {
            crate::schemes::refuse_registration(
                a.registration.as_deref(),
                a.next_registration.as_deref(),
            )?;
            super::sign::<Self>(&a.key, &a.message, &a.out)
        }

        fn certify(a: &CertifyArgs) -> Result<()> {
            super::certify::<Self>(a)
        }

        fn load_committee(path: &Path) -> Result<Committee> {
            load_committee(path)
        }

        fn check_committee(path: &Path, c: &Committee, shape: &AtmsShape, key: &str) -> Result<()> {
            crate::checks::check_members(path, c.keys().len(), shape.n, key)
        }

        fn witness(
            shape: &AtmsShape,
            committee: &Committee,
            certificate: &Path,
            threshold: Option<u64>,
        ) -> Result<(AtmsWitness, PublicFile<Self::ShapeFile>)> {
            super::witness::<Self>(shape, committee, certificate, threshold.unwrap_or_default())
        }

        fn keygen_shape(c: &Committee, options: &ShapeOptions, k: u32) -> Result<AtmsShape> {
            let mode = super::commitment_mode(options.mode, options.slots)?;
            let shape = Self::shape_of(c.keys().len(), mode, k);
            shape.validate().map_err(usage)?;
            Ok(shape)
        }

        fn k(shape: &AtmsShape) -> u32 {
            shape.k
        }

        fn keys_shape(keys: &AtmsKeys) -> &AtmsShape {
            &keys.shape
        }

        fn public_inputs(
            witness: &AtmsWitness,
        ) -> Vec<<Self::Backend as crate::interface::ProvingBackend>::Scalar> {
            witness.instance.to_public_inputs()
        }

        fn demo_certificate() -> Result<DemoCertificate<Self>> {
            super::demo_certificate::<Self>()
        }
    };
}
use scheme_calls;

/// Why a circuit crate refused: the shared check that failed, if one did, and the message.
pub struct Refusal(Option<CheckError>, String);

impl Refusal {
    /// A circuit crate's error, with the shared check it carries (if any).
    fn of<E: std::fmt::Display + CarriesCheck>(error: E) -> Self {
        Self(error.check().copied(), error.to_string())
    }
}

/// A circuit crate's error that may carry a [`CheckError`].
trait CarriesCheck {
    fn check(&self) -> Option<&CheckError>;
}

impl CarriesCheck for schnorr_atms::AtmsError {
    fn check(&self) -> Option<&CheckError> {
        match self {
            Self::Check(check) => Some(check),
            _ => None,
        }
    }
}

impl CarriesCheck for schnorr_atms_jubjub::AtmsError {
    fn check(&self) -> Option<&CheckError> {
        match self {
            Self::Check(check) => Some(check),
            _ => None,
        }
    }
}

fn header<S: SchnorrFiles>() -> Header {
    Header::on(S::SCHEME, S::Backend::TAG)
}

/// Reads and registers a committee file: every key valid with a valid proof of possession, none
/// repeated; also returns the file's entries (which `tms chunk split` copies).
pub fn load_registered<S: SchnorrFiles>(path: &Path) -> Result<(S::Committee, Vec<RegisteredKey>)> {
    let file: CommitteeFile = read_json_on(path, S::SCHEME, S::Backend::TAG)?;
    if file.members.len() > crate::io::MAX_MEMBERS {
        return Err(at(
            path,
            format!("more than {} members", crate::io::MAX_MEMBERS),
        ));
    }
    let backend = S::Backend::TAG.map_or(String::new(), |tag| format!(" --backend {tag}"));
    let members = file
        .members
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let key = S::parse_key(&m.public_key, &format!("member {i}'s key"))?;
            let pop = m.proof_of_possession.as_deref().ok_or_else(|| {
                format!(
                    "member {i} has no proof of possession (every key needs one; `tms \
                     committee{backend}` writes them)"
                )
            })?;
            let pop = S::parse_possession(pop, &format!("member {i}'s proof of possession"))?;
            Ok((key, pop))
        })
        .collect::<std::result::Result<Vec<_>, String>>()
        .map_err(|e| at(path, e))?;
    let committee = S::register(&members).map_err(|e| at(path, e))?;
    Ok((committee, file.members))
}

/// `tms sign --scheme schnorr-atms`.
pub fn sign<S: SchnorrFiles>(key: &Path, message: &[u8], out: &Path) -> Result<()> {
    let sk = S::load_member(key)?;
    let signature = S::sign_message(&sk, message).map_err(|e| at(key, e))?;
    let (r, s) = S::signature_hex(&signature);
    let file = SignatureFile {
        header: header::<S>(),
        public_key: S::key_hex(&S::public_key(&sk)),
        message: bytes_to_hex(message),
        signature: SignatureHex { r, s },
    };
    write_json(out, &file)
}

/// `tms certify --scheme schnorr-atms`: the signature files, each over the message, checked and
/// aggregated by member index.
pub fn certify<S: SchnorrFiles>(a: &CertifyArgs) -> Result<()> {
    super::refuse_registration(None, a.next_registration.as_deref())?;
    let committee = S::load_committee(&a.committee)?;
    let mut signed = Vec::with_capacity(a.signatures.len());
    for path in &a.signatures {
        let file: SignatureFile = read_json_on(path, S::SCHEME, S::Backend::TAG)?;
        check_signed_message(path, &file.message, &a.message)?;
        let key = S::parse_key(&file.public_key, "public_key").map_err(|e| at(path, e))?;
        let signature =
            S::parse_signature(&file.signature.r, &file.signature.s).map_err(|e| at(path, e))?;
        signed.push((key, signature));
    }
    let signatures = S::aggregate(&committee, &a.message, &signed).map_err(
        |Refusal(check, text)| match check {
            Some(CheckError::NotInCommittee(i)) => at(
                &a.signatures[i],
                "the signer is not a member of the committee",
            ),
            Some(CheckError::InvalidSignature(i)) => {
                at(&a.signatures[i], "the signature does not verify")
            }
            Some(CheckError::DuplicateSigner(member)) => {
                CliError(format!("member {member} signed more than once"))
            }
            _ => CliError(text),
        },
    )?;
    let file = CertificateFile {
        header: header::<S>(),
        message: bytes_to_hex(&a.message),
        signatures: signatures
            .iter()
            .map(|(index, signature)| {
                let (r, s) = S::signature_hex(signature);
                CertifiedSignature {
                    index: *index,
                    r,
                    s,
                }
            })
            .collect(),
    };
    write_json(&a.out, &file)?;
    println!(
        "certificate with {} signatures written to {}",
        signatures.len(),
        a.out.display()
    );
    Ok(())
}

/// The witness of a certificate file for `shape` and the threshold, with the prover's statement
/// file. A threshold above the slots is the command line's (`--threshold`), any other refusal
/// the certificate file's.
pub fn witness<S: SchnorrFiles>(
    shape: &S::Shape,
    committee: &S::Committee,
    path: &Path,
    threshold: u64,
) -> Result<(S::Witness, PublicFile<S::ShapeFile>)> {
    let file: CertificateFile = read_json_on(path, S::SCHEME, S::Backend::TAG)?;
    let message = bytes_from_hex(&file.message, "message").map_err(|e| at(path, e))?;
    let signatures = file
        .signatures
        .iter()
        .map(|s| {
            Ok((
                s.index,
                S::parse_signature(&s.r, &s.s).map_err(|e| at(path, e))?,
            ))
        })
        .collect::<Result<Vec<_>>>()?;
    let witness = S::atms_witness(shape, committee, &message, signatures, threshold).map_err(
        |Refusal(check, text)| match check {
            Some(CheckError::ThresholdTooLarge { .. }) => usage(format!("--threshold: {text}")),
            _ => at(path, text),
        },
    )?;
    let public = S::statement_file(shape, S::witness_instance(&witness), &message);
    Ok((witness, public))
}
