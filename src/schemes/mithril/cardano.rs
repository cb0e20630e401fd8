//! SNARK-Mithril on the Cardano backend (`--scheme mithril --backend cardano`; crate
//! `mithril-jubjub`: Jubjub unique signatures, Poseidon registration trees over BLS12-381's
//! scalar field): its files and its side of the tool's one interface ([`MithrilCardano`]).
//!
//! The files are the BN254 Mithril ones ([`super::bn254`]'s stakes, registration, signature and
//! certificate shapes) with a `cardano` header and Jubjub encodings (a point: 32-byte compressed;
//! a scalar: 32-byte little-endian `to_repr`; a BLS12-381 field element: `0x` + 64 hex digits,
//! big-endian). Certificate chains stay on BN254 (`tms chain`).

use std::path::Path;

use midnight_proofs::poly::{commitment::Params as _, kzg::params::ParamsKZG};
use mithril_jubjub::{
    aggregate,
    native::{
        message_to_field, verify as native_verify, verify_single, Base, IndexSlot, SignerSlot,
        SigningKey, UniqueSignature, VerifyingKey,
    },
    prover::{self, MithrilKeys},
    Certificate, MithrilCircuit, MithrilError, MithrilInstance, MithrilShape, MithrilWitness,
    Parameters, PhiF, Registration, Signer, SingleSignature,
};
use rand::{rngs::OsRng, SeedableRng};
use rand_chacha::ChaCha20Rng;
use serde::{Deserialize, Serialize};
use tms_cardano::backend::{Bls12, Vk};
use tms_gadgets::proving::Transcript;

use crate::backends::cardano::{
    base_from_hex, base_to_hex, key_file_pk, key_file_vk, load_member_of, load_params, member_keys,
    point_from_hex, point_to_hex, print_plutus_budgets, read_key_file_pk, read_key_file_vk,
    scalar_from_hex, scalar_to_hex, write_plutus_export, Cardano, ExportPlutusArgs, BACKEND,
};
use crate::checks::{check_params_k, describe_message_bytes};
use crate::interface::VerifyArgs;
use crate::schemes::check_signed_message;
use crate::schemes::mithril::bn254::{registered_details, trusted_quorum};
use crate::schemes::mithril::bn254::{
    CertificateFile, IndexEntry, ParamsEntry, PhiFEntry, RegistrationFile, SignatureFile,
    SignerEntry, StakeEntry, StakesFile, UniqueSignatureEntry, MAX_DEPTH, MAX_PARTIES,
};
use crate::{
    formats::{bytes_from_hex, bytes_to_hex, Header, PublicFile},
    interface::{
        CertificateScheme, CertifyArgs, CommitteeArgs, DemoCertificate, Rejection, ShapeOptions,
        SignArgs, Trusted, Verdict,
    },
    io::{at, read_json_on, usage, write_json, CliError, Result},
    options::Scheme,
};

const SCHEME: Scheme = Scheme::Mithril;

fn header() -> Header {
    Header::on(SCHEME, Some(BACKEND))
}

fn read_json<T: serde::de::DeserializeOwned>(path: &Path) -> Result<T> {
    read_json_on(path, SCHEME, Some(BACKEND))
}

/// The circuit shape in key and statement files.
#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
pub struct ShapeFile {
    /// Signer slots (distinct signers).
    pub signer_slots: usize,
    /// Index slots: the quorum k.
    pub index_slots: usize,
    /// Registration tree depth.
    pub depth: usize,
    /// log2 rows.
    pub k: u32,
}

impl ShapeFile {
    fn of(shape: &MithrilShape) -> Self {
        Self {
            signer_slots: shape.signer_slots,
            index_slots: shape.index_slots,
            depth: shape.depth,
            k: shape.k,
        }
    }

