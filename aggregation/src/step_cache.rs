//! A chain's step keys kept on disk, so that extending a chain makes them once.
//!
//! [`step_keygen`](crate::chain_step::step_keygen) takes minutes and depends only on the
//! certificate key and the step circuit's parameters; `tms chain extend` stores what it made
//! with [`write_step_keys`] and reads it back with [`load_step_keys`] on the next epoch. A cache
//! is the prover's own convenience, never a source of trust: a verifier pins or regenerates its
//! step key as everywhere else, and a step proof made under other keys does not verify under
//! it. Still, a cache is **checked on load** and refused, never silently used or replaced, when:
//!
//! - its header names another certificate key digest ([`key_digest`](crate::chain_step::key_digest)
//!   form, as the step circuit fixes it) or other parameters (`k`, and the SHA-256 of the
//!   parameters' `g[0]`, `[1]_2` and `[tau]_2`, which fix every commitment of the key);
//! - its bytes were altered: the file ends with the SHA-256 of everything before it, checked in
//!   a first pass before anything is parsed;
//! - what it holds is not a step key as [`StepKeys::from_parts`] checks one (the step key's
//!   digest, recomputed from the key read back, must be the one the header states; the
//!   stand-in must have the step's protocol and the base case's inputs).
//!
//! The file is [`crate::key_cache`]'s: `TMSSTEPK`, the header's length (4 bytes, little-endian)
//! and its JSON ([`StepKeysHeader`]), the stand-in's length and its JSON, the proving key
//! (halo2's raw bytes, the verifying key first), then the SHA-256 trailer.

use std::{io::Write, path::Path};

use halo2_base::halo2_proofs::{halo2curves::bn256::Bn256, poly::kzg::commitment::ParamsKZG};
use snark_verifier_sdk::Snark;
use tms_gadgets::Fr;

pub use crate::key_cache::{fr_hex, params_identity, KeyCacheError as StepCacheError};
use crate::{
    chain_step::StepKeys,
    key_cache::{KeyFileHeader, KeyFileKind, KeyLayout},
};

/// A step key file: `TMSSTEPK`, its header ([`StepKeysHeader`]) and stand-in, the proving key.
const STEP_KEYS: KeyFileKind = KeyFileKind {
    magic: b"TMSSTEPK",
    format: STEP_KEYS_FORMAT,
    name: "a step key",
};

/// The header's `format`.
pub const STEP_KEYS_FORMAT: &str = "tms-chain-step-keys-v1";

/// What a step key file's header says the keys are for.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct StepKeysNamed {
    /// The certificate key's digest, `0x` and 64 hex digits (big-endian).
    pub certificate_key: String,
    /// The step key's digest (what every proof of the chain carries), same form.
    pub step_key: String,
}

/// What a step key file says it holds, checked before its body is read.
pub type StepKeysHeader = KeyFileHeader<StepKeysNamed>;

/// Writes `keys` (made at `params`) to `out` in the file's layout, the SHA-256 trailer last.
/// `out` is a file being written whole (the caller renames it into place when this returns:
/// gigabytes, so it is streamed, never held twice in memory).
pub fn write_step_keys(
    out: impl Write,
    params: &ParamsKZG<Bn256>,
    keys: &StepKeys,
) -> Result<(), StepCacheError> {
    let named = StepKeysNamed {
        certificate_key: fr_hex(&keys.certificate_key),
        step_key: fr_hex(&keys.step_key),
    };
    let header = KeyFileHeader::json(&STEP_KEYS, named, params, KeyLayout::of(&keys.keys));
    let stand_in = serde_json::to_vec(keys.stand_in()).expect("a serialisable snark");
    STEP_KEYS.write(out, &[&header, &stand_in], &keys.keys.pk)
}

/// The header of the step key file at `path`, after its magic bytes (the body is not read).
pub fn read_step_keys_header(path: &Path) -> Result<StepKeysHeader, StepCacheError> {
    STEP_KEYS.header(path)
}

