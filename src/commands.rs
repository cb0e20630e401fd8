//! The subcommands. Each returns a one-line error naming the file it concerns.

use std::{
    fmt, fs,
    path::{Path, PathBuf},
    time::{Duration, Instant},
};

use halo2_base::halo2_proofs::{
    halo2curves::bn256::Bn256,
    poly::{commitment::Params, kzg::commitment::ParamsKZG},
};
use indicatif::{ProgressBar, ProgressStyle};
use rand::{rngs::OsRng, SeedableRng};
use rand_chacha::ChaCha20Rng;
use schnorr_atms::{
    keygen as atms_keygen, prove as atms_prove, read_vk, verify_with_vk, AtmsError, AtmsInstance,
    AtmsKeys, AtmsShape, AtmsWitness, Certificate, CommitmentMode, Committee,
};
use serde::{de::DeserializeOwned, Serialize};
use tms_gadgets::{
    hash::{rescue::rescue_prime_hash, NativeHash, Poseidon, RescuePrime},
    proving::params::{params_from_ptau, sha256_hex, INSECURE_SEED},
    signature::schnorr::{Signature, SigningKey, VerifyingKey},
    Fr,
};

use crate::{formats::*, HashMode, HashName, Mode};

/// A one-line, user-facing error.
#[derive(Debug)]
pub struct CliError(String);

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

type Result<T> = std::result::Result<T, CliError>;

fn at(path: &Path, msg: impl fmt::Display) -> CliError {
    CliError(format!("{}: {msg}", path.display()))
}

/// The most advice columns keygen accepts before asking for larger parameters.
const MAX_ADVICE_COLUMNS: usize = 32;
/// halo2-base advice columns the demo allows itself (beside the custom gates' columns).
const DEMO_ADVICE_COLUMNS: usize = 4;

fn read_bytes(path: &Path) -> Result<Vec<u8>> {
    let bytes = fs::read(path).map_err(|e| at(path, format!("cannot read: {e}")))?;
    tracing::debug!(file = %path.display(), bytes = bytes.len(), "read");
    Ok(bytes)
}

fn read_json<T: DeserializeOwned>(path: &Path) -> Result<T> {
    let bytes = read_bytes(path)?;
    let header: Header =
        serde_json::from_slice(&bytes).map_err(|e| at(path, format!("malformed JSON: {e}")))?;
    header.check().map_err(|e| at(path, e))?;
    serde_json::from_slice(&bytes).map_err(|e| at(path, format!("malformed JSON: {e}")))
}

/// Writes `bytes` to a temporary file beside `path`, then renames it: no partial output.
fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .ok_or_else(|| at(path, "not a file name"))?;
    let tmp = dir.join(format!(
        ".{}.tmp-{}",
        name.to_string_lossy(),
        std::process::id()
    ));
    fs::write(&tmp, bytes).map_err(|e| at(path, format!("cannot write: {e}")))?;
    fs::rename(&tmp, path).map_err(|e| {
        let _ = fs::remove_file(&tmp);
        at(path, format!("cannot write: {e}"))
    })
}

fn write_json(path: &Path, value: &impl Serialize) -> Result<()> {
    let mut text = serde_json::to_string_pretty(value).expect("serializable");
    text.push('\n');
    write_atomic(path, text.as_bytes())
}

fn spinner(message: &'static str) -> ProgressBar {
    let bar = ProgressBar::new_spinner();
    bar.set_style(
        ProgressStyle::with_template("{spinner} {msg} {elapsed}").expect("static template"),
    );
    bar.set_message(message);
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}

fn load_committee(path: &Path) -> Result<Committee> {
    let file: CommitteeFile = read_json(path)?;
    let keys = file
        .members
        .iter()
        .enumerate()
        .map(|(i, k)| point_from_hex(k, &format!("member {i}'s key")).map(VerifyingKey))
        .collect::<std::result::Result<Vec<_>, _>>()
        .map_err(|e| at(path, e))?;
    Committee::new(keys).map_err(|e| at(path, e))
}

fn sha_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".sha256");
    PathBuf::from(name)
}