    /// The shape, bounded before anything is laid out (a key file is outside data).
    fn shape(&self) -> std::result::Result<MithrilShape, String> {
        if self.depth > MAX_DEPTH || self.index_slots > 1 << 16 || self.signer_slots > 1 << 16 {
            return Err("shape: out of range".into());
        }
        let shape = MithrilShape {
            signer_slots: self.signer_slots,
            index_slots: self.index_slots,
            depth: self.depth,
            k: self.k,
        };
        shape.validate().map_err(|e| format!("shape: {e}"))?;
        Ok(shape)
    }
}

fn signature_entry(sig: &UniqueSignature) -> UniqueSignatureEntry {
    UniqueSignatureEntry {
        sigma: point_to_hex(&sig.sigma),
        a: point_to_hex(&sig.a),
        b: point_to_hex(&sig.b),
        s: scalar_to_hex(&sig.s),
    }
}

fn parse_signature(e: &UniqueSignatureEntry) -> std::result::Result<UniqueSignature, String> {
    Ok(UniqueSignature {
        sigma: point_from_hex(&e.sigma, "sigma")?,
        a: point_from_hex(&e.a, "a")?,
        b: point_from_hex(&e.b, "b")?,
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
            let key = point_from_hex(&p.public_key, &format!("party {i}'s key"))
                .map_err(|e| at(path, e))?;
            Ok((VerifyingKey(key), p.stake))
        })
        .collect()
}

/// Reads a registration file and rebuilds the registration (keys in the subgroup, positive
/// stakes, no key twice, targets from the exact eligibility rule at BLS12-381's modulus).
pub fn load_registration(path: &Path) -> Result<Registration> {
    let file: RegistrationFile = read_json(path)?;
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

/// `tms committee --scheme mithril --backend cardano`: Jubjub keys and a stakes file.
pub fn committee(a: &CommitteeArgs) -> Result<()> {
    if a.stake == 0 {
        return Err(usage("--stake: stakes are positive"));
    }
    let sks = member_keys(SCHEME, a.size, a.seed, &a.keys_dir)?;
    let file = StakesFile {
        header: header(),
        parties: sks
            .iter()
            .map(|sk| StakeEntry {
                public_key: point_to_hex(&sk.verifying_key().0),
                stake: a.stake,
            })
            .collect(),
    };
    write_json(&a.out, &file)?;
    println!(
        "{} parties with stake {} each written to {} (Jubjub keys in {}; edit the stakes, then \
         tms register --backend cardano)",
        a.size,
        a.stake,
        a.out.display(),
        a.keys_dir.display()
    );
    Ok(())
}

/// `tms register --backend cardano`: a registration from a stakes file and parameters.
pub fn register(stakes: &Path, params: Parameters, depth: Option<usize>, out: &Path) -> Result<()> {
    let file: StakesFile = read_json(stakes)?;
    let entries = parse_entries(stakes, &file.parties)?;
    let registration = match depth {
        Some(d) if d > MAX_DEPTH => {
            return Err(usage(format!("--depth: {d} is above {MAX_DEPTH}")))
        }
        Some(d) => Registration::with_depth(params, &entries, d),
        None => Registration::new(params, &entries),
    }
    .map_err(|e| at(stakes, e))?;
    let commitment = registration.commitment();
    write_json(
        out,
        &RegistrationFile {
            header: header(),
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
        },
    )?;
    println!(
        "registration of {} parties (total stake {}, m = {}, k = {}, phi_f = {}/{}, depth {}, \
         cardano backend) written to {}; digest {}",
        registration.parties().len(),
        registration.total_stake(),
        params.m(),
        params.k(),
        params.phi_f().num(),
        params.phi_f().den(),
        commitment.depth,
        out.display(),
        base_to_hex(&commitment.digest())
    );
    Ok(())
}

fn refuse_chains(next: Option<&Path>) -> Result<()> {
    match next {
        Some(_) => Err(usage(
            "--next-registration: Mithril certificate chains are on --backend bn254 (tms chain)",
        )),
        None => Ok(()),
    }
}

/// `tms sign --scheme mithril --backend cardano`: signs and plays the `m` lotteries.
fn sign(a: &SignArgs) -> Result<()> {
    refuse_chains(a.next_registration.as_deref())?;
    let registration_path = a
        .registration
        .as_deref()
        .ok_or_else(|| usage("--scheme mithril needs --registration"))?;
    let registration = load_registration(registration_path)?;
    let sk: SigningKey = load_member_of(SCHEME, &a.key)?;
    let signer = Signer::new(sk, &registration).map_err(|e| at(&a.key, e))?;
    match signer
        .sign(message_to_field(&a.message))
        .map_err(|e| at(&a.key, e))?
    {
        None => {
            println!("this party won no lottery index for this message: no signature to send");
            Ok(())
        }
        Some(sig) => {
            write_json(
                &a.out,
                &SignatureFile {
                    header: header(),
                    party: sig.party,
                    message: bytes_to_hex(&a.message),
                    signature: signature_entry(&sig.signature),
                    indices: sig.indices.clone(),
                    next_registration: None,
                    epoch: None,
                },
            )?;
            println!(
                "party {} won {} of {} lottery indices; signature written to {}",
                sig.party,
                sig.indices.len(),
                registration.params().m(),
                a.out.display()
            );
            Ok(())
        }
    }
}

/// `tms certify --scheme mithril --backend cardano`: checks the signatures and aggregates `k`
/// indices.
fn certify(a: &CertifyArgs) -> Result<()> {
    refuse_chains(a.next_registration.as_deref())?;
    let registration = load_registration(&a.committee)?;
    let m = message_to_field(&a.message);
    let mut singles = Vec::with_capacity(a.signatures.len());
    for path in &a.signatures {
        let file: SignatureFile = read_json(path)?;
        check_signed_message(path, &file.message, &a.message)?;
        if file.next_registration.is_some() {
            return Err(at(path, "a chain signature: chains are on --backend bn254"));
        }
        let single = SingleSignature {
            party: file.party,
            signature: parse_signature(&file.signature).map_err(|e| at(path, e))?,
            indices: file.indices,
        };
        verify_single(&registration, m, &single).map_err(|e| at(path, e))?;
        singles.push(single);
    }
    let cert = aggregate(&registration, m, &singles).map_err(usage)?;
    write_json(
        &a.out,
        &CertificateFile {
            header: header(),
            message: bytes_to_hex(&a.message),
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
                    party: s.position,
                    signature: signature_entry(&s.signature),
                })
                .collect(),
            next_registration: None,
            epoch: None,
        },
    )?;
    println!(
        "certificate with {} indices over {} signers written to {}",
        cert.indices.len(),
        cert.signers.len(),
        a.out.display()
    );
    Ok(())
}

