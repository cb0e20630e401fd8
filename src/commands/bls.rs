//! BLS ATMS (keys in BN254 G1 with proofs of possession, signatures in G2, one pairing):
//! committee, sign, certify, keygen, prove, verify, demo.
//!
//! Every scheme signs `m = keccak-256(bytes) mod r`; BLS signs the 32 big-endian bytes of `m`
//! (hashed to G2 by RFC 9380), so that a contract derives the same `m` from the same bytes.

use std::{
    fs,
    path::{Path, PathBuf},
    time::Instant,
};

use bls_atms::{
    keygen as bls_keygen, prove as bls_prove, prove_with_transcript, read_vk, verify_with_vk,
    AtmsError, AtmsInstance, AtmsKeys, AtmsShape, AtmsWitness, Committee,
};
use halo2_base::halo2_proofs::{halo2curves::ff::Field, poly::commitment::Params};
use rand::{rngs::OsRng, SeedableRng};
use rand_chacha::ChaCha20Rng;
use serde::{Deserialize, Serialize};
use tms_gadgets::{
    message::{field_bytes, message_to_field},
    signature::bls::{PublicKey, SecretKey, Signature},
};

use super::{
    check_members, check_params_k, check_statement, describe_message, proof_rejected, write_keys,
    DemoClock, ProofOutput, VerifyArgs,
};
use crate::{
    formats::*,
    io::{at, load_params, read_bytes, read_json, spinner, usage, write_json, CliError, Result},
    options::Scheme,
};

const SCHEME: Scheme = Scheme::BlsAtms;
/// The largest k `tms setup` makes.
const MAX_K: u32 = 24;
/// Rows of the demo's circuit (one pairing fits 2^20 rows with a few advice columns).
const DEMO_K: u32 = 20;

/// One registered member: its key and proof of possession.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct RegisteredKey {
    /// Compressed G1 public key.
    pub public_key: String,
    /// Compressed G2 proof of possession.
    pub proof_of_possession: String,
}

/// `committee.json` for BLS ATMS.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct CommitteeFile {
    /// Version and scheme.
    #[serde(flatten)]
    pub header: Header,
    /// Members in committee order.
    pub members: Vec<RegisteredKey>,
}

/// A BLS signature file.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct SignatureFile {
    /// Version and scheme.
    #[serde(flatten)]
    pub header: Header,
    /// The signer's public key.
    pub public_key: String,
    /// The message bytes.
    pub message: String,
    /// The G2 signature.
    pub signature: String,
}

/// A BLS ATMS certificate: the signers and their aggregate signature.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct CertificateFile {
    /// Version and scheme.
    #[serde(flatten)]
    pub header: Header,
    /// The message bytes.
    pub message: String,
    /// Signer indices, increasing.
    pub signers: Vec<usize>,
    /// The sum of their signatures.
    pub signature: String,
}

/// What BLS signs for `message`: the 32 big-endian bytes of `m`.
fn signed_bytes(message: &[u8]) -> [u8; 32] {
    field_bytes(&message_to_field(message))
}

/// Reads and registers a committee: every key on G1 and not the identity, every proof of
/// possession in G2 and valid, no key twice.
pub fn load_committee(path: &Path) -> Result<Committee> {
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
            Ok((
                PublicKey(g1_from_hex(&m.public_key, &format!("member {i}'s key"))?),
                Signature(g2_from_hex(
                    &m.proof_of_possession,
                    &format!("member {i}'s proof of possession"),
                )?),
            ))
        })
        .collect::<std::result::Result<Vec<_>, String>>()
        .map_err(|e| at(path, e))?;
    Committee::register(&members).map_err(|e| at(path, e))
}

pub(crate) fn load_member(key: &Path) -> Result<SecretKey> {
    let file: MemberFile = read_json(key, SCHEME)?;
    let sk = SecretKey(fr_from_str(&file.secret_key, "secret_key").map_err(|e| at(key, e))?);
    let pk = g1_from_hex(&file.public_key, "public_key").map_err(|e| at(key, e))?;
    if bool::from(sk.0.is_zero()) || sk.public_key().0 != pk {
        return Err(at(key, "public_key does not match secret_key"));
    }
    Ok(sk)
}