/// The step keys at `path` for certificates under the key of digest `certificate_key`, at the
/// step circuit's `params`, checked as the module documentation says; refused otherwise.
pub fn load_step_keys(
    path: &Path,
    params: &ParamsKZG<Bn256>,
    certificate_key: Fr,
) -> Result<StepKeys, StepCacheError> {
    // What the header says first (a few bytes): another certificate key or other parameters
    // are named before gigabytes are hashed.
    let header = read_step_keys_header(path)?;
    let expected = fr_hex(&certificate_key);
    if header.keys_for.certificate_key != expected {
        return Err(StepCacheError::OtherCertificateKey {
            cached: header.keys_for.certificate_key,
            expected,
        });
    }
    header.check_params(params)?;
    // Then every byte, before any of the body is parsed.
    let (blocks, pk) = STEP_KEYS.body(path, 2, header.layout.config)?;
    let stand_in: Snark =
        serde_json::from_slice(&blocks[1]).map_err(|e| StepCacheError::Malformed {
            kind: STEP_KEYS.name,
            reason: format!("its stand-in: {e}"),
        })?;
    let keys = StepKeys::from_parts(params, header.layout.with(pk), certificate_key, stand_in)
        .map_err(|e| StepCacheError::Inconsistent(e.to_string()))?;
    if fr_hex(&keys.step_key) != header.keys_for.step_key {
        return Err(StepCacheError::Inconsistent(format!(
            "its key's digest is {}, the header says {}",
            fr_hex(&keys.step_key),
            header.keys_for.step_key
        )));
    }
    Ok(keys)
}

#[cfg(test)]
mod tests {
    //! The cache at a size CI affords: the "step keys" are a stand-in's own keys at k = 12 (an
    //! aggregation circuit's shape, a step proof's public inputs), which every check of
    //! [`load_step_keys`] treats as it treats the real step keys at k = 22.
    use std::fs;

    use halo2_base::halo2_proofs::{poly::commitment::Params, SerdeFormat};
    use rand::SeedableRng;
    use snark_verifier_sdk::halo2::aggregation::AggregationConfigParams;
    use tms_gadgets::proving::{params::kzg_params, MultiOpen, Transcript};

    use super::*;
    use crate::{
        chain_step::stand_in_inputs, key_cache::tests::rewritten, snark::node_protocol,
        stand_in::stand_in_with_keys,
    };

    /// Small step keys for the certificate key digest `certificate_key`.
    fn small_step_keys(params: &ParamsKZG<Bn256>, certificate_key: Fr) -> StepKeys {
        let layout = AggregationConfigParams {
            degree: params.k(),
            num_advice: 1,
            num_lookup_advice: 1,
            num_fixed: 1,
            lookup_bits: params.k() as usize - 1,
        };
        let inputs = stand_in_inputs(params);
        let (made, keys) = stand_in_with_keys(
            params,
            layout,
            &inputs,
            Transcript::Poseidon,
            MultiOpen::Shplonk,
        )
        .expect("a stand-in");
        let stand_in = Snark::new(
            node_protocol(params, &made.vk, inputs.len()),
            vec![inputs],
            made.proof,
        );
        StepKeys::from_parts(params, keys, certificate_key, stand_in).expect("step keys")
    }