/// A certificate file's message bytes and certificate, its signers' paths from `registration`.
fn load_certificate(path: &Path, registration: &Registration) -> Result<(Vec<u8>, Certificate)> {
    let file: CertificateFile = read_json(path)?;
    if file.next_registration.is_some() {
        return Err(at(
            path,
            "a chain certificate: chains are on --backend bn254",
        ));
    }
    let message = bytes_from_hex(&file.message, "message").map_err(|e| at(path, e))?;
    let signers = file
        .signers
        .iter()
        .map(|s| {
            let party = registration
                .parties()
                .get(s.party)
                .copied()
                .ok_or_else(|| at(path, format!("party {} is not registered", s.party)))?;
            Ok(SignerSlot {
                position: s.party,
                party,
                path: registration.path(s.party).map_err(|e| at(path, e))?,
                signature: parse_signature(&s.signature).map_err(|e| at(path, e))?,
            })
        })
        .collect::<Result<Vec<_>>>()?;
    let indices = file
        .indices
        .iter()
        .map(|s| IndexSlot {
            index: s.index,
            signer: s.signer,
        })
        .collect();
    Ok((message, Certificate { indices, signers }))
}

/// What a Mithril verifier holds on this backend: the registration (or only its digest) and the
/// message.
pub struct MithrilStatement {
    digest: Base,
    message: Base,
    instance: Option<MithrilInstance>,
    /// m, parties and total stake, when the registration file was given.
    registered: Option<(u64, usize, u128)>,
}

