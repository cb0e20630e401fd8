//! mithril-stm 0.13's own files through the tool (`--format mithril-stm` with `--scheme mithril
//! --backend cardano`): a registration closed by mithril-stm and the single signatures its
//! signers made, read with serde structs of ours (mithril-stm is not a dependency of this
//! workspace), aggregated by `tms certify`, proved in `mithril_jubjub::stm` (mithril-stm's SNARK
//! relation) by `tms prove` and checked by `tms verify` against the statement built from the
//! registration (or its aggregate verification key) and the message the verifier holds.
//!
//! What is read, each value as mithril-stm's serde writes it to JSON (a point, a field element,
//! a scalar: a list of its 32 canonical bytes; a Jubjub point compressed, field elements
//! little-endian):
//! - a **registration** file: `{"parameters": Parameters, "closed_registration_entries":
//!   [ClosedRegistrationEntry, ...]}` in signer-index order (mithril-stm's `ClosedKeyRegistration`
//!   has no serde form of its own: its entries and the protocol parameters do). Each entry is
//!   mithril-stm's tuple `[BLS key, stake, SNARK key, lottery target]`; the BLS key is not read.
//!   A verifier may hold `{"parameters": Parameters, "aggregate_verification_key":
//!   AggregateVerificationKeyForSnark}` instead (or both members: they must agree);
//! - **single signatures**: mithril-stm's `SingleSignature` (its `signer_index` and
//!   `snark_signature.schnorr_signature`; the concatenation part is not read), one per file or a
//!   list, as JSON or as the hex of that JSON (mithril's "json hex", as signers send them to the
//!   aggregator);
//! - the **message**: the 32 bytes mithril-stm signs, or their 64 hex digits (as mithril-stm's
//!   `parse_and_hash_snark_message` accepts both).
//!
//! `tms certify` writes a certificate file of ours (tms header, `"relation": "mithril-stm-0.13"`):
//! the chosen indices and their signers' signatures in mithril-stm's canonical bytes. Keys,
//! proofs and statement files are the Cardano backend's, their shape marked with the relation.
//! On a chain (`tms certify --next-registration R --epoch E`) the signers sign the link of `R`'s
//! root, the application message and `E` (`tms chain link`), and the certificate file records the
//! hand-over; `tms chain extend|verify --format mithril-stm` ([`crate::commands::stm_chain`])
//! prove and check chains of these certificates.
//! `tms export-plutus --format mithril-stm` writes the Plutus validators of a key of this
//! relation ([`export_plutus`]).

use std::{collections::BTreeSet, path::Path};

use group::GroupEncoding;
use midnight_curves::JubjubSubgroup;
use midnight_proofs::poly::{commitment::Params as _, kzg::params::ParamsKZG};
use mithril_jubjub::{
    ladder::LadderReach,
    native::{Base, VerifyingKey},
    stm::{
        chain::link_message,
        native::{
            aggregate, base_from_bytes, hash_to_point, message_to_field, verify as native_verify,
            StmCertificate, StmIndex, StmLeaf, StmSignature, StmSigner, StmTree, TREE_DEPTH,
        },
        prover::{self, StmKeys},
        StmInstance, StmShape, StmWitness,
    },
    MithrilError,
};
use serde::{Deserialize, Serialize};
use tms_cardano::{
    backend::{Bls12, Vk},
    plutus::MessageRule,
};
use tms_gadgets::proving::Transcript;

use crate::backends::cardano::ShapeFileOf;
use crate::{
    backends::cardano::{
        base_to_hex, load_params, write_plutus_export, Cardano, ExportPlutusArgs, BACKEND,
    },
    checks::{check_params_k, describe_message_bytes},
    formats::{bytes_from_hex, bytes_to_hex, Header, PublicFile},
    interface::{
        CertificateScheme, CertifyArgs, CommitteeArgs, DemoCertificate, Rejection, ShapeOptions,
        SignArgs, Trusted, Verdict, VerifyArgs,
    },
    io::{at, read_bytes, read_json_on, usage, write_json, CliError, Result, MAX_JSON_BYTES},
    options::Scheme,
    schemes::mithril::trusted_quorum,
};

