//! BLS ATMS (keys in BN254 G1 with proofs of possession, signatures in G2, one pairing): its
//! files, `tms check`, and its side of the tool's one interface ([`BlsBn254`]).
//!
//! Every scheme signs `m = keccak-256(bytes) mod r`; BLS hashes `m` to G2 with
//! `tms_gadgets::signature::bls::hash_message`, which the circuit computes too, so the
//! statement's message input is `m` and a contract derives it from the same bytes.

use std::path::{Path, PathBuf};

use bls_atms::{
    keygen as bls_keygen, AtmsError, AtmsInstance, AtmsKeys, AtmsShape, AtmsWitness, Committee,
};
use halo2_base::halo2_proofs::{
    halo2curves::{bn256::Bn256, ff::Field},
    poly::kzg::commitment::ParamsKZG,
};
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use serde::{Deserialize, Serialize};
use tms_gadgets::{
    message::message_to_field,
    signature::bls::{PublicKey, SecretKey, Signature},
    Fr,
};

use crate::backends::bn254::Bn254;
use crate::checks::{check_members, describe_message};
use crate::interface::VerifyArgs;
use crate::schemes::refuse_registration;
use crate::{
    formats::*,
    interface::{
        CertificateScheme, CertifyArgs, CommitteeArgs, DemoCertificate, ShapeOptions, SignArgs,
        Trusted,
    },
    io::{at, member_keys, read_json, spinner, usage, write_json, CliError, MemberSecret, Result},
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

/// A BLS signature in a signature file.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct SignatureHex {
    /// The G2 signature.
    pub signature: String,
}

/// A BLS signature file.
pub type SignatureFile = crate::formats::SignatureFile<SignatureHex>;

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

/// BLS member keys.
impl MemberSecret for SecretKey {
    const BACKEND: Option<&'static str> = None;
    fn random(rng: &mut ChaCha20Rng) -> Self {
        SecretKey::random(rng)
    }
    fn to_hex(&self) -> (String, String) {
        (fr_to_hex(&self.0), point_to_hex(&self.public_key().0))
    }
}

