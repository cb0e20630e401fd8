//! SNARK-Mithril (stake-based certificates on Grumpkin unique signatures): keys and a stakes
//! file (`committee`), registration, sign (plays the lotteries), certify (aggregates), and its
//! side of the tool's one interface ([`MithrilBn254`]).

use std::path::{Path, PathBuf};

use halo2_base::halo2_proofs::{
    halo2curves::bn256::{Bn256, G1Affine},
    plonk::VerifyingKey as Halo2Vk,
    poly::kzg::commitment::ParamsKZG,
};
use mithril_snark::{
    aggregate, chain::link_message, keygen as m_keygen, prove_with_transcript, read_vk,
    registration::Party, signature::UniqueSignature, stm::SignerSlot, verify as native_verify,
    Certificate, MithrilError, MithrilInstance, MithrilKeys, MithrilShape, MithrilWitness,
    Parameters, PhiF, Registration, Signer, SingleSignature,
};
use serde::{Deserialize, Serialize};
use tms_gadgets::{
    message::message_to_field, proving::Transcript, signature::schnorr::VerifyingKey, Fr,
};

use crate::backends::bn254::Bn254;
use crate::checks::describe_message;
use crate::interface::VerifyArgs;
use crate::schemes::schnorr::bn254::{load_member, member_keys};
use crate::{
    formats::*,
    interface::{
        CertificateScheme, CertifyArgs, CommitteeArgs, DemoCertificate, Rejection, ShapeOptions,
        SignArgs, Trusted, Verdict,
    },
    io::{at, read_bytes, read_json, usage, write_json, CliError, Result},
    options::{Preset, Scheme},
};

const SCHEME: Scheme = Scheme::Mithril;
/// The most halo2-base advice columns keygen accepts.
const MAX_ADVICE_COLUMNS: usize = 32;
/// The most parties a stakes file may list (mainnet has about 3,000 pools).
pub(crate) const MAX_PARTIES: usize = 1 << 20;
/// The deepest registration tree (2^20 leaves; the native tree holds every leaf, so a depth read
/// from a file is bounded before anything is allocated: found by the `json_files` fuzz target).
pub(crate) const MAX_DEPTH: usize = 20;

/// One party of a stakes or registration file.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct StakeEntry {
    /// Compressed Grumpkin public key.
    pub public_key: String,
    /// Its stake (a positive integer).
    pub stake: u64,
}

/// `stakes.json`: who holds how much stake.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct StakesFile {
    /// Version and scheme.
    #[serde(flatten)]
    pub header: Header,
    /// Parties in registration order.
    pub parties: Vec<StakeEntry>,
}

/// The STM parameters as written in a registration file.
#[derive(Serialize, Deserialize, Debug, Clone, Copy)]
pub struct ParamsEntry {
    /// Lotteries.
    pub m: u64,
    /// Quorum.
    pub k: u64,
    /// `phi_f` as `"num/den"`.
    pub phi_f: PhiFEntry,
}

/// `phi_f` as a fraction `num/den`.
#[derive(Serialize, Deserialize, Debug, Clone, Copy)]
pub struct PhiFEntry {
    /// Numerator.
    pub num: u64,
    /// Denominator.
    pub den: u64,
}

/// `registration.json`: parameters, tree depth and parties; everything the commitment is
/// recomputed from (targets come from the exact eligibility rule).
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct RegistrationFile {
    /// Version and scheme.
    #[serde(flatten)]
    pub header: Header,
    /// `m`, `k`, `phi_f`.
    pub params: ParamsEntry,
    /// Merkle tree depth.
    pub depth: usize,
    /// Parties in registration order.
    pub parties: Vec<StakeEntry>,
}

/// A unique signature and the lottery indices it won.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct SignatureFile {
    /// Version and scheme.
    #[serde(flatten)]
    pub header: Header,
    /// Registration index of the signer.
    pub party: usize,
    /// The message bytes.
    pub message: String,
    /// The signature: `sigma`, the DLEQ proof `(A, B, s)`.
    pub signature: UniqueSignatureEntry,
    /// The won lottery indices, increasing.
    pub indices: Vec<u64>,
    /// A chain certificate's: the digest of the registration the message hands over to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_registration: Option<String>,
    /// A chain certificate's: the epoch the message is for (0: the genesis registration's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub epoch: Option<u64>,
}