/// The relation these files are for, in certificate and key files.
pub const RELATION: &str = "mithril-stm-0.13";

const SCHEME: Scheme = Scheme::Mithril;

// ---------------------------------------------------------------------------------------------
// mithril-stm's serde forms, as our structs.

/// mithril-stm's `Parameters` (`phi_f` an `f64`, as mithril-stm holds it).
#[derive(Deserialize, Debug, Clone, Copy)]
struct ParametersJson {
    m: u64,
    k: u64,
    phi_f: f64,
}

/// mithril-stm's `MerkleTreeCommitment` (the SNARK tree's): its root bytes.
#[derive(Deserialize, Debug)]
struct CommitmentJson {
    root: Vec<u8>,
}

/// mithril-stm's `AggregateVerificationKeyForSnark`.
#[derive(Deserialize, Debug)]
struct AggregateKeyJson {
    merkle_tree_commitment: CommitmentJson,
    total_stake: u64,
}

/// A registration as the prover (entries) or the verifier (entries or aggregate key) holds it.
#[derive(Deserialize, Debug)]
struct RegistrationJson {
    parameters: ParametersJson,
    #[serde(default)]
    closed_registration_entries: Option<Vec<Vec<serde_json::Value>>>,
    #[serde(default)]
    aggregate_verification_key: Option<AggregateKeyJson>,
}

/// mithril-stm's `UniqueSchnorrSignature`.
#[derive(Deserialize, Debug)]
struct SchnorrJson {
    commitment_point: [u8; 32],
    response: [u8; 32],
    challenge: [u8; 32],
}

/// mithril-stm's `SingleSignatureForSnark` (its `indices` are filled by the aggregator: ours
/// recomputes them).
#[derive(Deserialize, Debug)]
struct SnarkSignatureJson {
    schnorr_signature: SchnorrJson,
}

/// mithril-stm's `SingleSignature`: the signer's index and its SNARK part.
#[derive(Deserialize, Debug)]
struct SingleSignatureJson {
    signer_index: u64,
    #[serde(default)]
    snark_signature: Option<SnarkSignatureJson>,
}

/// One file of signatures: one or a list.
#[derive(Deserialize, Debug)]
#[serde(untagged)]
enum SignaturesJson {
    One(SingleSignatureJson),
    Many(Vec<SingleSignatureJson>),
}

// ---------------------------------------------------------------------------------------------
// Reading them.

/// JSON text, or mithril's "json hex" (the hex digits of the JSON text), decoded.
fn json_text(path: &Path) -> Result<Vec<u8>> {
    let bytes = read_bytes(path)?;
    if bytes.len() > MAX_JSON_BYTES {
        return Err(at(path, format!("more than {MAX_JSON_BYTES} bytes")));
    }
    let trimmed = bytes.trim_ascii();
    if !trimmed.is_empty() && trimmed.iter().all(u8::is_ascii_hexdigit) {
        let text = std::str::from_utf8(trimmed).expect("hex digits are ASCII");
        return bytes_from_hex(&format!("0x{text}"), "json hex").map_err(|e| at(path, e));
    }
    Ok(bytes)
}

fn parse<T: serde::de::DeserializeOwned>(path: &Path, what: &str) -> Result<T> {
    serde_json::from_slice(&json_text(path)?)
        .map_err(|e| at(path, format!("not mithril-stm's {what} JSON: {e}")))
}

/// 32 bytes from a serde value (a list of byte numbers).
fn bytes_of(value: &serde_json::Value, what: &str) -> std::result::Result<[u8; 32], String> {
    serde_json::from_value::<[u8; 32]>(value.clone()).map_err(|_| format!("{what}: not 32 bytes"))
}

/// mithril-stm's SNARK verification key: a compressed point of the prime-order subgroup, not the
/// identity.
fn key_of(bytes: &[u8; 32]) -> std::result::Result<VerifyingKey, String> {
    let point: JubjubSubgroup = Option::from(JubjubSubgroup::from_bytes(bytes))
        .ok_or("not a point of Jubjub's prime-order subgroup")?;
    if bool::from(group::Group::is_identity(&point)) {
        return Err("the identity".into());
    }
    Ok(VerifyingKey(point))
}