/// `tms committee --scheme bls-atms`: keys with proofs of possession.
pub fn committee(size: usize, seed: Option<u64>, out: &Path, keys_dir: &Path) -> Result<()> {
    if size < 2 {
        return Err(usage(
            "--size: a BLS ATMS committee needs at least 2 members",
        ));
    }
    let sks = member_keys::<SecretKey>(SCHEME, size, seed, keys_dir)?;
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
        signature: SignatureHex {
            signature: point_to_hex(&sk.sign(message_to_field(message)).0),
        },
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
    let signed = message_to_field(message);
    let mut found: Vec<(usize, Signature)> = Vec::with_capacity(signatures.len());
    for path in signatures {
        let file: SignatureFile = read_json(path, SCHEME)?;
        crate::schemes::check_signed_message(path, &file.message, message)?;
        let pk = PublicKey(g1_from_hex(&file.public_key, "public_key").map_err(|e| at(path, e))?);
        let sig = Signature(
            g2_from_hex(&file.signature.signature, "signature").map_err(|e| at(path, e))?,
        );
        let index = committee
            .keys()
            .iter()
            .position(|k| *k == pk)
            .ok_or_else(|| at(path, "the signer is not a member of the committee"))?;
        if !pk.verify(signed, &sig) {
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
    let witness =
        AtmsWitness::from_aggregate(shape, committee, &message, &file.signers, sigma, threshold)
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

/// The BLS ATMS on BN254: G1 keys with proofs of possession, G2 signatures, one pairing.
pub struct BlsBn254;

impl CertificateScheme for BlsBn254 {
    type Backend = Bn254;
    const SCHEME: Scheme = SCHEME;
    const KEYGEN: &'static str = "generating keys (a BN254 pairing: minutes)";
    const PROVING: &'static str = "proving (a BN254 pairing: minutes)";
    type Committee = Committee;
    type Shape = AtmsShape;
    type ShapeFile = AtmsShape;
    type Keys = AtmsKeys;
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
        check_members(path, c.len(), shape.n, key)
    }

    /// `--capacity` non-signer slots (default half the committee).
    fn keygen_shape(c: &Committee, options: &ShapeOptions, k: u32) -> Result<AtmsShape> {
        let n = c.len();
        let capacity = options.capacity.unwrap_or(n / 2).max(1);
        let shape = AtmsShape::auto(n, capacity, k);
        shape
            .validate()
            .map_err(|e| usage(format!("--capacity: {e}")))?;
        Ok(shape)
    }

    // Laying a pairing out takes as long as keygen: keygen's own error gives the k to try.
    fn min_k(_: &AtmsShape) -> Result<Option<u32>> {
        Ok(None)
    }

    fn k(shape: &AtmsShape) -> u32 {
        shape.k
    }

    fn keygen(params: &ParamsKZG<Bn256>, shape: &AtmsShape, path: &Path) -> Result<AtmsKeys> {
        bls_keygen(params, *shape).map_err(|e| match e {
            AtmsError::CircuitTooLarge(k) => at(
                path,
                format!(
                    "parameters too small: the circuit does not fit 2^{k} rows (try k up to \
                     {MAX_K})"
                ),
            ),
            other => at(path, other),
        })
    }

    fn keys_shape(keys: &AtmsKeys) -> &AtmsShape {
        &keys.shape
    }

    crate::backends::bn254::hybrid_calls!(bls_atms, verify: AtmsError);

    fn describe_keys(keys: &AtmsKeys) -> String {
        format!(
            "{} members, {} non-signer slots ({})",
            keys.shape.n, keys.shape.capacity, keys.stats
        )
    }

    fn witness(
        shape: &AtmsShape,
        committee: &Committee,
        certificate: &Path,
        threshold: Option<u64>,
    ) -> Result<(AtmsWitness, PublicFile<AtmsShape>)> {
        let threshold = threshold.unwrap_or_default();
        let (message, witness) = load_witness(committee, certificate, *shape, threshold)?;
        let public = PublicFile::new(
            SCHEME,
            *shape,
            &witness.instance.committee,
            &message,
            threshold,
        );
        Ok((witness, public))
    }

    fn public_inputs(witness: &AtmsWitness) -> Vec<Fr> {
        witness.instance.to_public_inputs()
    }

    crate::schemes::bn254_atms_calls!(
        "BLS ATMS certificate (BN254, Poseidon transcript): [commitment, m, t]",
        |committee, shape| committee.digest(shape.hash),
        AtmsInstance::from_trusted_digest
    );

    fn verdict(shape: &AtmsShape, trusted: &Trusted<Self>, args: &VerifyArgs) -> String {
        format!(
            "verified (bls-atms): at least {} of {} committee members signed {}; committee \
             digest {}",
            trusted.public.threshold,
            shape.n,
            describe_message(&args.message, &message_to_field(&args.message)),
            trusted.public.commitment
        )
    }

    /// 4 members, 3 sign, threshold 2 (a pairing: minutes).
    fn demo_certificate() -> Result<DemoCertificate<Self>> {
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
        let signed = message_to_field(&message);
        let signatures: Vec<_> = SIGNERS.iter().map(|i| (*i, sks[*i].sign(signed))).collect();
        let shape = AtmsShape::auto(COMMITTEE, COMMITTEE - 1, DEMO_K);
        let witness =
            AtmsWitness::new(shape, &committee, &message, &signatures, THRESHOLD).map_err(err)?;
        // The verifier rebuilds the statement from the committee and message it holds.
        let instance =
            AtmsInstance::from_trusted(&shape, &committee, &message, THRESHOLD).map_err(err)?;
        let digest = committee.digest(shape.hash);
        let description = vec![
            format!(
                "committee: {COMMITTEE} BLS keys with proofs of possession, digest {}",
                fr_to_hex(&digest)
            ),
            format!(
                "certificate: members {SIGNERS:?} signed {}; threshold {THRESHOLD}",
                describe_message(&message, &message_to_field(&message))
            ),
        ];
        Ok(DemoCertificate {
            shape,
            witness,
            trusted: Trusted {
                public: PublicFile::new(SCHEME, shape, &digest, &message, THRESHOLD),
                instance,
            },
            description,
        })
    }
}
