//! SNARK-Mithril: its files on every backend (stakes, registration, signatures, certificates),
//! `tms committee`, `register`, `sign`, `certify` and the verifier's statement written once over
//! [`MithrilFiles`], and the scheme on BN254/Grumpkin ([`bn254`]) and on Cardano's
//! BLS12-381/Jubjub ([`cardano`]); mithril-stm 0.13's own files on Cardano ([`stm`],
//! `--format mithril-stm`).

pub mod bn254;
pub mod cardano;
pub mod stm;

use std::path::Path;

use mithril_snark::Parameters;
use serde::{Deserialize, Serialize};

use super::check_signed_message;
use crate::{
    formats::{bytes_to_hex, Header},
    interface::{
        CertificateScheme, CertifyArgs, CommitteeArgs, ProvingBackend, SignArgs, VerifyArgs,
    },
    io::{at, read_json_on, usage, write_json, Result},
};

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

/// What a registration tells beyond its digest.
pub struct Registered {
    /// `m`, `k`, `phi_f`.
    pub params: Parameters,
    /// How many parties registered.
    pub parties: usize,
    /// Their total stake.
    pub total_stake: u128,
    /// The registration tree's depth.
    pub depth: usize,
}

/// A registration refused: the text, and whether the stakes are at fault (else the options).
pub struct Refused {
    /// What is wrong.
    pub text: String,
    /// The stakes file's fault (a zero stake, a key twice), not the command line's.
    pub by_stakes: bool,
}

/// What a party's lotteries gave for a message.
pub enum Played<S> {
    /// No index won: who played (`party 3`).
    Lost(String),
    /// The party's unique signature and the indices it won.
    Won {
        /// Registration index.
        party: usize,
        /// The unique signature.
        signature: S,
        /// The won indices, increasing.
        indices: Vec<u64>,
    },
}

/// A backend's side of SNARK-Mithril's files: how its keys, signatures and registration digests
/// are written, and its native calls (register, play the lotteries, check single signatures,
/// aggregate). `tms committee`, `register`, `sign`, `certify`, reading certificates and the
/// verifier's statement are written once over it.
pub trait MithrilFiles: CertificateScheme {
    /// A party's public key.
    type Key;
    /// A unique signature.
    type Signature;
    /// A single signature: a party's unique signature with the indices it won.
    type Single;
    /// A certificate: index slots over signer slots.
    type Certificate;
    /// The field of the message and of the registration digest.
    type Field: Copy;
    /// The circuit's statement for a registration and message.
    type Statement;
    /// A chain certificate's place (what it hands over to); uninhabited on a backend without
    /// chains.
    type Place: Copy + PartialEq;
    /// What `tms committee` calls the member key files it writes.
    const KEYS: &'static str;