/// `tms committee --scheme bls-atms`: keys with proofs of possession.
pub fn committee(size: usize, seed: Option<u64>, out: &Path, keys_dir: &Path) -> Result<()> {
    if size < 2 {
        return Err(usage(
            "--size: a BLS ATMS committee needs at least 2 members",
        ));
    }
    let mut rng = match seed {
        Some(s) => ChaCha20Rng::seed_from_u64(s),
        None => ChaCha20Rng::from_rng(OsRng).expect("OS randomness"),
    };
    let sks: Vec<SecretKey> = (0..size).map(|_| SecretKey::random(&mut rng)).collect();
    fs::create_dir_all(keys_dir).map_err(|e| at(keys_dir, format!("cannot create: {e}")))?;
    for (i, sk) in sks.iter().enumerate() {
        let file = MemberFile {
            header: Header::new(SCHEME),
            index: i,
            secret_key: fr_to_hex(&sk.0),
            public_key: point_to_hex(&sk.public_key().0),
        };
        write_json(&keys_dir.join(format!("member-{i}.json")), &file)?;
    }
    let file = CommitteeFile {
        header: Header::new(SCHEME),
        members: sks
            .iter()
            .map(|sk| RegisteredKey {
                public_key: point_to_hex(&sk.public_key().0),
                proof_of_possession: point_to_hex(&sk.prove_possession().0),
            })
            .collect(),
    };
    write_json(out, &file)?;
    println!(
        "committee of {size} BLS keys with proofs of possession written to {} (secret keys in {})",
        out.display(),
        keys_dir.display()
    );
    Ok(())
}

/// `tms sign --scheme bls-atms`.
pub fn sign(key: &Path, message: &[u8], out: &Path) -> Result<()> {
    let sk = load_member(key)?;
    let file = SignatureFile {
        header: Header::new(SCHEME),
        public_key: point_to_hex(&sk.public_key().0),
        message: bytes_to_hex(message),
        signature: point_to_hex(&sk.sign(&signed_bytes(message)).0),
    };
    write_json(out, &file)
}

/// `tms certify --scheme bls-atms`: checks each signature, aggregates.
pub fn certify(
    committee_path: &Path,
    message: &[u8],
    out: &Path,
    signatures: &[PathBuf],
) -> Result<()> {
    let committee = load_committee(committee_path)?;
    let signed = signed_bytes(message);
    let mut found: Vec<(usize, Signature)> = Vec::with_capacity(signatures.len());
    for path in signatures {
        let file: SignatureFile = read_json(path, SCHEME)?;
        super::schnorr::check_signed_message(path, &file.message, message)?;
        let pk = PublicKey(g1_from_hex(&file.public_key, "public_key").map_err(|e| at(path, e))?);
        let sig = Signature(g2_from_hex(&file.signature, "signature").map_err(|e| at(path, e))?);
        let index = committee
            .keys()
            .iter()
            .position(|k| *k == pk)
            .ok_or_else(|| at(path, "the signer is not a member of the committee"))?;
        if !pk.verify(&signed, &sig) {
            return Err(at(path, "the signature does not verify"));
        }
        if found.iter().any(|(i, _)| *i == index) {
            return Err(CliError(format!("member {index} signed more than once")));
        }
        found.push((index, sig));
    }
    found.sort_by_key(|(i, _)| *i);
    let sigma = Signature::aggregate(&found.iter().map(|(_, s)| *s).collect::<Vec<_>>());
    let file = CertificateFile {
        header: Header::new(SCHEME),
        message: bytes_to_hex(message),
        signers: found.iter().map(|(i, _)| *i).collect(),
        signature: point_to_hex(&sigma.0),
    };
    write_json(out, &file)?;
    println!(
        "certificate with {} signers written to {}",
        found.len(),
        out.display()
    );
    Ok(())
}