/// A unique signature in a file.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct UniqueSignatureEntry {
    /// `sigma = sk H_G(m)`.
    pub sigma: String,
    /// `A = k G`.
    pub a: String,
    /// `B = k H_G(m)`.
    pub b: String,
    /// `s = k + c sk`.
    pub s: String,
}

/// One index slot of a certificate.
#[derive(Serialize, Deserialize, Debug, Clone, Copy)]
pub struct IndexEntry {
    /// The lottery index.
    pub index: u64,
    /// Position of its winner in `signers`.
    pub signer: usize,
}

/// One signer of a certificate.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct SignerEntry {
    /// Registration index.
    pub party: usize,
    /// Its unique signature.
    pub signature: UniqueSignatureEntry,
}

/// `certificate.json` for SNARK-Mithril: `k` index slots over distinct signers.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct CertificateFile {
    /// Version and scheme.
    #[serde(flatten)]
    pub header: Header,
    /// The message bytes.
    pub message: String,
    /// Index slots, strictly increasing indices.
    pub indices: Vec<IndexEntry>,
    /// Signer slots, strictly increasing registration indices.
    pub signers: Vec<SignerEntry>,
    /// A chain certificate's: the digest of the registration the message hands over to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_registration: Option<String>,
    /// A chain certificate's: the epoch the message is for (0: the genesis registration's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub epoch: Option<u64>,
}

fn signature_entry(sig: &UniqueSignature) -> UniqueSignatureEntry {
    UniqueSignatureEntry {
        sigma: point_to_hex(&sig.sigma),
        a: point_to_hex(&sig.a),
        b: point_to_hex(&sig.b),
        s: scalar_to_hex(&sig.s),
    }
}

pub(crate) fn parse_signature(
    e: &UniqueSignatureEntry,
) -> std::result::Result<UniqueSignature, String> {
    Ok(UniqueSignature {
        sigma: grumpkin_from_hex(&e.sigma, "sigma")?,
        a: grumpkin_from_hex(&e.a, "a")?,
        b: grumpkin_from_hex(&e.b, "b")?,
        s: scalar_from_hex(&e.s, "s")?,
    })
}

fn parse_entries(path: &Path, parties: &[StakeEntry]) -> Result<Vec<(VerifyingKey, u64)>> {
    if parties.len() > MAX_PARTIES {
        return Err(at(path, format!("more than {MAX_PARTIES} parties")));
    }
    parties
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let key = grumpkin_from_hex(&p.public_key, &format!("party {i}'s key"))
                .map_err(|e| at(path, e))?;
            Ok((VerifyingKey(key), p.stake))
        })
        .collect()
}

/// Reads a registration file and rebuilds the registration (keys on the curve, positive stakes,
/// no key twice, targets from the exact eligibility rule).
pub fn load_registration(path: &Path) -> Result<Registration> {
    let file: RegistrationFile = read_json(path, SCHEME)?;
    let p = file.params;
    let params = PhiF::new(p.phi_f.num, p.phi_f.den)
        .and_then(|phi_f| Parameters::new(p.m, p.k, phi_f))
        .map_err(|e| at(path, e))?;
    if file.depth > MAX_DEPTH {
        return Err(at(
            path,
            format!("depth {} is above {MAX_DEPTH}", file.depth),
        ));
    }
    let entries = parse_entries(path, &file.parties)?;
    Registration::with_depth(params, &entries, file.depth).map_err(|e| at(path, e))
}

/// `tms committee --scheme mithril`: keys, and a stakes file giving each `stake`.
pub fn committee(
    size: usize,
    seed: Option<u64>,
    stake: u64,
    out: &Path,
    keys_dir: &Path,
) -> Result<()> {
    if stake == 0 {
        return Err(usage("--stake: stakes are positive"));
    }
    let sks = member_keys(SCHEME, size, seed, keys_dir)?;
    let file = StakesFile {
        header: Header::new(SCHEME),
        parties: sks
            .iter()
            .map(|sk| StakeEntry {
                public_key: point_to_hex(&sk.verifying_key().0),
                stake,
            })
            .collect(),
    };
    write_json(out, &file)?;
    println!(
        "{size} parties with stake {stake} each written to {} (secret keys in {}; edit the stakes, then tms register)",
        out.display(),
        keys_dir.display()
    );
    Ok(())
}

