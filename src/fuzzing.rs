//! Entry points for fuzzing and property tests: each feeds outside bytes to the parsers the tool
//! runs on them, through their real code paths, and must return whatever the bytes are (a
//! panic, a hang or an unbounded allocation is a bug). `fuzz/` wraps each in a cargo-fuzz target;
//! `src/fuzzing.rs`'s tests run them on random and mutated inputs in CI.

use std::path::Path;

use tms_gadgets::proving::{
    params::{params_from_ptau, read_params},
    Transcript,
};

use crate::{
    formats::*,
    io::{message_bytes, read_json, with_virtual_file},
    options::Scheme,
    schemes::{
        bls::bn254 as bls,
        mithril::{
            self as mithril_files, bn254 as mithril, stm as mithril_stm_files, MithrilFiles,
        },
        schnorr::{self, bn254::SchnorrBn254, SchnorrFiles},
    },
};

/// The name the in-memory input file goes by.
const INPUT: &str = "fuzz-input.json";

/// Every JSON file of every scheme: committees (with their checks: keys on the curve, proofs of
/// possession, duplicates), member keys, registrations and stakes, signatures, certificates,
/// statements.
pub fn json_files(data: &[u8]) {
    let path = Path::new(INPUT);
    with_virtual_file(path, data, || {
        let _ = schnorr::bn254::load_committee(path);
        let _ = bls::load_committee(path);
        let _ = bls::load_member(path);
        for scheme in [Scheme::SchnorrAtms, Scheme::Mithril] {
            let _ = schnorr::bn254::load_member(scheme, path);
        }
        if let Ok(registration) = mithril::load_registration(path) {
            let _ = mithril::load_certificate(path, &registration);
        }
        if let Ok(registration) = mithril_stm_files::load_registration(path) {
            if let Some(tree) = &registration.tree {
                let _ = mithril_stm_files::load_certificate(path, tree);
            }
        }
        let _ = mithril_stm_files::read_signatures(path);
        let _ = read_json::<mithril_files::StakesFile>(path, Scheme::Mithril);
        if let Ok(sig) = read_json::<mithril_files::SignatureFile>(path, Scheme::Mithril) {
            let _ = mithril::MithrilBn254::parse_signature(&sig.signature);
        }
        if let Ok(sig) = read_json::<schnorr::SignatureFile>(path, Scheme::SchnorrAtms) {
            let _ = SchnorrBn254::parse_signature(&sig.signature.r, &sig.signature.s);
        }
        if let Ok(cert) = read_json::<schnorr::CertificateFile>(path, Scheme::SchnorrAtms) {
            for s in &cert.signatures {
                let _ = SchnorrBn254::parse_signature(&s.r, &s.s);
            }
        }
        if let Ok(cert) = read_json::<bls::CertificateFile>(path, Scheme::BlsAtms) {
            let _ = g2_from_hex(&cert.signature, "signature");
            let _ = bytes_from_hex(&cert.message, "message");
        }
        let _ = read_json::<PublicFile<schnorr_atms::AtmsShape>>(path, Scheme::SchnorrAtms);
        let _ = read_json::<PublicFile<bls_atms::AtmsShape>>(path, Scheme::BlsAtms);
        let _ = read_json::<PublicFile<mithril_snark::MithrilShape>>(path, Scheme::Mithril);
    });
}

/// The text encodings: field elements, points, scalars, bytes, messages.
pub fn encodings(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = fr_from_str(text, "x");
    let _ = bytes_from_hex(text, "x");
    let _ = grumpkin_from_hex(text, "x");
    let _ = g1_from_hex(text, "x");
    let _ = g2_from_hex(text, "x");
    let _ = scalar_from_hex(text, "x");
    let _ = message_bytes(Some(text), None);
}

/// KZG parameters in halo2's format, and snarkjs `.ptau` files.
pub fn parameter_files(data: &[u8]) {
    let _ = read_params(data);
    let _ = params_from_ptau(data, 10);
}

