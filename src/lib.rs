//! The library behind the `tms` command-line tool: the file formats every scheme reads and writes
//! ([`formats`]), reading and writing them safely ([`io`]), the one interface every (scheme,
//! backend) pair implements and the tool drives ([`interface`]), and the subcommands
//! ([`commands`]).
//! It is a library so that the parsers can be fuzzed and property-tested (`fuzzing`, built for tests and the `fuzzing` feature) outside
//! the binary.
#![deny(missing_docs)]
// Outside data never reaches an `unwrap`: errors are one line naming the file. (`expect` is kept
// for internal invariants, each with the reason it cannot fail.)
#![cfg_attr(not(test), deny(clippy::unwrap_used))]

pub mod backends;
pub mod checks;
pub mod commands;
pub mod formats;
#[cfg(any(test, feature = "fuzzing"))]
pub mod fuzzing;
pub mod interface;
pub mod io;
pub mod options;
pub mod schemes;
