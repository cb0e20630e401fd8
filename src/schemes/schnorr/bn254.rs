//! Schnorr ATMS on BN254 (Grumpkin keys, Rescue-Prime commitments): its files (committee,
//! signatures, certificates) and its side of the tool's one interface ([`SchnorrBn254`]).

use std::{
    fs,
    path::{Path, PathBuf},
};

use halo2_base::halo2_proofs::{
    halo2curves::bn256::{Bn256, G1Affine},
    plonk::VerifyingKey as Halo2Vk,
    poly::kzg::commitment::ParamsKZG,
};
use rand::{rngs::OsRng, SeedableRng};
use rand_chacha::ChaCha20Rng;
use schnorr_atms::{
    keygen as atms_keygen, prove_with_transcript, read_vk, verify_with_vk, AtmsError, AtmsInstance,
    AtmsKeys, AtmsShape, AtmsWitness, Certificate, CheckError, CommitmentMode, Committee,
    Verification,
};
use serde::{Deserialize, Serialize};
use tms_gadgets::{
    hash::RescuePrime,
    message::message_to_field,
    proving::Transcript,
    signature::schnorr::{Signature, SigningKey, VerifyingKey},
    Fr,
};

use crate::commands::{check_members, describe_message, Bn254, VerifyArgs};
use crate::{
    formats::*,
    interface::{
        CertificateScheme, CertifyArgs, CommitteeArgs, DemoCertificate, Rejection, ShapeOptions,
        SignArgs, Trusted, Verdict,
    },
    io::{at, read_bytes, read_json, usage, write_json, CliError, Result},
    options::{Mode, Scheme},
};

const SCHEME: Scheme = Scheme::SchnorrAtms;
/// The most advice columns keygen accepts before asking for larger parameters.
const MAX_ADVICE_COLUMNS: usize = 32;
/// halo2-base advice columns the demo allows itself (beside the custom gates' columns).
const DEMO_ADVICE_COLUMNS: usize = 4;

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
    /// [`schnorr_signature_to_hex`]'s form. Required: `None` only when reading a file without
    /// one, which [`load_committee`] refuses by name.
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

impl RegisteredKey {
    /// The entry of `sk`'s key with its proof of possession.
    pub fn of(sk: &SigningKey) -> Result<Self> {
        let pop = sk
            .prove_possession(&RescuePrime)
            .map_err(|e| CliError(e.to_string()))?;
        Ok(Self {
            public_key: point_to_hex(&sk.verifying_key().0),
            proof_of_possession: Some(schnorr_signature_to_hex(&pop)),
        })
    }
}

/// A signature file.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct SignatureFile {
    /// Version and scheme.
    #[serde(flatten)]
    pub header: Header,
    /// The signer's public key.
    pub public_key: String,
    /// The message bytes.
    pub message: String,
    /// The nonce commitment R.
    pub r: String,
    /// The response s.
    pub s: String,
}

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

/// Reads and registers a committee file: every key on the curve with a valid proof of
/// possession, none repeated.
pub fn load_committee(path: &Path) -> Result<Committee> {
    load_registered(path).map(|(committee, _)| committee)
}

/// [`load_committee`], also returning the file's entries (which `tms chunk split` copies).
pub fn load_registered(path: &Path) -> Result<(Committee, Vec<RegisteredKey>)> {
    let file: CommitteeFile = read_json(path, SCHEME)?;
    if file.members.len() > crate::io::MAX_MEMBERS {
        return Err(at(
            path,
            format!("more than {} members", crate::io::MAX_MEMBERS),
        ));
    }
    let members = file
        .members
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let key = grumpkin_from_hex(&m.public_key, &format!("member {i}'s key"))?;
            let pop = m.proof_of_possession.as_deref().ok_or_else(|| {
                format!(
                    "member {i} has no proof of possession (every key needs one; \
                     `tms committee` writes them)"
                )
            })?;
            let pop =
                schnorr_signature_from_hex(pop, &format!("member {i}'s proof of possession"))?;
            Ok((VerifyingKey(key), pop))
        })
        .collect::<std::result::Result<Vec<_>, String>>()
        .map_err(|e| at(path, e))?;
    let committee = Committee::register(&members).map_err(|e| at(path, e))?;
    Ok((committee, file.members))
}