/// Key files of every circuit (headers and halo2's raw keys).
pub fn key_files(data: &[u8]) {
    let _ = schnorr_atms::read_vk(data);
    let _ = schnorr_atms::AtmsKeys::from_pk_bytes(data);
    let _ = bls_atms::read_vk(data);
    let _ = bls_atms::AtmsKeys::from_pk_bytes(data);
    let _ = mithril_snark::read_vk(data);
    let _ = mithril_snark::MithrilKeys::from_pk_bytes(data);
    // Aggregation keys and proof files (`tms aggregate`, `tms chain`).
    let _ = tms_aggregation::read_vk_file(data);
    let _ = tms_aggregation::split_proof_file(data);
}

#[cfg(test)]
mod tests {
    //! The fuzz targets on random bytes and on mutations of valid inputs (bit flips, truncations,
    //! extensions, swapped fields), for a fixed short budget in CI. Longer runs: `fuzz/README.md`.

    use proptest::prelude::*;

    use super::*;

    /// A valid input changed by one of the mutations fuzzers apply.
    fn mutated(valid: Vec<u8>) -> impl Strategy<Value = Vec<u8>> {
        let len = valid.len().max(1);
        (
            0..4u8,
            0..len,
            any::<u8>(),
            proptest::collection::vec(any::<u8>(), 0..64),
        )
            .prop_map(move |(kind, at, byte, tail)| {
                let mut v = valid.clone();
                let at = at.min(v.len().saturating_sub(1));
                match kind {
                    0 if !v.is_empty() => v[at] ^= 1 << (byte % 8),
                    1 => v.truncate(at),
                    2 => v.extend(tail),
                    _ if !v.is_empty() => v[at] = byte,
                    _ => {}
                }
                v
            })
    }

    fn valid_json_files() -> Vec<Vec<u8>> {
        let header = |s: &str| format!(r#""version": 1, "scheme": "{s}""#);
        let g = "0x0100000000000000000000000000000000000000000000000000000000000000";
        [
            format!(
                r#"{{{}, "members": [{{"public_key": "{g}", "proof_of_possession": "{g}{}"}}, "{g}"]}}"#,
                header("schnorr-atms"),
                &g[2..]
            ),
            format!(
                r#"{{{}, "params": {{"m": 100, "k": 5, "phi_f": {{"num": 7, "den": 10}}}}, "depth": 2, "parties": [{{"public_key": "{g}", "stake": 5}}]}}"#,
                header("mithril")
            ),
            format!(
                r#"{{{}, "members": [{{"public_key": "{g}", "proof_of_possession": "0x00"}}]}}"#,
                header("bls-atms")
            ),
            format!(
                r#"{{{}, "message": "0x01", "signatures": [{{"index": 0, "r": "{g}", "s": "0x01"}}]}}"#,
                header("schnorr-atms")
            ),
        ]
        .map(String::into_bytes)
        .into_iter()
        // mithril-stm's own files (`--format mithril-stm`), as mithril-stm wrote them.
        .chain([
            include_bytes!("../tests/fixtures/mithril-stm/registration.json").to_vec(),
            include_bytes!("../tests/fixtures/mithril-stm/aggregate-key.json").to_vec(),
            include_bytes!("../tests/fixtures/mithril-stm/signature-1.json").to_vec(),
        ])
        .collect()
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

        #[test]
        fn json_files_never_panic(data in proptest::collection::vec(any::<u8>(), 0..512)) {
            json_files(&data);
        }

        #[test]
        fn mutated_json_files_never_panic(
            data in proptest::sample::select(valid_json_files()).prop_flat_map(mutated)
        ) {
            json_files(&data);
        }

        #[test]
        fn encodings_never_panic(text in "(0x)?[0-9a-fA-Fx]{0,140}") {
            encodings(text.as_bytes());
        }

        #[test]
        fn point_sized_encodings_never_panic(text in "0x([0-9a-f]{64}|[0-9a-f]{128})") {
            // 32 and 64 bytes: every point decoder gets a full-length input (this found the
            // G2 crash once the fuzzer did).
            encodings(text.as_bytes());
        }

        #[test]
        fn random_parameter_files_never_panic(data in proptest::collection::vec(any::<u8>(), 0..256)) {
            parameter_files(&data);
        }

        #[test]
        fn random_key_files_never_panic(data in proptest::collection::vec(any::<u8>(), 0..512)) {
            key_files(&data);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 32, failure_persistence: None, ..ProptestConfig::default() })]

