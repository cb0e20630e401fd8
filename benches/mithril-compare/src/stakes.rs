//! The certificate both systems prove: lottery parameters, stake distribution and message, all
//! derived from one seed so that each system's run sees the same inputs.

use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};
use sha2::{Digest, Sha256};

/// How stake is spread over the registered parties.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StakeDistribution {
    /// Stakes drawn uniformly from [1, 1000] by the seed.
    Uniform,
    /// Zipf with exponent 1: party `i` (0-based, registration order) holds
    /// `max(1, 1,000,000 / (i + 1))`, as `mithril_snark::example_certificate(.., skewed = true)`
    /// draws them. With 3,000 parties the largest holds about 11.6 % of the stake and the
    /// smallest 0.004 %.
    Zipf,
}

impl StakeDistribution {
    /// Parses `uniform` or `zipf`.
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "uniform" => Some(Self::Uniform),
            "zipf" | "skewed" => Some(Self::Zipf),
            _ => None,
        }
    }

    /// Its command-line name.
    pub fn name(self) -> &'static str {
        match self {
            Self::Uniform => "uniform",
            Self::Zipf => "zipf",
        }
    }
}

/// Stakes of `parties` parties in registration order, a pure function of the distribution and
/// the seed.
pub fn stakes(distribution: StakeDistribution, parties: usize, seed: u64) -> Vec<u64> {
    match distribution {
        StakeDistribution::Uniform => {
            let mut rng = ChaCha20Rng::seed_from_u64(seed ^ 0x5354_414b_4553);
            (0..parties).map(|_| 1 + rng.next_u64() % 1000).collect()
        }
        StakeDistribution::Zipf => (0..parties as u64)
            .map(|i| (1_000_000 / (i + 1)).max(1))
            .collect(),
    }
}

/// The 32-byte message both systems sign: SHA-256 of a fixed tag and the seed.
pub fn message(seed: u64) -> [u8; 32] {
    let mut hasher = Sha256::new();
    hasher.update(b"mithril-compare certificate message");
    hasher.update(seed.to_le_bytes());
    hasher.finalize().into()
}

/// `phi_f` as the fraction `(num, 10,000)` both circuits take; refused unless it is a multiple of
/// 1/10,000.
pub fn phi_f_fraction(value: f64) -> Result<(u64, u64), String> {
    let num = (value * 10_000.0).round();
    if (num / 10_000.0 - value).abs() > 1e-12 {
        return Err(format!("phi_f = {value} is not a multiple of 1/10,000"));
    }
    Ok((num as u64, 10_000))
}