/// Grumpkin keys for `size` members (from `seed`, or the OS): secret keys to
/// `keys_dir/member-<i>.json`; returns them.
pub fn member_keys(
    scheme: Scheme,
    size: usize,
    seed: Option<u64>,
    keys_dir: &Path,
) -> Result<Vec<SigningKey>> {
    let mut rng = match seed {
        Some(s) => ChaCha20Rng::seed_from_u64(s),
        None => ChaCha20Rng::from_rng(OsRng).expect("OS randomness"),
    };
    let sks: Vec<SigningKey> = (0..size).map(|_| SigningKey::random(&mut rng)).collect();
    fs::create_dir_all(keys_dir).map_err(|e| at(keys_dir, format!("cannot create: {e}")))?;
    for (i, sk) in sks.iter().enumerate() {
        let file = MemberFile {
            header: Header::new(scheme),
            index: i,
            secret_key: scalar_to_hex(&sk.0),
            public_key: point_to_hex(&sk.verifying_key().0),
        };
        write_json(&keys_dir.join(format!("member-{i}.json")), &file)?;
    }
    Ok(sks)
}

/// Reads a Grumpkin member key file, checking the public key matches the secret key.
pub fn load_member(scheme: Scheme, key: &Path) -> Result<SigningKey> {
    let file: MemberFile = read_json(key, scheme)?;
    let sk = SigningKey(scalar_from_hex(&file.secret_key, "secret_key").map_err(|e| at(key, e))?);
    let pk = grumpkin_from_hex(&file.public_key, "public_key").map_err(|e| at(key, e))?;
    if sk.verifying_key().0 != pk {
        return Err(at(key, "public_key does not match secret_key"));
    }
    Ok(sk)
}

/// `tms committee --scheme schnorr-atms`: keys with proofs of possession.
pub fn committee(size: usize, seed: Option<u64>, out: &Path, keys_dir: &Path) -> Result<()> {
    let sks = member_keys(SCHEME, size, seed, keys_dir)?;
    // Refuses repeated keys before writing anything.
    Committee::new(sks.iter().map(SigningKey::verifying_key).collect())
        .map_err(|e| CliError(e.to_string()))?;
    let file = CommitteeFile {
        header: Header::new(SCHEME),
        members: sks.iter().map(RegisteredKey::of).collect::<Result<_>>()?,
    };
    write_json(out, &file)?;
    println!(
        "committee of {size} keys with proofs of possession written to {} (secret keys in {})",
        out.display(),
        keys_dir.display()
    );
    Ok(())
}

/// `tms sign --scheme schnorr-atms`.
pub fn sign(key: &Path, message: &[u8], out: &Path) -> Result<()> {
    let sk = load_member(SCHEME, key)?;
    let m = message_to_field(message);
    let sig = sk.sign(&RescuePrime, m).map_err(|e| at(key, e))?;
    let file = SignatureFile {
        header: Header::new(SCHEME),
        public_key: point_to_hex(&sk.verifying_key().0),
        message: bytes_to_hex(message),
        r: point_to_hex(&sig.r),
        s: scalar_to_hex(&sig.s),
    };
    write_json(out, &file)
}

pub(crate) fn parse_signature(path: &Path, r: &str, s: &str) -> Result<Signature> {
    Ok(Signature {
        r: grumpkin_from_hex(r, "r").map_err(|e| at(path, e))?,
        s: scalar_from_hex(s, "s").map_err(|e| at(path, e))?,
    })
}

/// Refuses a signature file over other bytes than `message`.
pub fn check_signed_message(path: &Path, signed: &str, message: &[u8]) -> Result<()> {
    let signed = bytes_from_hex(signed, "message").map_err(|e| at(path, e))?;
    if signed != message {
        return Err(at(
            path,
            format!(
                "signature over another message ({}, expected {})",
                bytes_to_hex(&signed),
                bytes_to_hex(message)
            ),
        ));
    }
    Ok(())
}