/// The parameters of `--preset` or of explicit `--m`, `--k`, `--phi-f num/den`.
pub fn parameters(
    preset: Option<Preset>,
    m: Option<u64>,
    k: Option<u64>,
    phi_f: Option<&str>,
) -> Result<Parameters> {
    match (preset, m, k, phi_f) {
        (Some(Preset::Mainnet), None, None, None) => Ok(Parameters::MAINNET),
        (Some(Preset::Preprod), None, None, None) => Ok(Parameters::PREPROD),
        (None, Some(m), Some(k), Some(phi)) => {
            let (num, den) = phi
                .split_once('/')
                .and_then(|(a, b)| Some((a.trim().parse().ok()?, b.trim().parse().ok()?)))
                .ok_or_else(|| usage("--phi-f: a fraction num/den, e.g. 1/5"))?;
            PhiF::new(num, den)
                .and_then(|phi_f| Parameters::new(m, k, phi_f))
                .map_err(|e| usage(format!("parameters: {e}")))
        }
        _ => Err(usage(
            "give --preset mainnet|preprod, or all of --m, --k and --phi-f",
        )),
    }
}

/// `tms register`: a registration from a stakes file and parameters.
pub fn register(stakes: &Path, params: Parameters, depth: Option<usize>, out: &Path) -> Result<()> {
    let file: StakesFile = read_json(stakes, SCHEME)?;
    let entries = parse_entries(stakes, &file.parties)?;
    let registration = match depth {
        Some(d) if d > MAX_DEPTH => {
            return Err(usage(format!("--depth: {d} is above {MAX_DEPTH}")))
        }
        Some(d) => Registration::with_depth(params, &entries, d),
        None => Registration::new(params, &entries),
    }
    .map_err(|e| match e {
        MithrilError::ZeroStake(_)
        | MithrilError::DuplicateKey(_)
        | MithrilError::EmptyRegistration
        | MithrilError::StakeOverflow => at(stakes, e),
        other => usage(other),
    })?;
    let commitment = registration.commitment();
    let out_file = RegistrationFile {
        header: Header::new(SCHEME),
        params: ParamsEntry {
            m: params.m(),
            k: params.k(),
            phi_f: PhiFEntry {
                num: params.phi_f().num(),
                den: params.phi_f().den(),
            },
        },
        depth: commitment.depth,
        parties: file.parties,
    };
    write_json(out, &out_file)?;
    println!(
        "registration of {} parties (total stake {}, m = {}, k = {}, phi_f = {}/{}, depth {}) \
         written to {}; digest {}",
        registration.parties().len(),
        registration.total_stake(),
        params.m(),
        params.k(),
        params.phi_f().num(),
        params.phi_f().den(),
        commitment.depth,
        out.display(),
        fr_to_hex(&commitment.digest())
    );
    Ok(())
}

/// Where a chain certificate sits: the registration it hands over to and its epoch, counted from
/// the chain's genesis registration (which signs epoch 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HandOver {
    /// The digest of the registration that signs the next epoch.
    pub next: Fr,
    /// The epoch the certificate is for.
    pub epoch: u64,
}

impl std::fmt::Display for HandOver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "epoch {}, next registration {}",
            self.epoch,
            fr_to_hex(&self.next)
        )
    }
}

/// The field element a certificate signs: `message_to_field(message)`, or in a chain the link
/// message `link_message(next, message_to_field(message), epoch)`.
pub fn signed_field(message: &[u8], hand_over: Option<HandOver>) -> Result<Fr> {
    let application = message_to_field(message);
    match hand_over {
        None => Ok(application),
        Some(h) => link_message(h.next, application, h.epoch).map_err(usage),
    }
}

/// A chain certificate's place from the command line: the next registration's digest (from its
/// file) and `--epoch`, both or neither.
pub fn hand_over(next_registration: Option<&Path>, epoch: Option<u64>) -> Result<Option<HandOver>> {
    match (next_registration, epoch) {
        (None, None) => Ok(None),
        (Some(path), Some(epoch)) => Ok(Some(HandOver {
            next: load_registration(path)?.commitment().digest(),
            epoch,
        })),
        (Some(_), None) => Err(usage(
            "--next-registration needs --epoch: the chain epoch the certificate signs for (0 \
             for the genesis registration's)",
        )),
        (None, Some(_)) => Err(usage(
            "--epoch applies to chain certificates (with --next-registration)",
        )),
    }
}

