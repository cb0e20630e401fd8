//! Which BN254 field arithmetic this build runs, and whether this CPU can run it.
//!
//! On x86-64 the workspace builds halo2curves' assembly for BN254's Fq and Fr (its `asm`
//! feature, enabled in `gadgets/Cargo.toml`): Montgomery multiplication with the BMI2 and ADX
//! instructions (`mulx`, `adcx`, `adox`), which every x86-64 CPU since about 2015 has. It cuts
//! the CPU time of every BN254 proof by about an eighth (`docs/src/guides/benchmarks.md`). The
//! results are the same field elements as the portable code's: proofs made by either verify
//! under the other (checked by hand both ways; in CI the assembly build verifies the committed
//! fixtures the portable build made, `tests/wasm_agreement.rs`, and its verdicts must match the
//! WebAssembly verifier's, which never uses the assembly). `RUSTFLAGS="--cfg tms_portable"`
//! builds the portable code instead, for a CPU without those instructions.

/// Why this build cannot run on this CPU, in one line, or `None` when it can: a build with the
/// assembly on a CPU without BMI2 or ADX would stop on an illegal instruction at its first
/// field multiplication.
pub fn unsupported() -> Option<String> {
    #[cfg(all(target_arch = "x86_64", not(tms_portable)))]
    {
        let missing: Vec<&str> = [
            ("bmi2", std::is_x86_feature_detected!("bmi2")),
            ("adx", std::is_x86_feature_detected!("adx")),
        ]
        .into_iter()
        .filter_map(|(name, present)| (!present).then_some(name))
        .collect();
        if !missing.is_empty() {
            return Some(format!(
                "this build's BN254 arithmetic is x86-64 assembly that needs the {} \
                 instruction set{} this CPU lacks; rebuild with \
                 RUSTFLAGS=\"--cfg tms_portable\" for the portable code",
                missing.join(" and "),
                if missing.len() > 1 { "s" } else { "" }
            ));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use halo2_base::halo2_proofs::halo2curves::{
        bn256::{Fq, Fr},
        ff::{FromUniformBytes, PrimeField},
    };
    use num_bigint::BigUint;
    use rand::SeedableRng;

    /// The machine that runs the tests runs this build.
    #[test]
    fn this_cpu_runs_this_build() {
        assert_eq!(unsupported(), None);
    }

    /// The field arithmetic this build runs (the assembly on x86-64) agrees with integer
    /// arithmetic mod p, on random elements and on the edges (0, 1, p - 1, 1/2), for both
    /// fields; so does the reduction of 64 uniform bytes (transcript challenges, hashes to the
    /// field), where halo2curves' assembly once gave wrong results (its issue 100).
    fn agrees_with_integers<F: PrimeField<Repr = [u8; 32]> + FromUniformBytes<64>>(modulus: &str) {
        let p = BigUint::parse_bytes(modulus.trim_start_matches("0x").as_bytes(), 16).unwrap();
        let int = |x: &F| BigUint::from_bytes_le(x.to_repr().as_ref());
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(7);
        let edges = [F::ZERO, F::ONE, -F::ONE, F::from(2).invert().unwrap()];
        let mut values: Vec<F> = edges.to_vec();
        values.extend((0..200).map(|_| F::random(&mut rng)));
        for (i, a) in values.iter().enumerate() {
            let b = values[(i * 7 + 3) % values.len()];
            let (x, y) = (int(a), int(&b));
            assert_eq!(int(&(*a * b)), (&x * &y) % &p, "mul");
            assert_eq!(int(&a.square()), (&x * &x) % &p, "square");
            assert_eq!(int(&(*a + b)), (&x + &y) % &p, "add");
            assert_eq!(int(&(*a - b)), (&x + &p - &y) % &p, "sub");
            assert_eq!(int(&-*a), (&p - &x) % &p, "neg");
            if let Some(inv) = Option::<F>::from(a.invert()) {
                assert_eq!((int(&inv) * &x) % &p, BigUint::from(1u8), "invert");
            }
        }
        // All ones, 2^511 and zero: the largest, a top bit alone, the smallest.
        let mut wide = [[0xffu8; 64], [0u8; 64], [0u8; 64]];
        wide[1][63] = 0x80;
        for bytes in wide.into_iter().chain((0..200).map(|_| {
            let mut b = [0u8; 64];
            rand::RngCore::fill_bytes(&mut rng, &mut b);
            b
        })) {
            let expected = BigUint::from_bytes_le(&bytes) % &p;
            assert_eq!(
                int(&F::from_uniform_bytes(&bytes)),
                expected,
                "from_uniform_bytes"
            );
        }
    }

    #[test]
    fn field_arithmetic_agrees_with_integers() {
        agrees_with_integers::<Fr>(Fr::MODULUS);
        agrees_with_integers::<Fq>(Fq::MODULUS);
    }
}