/// Reads parameters, checking them against the `<file>.sha256` record when there is one.
fn load_params(path: &Path) -> Result<ParamsKZG<Bn256>> {
    let bytes = read_bytes(path)?;
    if let Ok(record) = fs::read_to_string(sha_path(path)) {
        let expected = record.split_whitespace().next().unwrap_or("");
        if sha256_hex(&bytes) != expected {
            return Err(at(
                path,
                format!(
                    "SHA-256 differs from the record in {}",
                    sha_path(path).display()
                ),
            ));
        }
    }
    ParamsKZG::<Bn256>::read(&mut bytes.as_slice())
        .map_err(|e| at(path, format!("not a KZG parameters file: {e}")))
}

/// `tms committee`.
pub fn committee(size: usize, seed: Option<u64>, out: &Path, keys_dir: &Path) -> Result<()> {
    if size == 0 {
        return Err(CliError(
            "--size: a committee needs at least one member".into(),
        ));
    }
    let mut rng = match seed {
        Some(s) => ChaCha20Rng::seed_from_u64(s),
        None => ChaCha20Rng::from_rng(OsRng).expect("OS randomness"),
    };
    let sks: Vec<SigningKey> = (0..size).map(|_| SigningKey::random(&mut rng)).collect();
    let committee = Committee::new(sks.iter().map(SigningKey::verifying_key).collect())
        .map_err(|e| CliError(e.to_string()))?;
    fs::create_dir_all(keys_dir).map_err(|e| at(keys_dir, format!("cannot create: {e}")))?;
    for (i, sk) in sks.iter().enumerate() {
        let file = MemberFile {
            header: Header::current(),
            index: i,
            secret_key: scalar_to_hex(&sk.0),
            public_key: point_to_hex(&sk.verifying_key().0),
        };
        write_json(&keys_dir.join(format!("member-{i}.json")), &file)?;
    }
    let file = CommitteeFile {
        header: Header::current(),
        members: committee
            .keys()
            .iter()
            .map(|k| point_to_hex(&k.0))
            .collect(),
    };
    write_json(out, &file)?;
    println!(
        "committee of {size} written to {} (secret keys in {})",
        out.display(),
        keys_dir.display()
    );
    Ok(())
}

/// `tms sign`.
pub fn sign(key: &Path, message: &str, out: &Path) -> Result<()> {
    let file: MemberFile = read_json(key)?;
    let sk = SigningKey(scalar_from_hex(&file.secret_key, "secret_key").map_err(|e| at(key, e))?);
    let pk = point_from_hex(&file.public_key, "public_key").map_err(|e| at(key, e))?;
    if sk.verifying_key().0 != pk {
        return Err(at(key, "public_key does not match secret_key"));
    }
    let m = fr_from_str(message, "--message").map_err(CliError)?;
    let sig = sk.sign(&RescuePrime, m).map_err(|e| at(key, e))?;
    let file = SignatureFile {
        header: Header::current(),
        public_key: file.public_key,
        message: fr_to_hex(&m),
        r: point_to_hex(&sig.r),
        s: scalar_to_hex(&sig.s),
    };
    write_json(out, &file)
}

fn parse_signature(path: &Path, r: &str, s: &str) -> Result<Signature> {
    Ok(Signature {
        r: point_from_hex(r, "r").map_err(|e| at(path, e))?,
        s: scalar_from_hex(s, "s").map_err(|e| at(path, e))?,
    })
}