    /// Makes `a.size` member keys, writes their files; the public keys (hex).
    fn member_keys(a: &CommitteeArgs) -> Result<Vec<String>>;
    /// Parses a public key (hex).
    fn parse_key(hex: &str, what: &str) -> std::result::Result<Self::Key, String>;
    /// A unique signature's `sigma`, `A`, `B`, `s` (hex).
    fn signature_hex(signature: &Self::Signature) -> [String; 4];
    /// Parses a unique signature.
    fn parse_signature(e: &UniqueSignatureEntry) -> std::result::Result<Self::Signature, String>;
    /// The registration of `entries` under `params`, of `depth` (else the least that holds them).
    fn registration(
        params: Parameters,
        entries: &[(Self::Key, u64)],
        depth: Option<usize>,
    ) -> std::result::Result<Self::Committee, Refused>;
    /// What a registration tells beyond its digest.
    fn registered(registration: &Self::Committee) -> Registered;
    /// The registration's digest.
    fn digest(registration: &Self::Committee) -> Self::Field;
    /// A field element (hex).
    fn field_hex(x: &Self::Field) -> String;
    /// Parses a field element (hex).
    fn parse_field(hex: &str, what: &str) -> std::result::Result<Self::Field, String>;
    /// The statement for a registration and the message bytes.
    fn statement(registration: &Self::Committee, message: &[u8]) -> Self::Statement;
    /// How a verdict names the message bytes and their field element.
    fn describe_message(message: &[u8], field: &Self::Field) -> String;
    /// A chain certificate's place from `--next-registration` and `--epoch`.
    fn place(next: Option<&Path>, epoch: Option<u64>) -> Result<Option<Self::Place>>;
    /// A place as a file records it (next registration digest, epoch).
    fn place_entries(place: Option<Self::Place>) -> (Option<String>, Option<u64>);
    /// A place as the file at `path` (a `what`: signature, certificate) records it.
    fn file_place(
        path: &Path,
        what: &str,
        next: Option<&str>,
        epoch: Option<u64>,
    ) -> Result<Option<Self::Place>>;
    /// The field element signed for `message` at `place`.
    fn signed_field(message: &[u8], place: Option<Self::Place>) -> Result<Self::Field>;
    /// Plays the lotteries of the party whose key file is `key` for `m`.
    fn play(
        key: &Path,
        registration: &Self::Committee,
        m: Self::Field,
    ) -> Result<Played<Self::Signature>>;
    /// A party's single signature, checked against the registration and `m`.
    fn verify_single(
        registration: &Self::Committee,
        m: Self::Field,
        party: usize,
        signature: Self::Signature,
        indices: Vec<u64>,
    ) -> std::result::Result<Self::Single, String>;
    /// The certificate of `k` indices the aggregator picks from `singles`.
    fn aggregate(
        registration: &Self::Committee,
        m: Self::Field,
        singles: &[Self::Single],
    ) -> std::result::Result<Self::Certificate, String>;
    /// A certificate's index slots and its signers (registration index, signature).
    fn certificate_parts(
        certificate: &Self::Certificate,
    ) -> (Vec<IndexEntry>, Vec<(usize, &Self::Signature)>);
    /// The certificate of these slots, each signer's path from the registration (every party
    /// is registered).
    fn certificate(
        registration: &Self::Committee,
        indices: &[IndexEntry],
        signers: Vec<(usize, Self::Signature)>,
    ) -> std::result::Result<Self::Certificate, String>;
}