/// `tms keygen --scheme bls-atms`: `capacity` non-signer slots (default half the committee).
pub fn keygen(
    committee_path: &Path,
    capacity: Option<usize>,
    params_path: &Path,
    pk: &Path,
    vk: &Path,
) -> Result<()> {
    let committee = load_committee(committee_path)?;
    let params = load_params(params_path)?;
    let n = committee.len();
    let capacity = capacity.unwrap_or(n / 2).max(1);
    let shape = AtmsShape::auto(n, capacity, params.k());
    shape
        .validate()
        .map_err(|e| usage(format!("--capacity: {e}")))?;
    let bar = spinner("generating keys (a BN254 pairing: minutes)");
    let start = Instant::now();
    let keys = bls_keygen(&params, shape).map_err(|e| match e {
        AtmsError::CircuitTooLarge(k) => at(
            params_path,
            format!(
                "parameters too small: the circuit does not fit 2^{k} rows (try k up to {MAX_K})"
            ),
        ),
        other => at(params_path, other),
    })?;
    bar.finish_and_clear();
    tracing::info!(seconds = start.elapsed().as_secs_f64(), stats = %keys.stats, "keys generated");
    let fp = write_keys(pk, vk, &keys.pk_bytes(), &keys.vk_bytes())?;
    println!(
        "keys for {n} members, {capacity} non-signer slots ({}) written to {} and {}; \
         verifying key fingerprint {}",
        keys.stats,
        pk.display(),
        vk.display(),
        fp
    );
    Ok(())
}

/// The witness of a certificate file for `shape` and `threshold`, with the message bytes.
fn load_witness(
    committee: &Committee,
    certificate_path: &Path,
    shape: AtmsShape,
    threshold: u64,
) -> Result<(Vec<u8>, AtmsWitness)> {
    let file: CertificateFile = read_json(certificate_path, SCHEME)?;
    let message = bytes_from_hex(&file.message, "message").map_err(|e| at(certificate_path, e))?;
    let sigma =
        Signature(g2_from_hex(&file.signature, "signature").map_err(|e| at(certificate_path, e))?);
    let witness = AtmsWitness::from_aggregate(
        shape,
        committee,
        &signed_bytes(&message),
        &file.signers,
        sigma,
        threshold,
    )
    .map_err(|e| match e {
        AtmsError::ThresholdOutOfRange { .. } => usage(format!("--threshold: {e}")),
        other => at(certificate_path, other),
    })?;
    Ok((message, witness))
}

/// `tms check --scheme bls-atms`: MockProver on the certificate's witness against the statement
/// built from the committee and the certificate's message (no parameters, keys or proof).
pub fn check(
    committee_path: &Path,
    certificate_path: &Path,
    threshold: u64,
    capacity: Option<usize>,
    k: u32,
) -> Result<()> {
    let committee = load_committee(committee_path)?;
    let n = committee.len();
    let shape = AtmsShape::auto(n, capacity.unwrap_or(n / 2).max(1), k);
    shape.validate().map_err(usage)?;
    let (message, witness) = load_witness(&committee, certificate_path, shape, threshold)?;
    let instance =
        AtmsInstance::from_trusted(&shape, &committee, &message, threshold).map_err(usage)?;
    let bar = spinner("checking with MockProver (a BN254 pairing: about 2.6 GB)");
    bls_atms::mock_check(&witness, &instance).map_err(|e| at(certificate_path, e))?;
    bar.finish_and_clear();
    println!(
        "satisfied (bls-atms, MockProver, k = {k}): at least {threshold} of {n} committee members          signed {}",
        describe_message(&message, &message_to_field(&message))
    );
    Ok(())
}

