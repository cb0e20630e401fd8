//! BLS ad-hoc threshold multisignatures (ATMS) on BN254, proved in Halo2 (KZG over BN254): the
//! proposal of the ATMS note (section 2.3) with keys in G1 and signatures in G2.
//!
//! # Relation
//! Registration (native, [`Committee::register`]): `n` keys `vk_i` in G1, each with a proof of
//! possession; `root` = Poseidon Merkle root of the leaves `leaf(vk_i)`, `ivk = sum vk_i`.
//! The proof establishes, for the public statement `(committee digest, m, t)`:
//! - the non-signers are distinct leaves of `root` (strictly increasing leaf indices);
//! - there are at most `n - t` of them;
//! - `avk = ivk - sum(non-signer keys)`;
//! - `H(m)` is the message hash to G2 of `m`, computed in the circuit
//!   ([`tms_gadgets::signature::bls_hash`]);
//! - `e(avk, H(m)) = e(g1, sigma)`: one multi-Miller loop and one final exponentiation whose
//!   Fp12 result is **constrained** equal to one.
//!
//! # Public statement ([`AtmsInstance`], three field elements)
//! | offset | value |
//! |---|---|
//! | [`AtmsInstance::COMMITTEE`] | `Poseidon_leaf(root, ivk_a, ivk_b, n)`: the registration, fixed per epoch |
//! | [`AtmsInstance::MESSAGE`] | `m = keccak-256(bytes) mod r` ([`tms_gadgets::message::message_to_field`]) |
//! | [`AtmsInstance::THRESHOLD`] | `t` |
//!
//! The committee size `n` is hashed into the committee digest, and the circuit hashes the `n` of
//! its shape as a constant: committees of every size at one Merkle depth share the tree shape
//! (empty leaves are zero), so without it a verifying key made for `n' > n` would accept a
//! committee of `n` with up to `n' - n` signers fewer than claimed ([`committee_digest`]).
//!
//! An on-chain verifier pays per public input, so the committee (a root and a G1 point, which
//! as Fr elements would be one root plus six limbs) is one digest the registration contract
//! stores once. The message is `m` itself, what every circuit of the workspace takes and what a
//! contract computes from the message bytes with one `keccak256` and one `mod`: the circuit
//! hashes `m` to G2 ([`tms_gadgets::signature::bls_hash::hash_to_g2_in_circuit`]: Poseidon to
//! two Fq2 elements, the SvdW map on non-native Fp2 with the square roots as witnesses and the
//! sign rule constrained, the sum, and cofactor clearing by the x0 ladder and psi), so no
//! verifier needs G2 arithmetic. Signers sign `m` with the same hash
//! ([`tms_gadgets::signature::bls::SecretKey::sign`]). The threshold stays in the clear so that
//! one verifying key serves every `t`.
//!
//! # Encodings (what the Poseidon inputs are)
//! Fq elements are held in-circuit as three limbs of 88 bits (halo2-ecc's `FpChip`, limbs range
//! checked, the top one to 78 bits). Two limbs pack into one Fr word `l_a + 2^88 l_b`:
//! - a key `(x, y)` is the two words `[x_0 + 2^88 x_1, x_2 + 2^88 s]` with `s` the parity of the
//!   canonical `y`; in-circuit `y` is constrained below `p` (so `s` is the parity of the canonical
//!   representative, and `-vk` cannot pass for `vk`), and the point is on the curve, so `(x, s)`
//!   determines the key. The leaf is [`tms_gadgets::hash::NativeHash::hash_leaf`] of the two
//!   words (one permutation, length-tagged, domain-separated from nodes).
//!
//! The x limbs are not constrained to be canonical (below `p`) where the hash binds them: a
//! leaf is computed natively from canonical limbs, so by collision resistance the in-circuit
//! limbs are those very limbs.
//!
//! # Subgroup checks
//! - Keys, `ivk`, `avk`: BN254 G1 has cofactor 1, so the on-curve check on every loaded G1 point
//!   (halo2-ecc `load_private`) puts it in the order-r group.
//! - `H(m)`: computed in the circuit from `m`, ending with the cofactor clearing, so it lies in
//!   G2 (each step is constrained; the output is the native `bls::hash_message(m)`).
//! - `sigma`: a witness no one else sees, on the twist `E'(Fp2)` whose cofactor `2p - r` has small
//!   factors. The optimal ate pairing is bilinear only on G2; halo2-ecc's Miller loop uses the
//!   Frobenius as `[p]` (true only on G2). So the circuit checks sigma in G2 with the test of
//!   El Housni, Guillevic and Piellard (2022) for BN curves,
//!   `[x0 + 1]Q + psi([x0]Q) + psi^2([x0]Q) = psi^3([2 x0]Q)` (one 63-bit ladder, about a tenth of
//!   the pairing's cells); the native tests check the identity against `[r]Q = O` on G2 points
//!   and on twist points outside G2.
//!
//! # Where the cells go
//! The circuit is a [`tms_gadgets::hybrid::HybridCircuit`]: the non-native BN254 work (key
//! loading and the `y < p` checks, the key aggregation, the hash of `m` to G2, the G2 subgroup
//! check and the pairing) runs on halo2-base's generic gate, and every Poseidon permutation
//! (leaves, nodes, digests, the LogUp transcript, the hash of `m` to Fq2) on the bank's round
//! gates ([`tms_gadgets::hash::PoseidonGateChip`], 183 cells against about 2,250 on the generic
//! gate), linked to halo2-base's cells by copy
//! constraints. The note's baseline ([`NodeHash::StockPoseidon`]) keeps its tree on halo2-base's
//! stock Poseidon.
//!
//! # Membership strategies ([`Strategy`])
//! All three prove the same relation; one parameter, the *cut* level `c` (`0 <= c <= depth`),
//! spans them. Below the cut each non-signer slot walks its own path (`c` node hashes); the
//! nodes of level `c` are a witness row from which the upper tree is recomputed once
//! (`2^(depth-c) - 1` node hashes) and whose root is the committee root; each enabled slot's
//! level-`c` node must be the row entry at its position `index >> c`, a lookup proven by a
//! log-derivative (LogUp) identity `sum_j e_j / (gamma - u_j) = sum_i m_i / (gamma - r_i)` with
//! `u = node + beta * position`, the challenges `beta, gamma` squeezed in-circuit from a Poseidon
//! transcript of the root (which binds the row), the slots' nodes, positions and flags, and the
//! multiplicities `m_i` (Fiat-Shamir inside the circuit: the prover fixes every value before
//! the challenges exist, and a false lookup survives with probability at most
//! `(slots + row) / |Fr|` per hash query).
//! - [`Strategy::Paths`] (`c = depth`): the note's one path per non-signer; no row, no lookup.
//! - [`Strategy::SharedUpper`] (`0 < c < depth`): a multiproof whose upper nodes are shared.
//! - [`Strategy::AllLeaves`] (`c = 0`): the whole tree recomputed from all leaves; the
//!   multiplicities are the non-signer bitmap.
//!
//! [`Strategy::cheapest`] picks the cut by the cost model in [`estimate_cells`].
//!
//! # Non-signer slots
//! A shape has a fixed `capacity` of slots; slot `j` holds a flag `e_j`, a leaf index and a key.
//! Flags are bits and non-increasing (enabled slots first); an enabled slot's index is above the
//! previous slot's (strictly increasing, so no key is subtracted twice); a disabled slot's key is
//! not subtracted, its path is not checked, and it adds nothing to the lookup. `count = sum e_j`
//! and `t` are range checked and `n - t - count` is range checked to be non-negative.
//!
//! Use: members' keys with proofs of possession -> [`Committee::register`] -> signatures ->
//! [`AtmsWitness::new`] -> [`setup`] / [`keygen`] / [`prove`] / [`verify`].
#![deny(missing_docs)]

mod circuit;
mod error;
mod native;
mod prover;
pub mod stock;
mod witness;

pub use circuit::{
    components, synthesize_membership, synthesize_membership_with, synthesize_recorded,
    MembershipOutput,
};
pub use error::AtmsError;
pub use native::{
    committee_digest, depth_of, key_words, Committee, NodeHash, LIMB_BITS, NUM_LIMBS,
};
pub use prover::{
    keygen, measure, mock_check, prove, prove_with_transcript, read_vk, setup, verify,
    verify_with_vk, AtmsKeys,
};
pub use witness::{
    estimate_cells, AtmsInstance, AtmsShape, AtmsWitness, MembershipValues, NonSignerSlot, Strategy,
};
