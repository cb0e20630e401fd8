//! `measure` for every scheme at n = 8, t = 4, one sample.

use naive_baselines::{measure, Scheme};

#[test]
fn measure_every_scheme_at_8_of_4() {
    for scheme in Scheme::ALL {
        let run = measure(scheme, 8, 4, 1, 11).unwrap_or_else(|e| panic!("{scheme:?}: {e}"));
        assert_eq!((run.scheme, run.n, run.t), (scheme, 8, 4));
        assert_eq!(run.verify_ms.len(), 1);
        assert!(run.verify_ms[0] > 0.0);
        let signatures = if scheme == Scheme::BlsBn254Aggregate {
            1
        } else {
            4
        };
        assert_eq!(run.certificate_bytes, 1 + signatures * run.signature_bytes);
        assert_eq!(run.distinct_signers, 4, "{scheme:?}");
        let expected_sig = match scheme {
            Scheme::SchnorrGrumpkin | Scheme::BlsBn254Individual | Scheme::BlsBn254Aggregate => 64,
            Scheme::LamportPlus => 8064,
            Scheme::WotsPlus => 2144,
            Scheme::MerkleWots => 2468,
            Scheme::SlhDsaSha2_128s => 7856,
        };
        assert_eq!(run.signature_bytes, expected_sig, "{scheme:?}");
        let json = serde_json::to_string(&run).expect("serializes");
        assert!(json.contains(&format!("\"{}\"", scheme.key())), "{json}");
    }
}

#[test]
fn pooled_schemes_report_their_pool() {
    // t = 12 > 8: the pool has 8 key pairs; the certificate still holds 12 signatures.
    let run = measure(Scheme::MerkleWots, 16, 12, 1, 3).expect("measures");
    assert!(run.distinct_signers <= 8);
    assert_eq!(run.certificate_bytes, 2 + 12 * 2468);
    assert!(run.notes.contains("pool of 8"));
}