/// The calls of [`MithrilFiles`] into a circuit crate (`mithril_snark` or `mithril_jubjub`,
/// whose `Registration`, `Signer`, `SingleSignature`, `Certificate`, `IndexSlot`,
/// `verify_single` and `aggregate` are `mithril_core::stm`'s over its curve), written once. The
/// module names its `SigningKey`, `load_member`, `by_stakes` (whether a registration error is
/// the stakes file's), `point_from_hex`, `point_to_hex`, `scalar_from_hex`, `scalar_to_hex` and
/// `NativeStm`, its [`mithril_core::stm::Stm`] (how a signer slot is made and placed).
macro_rules! native_calls {
    () => {
        type Key = VerifyingKey;
        type Signature = UniqueSignature;
        type Single = SingleSignature;
        type Certificate = Certificate;
        type Statement = MithrilInstance;

        fn member_keys(a: &CommitteeArgs) -> Result<Vec<String>> {
            let sks = crate::io::member_keys::<SigningKey>(SCHEME, a.size, a.seed, &a.keys_dir)?;
            Ok(sks
                .iter()
                .map(|sk| point_to_hex(&sk.verifying_key().0))
                .collect())
        }

        fn parse_key(hex: &str, what: &str) -> std::result::Result<VerifyingKey, String> {
            point_from_hex(hex, what).map(VerifyingKey)
        }

        fn signature_hex(sig: &UniqueSignature) -> [String; 4] {
            let [sigma, a, b] = [&sig.sigma, &sig.a, &sig.b].map(point_to_hex);
            [sigma, a, b, scalar_to_hex(&sig.s)]
        }

        fn parse_signature(
            e: &super::UniqueSignatureEntry,
        ) -> std::result::Result<UniqueSignature, String> {
            Ok(UniqueSignature {
                sigma: point_from_hex(&e.sigma, "sigma")?,
                a: point_from_hex(&e.a, "a")?,
                b: point_from_hex(&e.b, "b")?,
                s: scalar_from_hex(&e.s, "s")?,
            })
        }

        fn play(
            key: &Path,
            registration: &Registration,
            m: Self::Field,
        ) -> Result<super::Played<UniqueSignature>> {
            let signer =
                Signer::new(load_member(SCHEME, key)?, registration).map_err(|e| at(key, e))?;
            Ok(match signer.sign(m).map_err(|e| at(key, e))? {
                None => super::Played::Lost(format!("party {}", signer.party())),
                Some(s) => super::Played::Won {
                    party: s.party,
                    signature: s.signature,
                    indices: s.indices,
                },
            })
        }

        fn registration(
            params: Parameters,
            entries: &[(VerifyingKey, u64)],
            depth: Option<usize>,
        ) -> std::result::Result<Registration, super::Refused> {
            match depth {
                Some(d) => Registration::with_depth(params, entries, d),
                None => Registration::new(params, entries),
            }
            .map_err(|e| super::Refused {
                by_stakes: by_stakes(&e),
                text: e.to_string(),
            })
        }

        fn registered(r: &Registration) -> super::Registered {
            super::Registered {
                params: r.params(),
                parties: r.parties().len(),
                total_stake: r.total_stake().into(),
                depth: r.commitment().depth,
            }
        }

        fn digest(r: &Registration) -> Self::Field {
            r.commitment().digest()
        }

        fn statement(r: &Registration, message: &[u8]) -> MithrilInstance {
            MithrilInstance::from_trusted(r, message)
        }

        fn verify_single(
            registration: &Registration,
            m: Self::Field,
            party: usize,
            signature: UniqueSignature,
            indices: Vec<u64>,
        ) -> std::result::Result<SingleSignature, String> {
            let single = SingleSignature {
                party,
                signature,
                indices,
            };
            verify_single(registration, m, &single).map_err(|e| e.to_string())?;
            Ok(single)
        }

        fn aggregate(
            registration: &Registration,
            m: Self::Field,
            singles: &[SingleSignature],
        ) -> std::result::Result<Certificate, String> {
            aggregate(registration, m, singles).map_err(|e| e.to_string())
        }

        fn certificate_parts(
            c: &Certificate,
        ) -> (Vec<super::IndexEntry>, Vec<(usize, &UniqueSignature)>) {
            let index = |s: &IndexSlot| super::IndexEntry {
                index: s.index,
                signer: s.signer,
            };
            let signers = c.signers.iter().map(|s| {
                let (position, _, signature) = <NativeStm as mithril_core::stm::Stm>::slot_parts(s);
                (position, signature)
            });
            (c.indices.iter().map(index).collect(), signers.collect())
        }

        fn certificate(
            registration: &Registration,
            indices: &[super::IndexEntry],
            signers: Vec<(usize, UniqueSignature)>,
        ) -> std::result::Result<Certificate, String> {
            let signers = signers
                .into_iter()
                .map(|(position, signature)| {
                    <NativeStm as mithril_core::stm::Stm>::signer_slot(
                        registration,
                        position,
                        signature,
                    )
                    .map_err(|e| e.to_string())
                })
                .collect::<std::result::Result<Vec<_>, String>>()?;
            let index = |s: &super::IndexEntry| IndexSlot {
                index: s.index,
                signer: s.signer,
            };
            Ok(Certificate {
                indices: indices.iter().map(index).collect(),
                signers,
            })
        }
    };
}
use native_calls;