/// The 32 bytes mithril-stm signs: 32 bytes, or their 64 hex digits.
pub fn stm_message(bytes: &[u8]) -> std::result::Result<[u8; 32], String> {
    if let Ok(raw) = <[u8; 32]>::try_from(bytes) {
        return Ok(raw);
    }
    if bytes.len() == 64 && bytes.iter().all(u8::is_ascii_hexdigit) {
        let text = std::str::from_utf8(bytes).expect("hex digits are ASCII");
        let decoded = bytes_from_hex(&format!("0x{text}"), "message")?;
        return Ok(decoded.try_into().expect("64 hex digits"));
    }
    Err(format!(
        "a mithril-stm message is 32 bytes (or their 64 hex digits, as Mithril signs them), not \
         {} bytes",
        bytes.len()
    ))
}

/// The parameters a registration was closed under.
#[derive(Clone, Copy, Debug)]
pub struct StmParameters {
    /// Lotteries.
    pub m: u64,
    /// Quorum.
    pub k: u64,
}

/// A registration as read: its parameters, root and stake, and its tree where the file holds
/// the entries.
pub struct StmRegistration {
    /// m and k.
    pub parameters: StmParameters,
    /// The registration tree (absent when only the aggregate key was given).
    pub tree: Option<StmTree>,
    /// The root a verifier checks (mithril-stm's aggregate key's).
    pub root: Base,
    /// The total stake.
    pub total_stake: u64,
}

impl StmRegistration {
    /// The tree, required by `certify`, `keygen` and `prove`.
    pub(crate) fn tree(&self, path: &Path) -> Result<&StmTree> {
        self.tree.as_ref().ok_or_else(|| {
            at(
                path,
                "holds only the aggregate verification key: the prover needs the closed \
                 registration's entries (closed_registration_entries)",
            )
        })
    }
}

fn parameters(path: &Path, p: ParametersJson) -> Result<StmParameters> {
    if !(p.phi_f > 0.0 && p.phi_f <= 1.0) {
        return Err(at(path, format!("phi_f {} is outside (0, 1]", p.phi_f)));
    }
    if p.k == 0 || p.k >= p.m || p.m >= 1 << 16 {
        return Err(at(
            path,
            format!("parameters m = {}, k = {}: need 0 < k < m < 2^16", p.m, p.k),
        ));
    }
    Ok(StmParameters { m: p.m, k: p.k })
}

fn leaves(path: &Path, entries: &[Vec<serde_json::Value>]) -> Result<(Vec<StmLeaf>, u64)> {
    if entries.is_empty() || entries.len() > 1 << TREE_DEPTH {
        return Err(at(
            path,
            format!(
                "{} registration entries (1 to 2^{TREE_DEPTH})",
                entries.len()
            ),
        ));
    }
    let mut total: u64 = 0;
    let mut leaves = Vec::with_capacity(entries.len());
    for (i, entry) in entries.iter().enumerate() {
        let fail = |e: String| at(path, format!("registration entry {i}: {e}"));
        let [_, stake, key, target] = entry.as_slice() else {
            return Err(fail(format!(
                "{} fields, not mithril-stm's 4 (BLS key, stake, SNARK key, lottery target): \
                 a registration closed without the snark feature?",
                entry.len()
            )));
        };
        let stake = stake
            .as_u64()
            .ok_or_else(|| fail("the stake is not a u64".into()))?;
        total = total
            .checked_add(stake)
            .ok_or_else(|| fail("the total stake overflows".into()))?;
        let key = key_of(&bytes_of(key, "SNARK key").map_err(&fail)?)
            .map_err(|e| fail(format!("SNARK key: {e}")))?;
        let target = base_from_bytes(&bytes_of(target, "lottery target").map_err(&fail)?)
            .map_err(|e| fail(format!("lottery target: {e}")))?;
        leaves.push(StmLeaf { key, target });
    }
    Ok((leaves, total))
}