/// `tms prove --scheme bls-atms`.
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
    check_members(committee_path, committee.len(), keys.shape.n, "proving key")?;
    check_params_k(params_path, params.k(), keys.shape.k)?;
    let (message, witness) = load_witness(&committee, certificate_path, keys.shape, threshold)?;
    let bar = spinner("proving (a BN254 pairing: minutes)");
    let start = Instant::now();
    let proof = prove_with_transcript(&params, &keys, &witness, out.transcript)
        .map_err(|e| at(pk_path, e))?;
    bar.finish_and_clear();
    let public = PublicFile::new(
        SCHEME,
        keys.shape,
        &witness.instance.committee,
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

/// `tms verify --scheme bls-atms`.
pub fn verify(args: &VerifyArgs) -> Result<()> {
    let (params, vk_file, (shape, vk), public) = args.open(read_vk)?;
    let public: Option<PublicFile<AtmsShape>> = public;
    let digest = match (&args.committee, &args.commitment) {
        (Some(path), None) => {
            let committee = load_committee(path)?;
            check_members(path, committee.len(), shape.n, "verifying key")?;
            committee.digest(shape.hash)
        }
        (None, Some(hex)) => fr_from_str(hex, "--commitment").map_err(usage)?,
        _ => {
            return Err(usage(
                "give the trusted --committee FILE or --commitment HEX",
            ))
        }
    };
    let threshold = args.threshold(public.as_ref())?;
    let trusted = PublicFile::new(SCHEME, shape, &digest, &args.message, threshold);
    check_statement(args, public.as_ref(), &trusted)?;
    args.check_regenerated(&vk_file, || {
        bls_keygen(&params, shape).map(|k| k.vk_bytes())
    })?;
    let instance = AtmsInstance::from_trusted_digest(digest, &args.message, threshold);
    let proof = read_bytes(&args.proof)?;
    verify_with_vk(&params, &shape, &vk, &instance, &proof, args.transcript).map_err(
        |e| match e {
            AtmsError::ProofRejected => proof_rejected(args),
            other => usage(other),
        },
    )?;
    println!(
        "verified (bls-atms): at least {threshold} of {} committee members signed {}; \
         committee digest {}",
        shape.n,
        describe_message(&args.message, &message_to_field(&args.message)),
        fr_to_hex(&digest)
    );
    println!("  {}", args.key_trust().describe(&vk_file));
    Ok(())
}

/// `tms demo --scheme bls-atms`: 4 members, 3 sign, threshold 2, real proof (a pairing: minutes).
pub fn demo() -> Result<()> {
    const COMMITTEE: usize = 4;
    const SIGNERS: [usize; 3] = [0, 1, 3];
    const THRESHOLD: u64 = 2;
    let err = |e: AtmsError| CliError(e.to_string());
    let mut rng = ChaCha20Rng::seed_from_u64(2026);
    let sks: Vec<SecretKey> = (0..COMMITTEE)
        .map(|_| SecretKey::random(&mut rng))
        .collect();
    let members: Vec<_> = sks
        .iter()
        .map(|sk| (sk.public_key(), sk.prove_possession()))
        .collect();
    let committee = Committee::register(&members).map_err(err)?;
    let message = b"tms demo: BLS certificate".to_vec();
    let signed = signed_bytes(&message);
    let signatures: Vec<_> = SIGNERS
        .iter()
        .map(|i| (*i, sks[*i].sign(&signed)))
        .collect();
    let shape = AtmsShape::auto(COMMITTEE, COMMITTEE - 1, DEMO_K);
    let witness =
        AtmsWitness::new(shape, &committee, &signed, &signatures, THRESHOLD).map_err(err)?;
    println!(
        "committee: {COMMITTEE} BLS keys with proofs of possession, digest {}",
        fr_to_hex(&committee.digest(shape.hash))
    );
    println!(
        "certificate: members {SIGNERS:?} signed {}; threshold {THRESHOLD}",
        describe_message(&message, &message_to_field(&message))
    );
    eprintln!("WARNING: the demo uses INSECURE test parameters (fixed public seed)");
    let mut clock = DemoClock::start();
    let params = bls_atms::setup(shape.k);
    clock.lap();
    let bar = spinner("generating keys (a BN254 pairing: minutes)");
    let keys = bls_keygen(&params, shape).map_err(err)?;
    clock.lap();
    bar.set_message("proving");
    let proof = bls_prove(&params, &keys, &witness).map_err(err)?;
    clock.lap();
    bar.finish_and_clear();
    let instance =
        AtmsInstance::from_trusted(&shape, &committee, &message, THRESHOLD).map_err(err)?;
    bls_atms::verify(&params, &keys, &instance, &proof).map_err(err)?;
    clock.lap();
    clock.print(&keys.stats.to_string(), proof.len());
    Ok(())
}
