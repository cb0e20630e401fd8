//! Importing a midnight-format powers-of-tau SRS: an honest file of any larger size gives the
//! same parameters as the SRS cut to k; each file with one thing changed (a power, the G2
//! generator, the size, a byte of a point) is refused.

use std::path::{Path, PathBuf};

use group::Group;
use midnight_curves::{G1Projective, G2Projective};
use midnight_proofs::utils::{helpers::ProcessedSerdeObject, SerdeFormat};
use rand_chacha::ChaCha20Rng;
use rand_core::SeedableRng;
use tms_cardano::{
    backend::Params12,
    ceremony::{import_midnight_srs, midnight_file_k, CeremonyError},
};

/// A random (not the insecure seed's) SRS of 2^6 points, as Midnight writes its files.
fn srs_bytes() -> (Params12, Vec<u8>) {
    let params = Params12::unsafe_setup(6, ChaCha20Rng::seed_from_u64(0x5eed));
    let mut bytes = vec![];
    params
        .write_custom(&mut bytes, SerdeFormat::RawBytes)
        .unwrap();
    (params, bytes)
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

fn raw<P: ProcessedSerdeObject>(point: &P) -> Vec<u8> {
    let mut out = vec![];
    point.write(&mut out, SerdeFormat::RawBytes).unwrap();
    out
}

fn params_bytes(params: &Params12) -> Vec<u8> {
    let mut out = vec![];
    params
        .write_custom(&mut out, SerdeFormat::RawBytes)
        .unwrap();
    out
}

#[test]
fn an_honest_srs_gives_the_parameters_cut_to_k() {
    let dir = tempdir();
    let (params, bytes) = srs_bytes();
    let path = write(&dir, "srs6", &bytes);
    for k in [1, 4, 6] {
        let (imported, file_k) = import_midnight_srs(&path, k).unwrap();
        assert_eq!(file_k, 6);
        let mut cut = params.clone();
        cut.downsize(k);
        assert_eq!(params_bytes(&imported), params_bytes(&cut), "k = {k}");
    }
}

#[test]
fn every_changed_srs_is_refused() {
    let dir = tempdir();
    let (_, bytes) = srs_bytes();
    let point = |i: usize| 4 + 96 * i;
    let g2_at = bytes.len() - 2 * 192;

    // A valid point where [tau^3]_1 should be.
    let mut wrong_power = bytes.clone();
    let other = raw(&G1Projective::generator().double());
    wrong_power[point(3)..point(4)].copy_from_slice(&other);
    let path = write(&dir, "wrong_power", &wrong_power);
    assert!(matches!(
        import_midnight_srs(&path, 6),
        Err(CeremonyError::Structure(_))
    ));
    // Cut below the changed point, the rest is never read: accepted.
    assert!(import_midnight_srs(&path, 1).is_ok());

    // Another first point.
    let mut wrong_first = bytes.clone();
    wrong_first[point(0)..point(1)].copy_from_slice(&other);
    let path = write(&dir, "wrong_first", &wrong_first);
    assert!(matches!(
        import_midnight_srs(&path, 6),
        Err(CeremonyError::Structure(_))
    ));

    // Another G2 generator.
    let mut wrong_g2 = bytes.clone();
    wrong_g2[g2_at..g2_at + 192].copy_from_slice(&raw(&G2Projective::generator().double()));
    let path = write(&dir, "wrong_g2", &wrong_g2);
    assert!(matches!(
        import_midnight_srs(&path, 6),
        Err(CeremonyError::Structure(_))
    ));

    // [tau]_2 = [1]_2.
    let mut tau_one = bytes.clone();
    tau_one[g2_at + 192..].copy_from_slice(&raw(&G2Projective::generator()));
    let path = write(&dir, "tau_one", &tau_one);
    assert!(matches!(
        import_midnight_srs(&path, 6),
        Err(CeremonyError::Structure(_))
    ));

    // A byte of a point changed: off the curve, refused when read.
    let mut flipped = bytes.clone();
    flipped[point(2) + 50] ^= 1;
    let path = write(&dir, "flipped", &flipped);
    assert!(matches!(
        import_midnight_srs(&path, 6),
        Err(CeremonyError::Io(_))
    ));

    // Too small for k, truncated, and a header no SRS has.
    let path = write(&dir, "srs6", &bytes);
    assert!(matches!(
        import_midnight_srs(&path, 7),
        Err(CeremonyError::Size(_))
    ));
    let path = write(&dir, "short", &bytes[..bytes.len() - 1]);
    assert!(matches!(
        import_midnight_srs(&path, 4),
        Err(CeremonyError::Size(_))
    ));
    let mut header = bytes.clone();
    header[..4].copy_from_slice(&64u32.to_le_bytes());
    let path = write(&dir, "header", &header);
    assert!(matches!(
        import_midnight_srs(&path, 4),
        Err(CeremonyError::Size(_))
    ));
}

#[test]
fn midnight_checksums_name_their_k() {
    assert_eq!(
        midnight_file_k("D3324910969C4CC54143B8045B649E5C3A4BD5FB7B8F85FE1B770F640CE1C803"),
        Some(13)
    );
    assert_eq!(midnight_file_k(&"0".repeat(64)), None);
}

/// A fresh folder under the target directory's temp space.
fn tempdir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "tms-ceremony-{}-{:?}",
        std::process::id(),
        std::thread::current().id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