fn public_file(
    shape: &MithrilShape,
    digest: &Base,
    message: &[u8],
    k: u64,
) -> PublicFile<ShapeFile> {
    PublicFile {
        header: header(),
        shape: ShapeFile::of(shape),
        commitment: base_to_hex(digest),
        message: bytes_to_hex(message),
        threshold: k,
    }
}

/// SNARK-Mithril on Cardano: Jubjub unique signatures, KZG over BLS12-381.
pub struct MithrilCardano;

impl CertificateScheme for MithrilCardano {
    type Backend = Cardano;
    const SCHEME: Scheme = SCHEME;
    const TAKES_THRESHOLD: bool = false;
    type Committee = Registration;
    type Shape = MithrilShape;
    type ShapeFile = ShapeFile;
    type Keys = MithrilKeys;
    type Vk = Vk;
    type Witness = MithrilWitness;
    type Instance = MithrilStatement;

    fn committee(a: &CommitteeArgs) -> Result<()> {
        committee(a)
    }

    fn sign(a: &SignArgs) -> Result<()> {
        sign(a)
    }

    fn certify(a: &CertifyArgs) -> Result<()> {
        certify(a)
    }

    fn load_committee(path: &Path) -> Result<Registration> {
        load_registration(path)
    }

    // The registration's quorum and depth are checked by the witness against the key's shape.
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
            depth: registration.depth(),
            k,
        };
        shape.validate().map_err(usage)?;
        Ok(shape)
    }

    fn min_k(shape: &MithrilShape) -> Result<Option<u32>> {
        Ok(Some(prover::min_k(&MithrilShape { k: 10, ..*shape })))
    }

    fn k(shape: &MithrilShape) -> u32 {
        shape.k
    }

    fn keygen(params: &ParamsKZG<Bls12>, shape: &MithrilShape, path: &Path) -> Result<MithrilKeys> {
        prover::keygen(params, *shape).map_err(|e| at(path, e))
    }

    fn key_files(keys: &MithrilKeys) -> (Vec<u8>, Vec<u8>) {
        let shape = ShapeFile::of(&keys.shape);
        (
            key_file_pk(SCHEME, &shape, &keys.pk),
            key_file_vk(SCHEME, &shape, keys.vk()),
        )
    }

    fn describe_keys(keys: &MithrilKeys) -> String {
        format!(
            "quorum {}, {} signer slots, depth {} (Jubjub SNARK-Mithril, k = {})",
            keys.shape.index_slots, keys.shape.signer_slots, keys.shape.depth, keys.shape.k
        )
    }

    fn read_pk(path: &Path) -> Result<MithrilKeys> {
        let (shape, pk) = read_key_file_pk::<ShapeFile, MithrilCircuit>(SCHEME, path)?;
        Ok(MithrilKeys {
            shape: shape.shape().map_err(|e| at(path, e))?,
            pk,
        })
    }

    fn keys_shape(keys: &MithrilKeys) -> &MithrilShape {
        &keys.shape
    }

    fn read_vk(path: &Path, bytes: &[u8]) -> Result<(MithrilShape, Vk)> {
        let (shape, vk) = read_key_file_vk::<ShapeFile, MithrilCircuit>(SCHEME, path, bytes)?;
        Ok((shape.shape().map_err(|e| at(path, e))?, vk))
    }

    fn regenerate_vk(
        params: &ParamsKZG<Bls12>,
        shape: &MithrilShape,
        path: &Path,
    ) -> Result<Vec<u8>> {
        prover::keygen(params, *shape)
            .map(|k| key_file_vk(SCHEME, &ShapeFile::of(shape), k.vk()))
            .map_err(|e| at(path, e))
    }

    fn witness(
        shape: &MithrilShape,
        registration: &Registration,
        certificate_path: &Path,
        _: Option<u64>,
    ) -> Result<(MithrilWitness, PublicFile<ShapeFile>)> {
        let (message, cert) = load_certificate(certificate_path, registration)?;
        let instance = MithrilInstance::from_trusted(registration, &message);
        // The native verifier first: a bad certificate fails here with its reason.
        native_verify(&instance.commitment, instance.message, &cert)
            .map_err(|e| at(certificate_path, e))?;
        let witness =
            MithrilWitness::new(*shape, instance, &cert).map_err(|e| at(certificate_path, e))?;
        let public = public_file(
            shape,
            &instance.commitment.digest(),
            &message,
            registration.params().k(),
        );
        Ok((witness, public))
    }

    fn prove(
        params: &ParamsKZG<Bls12>,
        keys: &MithrilKeys,
        witness: &MithrilWitness,
        _: Transcript,
    ) -> std::result::Result<Vec<u8>, String> {
        let rng = ChaCha20Rng::from_rng(OsRng).expect("OS randomness");
        prover::prove(params, keys, witness, rng).map_err(|e| e.to_string())
    }

    fn public_inputs(witness: &MithrilWitness) -> Vec<Base> {
        witness.instance.to_public_inputs()
    }

    fn trusted(
        shape: &MithrilShape,
        args: &VerifyArgs,
        public: Option<&PublicFile<ShapeFile>>,
    ) -> Result<Trusted<Self>> {
        let (registration, digest) =
            match (&args.committee, &args.commitment) {
                (Some(path), None) => {
                    let registration = load_registration(path)?;
                    let digest = registration.commitment().digest();
                    (Some(registration), digest)
                }
                (None, Some(hex)) => (None, base_from_hex(hex, "--commitment").map_err(usage)?),
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
        Ok(Trusted {
            public: public_file(shape, &digest, &args.message, k),
            instance: MithrilStatement {
                digest,
                message: message_to_field(&args.message),
                instance: registration
                    .as_ref()
                    .map(|r| MithrilInstance::from_trusted(r, &args.message)),
                registered: registration
                    .as_ref()
                    .map(|r| (r.params().m(), r.parties().len(), r.total_stake().into())),
            },
        })
    }

    fn verify(
        params: &ParamsKZG<Bls12>,
        shape: &MithrilShape,
        vk: &Vk,
        statement: &MithrilStatement,
        proof: &[u8],
        _: Transcript,
    ) -> Verdict {
        let vp = params.verifier_params();
        match &statement.instance {
            Some(instance) => prover::verify(&vp, shape, vk, instance, proof),
            None => prover::verify_digest(&vp, vk, statement.digest, statement.message, proof),
        }
        .map_err(|e| match e {
            MithrilError::ProofRejected => Rejection::Proof,
            other => Rejection::Other(usage(other)),
        })
    }

    fn verdict(_: &MithrilShape, trusted: &Trusted<Self>, args: &VerifyArgs) -> String {
        let (below_m, registered) = registered_details(trusted.instance.registered);
        format!(
            "verified (mithril, cardano): {} distinct lottery indices{below_m} won by registered \
             parties signed {}; registration digest {}{registered}",
            trusted.public.threshold,
            describe_message_bytes(&args.message, &base_to_hex(&trusted.instance.message)),
            trusted.public.commitment,
        )
    }

    /// 5 parties (stakes 100 to 500), m = 40, k = 3, phi_f = 0.7: every party signs.
    fn demo_certificate() -> Result<DemoCertificate<Self>> {
        let err = |e: MithrilError| CliError(e.to_string());
        let params = PhiF::new(7, 10)
            .and_then(|phi_f| Parameters::new(40, 3, phi_f))
            .map_err(|e| CliError(e.to_string()))?;
        let mut rng = ChaCha20Rng::seed_from_u64(2026);
        let sks: Vec<SigningKey> = (0..5).map(|_| SigningKey::random(&mut rng)).collect();
        let entries: Vec<_> = sks
            .iter()
            .enumerate()
            .map(|(i, sk)| (sk.verifying_key(), 100 * (i as u64 + 1)))
            .collect();
        let registration = Registration::new(params, &entries).map_err(err)?;
        let message = b"tms demo: Mithril epoch 7".to_vec();
        let m = message_to_field(&message);
        let singles = sks
            .iter()
            .map(|sk| Signer::new(*sk, &registration)?.sign(m))
            .collect::<std::result::Result<Vec<_>, _>>()
            .map_err(err)?;
        let singles: Vec<SingleSignature> = singles.into_iter().flatten().collect();
        let certificate = aggregate(&registration, m, &singles).map_err(err)?;
        // The verifier's statement, from the registration and message it holds.
        let instance = MithrilInstance::from_trusted(&registration, &message);
        let mut shape = MithrilShape {
            signer_slots: certificate.signers.len(),
            index_slots: params.k() as usize,
            depth: registration.depth(),
            k: 10,
        };
        shape.k = prover::min_k(&shape);
        let witness = MithrilWitness::new(shape, instance, &certificate).map_err(err)?;
        let digest = registration.commitment().digest();
        let description = vec![
            format!(
                "registration: 5 Jubjub parties (stakes 100 to 500), m = 40, k = 3, phi_f = 7/10, \
                 digest {} (BLS12-381 scalar field)",
                base_to_hex(&digest)
            ),
            format!(
                "certificate: {} indices over {} signers on {}",
                certificate.indices.len(),
                certificate.signers.len(),
                describe_message_bytes(&message, &base_to_hex(&m))
            ),
        ];
        Ok(DemoCertificate {
            shape,
            witness,
            trusted: Trusted {
                public: public_file(&shape, &digest, &message, params.k()),
                instance: MithrilStatement {
                    digest,
                    message: m,
                    instance: Some(instance),
                    registered: None,
                },
            },
            description,
        })
    }

    fn describe_circuit(keys: &MithrilKeys) -> String {
        format!(
            "SNARK-Mithril on Jubjub, quorum {}, {} signer slots, depth {}, k = {} (KZG over \
             BLS12-381)",
            keys.shape.index_slots, keys.shape.signer_slots, keys.shape.depth, keys.shape.k
        )
    }

    /// The Plutus validator of the demo's key (the registration digest a script parameter),
    /// evaluated on its certificate at protocol versions 10 and 11.
    fn after_demo(
        params: &ParamsKZG<Bls12>,
        keys: &MithrilKeys,
        demo: &DemoCertificate<Self>,
        proof: &[u8],
    ) -> Result<()> {
        let message =
            bytes_from_hex(&demo.trusted.public.message, "message").expect("the demo wrote it");
        print_plutus_budgets(
            SCHEME,
            params,
            keys.vk(),
            &[Some(demo.trusted.instance.digest), None],
            &message,
            proof,
        )
    }
}

