//! The BN254 module's `Fr::from(u64)` table, computed instead of shipped.
//!
//! halo2curves-axiom 0.7.3 implements `From<u64> for Fr` by reading `FR_TABLE`, the 65,536
//! values 0..2^16 in Montgomery form (feature `bn256-table`, which halo2-axiom 0.5.3 turns on
//! unconditionally): 2 MiB of the module's data. `wasm/strip-fr-table.mjs` cuts those bytes from
//! the built module and records where they were (custom section `tms_fr_table`); the package's
//! JavaScript takes [`entries`] from the module ([`crate::abi::tms_fr_table_entries`]), writes
//! them into the module's memory itself (Rust never writes through a pointer to const data), and
//! loads the module only if [`check`] holds.
//!
//! Neither function reads the table: [`entries`] adds canonical limbs (from `to_repr`),
//! [`check`] compares `Fr::from` (the table) with `i` counted up by field addition.

use std::hint::black_box;

use ff::{Field, PrimeField};
use tms_gadgets::Fr;

/// The table's entries: `Fr::from(i)` reads entry `i` for `i` below this.
pub const ENTRIES: usize = 1 << 16;
/// Bytes per entry: four little-endian u64 limbs.
pub const ENTRY_BYTES: usize = 32;

/// The table's bytes as the linker lays them out: entry `i` holds the Montgomery form of `i`,
/// `i·R mod r` (R = 2^256), as little-endian limbs. Montgomery form `x·R` is the field element
/// whose canonical value is `x·R`, so the entries are the multiples of `R mod r` reduced mod r:
/// `R mod r` and `r` come from the field (`to_repr` of `2^128 · 2^128` and of `-1`), the
/// multiples by adding and reducing the canonical limbs (an addition per entry, where `to_repr`
/// of each multiple would cost a Montgomery reduction: most of the load time in WebAssembly).
pub fn entries() -> Vec<u8> {
    let two_128 = Fr::from_raw([0, 0, 1, 0]);
    let montgomery_factor = limbs(&(two_128 * two_128));
    let modulus = add(limbs(&-Fr::ONE), [1, 0, 0, 0]).0;
    let mut multiple = [0u64; 4];
    let mut out = Vec::with_capacity(ENTRIES * ENTRY_BYTES);
    for _ in 0..ENTRIES {
        out.extend(multiple.iter().flat_map(|limb| limb.to_le_bytes()));
        // Both terms are below r < 2^254: no carry out, and one subtraction reduces.
        let (sum, _) = add(multiple, montgomery_factor);
        multiple = if at_least(&sum, &modulus) {
            sub(sum, modulus)
        } else {
            sum
        };
    }
    out
}

/// The canonical value of `x` as little-endian limbs.
fn limbs(x: &Fr) -> [u64; 4] {
    let repr = x.to_repr();
    std::array::from_fn(|i| u64::from_le_bytes(repr.as_ref()[8 * i..8 * i + 8].try_into().unwrap()))
}

/// `a + b` and the carry out.
fn add(a: [u64; 4], b: [u64; 4]) -> ([u64; 4], bool) {
    let mut carry = false;
    let sum = std::array::from_fn(|i| {
        let (s, c1) = a[i].overflowing_add(b[i]);
        let (s, c2) = s.overflowing_add(carry as u64);
        carry = c1 | c2;
        s
    });
    (sum, carry)
}

/// `a - b` for `a >= b`.
fn sub(a: [u64; 4], b: [u64; 4]) -> [u64; 4] {
    let mut borrow = false;
    std::array::from_fn(|i| {
        let (d, b1) = a[i].overflowing_sub(b[i]);
        let (d, b2) = d.overflowing_sub(borrow as u64);
        borrow = b1 | b2;
        d
    })
}

/// `a >= b`.
fn at_least(a: &[u64; 4], b: &[u64; 4]) -> bool {
    a.iter().rev().cmp(b.iter().rev()) != std::cmp::Ordering::Less
}

/// Whether `Fr::from(i)`, which reads the table, equals `i` counted up by field addition
/// (`0 + 1 + ... + 1`), which does not, for every entry (`black_box`: every read goes to
/// memory). Equality compares the limbs, and both sides are reduced, so a single wrong byte of
/// the table fails it. The same property as `Fr::from(i) == Fr::from_raw([i, 0, 0, 0])` (tested
/// below) at an addition per entry instead of a Montgomery multiplication: a third of the load
/// time in WebAssembly.
pub fn check() -> bool {
    let mut counted = Fr::ZERO;
    let mut agree = true;
    for i in 0..ENTRIES as u64 {
        agree &= Fr::from(black_box(i)) == counted;
        counted += Fr::ONE;
    }
    agree
}

#[cfg(test)]
mod tests {
    use super::*;
    use tms_gadgets::halo2_base::halo2_proofs::halo2curves::bn256::FR_TABLE;

    #[test]
    fn the_entries_are_the_linked_tables_bytes() {
        let computed = entries();
        assert_eq!(FR_TABLE.len(), ENTRIES);
        // The table's memory as the module holds it (the bytes the build script cuts out): only
        // this test views a field element's bytes; the package never does.
        let linked = unsafe {
            std::slice::from_raw_parts(FR_TABLE.as_ptr().cast::<u8>(), ENTRIES * ENTRY_BYTES)
        };
        assert_eq!(computed.len(), linked.len());
        let first_difference = computed.iter().zip(linked).position(|(a, b)| a != b);
        assert_eq!(first_difference, None);
    }

    #[test]
    fn the_table_agrees_with_field_arithmetic() {
        assert!(check());
        let from_raw = (0..ENTRIES as u64).all(|i| Fr::from(i) == Fr::from_raw([i, 0, 0, 0]));
        assert!(from_raw);
    }

    #[test]
    fn each_entry_is_its_index_in_montgomery_form() {
        let r_inverse = Fr::from_raw([0, 0, 1, 0]).square().invert().unwrap();
        for (i, entry) in entries().chunks(ENTRY_BYTES).enumerate().step_by(4099) {
            let value = Fr::from_repr(entry.try_into().unwrap()).unwrap();
            assert_eq!(
                value * r_inverse,
                Fr::from_raw([i as u64, 0, 0, 0]),
                "entry {i}"
            );
        }
    }
}