/// The calls of [`CertificateScheme`] every Mithril pair makes the same way over
/// [`MithrilFiles`], written once: `committee`, `sign`, `certify`, the registration as the
/// committee, the keygen shape, the witness of a certificate file (refusing a chain's), the
/// trusted statement (the module's `public_file` writes it) and the verdict.
macro_rules! scheme_calls {
    () => {
        fn committee(a: &CommitteeArgs) -> Result<()> {
            super::committee::<Self>(a)
        }

        fn sign(a: &SignArgs) -> Result<()> {
            super::sign::<Self>(a)
        }

        fn certify(a: &CertifyArgs) -> Result<()> {
            super::certify::<Self>(a)
        }

        fn load_committee(path: &Path) -> Result<Registration> {
            super::load_registration::<Self>(path)
        }

        // The registration's quorum and depth are checked by the witness against the key's shape.
        fn check_committee(_: &Path, _: &Registration, _: &MithrilShape, _: &str) -> Result<()> {
            Ok(())
        }

        /// `--signer-slots` distinct signers (default: the quorum k, at most the number of
        /// parties).
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

        fn k(shape: &MithrilShape) -> u32 {
            shape.k
        }

        fn keys_shape(keys: &MithrilKeys) -> &MithrilShape {
            &keys.shape
        }

        fn witness(
            shape: &MithrilShape,
            registration: &Registration,
            certificate_path: &Path,
            _: Option<u64>,
        ) -> Result<(MithrilWitness, PublicFile<Self::ShapeFile>)> {
            let loaded = super::load_certificate::<Self>(certificate_path, registration)?;
            if loaded.hand_over.is_some() {
                return Err(at(
                    certificate_path,
                    "a chain certificate (it binds a next registration): prove chains with `tms \
                     chain prove`",
                ));
            }
            let (message, cert) = (loaded.message, loaded.certificate);
            let instance = MithrilInstance::from_trusted(registration, &message);
            // The native verifier first: a bad certificate fails here with its reason.
            native_verify(&instance.commitment, instance.message, &cert)
                .map_err(|e| at(certificate_path, e))?;
            let witness = MithrilWitness::new(*shape, instance, &cert)
                .map_err(|e| at(certificate_path, e))?;
            let quorum = registration.params().k();
            let public = public_file(shape, &instance.commitment.digest(), &message, quorum);
            Ok((witness, public))
        }

        fn public_inputs(witness: &MithrilWitness) -> Vec<<Self as super::MithrilFiles>::Field> {
            witness.instance.to_public_inputs()
        }

        fn trusted(
            shape: &MithrilShape,
            args: &VerifyArgs,
            public: Option<&PublicFile<Self::ShapeFile>>,
        ) -> Result<Trusted<Self>> {
            let (k, statement) = super::trusted_statement::<Self>(
                args,
                public.map(|p| p.threshold),
                shape.index_slots,
            )?;
            Ok(Trusted {
                public: public_file(shape, &statement.digest, &args.message, k),
                instance: statement,
            })
        }

        fn verdict(_: &MithrilShape, trusted: &Trusted<Self>, args: &VerifyArgs) -> String {
            let public = &trusted.public;
            super::verdict(
                public.threshold,
                &public.commitment,
                &trusted.instance,
                &args.message,
            )
        }
    };
}
use scheme_calls;

fn header<S: MithrilFiles>() -> Header {
    Header::on(S::SCHEME, S::Backend::TAG)
}

fn read_json<S: MithrilFiles, T: serde::de::DeserializeOwned>(path: &Path) -> Result<T> {
    read_json_on(path, S::SCHEME, S::Backend::TAG)
}

/// `--backend TAG` for the lines that tell a user what to run next (empty on BN254).
fn backend_option<S: MithrilFiles>() -> String {
    S::Backend::TAG.map_or(String::new(), |tag| format!(" --backend {tag}"))
}