/// `tms export-plutus --scheme mithril`: the validator with the trusted registration digest as
/// its parameter (the quorum and depth are in the key).
pub fn export_plutus(a: &ExportPlutusArgs) -> Result<()> {
    if a.threshold.is_some() {
        return Err(usage(
            "--threshold: a Mithril certificate proves the registration's quorum k",
        ));
    }
    let params = load_params(a.params)?;
    let vk_file = a.trust.read()?;
    let (shape, vk) = MithrilCardano::read_vk(a.vk, &vk_file)?;
    check_params_k(a.params, params.max_k(), shape.k)?;
    a.trust.check_regenerated(&vk_file, "its shape", || {
        MithrilCardano::regenerate_vk(&params, &shape, a.vk)
    })?;
    let digest = match (a.committee, a.commitment) {
        (Some(path), None) => load_registration(path)?.commitment().digest(),
        (None, Some(hex)) => base_from_hex(hex, "--commitment").map_err(usage)?,
        _ => {
            return Err(usage(
                "give the trusted --committee registration.json or its --commitment (digest)",
            ))
        }
    };
    write_plutus_export(
        a,
        SCHEME,
        &format!(
            "quorum {}, {} signer slots, depth {}",
            shape.index_slots, shape.signer_slots, shape.depth
        ),
        &params,
        (&vk_file, &vk),
        &[Some(digest), None],
        None,
    )
}