/// A chain certificate's place as its file (at `path`) records it: both fields or neither.
fn parse_hand_over(
    path: &Path,
    next: &Option<String>,
    epoch: Option<u64>,
) -> Result<Option<HandOver>> {
    match (next.as_deref(), epoch) {
        (None, None) => Ok(None),
        (Some(hex), Some(epoch)) => Ok(Some(HandOver {
            next: fr_from_str(hex, "next_registration").map_err(|e| at(path, e))?,
            epoch,
        })),
        (Some(_), None) => Err(at(
            path,
            "a chain certificate without its epoch (made before chain links bound their \
             epoch): sign it again with --epoch",
        )),
        (None, Some(_)) => Err(at(path, "an epoch without a next registration")),
    }
}

/// `tms sign --scheme mithril`: signs and plays the `m` lotteries (in a chain, on the link
/// message to `next_registration`).
pub fn sign(
    registration_path: &Path,
    key: &Path,
    message: &[u8],
    place: Option<HandOver>,
    out: &Path,
) -> Result<()> {
    let registration = load_registration(registration_path)?;
    let sk = load_member(SCHEME, key)?;
    let signer = Signer::new(sk, &registration).map_err(|e| at(key, e))?;
    let m = signed_field(message, place)?;
    match signer.sign(m).map_err(|e| at(key, e))? {
        None => {
            println!(
                "party {} won no lottery index for this message: no signature to send",
                signer.party()
            );
            Ok(())
        }
        Some(sig) => {
            let file = SignatureFile {
                header: Header::new(SCHEME),
                party: sig.party,
                message: bytes_to_hex(message),
                signature: signature_entry(&sig.signature),
                indices: sig.indices.clone(),
                next_registration: place.map(|h| fr_to_hex(&h.next)),
                epoch: place.map(|h| h.epoch),
            };
            write_json(out, &file)?;
            println!(
                "party {} won {} of {} lottery indices; signature written to {}",
                sig.party,
                sig.indices.len(),
                registration.params().m(),
                out.display()
            );
            Ok(())
        }
    }
}

/// `tms certify --scheme mithril`: checks the signatures and aggregates `k` indices.
pub fn certify(
    registration_path: &Path,
    message: &[u8],
    place: Option<HandOver>,
    out: &Path,
    signatures: &[PathBuf],
) -> Result<()> {
    let registration = load_registration(registration_path)?;
    let m = signed_field(message, place)?;
    let mut singles = Vec::with_capacity(signatures.len());
    for path in signatures {
        let file: SignatureFile = read_json(path, SCHEME)?;
        crate::schemes::check_signed_message(path, &file.message, message)?;
        if parse_hand_over(path, &file.next_registration, file.epoch)? != place {
            return Err(at(
                path,
                "signed for another next registration or epoch than --next-registration and \
                 --epoch (or for none)",
            ));
        }
        let signature = parse_signature(&file.signature).map_err(|e| at(path, e))?;
        let single = SingleSignature {
            party: file.party,
            signature,
            indices: file.indices,
        };
        mithril_snark::stm::verify_single(&registration, m, &single).map_err(|e| at(path, e))?;
        singles.push(single);
    }
    let cert = aggregate(&registration, m, &singles).map_err(usage)?;
    let file = CertificateFile {
        header: Header::new(SCHEME),
        message: bytes_to_hex(message),
        indices: cert
            .indices
            .iter()
            .map(|s| IndexEntry {
                index: s.index,
                signer: s.signer,
            })
            .collect(),
        signers: cert
            .signers
            .iter()
            .map(|s| SignerEntry {
                party: s.path.index,
                signature: signature_entry(&s.signature),
            })
            .collect(),
        next_registration: place.map(|h| fr_to_hex(&h.next)),
        epoch: place.map(|h| h.epoch),
    };
    write_json(out, &file)?;
    println!(
        "certificate with {} indices over {} signers written to {}",
        cert.indices.len(),
        cert.signers.len(),
        out.display()
    );
    Ok(())
}