/// Reads a registration file (entries, aggregate key, or both, which must agree).
pub fn load_registration(path: &Path) -> Result<StmRegistration> {
    let file: RegistrationJson = parse(path, "registration")?;
    let parameters = parameters(path, file.parameters)?;
    let from_entries = file
        .closed_registration_entries
        .as_deref()
        .map(|entries| {
            let (leaves, total) = leaves(path, entries)?;
            let tree = StmTree::new(&leaves).map_err(|e| at(path, e))?;
            Ok::<_, CliError>((tree, total))
        })
        .transpose()?;
    let from_key = file
        .aggregate_verification_key
        .map(|key| {
            let root = base_from_bytes(&key.merkle_tree_commitment.root)
                .map_err(|e| at(path, format!("aggregate verification key's root: {e}")))?;
            Ok::<_, CliError>((root, key.total_stake))
        })
        .transpose()?;
    let (tree, root, total_stake) = match (from_entries, from_key) {
        (Some((tree, total)), Some((root, key_total))) => {
            if tree.root() != root || total != key_total {
                return Err(at(
                    path,
                    "the registration's entries do not match its aggregate verification key \
                     (root or total stake)",
                ));
            }
            (Some(tree), root, total)
        }
        (Some((tree, total)), None) => {
            let root = tree.root();
            (Some(tree), root, total)
        }
        (None, Some((root, total))) => (None, root, total),
        (None, None) => {
            return Err(at(
                path,
                "neither closed_registration_entries nor aggregate_verification_key",
            ))
        }
    };
    Ok(StmRegistration {
        parameters,
        tree,
        root,
        total_stake,
    })
}