    fn dir(name: &str) -> std::path::PathBuf {
        let d = std::env::temp_dir().join(format!("tms-step-cache-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn step_keys_round_trip_and_every_change_is_refused() {
        let params = kzg_params(12);
        let certificate_key = Fr::from(1234);
        let keys = small_step_keys(&params, certificate_key);
        let d = dir("round-trip");
        let path = d.join("chain-step.keys");
        let mut bytes = Vec::new();
        write_step_keys(&mut bytes, &params, &keys).unwrap();
        fs::write(&path, &bytes).unwrap();

        // Honest: the same proving key (verifying key first), digests and stand-in.
        let loaded = load_step_keys(&path, &params, certificate_key).expect("read back");
        let raw = |k: &StepKeys| k.keys.pk.to_bytes(SerdeFormat::RawBytes);
        assert_eq!(raw(&loaded), raw(&keys));
        assert_eq!(loaded.step_key, keys.step_key);
        assert_eq!(loaded.certificate_key, certificate_key);
        assert_eq!(loaded.stand_in().proof, keys.stand_in().proof);
        assert_eq!(loaded.keys.break_points, keys.keys.break_points);

        // Another certificate key: named, both digests in the message.
        let err = load_step_keys(&path, &params, Fr::from(1235))
            .err()
            .expect("refused");
        assert!(
            matches!(err, StepCacheError::OtherCertificateKey { .. }),
            "{err}"
        );
        assert!(err.to_string().contains(&fr_hex(&Fr::from(1235))), "{err}");

        // Other parameters (another tau at the same k).
        let other = ParamsKZG::<Bn256>::setup(12, rand_chacha::ChaCha20Rng::seed_from_u64(5));
        let err = load_step_keys(&path, &other, certificate_key)
            .err()
            .expect("refused");
        assert!(
            matches!(err, StepCacheError::OtherParameters { .. }),
            "{err}"
        );

        // One byte changed anywhere in the body or the trailer, or the file cut short.
        let header_end = 12 + u32::from_le_bytes(bytes[8..12].try_into().unwrap()) as usize;
        for at in [
            header_end + 10,
            bytes.len() / 2,
            bytes.len() - 40,
            bytes.len() - 1,
        ] {
            let mut altered = bytes.clone();
            altered[at] ^= 1;
            fs::write(&path, &altered).unwrap();
            let err = load_step_keys(&path, &params, certificate_key)
                .err()
                .expect("refused");
            assert!(matches!(err, StepCacheError::Altered), "byte {at}: {err}");
        }
        fs::write(&path, &bytes[..bytes.len() - 1000]).unwrap();
        let err = load_step_keys(&path, &params, certificate_key)
            .err()
            .expect("refused");
        assert!(matches!(err, StepCacheError::Altered), "{err}");

        // A header edited with its trailer recomputed: the contents are checked against it.
        fs::write(
            &path,
            rewritten(&bytes, |h| h["step_key"] = fr_hex(&Fr::from(7)).into()),
        )
        .unwrap();
        let err = load_step_keys(&path, &params, certificate_key)
            .err()
            .expect("refused");
        assert!(matches!(err, StepCacheError::Inconsistent(_)), "{err}");
        fs::write(&path, rewritten(&bytes, |h| h["num_instances"] = 16.into())).unwrap();
        let err = load_step_keys(&path, &params, certificate_key)
            .err()
            .expect("refused");
        assert!(matches!(err, StepCacheError::Inconsistent(_)), "{err}");

        // Not a step key file at all.
        fs::write(&path, b"{\"format\":\"tms-aggregation-vk-v1\"}").unwrap();
        let err = load_step_keys(&path, &params, certificate_key)
            .err()
            .expect("refused");
        assert!(matches!(err, StepCacheError::Malformed { .. }), "{err}");

        // The rewrite helper keeps an unedited file intact (so the refusals above are the
        // edits').
        fs::write(&path, rewritten(&bytes, |_| {})).unwrap();
        assert!(load_step_keys(&path, &params, certificate_key).is_ok());
        fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn a_stand_in_not_of_the_base_case_is_refused() {
        let params = kzg_params(12);
        let keys = small_step_keys(&params, Fr::from(1));
        let mut stand_in = keys.stand_in().clone();
        stand_in.instances[0][crate::ACCUMULATOR_LIMBS + 3] = Fr::from(1); // one epoch, not zero
        let StepKeys { keys, .. } = keys;
        let err = StepKeys::from_parts(&params, keys, Fr::from(1), stand_in)
            .err()
            .expect("refused");
        assert!(err.to_string().contains("base case"), "{err}");
    }
}
