//! The certificate both systems prove: lottery parameters, stake distribution and message, all
//! derived from one seed so that each system's run sees the same inputs.

use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};
use sha2::{Digest, Sha256};

/// How stake is spread over the registered parties.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StakeDistribution {
    /// Every party holds the same stake (1,000,000).
    Uniform,
    /// Zipf with exponent 1: the party of rank `r` (1-based) holds `floor(10^12 / r)`; ranks are
    /// shuffled over the registration order by the seed. With 3,000 parties the largest holds
    /// about 11.6 % of the stake and the smallest 0.004 %.
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
        StakeDistribution::Uniform => vec![1_000_000; parties],
        StakeDistribution::Zipf => {
            let mut ranks: Vec<u64> = (1..=parties as u64).collect();
            let mut rng = ChaCha20Rng::seed_from_u64(seed ^ 0x5354_414b_4553);
            // Fisher-Yates shuffle of the ranks over the registration order.
            for i in (1..ranks.len()).rev() {
                let j = (rng.next_u64() % (i as u64 + 1)) as usize;
                ranks.swap(i, j);
            }
            ranks
                .into_iter()
                .map(|rank| 1_000_000_000_000 / rank)
                .collect()
        }
    }
}

/// The 32-byte message both systems sign: SHA-256 of a fixed tag and the seed.
pub fn message(seed: u64) -> [u8; 32] {
    let mut hasher = Sha256::new();
    hasher.update(b"mithril-compare certificate message");
    hasher.update(seed.to_le_bytes());
    hasher.finalize().into()
}