fn signature_entry<S: MithrilFiles>(signature: &S::Signature) -> UniqueSignatureEntry {
    let [sigma, a, b, s] = S::signature_hex(signature);
    UniqueSignatureEntry { sigma, a, b, s }
}

fn parse_entries<S: MithrilFiles>(
    path: &Path,
    parties: &[StakeEntry],
) -> Result<Vec<(S::Key, u64)>> {
    if parties.len() > MAX_PARTIES {
        return Err(at(path, format!("more than {MAX_PARTIES} parties")));
    }
    parties
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let key = S::parse_key(&p.public_key, &format!("party {i}'s key"))
                .map_err(|e| at(path, e))?;
            Ok((key, p.stake))
        })
        .collect()
}

/// Reads a registration file and rebuilds the registration (keys valid, positive stakes, no key
/// twice, targets from the exact eligibility rule at the backend's field modulus).
pub fn load_registration<S: MithrilFiles>(path: &Path) -> Result<S::Committee> {
    let file: RegistrationFile = read_json::<S, _>(path)?;
    let p = file.params;
    let params = mithril_snark::PhiF::new(p.phi_f.num, p.phi_f.den)
        .and_then(|phi_f| Parameters::new(p.m, p.k, phi_f))
        .map_err(|e| at(path, e))?;
    if file.depth > MAX_DEPTH {
        return Err(at(
            path,
            format!("depth {} is above {MAX_DEPTH}", file.depth),
        ));
    }
    let entries = parse_entries::<S>(path, &file.parties)?;
    S::registration(params, &entries, Some(file.depth)).map_err(|e| at(path, e.text))
}

/// `tms committee --scheme mithril`: keys, and a stakes file giving each `--stake`.
pub fn committee<S: MithrilFiles>(a: &CommitteeArgs) -> Result<()> {
    if a.stake == 0 {
        return Err(usage("--stake: stakes are positive"));
    }
    let keys = S::member_keys(a)?;
    let file = StakesFile {
        header: header::<S>(),
        parties: keys
            .into_iter()
            .map(|public_key| StakeEntry {
                public_key,
                stake: a.stake,
            })
            .collect(),
    };
    write_json(&a.out, &file)?;
    println!(
        "{} parties with stake {} each written to {} ({} keys in {}; edit the stakes, then tms \
         register{})",
        a.size,
        a.stake,
        a.out.display(),
        S::KEYS,
        a.keys_dir.display(),
        backend_option::<S>()
    );
    Ok(())
}

/// `tms register`: a registration from a stakes file and parameters.
pub fn register<S: MithrilFiles>(
    stakes: &Path,
    params: Parameters,
    depth: Option<usize>,
    out: &Path,
) -> Result<()> {
    let file: StakesFile = read_json::<S, _>(stakes)?;
    let entries = parse_entries::<S>(stakes, &file.parties)?;
    if let Some(d) = depth.filter(|&d| d > MAX_DEPTH) {
        return Err(usage(format!("--depth: {d} is above {MAX_DEPTH}")));
    }
    let registration = S::registration(params, &entries, depth).map_err(|e| match e.by_stakes {
        true => at(stakes, e.text),
        false => usage(e.text),
    })?;
    let registered = S::registered(&registration);
    write_json(
        out,
        &RegistrationFile {
            header: header::<S>(),
            params: ParamsEntry {
                m: params.m(),
                k: params.k(),
                phi_f: PhiFEntry {
                    num: params.phi_f().num(),
                    den: params.phi_f().den(),
                },
            },
            depth: registered.depth,
            parties: file.parties,
        },
    )?;
    let backend = S::Backend::TAG.map_or(String::new(), |tag| format!(", {tag} backend"));
    println!(
        "registration of {} parties (total stake {}, m = {}, k = {}, phi_f = {}/{}, depth \
         {}{backend}) written to {}; digest {}",
        registered.parties,
        registered.total_stake,
        params.m(),
        params.k(),
        params.phi_f().num(),
        params.phi_f().den(),
        registered.depth,
        out.display(),
        S::field_hex(&S::digest(&registration))
    );
    Ok(())
}