/// Rebuilds a certificate from its file against the registration.
pub(crate) fn load_certificate(
    path: &Path,
    registration: &Registration,
) -> Result<LoadedCertificate> {
    let file: CertificateFile = read_json(path, SCHEME)?;
    let hand_over = parse_hand_over(path, &file.next_registration, file.epoch)?;
    let message = bytes_from_hex(&file.message, "message").map_err(|e| at(path, e))?;
    let signers = file
        .signers
        .iter()
        .map(|s| {
            let party: Party = registration
                .parties()
                .get(s.party)
                .cloned()
                .ok_or_else(|| at(path, format!("party {} is not registered", s.party)))?;
            Ok(SignerSlot {
                party,
                path: registration.path(s.party).map_err(|e| at(path, e))?,
                signature: parse_signature(&s.signature).map_err(|e| at(path, e))?,
            })
        })
        .collect::<Result<Vec<_>>>()?;
    let indices = file
        .indices
        .iter()
        .map(|s| mithril_snark::stm::IndexSlot {
            index: s.index,
            signer: s.signer,
        })
        .collect();
    Ok(LoadedCertificate {
        message,
        certificate: Certificate { indices, signers },
        hand_over,
    })
}

/// A certificate file, read against its registration.
pub(crate) struct LoadedCertificate {
    /// The message bytes (in a chain: the application message).
    pub message: Vec<u8>,
    /// The certificate.
    pub certificate: Certificate,
    /// A chain certificate's place: next registration digest and epoch.
    pub hand_over: Option<HandOver>,
}

/// The quorum a Mithril verifier checks: the registration's `k` (or, holding only the digest,
/// the verifying key's index slots, which the digest binds anyway); `--threshold` and the
/// prover's statement file must agree with it.
pub(crate) fn trusted_quorum(
    args: &VerifyArgs,
    public_quorum: Option<u64>,
    registration_k: Option<u64>,
    key_index_slots: usize,
) -> Result<u64> {
    let (k, whose) = match registration_k {
        Some(k) => (k, "the registration's"),
        None => (key_index_slots as u64, "the verifying key's"),
    };
    if let Some(t) = args.threshold {
        if t != k {
            return Err(usage(format!("--threshold {t}: {whose} quorum is k = {k}")));
        }
    }
    if let (Some(q), Some(path)) = (public_quorum, args.public.as_deref()) {
        if q != k {
            return Err(at(path, format!("quorum {q} differs from {whose} k = {k}")));
        }
    }
    Ok(k)
}

/// What a Mithril verdict says the registration file told (m, parties, total stake), empty for
/// a verifier holding only the digest.
pub(crate) fn registered_details(registered: Option<(u64, usize, u128)>) -> (String, String) {
    registered.map_or_else(Default::default, |(m, parties, stake)| {
        (
            format!(" below m = {m}"),
            format!(" ({parties} parties, total stake {stake})"),
        )
    })
}

/// What a Mithril verifier holds: the registration (or only its digest) and the message.
pub struct MithrilStatement {
    /// The registration digest.
    digest: Fr,
    /// The message field element.
    message: Fr,
    /// The instance of a registration file; `None` for a digest alone.
    instance: Option<MithrilInstance>,
    /// What only the registration file tells: m, the parties and their total stake.
    registered: Option<(u64, usize, u128)>,
}

/// SNARK-Mithril on BN254: Grumpkin unique signatures, Poseidon registration trees.
pub struct MithrilBn254;

impl CertificateScheme for MithrilBn254 {
    type Backend = Bn254;
    const SCHEME: Scheme = SCHEME;
    const TAKES_THRESHOLD: bool = false;
    type Committee = Registration;
    type Shape = MithrilShape;
    type ShapeFile = MithrilShape;
    type Keys = MithrilKeys;
    type Vk = Halo2Vk<G1Affine>;
    type Witness = MithrilWitness;
    type Instance = MithrilStatement;

    fn committee(a: &CommitteeArgs) -> Result<()> {
        committee(a.size, a.seed, a.stake, &a.out, &a.keys_dir)
    }

    fn sign(a: &SignArgs) -> Result<()> {
        let registration = a
            .registration
            .as_deref()
            .ok_or_else(|| usage("--scheme mithril needs --registration"))?;
        sign(
            registration,
            &a.key,
            &a.message,
            hand_over(a.next_registration.as_deref(), a.epoch)?,
            &a.out,
        )
    }

    fn certify(a: &CertifyArgs) -> Result<()> {
        certify(
            &a.committee,
            &a.message,
            hand_over(a.next_registration.as_deref(), a.epoch)?,
            &a.out,
            &a.signatures,
        )
    }

    fn load_committee(path: &Path) -> Result<Registration> {
        load_registration(path)
    }

    // The registration's shape (quorum, depth) is checked by the witness against the key's.
    fn check_committee(_: &Path, _: &Registration, _: &MithrilShape, _: &str) -> Result<()> {
        Ok(())
    }

