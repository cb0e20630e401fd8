//! The parallel reader of parameter files against midnight-proofs' own: the same parameters, the
//! same refusals.

use midnight_proofs::utils::SerdeFormat;
use tms_cardano::backend::{
    insecure_test_params, params_from_raw_bytes, params_from_raw_bytes_with, Params12, PointChecks,
    MAX_PARAMS_K,
};

fn raw(params: &Params12) -> Vec<u8> {
    let mut bytes = Vec::new();
    params
        .write_custom(&mut bytes, SerdeFormat::RawBytes)
        .unwrap();
    bytes
}

fn read_serially(bytes: &[u8]) -> std::io::Result<Params12> {
    Params12::read_custom(&mut &bytes[..], SerdeFormat::RawBytes)
}

#[test]
fn parallel_reader_reads_what_read_custom_reads() {
    let bytes = raw(&insecure_test_params(8));
    let parallel = params_from_raw_bytes(&bytes).unwrap();
    assert_eq!(raw(&parallel), bytes);
    assert_eq!(raw(&read_serially(&bytes).unwrap()), bytes);
}

#[test]
fn parallel_reader_refuses_what_read_custom_refuses() {
    let bytes = raw(&insecure_test_params(6));
    let n = 1usize << 6;
    // A coordinate changed in the first point of g, of g_lagrange, and the last of g_lagrange:
    // off the curve.
    for point in [0, n, 2 * n - 1] {
        let mut bad = bytes.clone();
        bad[4 + point * 96 + 10] ^= 1;
        assert!(read_serially(&bad).is_err(), "point {point}: read_custom");
        assert!(params_from_raw_bytes(&bad).is_err(), "point {point}");
    }
    // A coordinate at or above the modulus (all ones).
    let mut bad = bytes.clone();
    bad[4..4 + 48].fill(0xff);
    assert!(read_serially(&bad).is_err());
    assert!(params_from_raw_bytes(&bad).is_err());
    // Cut short, in the points and in g2.
    for len in [3, 4 + 96 * n, bytes.len() - 1] {
        assert!(
            params_from_raw_bytes(&bytes[..len]).is_err(),
            "cut at {len}"
        );
    }
    // A header above the largest k: refused before any allocation.
    let mut huge = bytes.clone();
    huge[..4].copy_from_slice(&(MAX_PARAMS_K + 1).to_le_bytes());
    let error = params_from_raw_bytes(&huge).unwrap_err().to_string();
    assert!(error.contains("above the largest supported"), "{error}");
}

/// With the subgroup checked for the verifier's points only: the same parameters from good
/// bytes; a point off the curve, anywhere, still refused (an error, no panic), and so is a cut
/// file.
#[test]
fn verifier_points_mode_still_refuses_points_off_the_curve() {
    let bytes = raw(&insecure_test_params(6));
    let n = 1usize << 6;
    let verifier_points = |b: &[u8]| params_from_raw_bytes_with(b, PointChecks::VerifierPoints);
    assert_eq!(raw(&verifier_points(&bytes).unwrap()), bytes);
    let flip = |offset: usize| {
        let mut bad = bytes.clone();
        bad[offset] ^= 1;
        bad
    };
    for point in [0, 1, n, 2 * n - 1] {
        let bad = flip(4 + point * 96 + 10);
        assert!(verifier_points(&bad).is_err(), "point {point}");
    }
    // [s] G2, the file's last point; a cut file.
    assert!(verifier_points(&flip(bytes.len() - 10)).is_err());
    assert!(verifier_points(&bytes[..bytes.len() - 1]).is_err());
}

/// Both readers on the cached k = 16 test parameters: `cargo test --release -p tms-cardano
/// --test params -- --ignored --nocapture`.
#[test]
#[ignore = "a measurement"]
fn reading_time_at_k_16() {
    let bytes = raw(&tms_cardano::backend::kzg_params(16));
    let time = |f: &dyn Fn() -> Params12| {
        let start = std::time::Instant::now();
        let cpu = cpu_seconds();
        let params = f();
        (start.elapsed().as_secs_f64(), cpu_seconds() - cpu, params)
    };
    let (serial_wall, serial_cpu, a) = time(&|| read_serially(&bytes).unwrap());
    let (parallel_wall, parallel_cpu, b) = time(&|| params_from_raw_bytes(&bytes).unwrap());
    let (verifier_wall, verifier_cpu, c) =
        time(&|| params_from_raw_bytes_with(&bytes, PointChecks::VerifierPoints).unwrap());
    assert_eq!(raw(&a), raw(&b));
    assert_eq!(raw(&a), raw(&c));
    println!(
        "params k = 16 ({} MB), {} threads: read_custom {serial_wall:.2} s wall, {serial_cpu:.2} CPU-s; parallel {parallel_wall:.2} s wall, {parallel_cpu:.2} CPU-s; verifier points only {verifier_wall:.2} s wall, {verifier_cpu:.2} CPU-s",
        bytes.len() / 1_000_000,
        rayon::current_num_threads()
    );
}

/// This process's user + system CPU seconds (Linux).
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let fields: Vec<&str> = stat
        .rsplit(')')
        .next()
        .unwrap_or("")
        .split_whitespace()
        .collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|v| v.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    (ticks(11) + ticks(12)) / 100.0
}