        #[test]
        fn mutated_parameter_files_never_panic(data in mutated(
            std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/pot10_tms_test.ptau")).unwrap()
        )) {
            parameter_files(&data);
        }

        #[test]
        fn mutated_halo2_parameters_never_panic(data in mutated({
            let mut bytes = vec![];
            tms_gadgets::proving::params::kzg_params(10).write_custom(
                &mut bytes,
                halo2_base::halo2_proofs::SerdeFormat::RawBytes,
            ).unwrap();
            bytes
        })) {
            parameter_files(&data);
        }

        #[test]
        fn mutated_key_files_never_panic(data in mutated(schnorr_vk_file())) {
            key_files(&data);
        }
    }

    /// A real Schnorr ATMS verifying key file (n = 2, flat), made once.
    fn schnorr_vk_file() -> Vec<u8> {
        static FILE: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();
        FILE.get_or_init(|| {
            let shape = schnorr_atms::AtmsShape {
                n: 2,
                mode: schnorr_atms::CommitmentMode::Flat,
                k: 11,
                verification: schnorr_atms::Verification::PerSignature,
            };
            schnorr_atms::keygen(&schnorr_atms::setup(11), shape)
                .unwrap()
                .vk_bytes()
        })
        .clone()
    }

    /// A mutated proof, with the byte and mask flipped if the mutation is a bit flip.
    type Mutation = (Option<(usize, u8)>, Vec<u8>);

    /// Mutations of a proof: a bit flipped in each of the first 64 bytes and every 17th, cut
    /// short at several lengths, extended, and zeroed; with the flipped byte and mask.
    fn proof_mutations(proof: &[u8]) -> Vec<Mutation> {
        let mut out = vec![];
        for i in (0..proof.len()).filter(|i| *i < 64 || i % 17 == 0) {
            let mut p = proof.to_vec();
            let mask = 1 << (i % 8);
            p[i] ^= mask;
            out.push((Some((i, mask)), p));
        }
        for cut in [0, 1, 31, 32, 33, proof.len() / 2, proof.len() - 1] {
            out.push((None, proof[..cut].to_vec()));
        }
        let mut longer = proof.to_vec();
        longer.extend_from_slice(&[0u8; 32]);
        out.push((None, longer));
        out.push((None, vec![0u8; proof.len()]));
        out
    }

    /// Counts panics while `f` runs (halo2 is guarded; a panic reaching a guard is still a bug
    /// worth knowing about).
    fn panics_during(f: impl FnOnce()) -> usize {
        use std::sync::atomic::{AtomicUsize, Ordering};
        static PANICS: AtomicUsize = AtomicUsize::new(0);
        let before = PANICS.load(Ordering::SeqCst);
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(|info| {
            PANICS.fetch_add(1, Ordering::SeqCst);
            eprintln!("{info}");
        }));
        f();
        std::panic::set_hook(previous);
        PANICS.load(Ordering::SeqCst) - before
    }

    /// The crashes cargo-fuzz found (`encodings`, `json_files`: a G2 coefficient >= q made
    /// halo2curves' Fq2 decoding unwrap), kept as regression cases.
    #[test]
    fn fuzz_crashes_stay_fixed() {
        let g2 = "0x30644e72e131a029b850e131a029b85041b6819704573e83e14879b9704571e1f5330644e72e131a029b85045b6818179b9709143e1f2d2833c84809f0000000";
        encodings(g2.as_bytes());
        assert!(g2_from_hex(g2, "x").is_err());
        for crash in
            std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/fuzz/regressions")).unwrap()
        {
            let data = std::fs::read(crash.unwrap().path()).unwrap();
            json_files(&data);
            encodings(&data);
            parameter_files(&data);
            key_files(&data);
        }
        // The key that made halo2's reader take 18.9 GB (k = 25 in the key under a k = 15
        // header) is refused before any domain is built.
        let pk = std::fs::read(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/fuzz/regressions/key_files-polynomial-length.pk"
        ))
        .unwrap();
        let refused = mithril_snark::MithrilKeys::from_pk_bytes(&pk).err();
        assert_eq!(
            refused.as_deref(),
            Some("verifying key: k = 25 in the key, 15 in the header")
        );
    }

    #[test]
    fn schnorr_verify_soak_rejects_every_mutation() {
        use schnorr_atms::{verify_with_vk, AtmsInstance, CommitmentMode, Verification};
        let m = tms_gadgets::message::message_to_field(b"soak");
        let witness = schnorr_atms::example_witness(
            (3, 2),
            CommitmentMode::Flat,
            Verification::PerSignature,
            m,
            5,
            4,
        )
        .unwrap();
        let shape = witness.shape;
        let params = schnorr_atms::setup(shape.k);
        let keys = schnorr_atms::keygen(&params, shape).unwrap();
        let proof = schnorr_atms::prove(&params, &keys, &witness).unwrap();
        let honest = witness.instance;
        let vk_file = keys.vk_bytes();
        let raw = halo2_base::halo2_proofs::SerdeFormat::RawBytes;
        let honest_vk_bytes = keys.vk().to_bytes(raw);
        let verify = |vk_bytes: &[u8], instance: &AtmsInstance, proof: &[u8]| {
            schnorr_atms::read_vk(vk_bytes).and_then(|(shape, vk)| {
                verify_with_vk(&params, &shape, &vk, instance, proof, Transcript::Blake2b)
            })
        };
        let panics = panics_during(|| {
            let mut rejected = 0;
            for (flip, p) in proof_mutations(&proof) {
                if verify(&vk_file, &honest, &p).is_ok() {
                    // halo2curves' compressed points ignore the infinity flag (bit 7 of a
                    // point's last byte) when x is not zero: the same point, the same proof
                    // (malleable bytes, the same statement). Anything else must be rejected.
                    assert_rejected_or_same_point(flip, p.len());
                    continue;
                }
                rejected += 1;
            }
            let one = tms_gadgets::Fr::from(1);
            for instance in [
                AtmsInstance {
                    commitment: honest.commitment + one,
                    ..honest
                },
                AtmsInstance {
                    message: honest.message + one,
                    ..honest
                },
                AtmsInstance {
                    threshold: honest.threshold + 1,
                    ..honest
                },
                AtmsInstance {
                    commitment: honest.message,
                    message: honest.commitment,
                    ..honest
                },
            ] {
                assert!(verify(&vk_file, &instance, &proof).is_err());
                rejected += 1;
            }
            for i in (0..vk_file.len()).step_by(vk_file.len() / 97 + 1) {
                let mut vk = vk_file.clone();
                vk[i] ^= 0x20;
                // A flip may land on a byte the reader ignores (a point's unused flag bit):
                // a file that still verifies must decode to the honest key and shape.
                if verify(&vk, &honest, &proof).is_ok() {
                    let (flipped_shape, flipped_vk) = schnorr_atms::read_vk(&vk).unwrap();
                    assert_eq!(flipped_shape, shape);
                    assert_eq!(flipped_vk.to_bytes(raw), honest_vk_bytes);
                }
                rejected += 1;
            }
            assert!(rejected > 100, "{rejected}");
        });
        assert_eq!(
            panics, 0,
            "a mutation made halo2 panic (caught by the guard)"
        );
        verify(&vk_file, &honest, &proof).expect("the honest proof still verifies");
    }

    /// Proof mutations that still verify may only be flips of a point's ignored infinity flag.
    fn assert_rejected_or_same_point(flip: Option<(usize, u8)>, len: usize) {
        assert!(
            matches!(flip, Some((i, 0x80)) if i % 32 == 31),
            "a mutated proof verifies: {flip:?}, {len} bytes"
        );
    }

    #[test]
    fn mithril_verify_soak_rejects_every_mutation() {
        use mithril_snark::{
            prover::{verify_digest_with_vk, verify_with_vk},
            MithrilInstance, Parameters,
        };
        let example =
            mithril_snark::example_certificate(Parameters::PREPROD, 4, None, 11, false).unwrap();
        let witness = example.witness(4).unwrap();
        let params = mithril_snark::setup(witness.shape.k);
        let keys = mithril_snark::keygen(&params, witness.shape).unwrap();
        let proof = mithril_snark::prove(&params, &keys, &witness).unwrap();
        let vk_file = keys.vk_bytes();
        let honest = example.instance();
        let verify = |vk_bytes: &[u8], instance: &MithrilInstance, proof: &[u8]| {
            mithril_snark::read_vk(vk_bytes).and_then(|(shape, vk)| {
                verify_with_vk(&params, &shape, &vk, instance, proof, Transcript::Blake2b)
            })
        };
        let panics = panics_during(|| {
            for (flip, p) in proof_mutations(&proof) {
                if verify(&vk_file, &honest, &p).is_ok() {
                    assert_rejected_or_same_point(flip, p.len());
                }
            }
            let one = tms_gadgets::Fr::from(1);
            let mut other_root = honest;
            other_root.commitment.root += one;
            let mut other_stake = honest;
            other_stake.commitment.total_stake += 1;
            for instance in [
                MithrilInstance {
                    message: honest.message + one,
                    ..honest
                },
                other_root,
                other_stake,
            ] {
                assert!(verify(&vk_file, &instance, &proof).is_err());
            }
            // The digest-only statement (a contract's): the honest one verifies, swapped or
            // shifted public inputs do not.
            let vk = keys.vk();
            let digest = honest.commitment.digest();
            let by_digest =
                |d, m| verify_digest_with_vk(&params, vk, d, m, &proof, Transcript::Blake2b);
            by_digest(digest, honest.message).expect("the digest alone is a statement");
            for (d, m) in [
                (honest.message, digest),
                (digest + one, honest.message),
                (digest, honest.message + one),
            ] {
                assert!(by_digest(d, m).is_err());
            }
        });
        assert_eq!(
            panics, 0,
            "a mutation made halo2 panic (caught by the guard)"
        );
        verify(&vk_file, &honest, &proof).expect("the honest proof still verifies");
    }

    /// The BLS ATMS soak: keygen and a proof of a pairing at k = 20 take minutes, so it is
    /// ignored by default: `cargo test --release -p tms --lib bls_verify_soak -- --ignored`.
    #[test]
    #[ignore = "keygen and a proof of a BN254 pairing: minutes"]
    fn bls_verify_soak_rejects_every_mutation() {
        use bls_atms::{verify_with_vk, AtmsInstance, AtmsShape, AtmsWitness, Committee};
        use rand::SeedableRng;
        use tms_gadgets::signature::bls::SecretKey;
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(3);
        let sks: Vec<SecretKey> = (0..4).map(|_| SecretKey::random(&mut rng)).collect();
        let members: Vec<_> = sks
            .iter()
            .map(|sk| (sk.public_key(), sk.prove_possession()))
            .collect();
        let committee = Committee::register(&members).unwrap();
        let bytes = b"bls soak";
        let signed = tms_gadgets::message::message_to_field(bytes);
        let signatures: Vec<_> = [0, 1, 3].map(|i| (i, sks[i].sign(signed))).to_vec();
        let shape = AtmsShape::auto(4, 2, 20);
        let witness = AtmsWitness::new(shape, &committee, bytes, &signatures, 3).unwrap();
        let params = bls_atms::setup(shape.k);
        let keys = bls_atms::keygen(&params, shape).unwrap();
        let proof = bls_atms::prove(&params, &keys, &witness).unwrap();
        let vk_file = keys.vk_bytes();
        let honest = AtmsInstance::from_trusted(&shape, &committee, bytes, 3).unwrap();
        let verify = |vk_bytes: &[u8], instance: &AtmsInstance, proof: &[u8]| {
            bls_atms::read_vk(vk_bytes).and_then(|(shape, vk)| {
                verify_with_vk(&params, &shape, &vk, instance, proof, Transcript::Blake2b)
            })
        };
        let panics = panics_during(|| {
            for (flip, p) in proof_mutations(&proof) {
                if verify(&vk_file, &honest, &p).is_ok() {
                    assert_rejected_or_same_point(flip, p.len());
                }
            }
            for instance in [
                AtmsInstance::from_trusted(&shape, &committee, b"other", 3).unwrap(),
                AtmsInstance {
                    threshold: 4,
                    ..honest
                },
                AtmsInstance {
                    committee: honest.message,
                    ..honest
                },
            ] {
                assert!(verify(&vk_file, &instance, &proof).is_err());
            }
        });
        assert_eq!(
            panics, 0,
            "a mutation made halo2 panic (caught by the guard)"
        );
        verify(&vk_file, &honest, &proof).expect("the honest proof still verifies");
    }
}