    /// `--signer-slots` distinct signers (default: the quorum k, at most the number of parties).
    fn keygen_shape(
        registration: &Registration,
        options: &ShapeOptions,
        k: u32,
    ) -> Result<MithrilShape> {
        let quorum = registration.params().k() as usize;
        let shape = MithrilShape {
            signer_slots: options
                .signer_slots
                .unwrap_or(quorum.min(registration.parties().len())),
            index_slots: quorum,
            depth: registration.commitment().depth,
            k,
        };
        shape.validate().map_err(usage)?;
        Ok(shape)
    }

    fn min_k(shape: &MithrilShape) -> Result<Option<u32>> {
        mithril_snark::min_k(shape, MAX_ADVICE_COLUMNS)
            .map(Some)
            .map_err(usage)
    }

    fn k(shape: &MithrilShape) -> u32 {
        shape.k
    }

    fn keygen(params: &ParamsKZG<Bn256>, shape: &MithrilShape, path: &Path) -> Result<MithrilKeys> {
        m_keygen(params, *shape).map_err(|e| at(path, e))
    }

    fn key_files(keys: &MithrilKeys) -> (Vec<u8>, Vec<u8>) {
        (keys.pk_bytes(), keys.vk_bytes())
    }

    fn describe_keys(keys: &MithrilKeys) -> String {
        format!(
            "quorum {}, {} signer slots, depth {} ({})",
            keys.shape.index_slots, keys.shape.signer_slots, keys.shape.depth, keys.stats
        )
    }

    fn read_pk(path: &Path) -> Result<MithrilKeys> {
        MithrilKeys::from_pk_bytes(&read_bytes(path)?).map_err(|e| at(path, e))
    }

    fn keys_shape(keys: &MithrilKeys) -> &MithrilShape {
        &keys.shape
    }

    fn read_vk(path: &Path, bytes: &[u8]) -> Result<(MithrilShape, Halo2Vk<G1Affine>)> {
        read_vk(bytes).map_err(|e| at(path, e))
    }

    fn regenerate_vk(
        params: &ParamsKZG<Bn256>,
        shape: &MithrilShape,
        path: &Path,
    ) -> Result<Vec<u8>> {
        m_keygen(params, *shape)
            .map(|k| k.vk_bytes())
            .map_err(|e| at(path, e))
    }

    fn witness(
        shape: &MithrilShape,
        registration: &Registration,
        certificate_path: &Path,
        _: Option<u64>,
    ) -> Result<(MithrilWitness, PublicFile<MithrilShape>)> {
        let LoadedCertificate {
            message,
            certificate: cert,
            hand_over,
        } = load_certificate(certificate_path, registration)?;
        if hand_over.is_some() {
            return Err(at(
                certificate_path,
                "a chain certificate (it binds a next registration): prove chains with `tms \
                 chain prove`",
            ));
        }
        let instance = MithrilInstance {
            commitment: registration.commitment(),
            message: message_to_field(&message),
        };
        // The native verifier first: a bad certificate fails here with its reason.
        native_verify(&instance.commitment, instance.message, &cert)
            .map_err(|e| at(certificate_path, e))?;
        let witness =
            MithrilWitness::new(*shape, instance, &cert).map_err(|e| at(certificate_path, e))?;
        let public = PublicFile::new(
            SCHEME,
            *shape,
            &instance.commitment.digest(),
            &message,
            registration.params().k(),
        );
        Ok((witness, public))
    }

    fn prove(
        params: &ParamsKZG<Bn256>,
        keys: &MithrilKeys,
        witness: &MithrilWitness,
        transcript: Transcript,
    ) -> std::result::Result<Vec<u8>, String> {
        prove_with_transcript(params, keys, witness, transcript).map_err(|e| e.to_string())
    }

    fn public_inputs(witness: &MithrilWitness) -> Vec<Fr> {
        witness.instance.to_public_inputs()
    }

