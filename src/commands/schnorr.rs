//! Schnorr ATMS (Grumpkin keys, Rescue-Prime commitments): committee, sign, certify, keygen,
//! prove, verify, demo.

use std::{
    fs,
    path::{Path, PathBuf},
    time::Instant,
};

use halo2_base::halo2_proofs::poly::commitment::Params;
use rand::{rngs::OsRng, SeedableRng};
use rand_chacha::ChaCha20Rng;
use schnorr_atms::{
    keygen as atms_keygen, prove as atms_prove, prove_with_transcript, read_vk, verify_with_vk,
    AtmsError, AtmsInstance, AtmsKeys, AtmsShape, AtmsWitness, Certificate, CommitmentMode,
    Committee, Verification,
};
use serde::{Deserialize, Serialize};
use tms_gadgets::{
    hash::RescuePrime,
    message::message_to_field,
    signature::schnorr::{Signature, SigningKey, VerifyingKey},
};

use super::{
    check_members, check_params_k, check_statement, describe_message, proof_rejected, write_keys,
    DemoClock, ProofOutput, VerifyArgs,
};
use crate::{
    formats::*,
    io::{at, load_params, read_bytes, read_json, spinner, usage, write_json, CliError, Result},
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
        AtmsError::NotInCommittee(i) => at(
            &signatures[i],
            "the signer is not a member of the committee",
        ),
        AtmsError::InvalidSignature(i) => at(&signatures[i], "the signature does not verify"),
        AtmsError::DuplicateSigner(member) => {
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

/// `tms keygen --scheme schnorr-atms`.
pub fn keygen(
    committee_path: &Path,
    mode: Mode,
    slots: Option<usize>,
    params_path: &Path,
    pk: &Path,
    vk: &Path,
) -> Result<()> {
    let committee = load_committee(committee_path)?;
    let params = load_params(params_path)?;
    let n = committee.keys().len();
    let mode = match (mode, slots) {
        (Mode::Flat, None) => CommitmentMode::Flat,
        (Mode::Flat, Some(_)) => return Err(usage("--slots applies to --mode merkle only")),
        (Mode::Merkle, Some(slots)) => CommitmentMode::Merkle { slots },
        (Mode::Merkle, None) => return Err(usage("--mode merkle needs --slots")),
    };
    let shape = AtmsShape {
        n,
        mode,
        k: params.k(),
        verification: Verification::PerSignature,
    };
    shape.validate().map_err(|e| at(params_path, e))?;
    // Lay the circuit out first so that too-small parameters fail fast, with the k to use.
    let needed =
        schnorr_atms::min_k(&shape, MAX_ADVICE_COLUMNS).map_err(|e| CliError(e.to_string()))?;
    if params.k() < needed {
        return Err(at(
            params_path,
            format!(
                "parameters too small for this circuit: 2^{} rows, the circuit needs k >= {needed}",
                params.k()
            ),
        ));
    }
    tracing::info!(n, ?mode, k = params.k(), needed, "keygen");
    let bar = spinner("generating keys");
    let start = Instant::now();
    let keys = atms_keygen(&params, shape).map_err(|e| at(params_path, e))?;
    bar.finish_and_clear();
    tracing::info!(seconds = start.elapsed().as_secs_f64(), stats = %keys.stats, "keys generated");
    let fp = write_keys(pk, vk, &keys.pk_bytes(), &keys.vk_bytes())?;
    println!(
        "keys for {n} members ({}) written to {} and {}; verifying key fingerprint {}",
        keys.stats,
        pk.display(),
        vk.display(),
        fp
    );
    Ok(())
}

/// `tms prove --scheme schnorr-atms`.
pub fn prove(
    committee_path: &Path,
    certificate_path: &Path,
    threshold: u64,
    params_path: &Path,
    pk_path: &Path,
    out: &ProofOutput,
) -> Result<()> {
    let committee = load_committee(committee_path)?;
    let params = load_params(params_path)?;
    let keys = AtmsKeys::from_pk_bytes(&read_bytes(pk_path)?).map_err(|e| at(pk_path, e))?;
    check_members(
        committee_path,
        committee.keys().len(),
        keys.shape.n,
        "proving key",
    )?;
    check_params_k(params_path, params.k(), keys.shape.k)?;
    let file: CertificateFile = read_json(certificate_path, SCHEME)?;
    let message = bytes_from_hex(&file.message, "message").map_err(|e| at(certificate_path, e))?;
    let signatures = file
        .signatures
        .iter()
        .map(|s| Ok((s.index, parse_signature(certificate_path, &s.r, &s.s)?)))
        .collect::<Result<Vec<_>>>()?;
    let cert = Certificate {
        message: message_to_field(&message),
        signatures,
    };
    let witness =
        AtmsWitness::new(keys.shape, &committee, &cert, threshold).map_err(|e| match e {
            AtmsError::ThresholdTooLarge { .. } => usage(format!("--threshold: {e}")),
            other => at(certificate_path, other),
        })?;
    let bar = spinner("proving");
    let start = Instant::now();
    let proof = prove_with_transcript(&params, &keys, &witness, out.transcript)
        .map_err(|e| at(pk_path, e))?;
    bar.finish_and_clear();
    tracing::info!(
        seconds = start.elapsed().as_secs_f64(),
        bytes = proof.len(),
        "proved"
    );
    let public = PublicFile::new(
        SCHEME,
        keys.shape,
        &witness.instance.commitment,
        &message,
        threshold,
    );
    out.write(
        &proof,
        &public,
        &witness.instance.to_public_inputs(),
        start.elapsed().as_secs_f64(),
    )
}

/// `tms verify --scheme schnorr-atms`: the statement comes from the trusted committee (or
/// commitment), the message bytes and the threshold, never from the prover.
pub fn verify(args: &VerifyArgs) -> Result<()> {
    let (params, vk_file, (shape, vk), public) = args.open(read_vk)?;
    let public: Option<PublicFile<AtmsShape>> = public;
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
    let threshold = args.threshold(public.as_ref())?;
    let trusted = PublicFile::new(SCHEME, shape, &commitment, &args.message, threshold);
    check_statement(args, public.as_ref(), &trusted)?;
    args.check_regenerated(&vk_file, || {
        atms_keygen(&params, shape).map(|k| k.vk_bytes())
    })?;
    let instance = AtmsInstance::from_trusted_commitment(commitment, &args.message, threshold);
    let proof = read_bytes(&args.proof)?;
    tracing::info!(n = shape.n, threshold, "verifying");
    verify_with_vk(&params, &shape, &vk, &instance, &proof, args.transcript).map_err(
        |e| match e {
            AtmsError::ProofRejected => proof_rejected(args),
            other => usage(other),
        },
    )?;
    println!(
        "verified (schnorr-atms): at least {threshold} of {} committee members signed {}; \
         committee commitment {}",
        shape.n,
        describe_message(&args.message, &instance.message),
        fr_to_hex(&commitment)
    );
    println!("  {}", args.key_trust().describe(&vk_file));
    Ok(())
}

/// `tms demo`: 6 members, 4 sign, threshold 3, flat commitment, real proof and verification.
pub fn demo() -> Result<()> {
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
    println!(
        "committee: {COMMITTEE} Grumpkin keys, flat Rescue-Prime commitment {}",
        fr_to_hex(&witness.instance.commitment)
    );
    println!(
        "certificate: members {SIGNERS:?} signed {}; threshold {THRESHOLD}",
        describe_message(&message_bytes, &message)
    );
    eprintln!("WARNING: the demo uses INSECURE test parameters (fixed public seed)");

    let mut clock = DemoClock::start();
    let params = schnorr_atms::setup(shape.k);
    clock.lap();
    let bar = spinner("generating keys");
    let keys = atms_keygen(&params, shape).map_err(err)?;
    clock.lap();
    bar.set_message("proving");
    let proof = atms_prove(&params, &keys, &witness).map_err(err)?;
    clock.lap();
    bar.finish_and_clear();
    // The verifier rebuilds the statement from the committee and message it holds.
    let instance =
        AtmsInstance::from_trusted(&shape, &committee, &message_bytes, THRESHOLD).map_err(err)?;
    schnorr_atms::verify(&params, &keys, &instance, &proof).map_err(err)?;
    clock.lap();
    clock.print(&keys.stats.to_string(), proof.len());
    Ok(())
}