/// `tms sign --scheme mithril`: signs and plays the `m` lotteries (in a chain, on the link
/// message to the next registration).
pub fn sign<S: MithrilFiles>(a: &SignArgs) -> Result<()> {
    let place = S::place(a.next_registration.as_deref(), a.epoch)?;
    let registration_path = a
        .registration
        .as_deref()
        .ok_or_else(|| usage("--scheme mithril needs --registration"))?;
    let registration = load_registration::<S>(registration_path)?;
    let m = S::signed_field(&a.message, place)?;
    let (party, signature, indices) = match S::play(&a.key, &registration, m)? {
        Played::Lost(who) => {
            println!("{who} won no lottery index for this message: no signature to send");
            return Ok(());
        }
        Played::Won {
            party,
            signature,
            indices,
        } => (party, signature, indices),
    };
    let (next_registration, epoch) = S::place_entries(place);
    write_json(
        &a.out,
        &SignatureFile {
            header: header::<S>(),
            party,
            message: bytes_to_hex(&a.message),
            signature: signature_entry::<S>(&signature),
            indices: indices.clone(),
            next_registration,
            epoch,
        },
    )?;
    println!(
        "party {party} won {} of {} lottery indices; signature written to {}",
        indices.len(),
        S::registered(&registration).params.m(),
        a.out.display()
    );
    Ok(())
}

/// `tms certify --scheme mithril`: checks the signatures and aggregates `k` indices.
pub fn certify<S: MithrilFiles>(a: &CertifyArgs) -> Result<()> {
    let place = S::place(a.next_registration.as_deref(), a.epoch)?;
    let registration = load_registration::<S>(&a.committee)?;
    let m = S::signed_field(&a.message, place)?;
    let mut singles = Vec::with_capacity(a.signatures.len());
    for path in &a.signatures {
        let file: SignatureFile = read_json::<S, _>(path)?;
        check_signed_message(path, &file.message, &a.message)?;
        let signed_place = S::file_place(
            path,
            "signature",
            file.next_registration.as_deref(),
            file.epoch,
        )?;
        if signed_place != place {
            return Err(at(
                path,
                "signed for another next registration or epoch than --next-registration and \
                 --epoch (or for none)",
            ));
        }
        let signature = S::parse_signature(&file.signature).map_err(|e| at(path, e))?;
        let single = S::verify_single(&registration, m, file.party, signature, file.indices)
            .map_err(|e| at(path, e))?;
        singles.push(single);
    }
    let certificate = S::aggregate(&registration, m, &singles).map_err(usage)?;
    let (indices, signers) = S::certificate_parts(&certificate);
    let (next_registration, epoch) = S::place_entries(place);
    let file = CertificateFile {
        header: header::<S>(),
        message: bytes_to_hex(&a.message),
        indices,
        signers: signers
            .into_iter()
            .map(|(party, signature)| SignerEntry {
                party,
                signature: signature_entry::<S>(signature),
            })
            .collect(),
        next_registration,
        epoch,
    };
    write_json(&a.out, &file)?;
    println!(
        "certificate with {} indices over {} signers written to {}",
        file.indices.len(),
        file.signers.len(),
        a.out.display()
    );
    Ok(())
}

/// A certificate file, read against its registration.
pub(crate) struct LoadedCertificate<S: MithrilFiles> {
    /// The message bytes (in a chain: the application message).
    pub message: Vec<u8>,
    /// The certificate.
    pub certificate: S::Certificate,
    /// A chain certificate's place (on BN254: its next registration digest and epoch).
    pub hand_over: Option<S::Place>,
}