    fn trusted(
        shape: &MithrilShape,
        args: &VerifyArgs,
        public: Option<&PublicFile<MithrilShape>>,
    ) -> Result<Trusted<Self>> {
        let (registration, digest) =
            match (&args.committee, &args.commitment) {
                (Some(path), None) => {
                    let registration = load_registration(path)?;
                    let digest = registration.commitment().digest();
                    (Some(registration), digest)
                }
                (None, Some(hex)) => (None, fr_from_str(hex, "--commitment").map_err(usage)?),
                _ => return Err(usage(
                    "give the trusted --committee registration.json or its --commitment (digest)",
                )),
            };
        let k = trusted_quorum(
            args,
            public.map(|p| p.threshold),
            registration.as_ref().map(|r| r.params().k()),
            shape.index_slots,
        )?;
        let message = message_to_field(&args.message);
        Ok(Trusted {
            public: PublicFile::new(SCHEME, *shape, &digest, &args.message, k),
            instance: MithrilStatement {
                digest,
                message,
                instance: registration
                    .as_ref()
                    .map(|r| MithrilInstance::from_trusted(r, &args.message)),
                registered: registration
                    .as_ref()
                    .map(|r| (r.params().m(), r.parties().len(), r.total_stake() as u128)),
            },
        })
    }

    fn verify(
        params: &ParamsKZG<Bn256>,
        shape: &MithrilShape,
        vk: &Halo2Vk<G1Affine>,
        statement: &MithrilStatement,
        proof: &[u8],
        transcript: Transcript,
    ) -> Verdict {
        match &statement.instance {
            Some(instance) => mithril_snark::prover::verify_with_vk(
                params, shape, vk, instance, proof, transcript,
            ),
            None => mithril_snark::prover::verify_digest_with_vk(
                params,
                vk,
                statement.digest,
                statement.message,
                proof,
                transcript,
            ),
        }
        .map_err(|e| match e {
            MithrilError::ProofRejected => Rejection::Proof,
            other => Rejection::Other(usage(other)),
        })
    }

    fn wrap_program(
        params: &ParamsKZG<Bn256>,
        vk: &Halo2Vk<G1Affine>,
        statement: &MithrilStatement,
        proof: &[u8],
    ) -> Option<Result<(tms_evm::groth16::Program, tms_evm::groth16::ProgramWitness)>> {
        Some(crate::backends::bn254::wrap_program(
            params,
            vk,
            &MithrilInstance::public_inputs(statement.digest, statement.message),
            proof,
            tms_evm::certificate::StatementKind::Mithril,
            "SNARK-Mithril certificate (BN254, Poseidon transcript): [registration, m]",
        ))
    }

    fn wrap_words(statement: &MithrilStatement) -> Option<Vec<num_bigint::BigUint>> {
        Some(crate::backends::bn254::wrap_words(
            &MithrilInstance::public_inputs(statement.digest, statement.message),
        ))
    }

    fn verdict(_: &MithrilShape, trusted: &Trusted<Self>, args: &VerifyArgs) -> String {
        let (below_m, registered) = registered_details(trusted.instance.registered);
        format!(
            "verified (mithril): {} distinct lottery indices{below_m} won by registered parties \
             signed {}; registration digest {}{registered}",
            trusted.public.threshold,
            describe_message(&args.message, &trusted.instance.message),
            trusted.public.commitment,
        )
    }

    /// 8 parties on preprod parameters (m = 100, k = 5, phi_f = 0.7).
    fn demo_certificate() -> Result<DemoCertificate<Self>> {
        let err = |e: MithrilError| CliError(e.to_string());
        let example = mithril_snark::example_certificate(Parameters::PREPROD, 8, None, 2026, false)
            .map_err(err)?;
        let witness = example.witness(4).map_err(err)?;
        let shape = witness.shape;
        let registration = &example.registration;
        let digest = registration.commitment().digest();
        let description = vec![
            format!(
                "registration: 8 parties, preprod parameters (m = 100, k = 5, phi_f = 0.7), \
                 digest {}",
                fr_to_hex(&digest)
            ),
            format!(
                "certificate: {} indices over {} signers",
                example.certificate.indices.len(),
                example.certificate.signers.len()
            ),
        ];
        let instance = MithrilInstance {
            commitment: registration.commitment(),
            message: example.message,
        };
        Ok(DemoCertificate {
            shape,
            witness,
            trusted: Trusted {
                public: PublicFile {
                    header: Header::new(SCHEME),
                    shape,
                    commitment: fr_to_hex(&digest),
                    message: fr_to_hex(&example.message),
                    threshold: registration.params().k(),
                },
                instance: MithrilStatement {
                    digest,
                    message: example.message,
                    instance: Some(instance),
                    registered: None,
                },
            },
            description,
        })
    }

    fn describe_circuit(keys: &MithrilKeys) -> String {
        keys.stats.to_string()
    }
}