/// `tms certify`.
pub fn certify(
    committee_path: &Path,
    message: &str,
    out: &Path,
    signatures: &[PathBuf],
) -> Result<()> {
    let committee = load_committee(committee_path)?;
    let m = fr_from_str(message, "--message").map_err(CliError)?;
    let mut pairs = Vec::with_capacity(signatures.len());
    for path in signatures {
        let file: SignatureFile = read_json(path)?;
        let signed = fr_from_str(&file.message, "message").map_err(|e| at(path, e))?;
        if signed != m {
            return Err(at(
                path,
                format!(
                    "signature over another message ({}, expected {})",
                    file.message,
                    fr_to_hex(&m)
                ),
            ));
        }
        let pk =
            VerifyingKey(point_from_hex(&file.public_key, "public_key").map_err(|e| at(path, e))?);
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
        header: Header::current(),
        message: fr_to_hex(&m),
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

/// `tms setup`.
pub fn setup(k: u32, ptau: Option<&Path>, halo2: Option<&Path>, out: &Path) -> Result<()> {
    if !(10..=24).contains(&k) {
        return Err(CliError(format!("--k: {k} is outside 10..=24")));
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
            params.downsize(k);
            params
        }
        (None, None) => {
            eprintln!("WARNING: these parameters come from a fixed public seed and are INSECURE (tests and demos only)");
            ParamsKZG::<Bn256>::setup(k, ChaCha20Rng::from_seed(INSECURE_SEED))
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

/// `tms keygen`.
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
        (Mode::Flat, Some(_)) => {
            return Err(CliError("--slots applies to --mode merkle only".into()))
        }
        (Mode::Merkle, Some(slots)) => CommitmentMode::Merkle { slots },
        (Mode::Merkle, None) => return Err(CliError("--mode merkle needs --slots".into())),
    };
    let shape = AtmsShape {
        n,
        mode,
        k: params.k(),
        verification: schnorr_atms::Verification::PerSignature,
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
    write_atomic(pk, &keys.pk_bytes())?;
    write_atomic(vk, &keys.vk_bytes())?;
    println!(
        "keys for {n} members ({}) written to {} and {}",
        keys.stats,
        pk.display(),
        vk.display()
    );
    Ok(())
}

/// `tms prove`.
pub fn prove(
    committee_path: &Path,
    certificate_path: &Path,
    threshold: u64,
    params_path: &Path,
    pk_path: &Path,
    proof_path: &Path,
    public_path: &Path,
) -> Result<()> {
    let committee = load_committee(committee_path)?;
    let params = load_params(params_path)?;
    let keys = AtmsKeys::from_pk_bytes(&read_bytes(pk_path)?).map_err(|e| at(pk_path, e))?;
    if committee.keys().len() != keys.shape.n {
        return Err(at(
            committee_path,
            format!(
                "has {} members, the proving key is for {}",
                committee.keys().len(),
                keys.shape.n
            ),
        ));
    }
    if params.k() != keys.shape.k {
        return Err(at(
            params_path,
            format!(
                "parameters are for k = {}, the proving key for k = {}",
                params.k(),
                keys.shape.k
            ),
        ));
    }
    let file: CertificateFile = read_json(certificate_path)?;
    let message = fr_from_str(&file.message, "message").map_err(|e| at(certificate_path, e))?;
    let signatures = file
        .signatures
        .iter()
        .map(|s| Ok((s.index, parse_signature(certificate_path, &s.r, &s.s)?)))
        .collect::<Result<Vec<_>>>()?;
    let cert = Certificate {
        message,
        signatures,
    };
    let witness =
        AtmsWitness::new(keys.shape, &committee, &cert, threshold).map_err(|e| match e {
            AtmsError::ThresholdTooLarge { .. } => CliError(format!("--threshold: {e}")),
            other => at(certificate_path, other),
        })?;
    let bar = spinner("proving");
    let start = Instant::now();
    let proof = atms_prove(&params, &keys, &witness).map_err(|e| at(pk_path, e))?;
    bar.finish_and_clear();
    tracing::info!(
        seconds = start.elapsed().as_secs_f64(),
        bytes = proof.len(),
        "proved"
    );
    let public = PublicFile {
        header: Header::current(),
        shape: keys.shape,
        commitment: fr_to_hex(&witness.instance.commitment),
        message: fr_to_hex(&witness.instance.message),
        threshold,
    };
    write_atomic(proof_path, &proof)?;
    write_json(public_path, &public)?;
    println!(
        "proof ({} bytes, {:.1} s) written to {}",
        proof.len(),
        start.elapsed().as_secs_f64(),
        proof_path.display()
    );
    Ok(())
}

/// `tms verify`.
pub fn verify(
    params_path: &Path,
    vk_path: &Path,
    public_path: &Path,
    proof_path: &Path,
) -> Result<()> {
    let params = load_params(params_path)?;
    let (shape, vk) = read_vk(&read_bytes(vk_path)?).map_err(|e| at(vk_path, e))?;
    let public: PublicFile = read_json(public_path)?;
    if public.shape != shape {
        return Err(at(
            public_path,
            "the statement's circuit shape differs from the verifying key's",
        ));
    }
    let instance = AtmsInstance {
        commitment: fr_from_str(&public.commitment, "commitment")
            .map_err(|e| at(public_path, e))?,
        message: fr_from_str(&public.message, "message").map_err(|e| at(public_path, e))?,
        threshold: public.threshold,
    };
    let proof = read_bytes(proof_path)?;
    tracing::info!(n = shape.n, threshold = public.threshold, "verifying");
    verify_with_vk(&params, &shape, &vk, &instance, &proof).map_err(|e| match e {
        AtmsError::ProofRejected => at(
            proof_path,
            format!("the proof does not verify for {}", public_path.display()),
        ),
        other => at(public_path, other),
    })?;
    println!(
        "verified: at least {} of {} committee members signed {}",
        public.threshold, shape.n, public.message
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
            return Err(CliError("node mode hashes exactly two elements".into()))
        }
        (HashName::Poseidon, HashMode::Node) => Poseidon.hash_node(xs[0], xs[1]),
        (HashName::RescuePrime, HashMode::Node) => RescuePrime.hash_node(xs[0], xs[1]),
        (HashName::Poseidon, HashMode::Leaf) => Poseidon
            .hash_leaf(&xs)
            .map_err(|e| CliError(e.to_string()))?,
        (HashName::RescuePrime, HashMode::Leaf) => RescuePrime
            .hash_leaf(&xs)
            .map_err(|e| CliError(e.to_string()))?,
        (HashName::RescuePrime, HashMode::Sponge) => rescue_prime_hash(&xs)[0],
        (HashName::Poseidon, HashMode::Sponge) => {
            return Err(CliError(
                "sponge mode is Rescue-Prime's padded hash; use --hash rescue-prime".into(),
            ))
        }
    };
    println!("{}", fr_to_hex(&out));
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
    let message = Fr::from(0x5eed_0001u64);
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
        verification: schnorr_atms::Verification::PerSignature,
    };
    shape.k = schnorr_atms::min_k(&shape, DEMO_ADVICE_COLUMNS).map_err(err)?;
    let witness = AtmsWitness::new(shape, &committee, &certificate, THRESHOLD).map_err(err)?;
    println!(
        "committee: {COMMITTEE} Grumpkin keys, flat Rescue-Prime commitment {}",
        fr_to_hex(&witness.instance.commitment)
    );
    println!(
        "certificate: members {SIGNERS:?} signed message {}; threshold {THRESHOLD}",
        fr_to_hex(&message)
    );
    eprintln!("WARNING: the demo uses INSECURE test parameters (fixed public seed)");

    let start = Instant::now();
    let params = schnorr_atms::setup(shape.k);
    let setup_time = start.elapsed();
    let bar = spinner("generating keys");
    let start = Instant::now();
    let keys = atms_keygen(&params, shape).map_err(err)?;
    let keygen_time = start.elapsed();
    bar.set_message("proving");
    let start = Instant::now();
    let proof = atms_prove(&params, &keys, &witness).map_err(err)?;
    let prove_time = start.elapsed();
    bar.finish_and_clear();
    let start = Instant::now();
    schnorr_atms::verify(&params, &keys, &witness.instance, &proof).map_err(err)?;
    let verify_time = start.elapsed();

    println!();
    println!("| what | value |");
    println!("|---|---|");
    println!("| circuit | {} |", keys.stats);
    println!(
        "| parameters (insecure, test) | {:.1} s |",
        setup_time.as_secs_f64()
    );
    println!("| keygen | {:.1} s |", keygen_time.as_secs_f64());
    println!("| prove | {:.1} s |", prove_time.as_secs_f64());
    println!("| verify | {:.1} ms |", verify_time.as_secs_f64() * 1e3);
    println!("| proof | {} bytes |", proof.len());
    println!("| verified | true |");
    Ok(())
}