/// `tms certify --scheme schnorr-atms`.
pub fn certify(
    committee_path: &Path,
    message: &[u8],
    out: &Path,
    signatures: &[PathBuf],
) -> Result<()> {
    let committee = load_committee(committee_path)?;
    let m = message_to_field(message);
    let mut pairs = Vec::with_capacity(signatures.len());
    for path in signatures {
        let file: SignatureFile = read_json(path, SCHEME)?;
        check_signed_message(path, &file.message, message)?;
        let pk = VerifyingKey(
            grumpkin_from_hex(&file.public_key, "public_key").map_err(|e| at(path, e))?,
        );
        pairs.push((pk, parse_signature(path, &file.r, &file.s)?));
    }
    let cert = Certificate::aggregate(&committee, m, &pairs).map_err(|e| match e {
        AtmsError::Check(CheckError::NotInCommittee(i)) => at(
            &signatures[i],
            "the signer is not a member of the committee",
        ),
        AtmsError::Check(CheckError::InvalidSignature(i)) => {
            at(&signatures[i], "the signature does not verify")
        }
        AtmsError::Check(CheckError::DuplicateSigner(member)) => {
            CliError(format!("member {member} signed more than once"))
        }
        other => CliError(other.to_string()),
    })?;
    let file = CertificateFile {
        header: Header::new(SCHEME),
        message: bytes_to_hex(message),
        signatures: cert
            .signatures
            .iter()
            .map(|(i, s)| CertifiedSignature {
                index: *i,
                r: point_to_hex(&s.r),
                s: scalar_to_hex(&s.s),
            })
            .collect(),
    };
    write_json(out, &file)?;
    println!(
        "certificate with {} signatures written to {}",
        cert.signatures.len(),
        out.display()
    );
    Ok(())
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

/// Refuses Mithril's registration options on the ATMS schemes.
pub fn refuse_registration(registration: Option<&Path>, next: Option<&Path>) -> Result<()> {
    if next.is_some() {
        return Err(usage(
            "--next-registration applies to --scheme mithril only",
        ));
    }
    if registration.is_some() {
        return Err(usage("--registration applies to --scheme mithril only"));
    }
    Ok(())
}

/// The signatures of a certificate file, by member index, with its message bytes.
fn load_certificate(path: &Path) -> Result<(Vec<u8>, Certificate)> {
    let file: CertificateFile = read_json(path, SCHEME)?;
    let message = bytes_from_hex(&file.message, "message").map_err(|e| at(path, e))?;
    let signatures = file
        .signatures
        .iter()
        .map(|s| Ok((s.index, parse_signature(path, &s.r, &s.s)?)))
        .collect::<Result<Vec<_>>>()?;
    let certificate = Certificate {
        message: message_to_field(&message),
        signatures,
    };
    Ok((message, certificate))
}

/// The Schnorr ATMS on BN254: Grumpkin keys, Rescue-Prime commitments, KZG over BN254.
pub struct SchnorrBn254;

impl CertificateScheme for SchnorrBn254 {
    type Backend = Bn254;
    const SCHEME: Scheme = SCHEME;
    type Committee = Committee;
    type Shape = AtmsShape;
    type ShapeFile = AtmsShape;
    type Keys = AtmsKeys;
    type Vk = Halo2Vk<G1Affine>;
    type Witness = AtmsWitness;
    type Instance = AtmsInstance;

    fn committee(a: &CommitteeArgs) -> Result<()> {
        committee(a.size, a.seed, &a.out, &a.keys_dir)
    }

    fn sign(a: &SignArgs) -> Result<()> {
        refuse_registration(a.registration.as_deref(), a.next_registration.as_deref())?;
        sign(&a.key, &a.message, &a.out)
    }

    fn certify(a: &CertifyArgs) -> Result<()> {
        refuse_registration(None, a.next_registration.as_deref())?;
        certify(&a.committee, &a.message, &a.out, &a.signatures)
    }

    fn load_committee(path: &Path) -> Result<Committee> {
        load_committee(path)
    }

    fn check_committee(path: &Path, c: &Committee, shape: &AtmsShape, key: &str) -> Result<()> {
        check_members(path, c.keys().len(), shape.n, key)
    }

    fn keygen_shape(c: &Committee, options: &ShapeOptions, k: u32) -> Result<AtmsShape> {
        let shape = AtmsShape {
            n: c.keys().len(),
            mode: commitment_mode(options.mode, options.slots)?,
            k,
            verification: Verification::PerSignature,
        };
        shape.validate().map_err(usage)?;
        Ok(shape)
    }

    fn min_k(shape: &AtmsShape) -> Result<Option<u32>> {
        schnorr_atms::min_k(shape, MAX_ADVICE_COLUMNS)
            .map(Some)
            .map_err(|e| CliError(e.to_string()))
    }

    fn k(shape: &AtmsShape) -> u32 {
        shape.k
    }

    fn keygen(params: &ParamsKZG<Bn256>, shape: &AtmsShape, path: &Path) -> Result<AtmsKeys> {
        atms_keygen(params, *shape).map_err(|e| at(path, e))
    }

    fn key_files(keys: &AtmsKeys) -> (Vec<u8>, Vec<u8>) {
        (keys.pk_bytes(), keys.vk_bytes())
    }

    fn describe_keys(keys: &AtmsKeys) -> String {
        format!("{} members ({})", keys.shape.n, keys.stats)
    }

    fn read_pk(path: &Path) -> Result<AtmsKeys> {
        AtmsKeys::from_pk_bytes(&read_bytes(path)?).map_err(|e| at(path, e))
    }

    fn keys_shape(keys: &AtmsKeys) -> &AtmsShape {
        &keys.shape
    }

    fn read_vk(path: &Path, bytes: &[u8]) -> Result<(AtmsShape, Halo2Vk<G1Affine>)> {
        read_vk(bytes).map_err(|e| at(path, e))
    }

    fn regenerate_vk(params: &ParamsKZG<Bn256>, shape: &AtmsShape, path: &Path) -> Result<Vec<u8>> {
        atms_keygen(params, *shape)
            .map(|k| k.vk_bytes())
            .map_err(|e| at(path, e))
    }

    fn witness(
        shape: &AtmsShape,
        committee: &Committee,
        certificate: &Path,
        threshold: Option<u64>,
    ) -> Result<(AtmsWitness, PublicFile<AtmsShape>)> {
        let threshold = threshold.unwrap_or_default();
        let (message, cert) = load_certificate(certificate)?;
        let witness =
            AtmsWitness::new(*shape, committee, &cert, threshold).map_err(|e| match e {
                AtmsError::Check(CheckError::ThresholdTooLarge { .. }) => {
                    usage(format!("--threshold: {e}"))
                }
                other => at(certificate, other),
            })?;
        let public = PublicFile::new(
            SCHEME,
            *shape,
            &witness.instance.commitment,
            &message,
            threshold,
        );
        Ok((witness, public))
    }

    fn prove(
        params: &ParamsKZG<Bn256>,
        keys: &AtmsKeys,
        witness: &AtmsWitness,
        transcript: Transcript,
    ) -> std::result::Result<Vec<u8>, String> {
        prove_with_transcript(params, keys, witness, transcript).map_err(|e| e.to_string())
    }

    fn public_inputs(witness: &AtmsWitness) -> Vec<Fr> {
        witness.instance.to_public_inputs()
    }

    fn trusted(
        shape: &AtmsShape,
        args: &VerifyArgs,
        public: Option<&PublicFile<AtmsShape>>,
    ) -> Result<Trusted<Self>> {
        let commitment = match (&args.committee, &args.commitment) {
            (Some(path), None) => {
                let committee = load_committee(path)?;
                check_members(path, committee.keys().len(), shape.n, "verifying key")?;
                committee.commitment(shape.mode)
            }
            (None, Some(hex)) => fr_from_str(hex, "--commitment").map_err(usage)?,
            _ => {
                return Err(usage(
                    "give the trusted --committee FILE or --commitment HEX",
                ))
            }
        };
        let threshold = args.threshold(public)?;
        Ok(Trusted {
            public: PublicFile::new(SCHEME, *shape, &commitment, &args.message, threshold),
            instance: AtmsInstance::from_trusted_commitment(commitment, &args.message, threshold),
        })
    }

    fn verify(
        params: &ParamsKZG<Bn256>,
        shape: &AtmsShape,
        vk: &Halo2Vk<G1Affine>,
        instance: &AtmsInstance,
        proof: &[u8],
        transcript: Transcript,
    ) -> Verdict {
        verify_with_vk(params, shape, vk, instance, proof, transcript).map_err(|e| match e {
            AtmsError::ProofRejected => Rejection::Proof,
            other => Rejection::Other(usage(other)),
        })
    }

    fn verdict(shape: &AtmsShape, trusted: &Trusted<Self>, args: &VerifyArgs) -> String {
        let instance = &trusted.instance;
        format!(
            "verified (schnorr-atms): at least {} of {} committee members signed {}; committee \
             commitment {}",
            trusted.public.threshold,
            shape.n,
            describe_message(&args.message, &instance.message),
            fr_to_hex(&instance.commitment)
        )
    }

    /// 6 members, 4 sign, threshold 3, flat commitment.
    fn demo_certificate() -> Result<DemoCertificate<Self>> {
        const COMMITTEE: usize = 6;
        const SIGNERS: [usize; 4] = [0, 2, 3, 5];
        const THRESHOLD: u64 = 3;
        let err = |e: AtmsError| CliError(e.to_string());
        let mut rng = ChaCha20Rng::seed_from_u64(2026);
        let members: Vec<SigningKey> = (0..COMMITTEE)
            .map(|_| SigningKey::random(&mut rng))
            .collect();
        let committee =
            Committee::new(members.iter().map(SigningKey::verifying_key).collect()).map_err(err)?;
        let message_bytes = b"tms demo: epoch 1 committee handover".to_vec();
        let message = message_to_field(&message_bytes);
        let signatures = SIGNERS
            .iter()
            .map(|i| {
                Ok((
                    members[*i].verifying_key(),
                    members[*i]
                        .sign(&RescuePrime, message)
                        .map_err(|e| CliError(e.to_string()))?,
                ))
            })
            .collect::<Result<Vec<_>>>()?;
        let certificate = Certificate::aggregate(&committee, message, &signatures).map_err(err)?;
        let mut shape = AtmsShape {
            n: COMMITTEE,
            mode: CommitmentMode::Flat,
            k: 20,
            verification: Verification::PerSignature,
        };
        shape.k = schnorr_atms::min_k(&shape, DEMO_ADVICE_COLUMNS).map_err(err)?;
        let witness = AtmsWitness::new(shape, &committee, &certificate, THRESHOLD).map_err(err)?;
        // The verifier rebuilds the statement from the committee and message it holds.
        let instance = AtmsInstance::from_trusted(&shape, &committee, &message_bytes, THRESHOLD)
            .map_err(err)?;
        let description = vec![
            format!(
                "committee: {COMMITTEE} Grumpkin keys, flat Rescue-Prime commitment {}",
                fr_to_hex(&instance.commitment)
            ),
            format!(
                "certificate: members {SIGNERS:?} signed {}; threshold {THRESHOLD}",
                describe_message(&message_bytes, &message)
            ),
        ];
        Ok(DemoCertificate {
            shape,
            witness,
            trusted: Trusted {
                public: PublicFile::new(
                    SCHEME,
                    shape,
                    &instance.commitment,
                    &message_bytes,
                    THRESHOLD,
                ),
                instance,
            },
            description,
        })
    }

    fn describe_circuit(keys: &AtmsKeys) -> String {
        keys.stats.to_string()
    }
}