/// Rebuilds a certificate from its file against the registration.
pub(crate) fn load_certificate<S: MithrilFiles>(
    path: &Path,
    registration: &S::Committee,
) -> Result<LoadedCertificate<S>> {
    let file: CertificateFile = read_json::<S, _>(path)?;
    let place = S::file_place(
        path,
        "certificate",
        file.next_registration.as_deref(),
        file.epoch,
    )?;
    let message =
        crate::formats::bytes_from_hex(&file.message, "message").map_err(|e| at(path, e))?;
    let parties = S::registered(registration).parties;
    let signers = file
        .signers
        .iter()
        .map(|s| {
            if s.party >= parties {
                return Err(at(path, format!("party {} is not registered", s.party)));
            }
            Ok((
                s.party,
                S::parse_signature(&s.signature).map_err(|e| at(path, e))?,
            ))
        })
        .collect::<Result<Vec<_>>>()?;
    let certificate =
        S::certificate(registration, &file.indices, signers).map_err(|e| at(path, e))?;
    Ok(LoadedCertificate {
        message,
        certificate,
        hand_over: place,
    })
}

/// What a Mithril verifier holds: the registration (or only its digest) and the message.
pub struct MithrilStatement<S: MithrilFiles> {
    /// The registration digest.
    pub(crate) digest: S::Field,
    /// The message field element.
    pub(crate) message: S::Field,
    /// The statement of a registration file; `None` for a digest alone.
    pub(crate) statement: Option<S::Statement>,
    /// What only the registration file tells: m, the parties and their total stake.
    pub(crate) registered: Option<(u64, usize, u128)>,
}

/// The trusted registration of `--committee` (also returned) or the digest of `--commitment`.
pub(crate) fn trusted_registration<S: MithrilFiles>(
    committee: Option<&Path>,
    commitment: Option<&str>,
) -> Result<(Option<S::Committee>, S::Field)> {
    let of_file = |path: &Path| -> Result<(Option<S::Committee>, S::Field)> {
        let registration = load_registration::<S>(path)?;
        let digest = S::digest(&registration);
        Ok((Some(registration), digest))
    };
    let parse = |hex: &str, what: &str| S::parse_field(hex, what).map(|digest| (None, digest));
    super::trusted_commitment(
        (committee, commitment),
        of_file,
        parse,
        "give the trusted --committee registration.json or its --commitment (digest)",
    )
}

/// The quorum and the statement a verifier builds from what it holds (`--committee` or
/// `--commitment`, the message), for a key of `index_slots`; `public_quorum` is the prover's
/// statement file's.
pub(crate) fn trusted_statement<S: MithrilFiles>(
    args: &VerifyArgs,
    public_quorum: Option<u64>,
    index_slots: usize,
) -> Result<(u64, MithrilStatement<S>)> {
    let (registration, digest) =
        trusted_registration::<S>(args.committee.as_deref(), args.commitment.as_deref())?;
    let registered = registration.as_ref().map(S::registered);
    let k = trusted_quorum(
        args,
        public_quorum,
        registered.as_ref().map(|r| r.params.k()),
        index_slots,
    )?;
    let statement = MithrilStatement {
        digest,
        message: S::signed_field(&args.message, None)?,
        statement: registration
            .as_ref()
            .map(|r| S::statement(r, &args.message)),
        registered: registered.map(|r| (r.params.m(), r.parties, r.total_stake)),
    };
    Ok((k, statement))
}

/// The verdict of a Mithril certificate on this backend.
pub(crate) fn verdict<S: MithrilFiles>(
    quorum: u64,
    commitment: &str,
    statement: &MithrilStatement<S>,
    message: &[u8],
) -> String {
    let (below_m, registered) = registered_details(statement.registered);
    let backend = S::Backend::TAG.map_or(String::new(), |tag| format!(", {tag}"));
    format!(
        "verified (mithril{backend}): {quorum} distinct lottery indices{below_m} won by \
         registered parties signed {}; registration digest {commitment}{registered}",
        S::describe_message(message, &statement.message),
    )
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