/// Reads one signature file: `(signer index, signature)` of each single signature in it.
pub(crate) fn read_signatures(path: &Path) -> Result<Vec<(u64, StmSignature)>> {
    let signatures = match parse::<SignaturesJson>(path, "SingleSignature")? {
        SignaturesJson::One(s) => vec![s],
        SignaturesJson::Many(list) => list,
    };
    if signatures.is_empty() {
        return Err(at(path, "no signature"));
    }
    signatures
        .into_iter()
        .map(|s| {
            let snark = s.snark_signature.ok_or_else(|| {
                at(
                    path,
                    format!(
                        "signer {}'s signature has no snark_signature (a signer without the \
                         snark feature?)",
                        s.signer_index
                    ),
                )
            })?;
            let schnorr = snark.schnorr_signature;
            let bytes = [
                schnorr.commitment_point,
                schnorr.response,
                schnorr.challenge,
            ]
            .concat();
            let signature = StmSignature::from_bytes(&bytes)
                .map_err(|e| at(path, format!("signer {}: {e}", s.signer_index)))?;
            Ok((s.signer_index, signature))
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Our files for this relation.

/// The circuit shape in key and statement files, marked with the relation.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
pub struct StmShapeFile {
    /// [`RELATION`]; absent in tms's own Mithril keys.
    #[serde(default)]
    pub relation: Option<String>,
    /// Signer slots.
    pub signer_slots: usize,
    /// Index slots: the quorum k.
    pub index_slots: usize,
    /// Lotteries m.
    #[serde(default)]
    pub m: u64,
    /// log2 rows.
    pub k: u32,
}

impl ShapeFileOf for StmShapeFile {
    type Shape = StmShape;

    fn of(shape: &StmShape) -> Self {
        Self {
            relation: Some(RELATION.into()),
            signer_slots: shape.signer_slots,
            index_slots: shape.index_slots,
            m: shape.m,
            k: shape.k,
        }
    }

    /// The shape, bounded before anything is laid out (a key file is outside data).
    fn shape(&self) -> std::result::Result<StmShape, String> {
        if self.relation.as_deref() != Some(RELATION) {
            return Err(format!(
                "not a key of mithril-stm's relation (relation {:?}): a key of tms's own \
                 Mithril relation is used without --format mithril-stm",
                self.relation
            ));
        }
        if self.index_slots > 1 << 16 || self.signer_slots > 1 << 16 {
            return Err("shape: out of range".into());
        }
        let shape = StmShape {
            signer_slots: self.signer_slots,
            index_slots: self.index_slots,
            m: self.m,
            k: self.k,
            // Key files hold the standalone layout; a chain derives its own (`for_chain`).
            ladder: LadderReach::TwoRows,
        };
        shape.validate().map_err(|e| format!("shape: {e}"))?;
        Ok(shape)
    }
}

/// A signer of a certificate: its registration index and its signature's canonical bytes.
#[derive(Serialize, Deserialize, Debug)]
struct SignerEntry {
    signer_index: usize,
    signature: String,
}

/// An index slot: the lottery index and its signer's number in `signers`.
#[derive(Serialize, Deserialize, Debug)]
struct IndexEntry {
    index: u64,
    signer: usize,
}

/// Where a chain certificate hands over: the next registration's root, the epoch and the
/// application message, whose link ([`link_message`]) the signers signed.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
pub(crate) struct ChainHandOver {
    /// The next registration's root (0x-hex, big-endian).
    pub next_root: String,
    /// The epoch signed for, counted from the chain's genesis registration.
    pub epoch: u64,
    /// The application message (0x-hex, 32 bytes).
    pub application: String,
}

/// The certificate `tms certify --format mithril-stm` writes.
#[derive(Serialize, Deserialize, Debug)]
struct CertificateFile {
    #[serde(flatten)]
    header: Header,
    #[serde(default)]
    relation: Option<String>,
    /// The 32 message bytes (on a chain: the link the signers signed).
    message: String,
    /// On a chain (`--next-registration`, `--epoch`): where the certificate hands over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    hand_over: Option<ChainHandOver>,
    signers: Vec<SignerEntry>,
    indices: Vec<IndexEntry>,
}

fn header() -> Header {
    Header::on(SCHEME, Some(BACKEND))
}

/// `tms certify --format mithril-stm`: every signature checked against its registered key and
/// the message, then the `k` lowest indices won.
fn certify(a: &CertifyArgs) -> Result<()> {
    let registration = load_registration(&a.committee)?;
    let tree = registration.tree(&a.committee)?;
    let application = stm_message(&a.message).map_err(usage)?;
    // On a chain the signers sign the link to the next registration, not the message itself.
    let (message, hand_over) = match (&a.next_registration, a.epoch) {
        (Some(next), Some(epoch)) => {
            let next_root = load_registration(next)?.root;
            let hand_over = ChainHandOver {
                next_root: base_to_hex(&next_root),
                epoch,
                application: bytes_to_hex(&application),
            };
            (
                link_message(next_root, &application, epoch),
                Some(hand_over),
            )
        }
        (Some(_), None) => return Err(usage("--next-registration needs --epoch")),
        (None, _) => (application, None),
    };
    let element = message_to_field(&message);
    let h = hash_to_point(tree.root(), element);
    let mut seen = BTreeSet::new();
    let mut signatures = Vec::new();
    for path in &a.signatures {
        for (index, signature) in read_signatures(path)? {
            let leaf = usize::try_from(index)
                .ok()
                .and_then(|i| tree.leaves().get(i))
                .ok_or_else(|| {
                    at(
                        path,
                        format!(
                            "signer index {index} is not in the registration ({} parties)",
                            tree.leaves().len()
                        ),
                    )
                })?;
            if !seen.insert(index) {
                return Err(at(path, format!("signer {index} signs twice")));
            }
            if !signature.verify(&leaf.key, &h) {
                return Err(at(
                    path,
                    format!(
                        "signer {index}'s signature does not verify for its registered key on \
                         this message (a signature for another message or another registration)"
                    ),
                ));
            }
            signatures.push((index as usize, signature));
        }
    }
    let p = registration.parameters;
    let certificate = aggregate(tree, (p.m, p.k), element, &signatures).map_err(usage)?;
    write_json(
        &a.out,
        &CertificateFile {
            header: header(),
            relation: Some(RELATION.into()),
            message: bytes_to_hex(&message),
            hand_over,
            signers: certificate
                .signers
                .iter()
                .map(|s| SignerEntry {
                    signer_index: s.path.position,
                    signature: bytes_to_hex(&s.signature.to_bytes()),
                })
                .collect(),
            indices: certificate
                .indices
                .iter()
                .map(|s| IndexEntry {
                    index: s.index,
                    signer: s.signer,
                })
                .collect(),
        },
    )?;
    println!(
        "certificate with {} indices over {} signers (of {} signatures; mithril-stm 0.13's \
         relation) written to {}",
        certificate.indices.len(),
        certificate.signers.len(),
        signatures.len(),
        a.out.display()
    );
    Ok(())
}

/// A certificate file's 32 message bytes and certificate, its signers' leaves and paths from
/// `tree`.
pub(crate) fn load_certificate(path: &Path, tree: &StmTree) -> Result<([u8; 32], StmCertificate)> {
    load_chain_certificate(path, tree).map(|(message, certificate, _)| (message, certificate))
}

/// [`load_certificate`] with where the certificate hands over, if it is a chain's.
pub(crate) fn load_chain_certificate(
    path: &Path,
    tree: &StmTree,
) -> Result<([u8; 32], StmCertificate, Option<ChainHandOver>)> {
    let file: CertificateFile = read_json_on(path, SCHEME, Some(BACKEND))?;
    if file.relation.as_deref() != Some(RELATION) {
        return Err(at(
            path,
            "not a mithril-stm certificate (tms certify --format mithril-stm writes one)",
        ));
    }
    let message = bytes_from_hex(&file.message, "message")
        .and_then(|m| stm_message(&m))
        .map_err(|e| at(path, e))?;
    let signers = file
        .signers
        .iter()
        .map(|s| {
            let leaf = *tree.leaves().get(s.signer_index).ok_or_else(|| {
                at(
                    path,
                    format!("signer index {} is not registered", s.signer_index),
                )
            })?;
            let bytes = bytes_from_hex(&s.signature, "signature").map_err(|e| at(path, e))?;
            Ok(StmSigner {
                leaf,
                path: tree.path(s.signer_index).map_err(|e| at(path, e))?,
                signature: StmSignature::from_bytes(&bytes).map_err(|e| at(path, e))?,
            })
        })
        .collect::<Result<Vec<_>>>()?;
    let indices = file
        .indices
        .iter()
        .map(|s| StmIndex {
            index: s.index,
            signer: s.signer,
        })
        .collect();
    Ok((message, StmCertificate { signers, indices }, file.hand_over))
}

fn public_file(
    shape: &StmShape,
    root: &Base,
    message: &[u8; 32],
    k: u64,
) -> PublicFile<StmShapeFile> {
    PublicFile {
        header: header(),
        shape: StmShapeFile::of(shape),
        commitment: base_to_hex(root),
        message: bytes_to_hex(message),
        threshold: k,
    }
}

/// Refuses a key whose constants (m, quorum) are not the registration's parameters: they are
/// constants of the circuit, not public inputs, so the verifier checks them here.
pub(crate) fn check_parameters(
    path: &Path,
    shape: &StmShape,
    p: StmParameters,
    key: &str,
) -> Result<()> {
    if shape.m != p.m || shape.index_slots as u64 != p.k {
        return Err(at(
            path,
            format!(
                "the {key} is for m = {}, quorum {}; the registration's parameters are m = {}, \
                 k = {}",
                shape.m, shape.index_slots, p.m, p.k
            ),
        ));
    }
    Ok(())
}

/// What the verifier holds: the registration's root, parameters and stake, and the message.
pub struct StmStatement {
    instance: StmInstance,
    parameters: StmParameters,
    parties: Option<usize>,
    total_stake: u64,
}

/// SNARK-Mithril in mithril-stm 0.13's relation on the Cardano backend, fed mithril-stm's files.
pub struct MithrilStm;

impl CertificateScheme for MithrilStm {
    type Backend = Cardano;
    const SCHEME: Scheme = SCHEME;
    const TAKES_THRESHOLD: bool = false;
    type Committee = StmRegistration;
    type Shape = StmShape;
    type ShapeFile = StmShapeFile;
    type Keys = StmKeys;
    type Witness = StmWitness;
    type Instance = StmStatement;

    fn committee(_: &CommitteeArgs) -> Result<()> {
        Err(usage(
            "--format mithril-stm: mithril-stm's signers make their keys; tms reads its closed \
             registration",
        ))
    }

    fn sign(_: &SignArgs) -> Result<()> {
        Err(usage(
            "--format mithril-stm: mithril-stm's signers sign; tms certify reads their \
             SingleSignature files",
        ))
    }

    fn certify(a: &CertifyArgs) -> Result<()> {
        certify(a)
    }

    fn load_committee(path: &Path) -> Result<StmRegistration> {
        let registration = load_registration(path)?;
        registration.tree(path)?;
        Ok(registration)
    }

    fn check_committee(
        path: &Path,
        registration: &StmRegistration,
        shape: &StmShape,
        key: &str,
    ) -> Result<()> {
        check_parameters(path, shape, registration.parameters, key)
    }

    /// `--signer-slots` distinct signers (default: the quorum k, at most the number of parties).
    fn keygen_shape(
        registration: &StmRegistration,
        options: &ShapeOptions,
        k: u32,
    ) -> Result<StmShape> {
        let p = registration.parameters;
        let parties = registration.tree.as_ref().map_or(0, |t| t.leaves().len());
        let shape = StmShape {
            signer_slots: options.signer_slots.unwrap_or((p.k as usize).min(parties)),
            index_slots: p.k as usize,
            m: p.m,
            k,
            ladder: LadderReach::TwoRows,
        };
        shape.validate().map_err(usage)?;
        Ok(shape)
    }

    fn min_k(shape: &StmShape) -> Result<Option<u32>> {
        Ok(Some(prover::min_k(&StmShape { k: 10, ..*shape })))
    }

    fn needed_k(shape: &StmShape, k: u32) -> Result<Option<u32>> {
        Ok(tms_cardano::scheme::needed_k(&StmShape { k, ..*shape }))
    }

    fn k(shape: &StmShape) -> u32 {
        shape.k
    }

    fn keygen(params: &ParamsKZG<Bls12>, shape: &StmShape, path: &Path) -> Result<StmKeys> {
        prover::keygen(params, *shape).map_err(|e| at(path, e))
    }

    crate::backends::cardano::midnight_calls!(StmShapeFile);

    fn describe_keys(keys: &StmKeys) -> String {
        describe_shape(&keys.shape)
    }

    fn keys_shape(keys: &StmKeys) -> &StmShape {
        &keys.shape
    }

    fn witness(
        shape: &StmShape,
        registration: &StmRegistration,
        certificate_path: &Path,
        _: Option<u64>,
    ) -> Result<(StmWitness, PublicFile<StmShapeFile>)> {
        let tree = registration.tree(certificate_path)?;
        let (message, certificate) = load_certificate(certificate_path, tree)?;
        let instance = StmInstance::from_trusted(tree.root(), &message);
        let p = registration.parameters;
        // The native verifier first: a bad certificate fails here with its reason.
        native_verify(instance.root, instance.message(), (p.m, p.k), &certificate)
            .map_err(|e| at(certificate_path, e))?;
        let witness =
            StmWitness::new(*shape, instance, &certificate).map_err(|e| at(certificate_path, e))?;
        Ok((witness, public_file(shape, &instance.root, &message, p.k)))
    }

    fn public_inputs(witness: &StmWitness) -> Vec<Base> {
        witness.instance.to_public_inputs()
    }

    /// The registration (or its aggregate key) from `--committee`, never a bare root: m and the
    /// quorum are constants of the key, checked against the parameters the verifier holds.
    fn trusted(
        shape: &StmShape,
        args: &VerifyArgs,
        public: Option<&PublicFile<StmShapeFile>>,
    ) -> Result<Trusted<Self>> {
        let path =
            match (&args.committee, &args.commitment) {
                (Some(path), None) => path,
                _ => return Err(usage(
                    "--format mithril-stm: give the trusted --committee (the registration or its \
                     aggregate verification key, with the parameters); the key's m and quorum \
                     are checked against them",
                )),
            };
        let registration = load_registration(path)?;
        let p = registration.parameters;
        check_parameters(&args.vk, shape, p, "verifying key")?;
        let k = trusted_quorum(
            args,
            public.map(|f| f.threshold),
            Some(p.k),
            shape.index_slots,
        )?;
        let message = stm_message(&args.message).map_err(usage)?;
        let instance = StmInstance::from_trusted(registration.root, &message);
        Ok(Trusted {
            public: public_file(shape, &registration.root, &message, k),
            instance: StmStatement {
                instance,
                parameters: p,
                parties: registration.tree.as_ref().map(|t| t.leaves().len()),
                total_stake: registration.total_stake,
            },
        })
    }

    fn verify(
        params: &ParamsKZG<Bls12>,
        _: &StmShape,
        vk: &Vk,
        statement: &StmStatement,
        proof: &[u8],
        _: Transcript,
    ) -> Verdict {
        prover::verify(&params.verifier_params(), vk, &statement.instance, proof)
            .map_err(|e| Rejection::of(matches!(e, MithrilError::ProofRejected), e))
    }

    fn verdict(_: &StmShape, trusted: &Trusted<Self>, args: &VerifyArgs) -> String {
        let s = &trusted.instance;
        let parties = s
            .parties
            .map_or_else(String::new, |n| format!("{n} parties, "));
        format!(
            "verified (mithril-stm 0.13 relation, cardano): {} distinct lottery indices below m \
             = {} won by registered parties signed {}; registration root {} ({parties}total \
             stake {})",
            trusted.public.threshold,
            s.parameters.m,
            describe_message_bytes(&args.message, &base_to_hex(&s.instance.message())),
            trusted.public.commitment,
            s.total_stake,
        )
    }

    fn demo_certificate() -> Result<DemoCertificate<Self>> {
        Err(usage(
            "--format mithril-stm has no demo: tests/fixtures/mithril-stm/ holds mithril-stm's \
             own files (see the guide's mithril-stm page)",
        ))
    }

    fn describe_circuit(keys: &StmKeys) -> String {
        describe_shape(&keys.shape)
    }
}

fn describe_shape(shape: &StmShape) -> String {
    format!(
        "quorum {}, m = {}, {} signer slots, depth {TREE_DEPTH} (mithril-stm 0.13's relation on \
         Jubjub, k = {})",
        shape.index_slots, shape.m, shape.signer_slots, shape.k
    )
}

/// `tms export-plutus --scheme mithril --format mithril-stm`: the validator of a key of the
/// mithril-stm relation, the registration root a script parameter, taken from the trusted
/// registration (or its aggregate verification key) whose `m` and quorum are checked against the
/// key's. The scripts' message rule is [`MessageRule::Blake2bHalves`]: the signed 32 bytes are
/// `blake2b-256` of the bytes the script holds (the redeemer's, or those a bridge form builds
/// from its transaction), so `--message` is those bytes, not the 32.
pub fn export_plutus(a: &ExportPlutusArgs) -> Result<()> {
    if a.threshold.is_some() {
        return Err(usage(
            "--threshold: a Mithril certificate proves the registration's quorum k",
        ));
    }
    let Some(registration_path) = a.committee else {
        return Err(usage(
            "--format mithril-stm: give the trusted --committee (the registration or its \
             aggregate verification key, with the parameters)",
        ));
    };
    let params = load_params(a.params)?;
    let vk_file = a.trust.read()?;
    let (shape, vk) = MithrilStm::read_vk(a.vk, &vk_file)?;
    check_params_k(a.params, params.max_k(), shape.k)?;
    a.trust.check_regenerated(&vk_file, "its shape", || {
        MithrilStm::regenerate_vk(&params, &shape, a.vk)
    })?;
    let registration = load_registration(registration_path)?;
    check_parameters(a.vk, &shape, registration.parameters, "verifying key")?;
    write_plutus_export(
        a,
        SCHEME,
        &describe_shape(&shape),
        &params,
        (&vk_file, &vk),
        &[Some(registration.root), None],
        None,
        MessageRule::Blake2bHalves,
    )
}
