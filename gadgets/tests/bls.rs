//! Native BLS on BN254: the SHA-256 hash to G2 (proofs of possession) against gnark-crypto's
//! vectors and RFC 9380's expand_message_xmd vectors, subgroup and determinism properties, the
//! scheme itself (messages hashed by `bls::hash_message`).

use halo2_base::halo2_proofs::halo2curves::{
    bn256::{Fq, Fq2, Fr, G1Affine, G2Affine},
    ff::{Field, PrimeField},
    group::{prime::PrimeCurveAffine, Curve},
};
use num_bigint::BigUint;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::Value;
use tms_gadgets::{
    message::message_to_field,
    signature::bls::{
        self, expand_message_xmd, hash_to_g2, is_in_g2, psi, verify_aggregate, PublicKey,
        SecretKey, Signature, POP_DST, XMD_SUITE_DST,
    },
};

fn fq(dec: &str) -> Fq {
    let mut bytes = dec.parse::<BigUint>().unwrap().to_bytes_le();
    bytes.resize(32, 0);
    Fq::from_repr(bytes.try_into().unwrap()).unwrap()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[test]
fn expand_message_xmd_matches_rfc9380_vectors() {
    let dst = b"QUUX-V01-CS02-with-expander-SHA256-128";
    assert_eq!(
        hex(&expand_message_xmd(b"", dst, 0x20)),
        "68a985b87eb6b46952128911f2a4412bbc302a9d759667f87f7a21d803f07235"
    );
    assert_eq!(
        hex(&expand_message_xmd(b"abc", dst, 0x20)),
        "d8ccab23b5985ccea865c6c97b6e5b8350e794e603b4b97902f53a8a0d605615"
    );
}

#[test]
fn hash_to_g2_matches_gnark_crypto() {
    let text = include_str!("../../tests/vectors/gnark_bn254_hash_to_g2.json");
    let v: Value = serde_json::from_str(text).unwrap();
    for case in v["vectors"].as_array().unwrap() {
        let msg: Vec<u8> = (0..case["msg_hex"].as_str().unwrap().len() / 2)
            .map(|i| {
                u8::from_str_radix(&case["msg_hex"].as_str().unwrap()[2 * i..2 * i + 2], 16)
                    .unwrap()
            })
            .collect();
        let dst = case["dst"].as_str().unwrap().as_bytes();
        let c = |k: &str, i: usize| fq(case[k][i].as_str().unwrap());
        let expected = G2Affine {
            x: Fq2 {
                c0: c("x_c0_c1", 0),
                c1: c("x_c0_c1", 1),
            },
            y: Fq2 {
                c0: c("y_c0_c1", 0),
                c1: c("y_c0_c1", 1),
            },
        };
        assert_eq!(
            hash_to_g2(&msg, dst),
            expected,
            "message {:?}",
            case["msg_hex"]
        );
    }
}

#[test]
fn hash_to_g2_is_in_the_subgroup_deterministic_and_separated() {
    let a = hash_to_g2(b"epoch 1", XMD_SUITE_DST);
    assert!(is_in_g2(&a));
    assert_eq!(a, hash_to_g2(b"epoch 1", XMD_SUITE_DST));
    assert_ne!(a, hash_to_g2(b"epoch 2", XMD_SUITE_DST));
    assert_ne!(a, hash_to_g2(b"epoch 1", POP_DST));
    // A point of the twist outside G2 is detected: the map's output before cofactor clearing.
    let raw = tms_gadgets::signature::bls::map_to_curve_svdw(Fq2::ONE).to_affine();
    assert!(!is_in_g2(&raw));
}

#[test]
fn psi_is_multiplication_by_p_on_g2() {
    let g = G2Affine::generator().to_curve();
    let p_mod_r = {
        let p = BigUint::from_bytes_le((-Fq::ONE).to_repr().as_ref()) + 1u8;
        let r = BigUint::from_bytes_le((-Fr::ONE).to_repr().as_ref()) + 1u8;
        let mut bytes = (p % r).to_bytes_le();
        bytes.resize(32, 0);
        Fr::from_repr(bytes.try_into().unwrap()).unwrap()
    };
    assert_eq!(psi(&g).to_affine(), (g * p_mod_r).to_affine());
}

#[test]
fn sign_verify_aggregate_and_possession() {
    let mut rng = ChaCha8Rng::seed_from_u64(0xb15);
    let sks: Vec<SecretKey> = (0..3).map(|_| SecretKey::random(&mut rng)).collect();
    let pks: Vec<PublicKey> = sks.iter().map(SecretKey::public_key).collect();
    let msg = message_to_field(b"sidechain epoch 42");
    let sigs: Vec<Signature> = sks.iter().map(|sk| sk.sign(msg)).collect();
    for (pk, sig) in pks.iter().zip(&sigs) {
        assert!(pk.verify(msg, sig));
        assert!(!pk.verify(message_to_field(b"another message"), sig));
    }
    assert!(
        !pks[0].verify(msg, &sigs[1]),
        "a signature under another key"
    );
    let agg = Signature::aggregate(&sigs);
    assert!(verify_aggregate(&PublicKey::aggregate(&pks), msg, &agg));
    assert!(
        !verify_aggregate(&PublicKey::aggregate(&pks[..2]), msg, &agg),
        "a missing key"
    );
    for (sk, pk) in sks.iter().zip(&pks) {
        let pop = sk.prove_possession();
        assert!(pk.verify_possession(&pop));
        assert!(
            !pk.verify(message_to_field(&pk.to_bytes()), &pop),
            "a proof of possession is not a message signature"
        );
    }
    assert!(!pks[0].verify_possession(&sks[1].prove_possession()));
    // A rogue key pk' = x*g1 - pk_0 cannot produce a proof of possession without x - sk_0.
    assert!(PublicKey(G1Affine::identity()).validate().is_err());
}

/// The vectors the independent Python check (`tests/vectors/check_bls_py_ecc.py`, py_ecc's
/// bn128) verifies: keys, H(m) and signatures of a few messages, plus one aggregate.
fn pairing_vectors() -> String {
    use halo2_base::halo2_proofs::halo2curves::CurveAffine;
    let dec = |x: &Fq| BigUint::from_bytes_le(x.to_repr().as_ref()).to_string();
    let g1 = |p: &G1Affine| {
        let c = p.coordinates().unwrap();
        format!("[\"{}\", \"{}\"]", dec(c.x()), dec(c.y()))
    };
    let g2 = |p: &G2Affine| {
        format!(
            "[[\"{}\", \"{}\"], [\"{}\", \"{}\"]]",
            dec(&p.x.c0),
            dec(&p.x.c1),
            dec(&p.y.c0),
            dec(&p.y.c1)
        )
    };
    let mut rng = ChaCha8Rng::seed_from_u64(0x9e);
    let sks: Vec<SecretKey> = (0..3).map(|_| SecretKey::random(&mut rng)).collect();
    let mut cases = vec![];
    for (i, sk) in sks.iter().enumerate() {
        let msg = format!("tms vector {i}");
        let m = message_to_field(msg.as_bytes());
        let h = bls::hash_message(m);
        cases.push(format!(
            "  {{\"msg\": \"{msg}\", \"pk\": {}, \"h\": {}, \"sig\": {}}}",
            g1(&sk.public_key().0),
            g2(&h),
            g2(&sk.sign(m).0)
        ));
    }
    let msg = "tms aggregate";
    let pks: Vec<PublicKey> = sks.iter().map(SecretKey::public_key).collect();
    let m = message_to_field(msg.as_bytes());
    let agg = Signature::aggregate(&sks.iter().map(|sk| sk.sign(m)).collect::<Vec<_>>());
    cases.push(format!(
        "  {{\"msg\": \"{msg}\", \"pk\": {}, \"h\": {}, \"sig\": {}}}",
        g1(&PublicKey::aggregate(&pks)),
        g2(&bls::hash_message(m)),
        g2(&agg.0)
    ));
    format!(
        "{{\"hash\": \"BN254G2_POSEIDON_SVDW_RO of keccak-256(msg) mod r, tag TMS-BLS-H2G2-MSG\", \"cases\": [\n{}\n]}}\n",
        cases.join(",\n")
    )
}

#[test]
fn committed_pairing_vectors_are_current() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/vectors/bls_bn254_pairing.json"
    );
    let fresh = pairing_vectors();
    if std::env::var_os("TMS_REGENERATE_VECTORS").is_some() {
        std::fs::write(path, &fresh).unwrap();
    }
    let committed = std::fs::read_to_string(path).unwrap_or_default();
    assert_eq!(
        committed, fresh,
        "regenerate with TMS_REGENERATE_VECTORS=1 cargo test -p tms-gadgets --test bls"
    );
}
