package main

// A hashed statement (PROGRAM.md's statement_hash): the Groth16 circuit's one
// public input is keccak256 of the statement's words, each 32 bytes
// big-endian, reduced mod r. A contract hashes the statement it builds
// (CertificateVerifier.sol, GROTH16_STATEMENT_HASHED) and pays for one public
// input (one ecMul and ecAdd in the verifier) instead of one per word.

import (
	"math/big"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	"github.com/consensys/gnark/frontend"
	sha3hash "github.com/consensys/gnark/std/hash/sha3"
	"github.com/consensys/gnark/std/math/bits"
	"github.com/consensys/gnark/std/math/uints"
	"golang.org/x/crypto/sha3"
)

// StatementKeccak256 is the one statement hash PROGRAM.md knows.
const StatementKeccak256 = "keccak256"

// statementKeccak is keccak256(w_0 || w_1 || ...) mod r, each word 32 bytes
// big-endian (what a contract computes with keccak256(abi.encodePacked(...))).
func statementKeccak(words []fr.Element) fr.Element {
	h := sha3.NewLegacyKeccak256()
	for i := range words {
		b := words[i].Bytes() // big-endian, canonical
		h.Write(b[:])
	}
	var out fr.Element
	out.SetBigInt(new(big.Int).SetBytes(h.Sum(nil))) // reduces mod r
	return out
}

// statementKeccakCircuit is statementKeccak in circuit. Each word is
// decomposed into its canonical 254 bits (bits.ToBinary at the field's bit
// length checks the decomposition is below r), so a word has exactly one
// byte encoding, as in the contract.
func statementKeccakCircuit(api frontend.API, words []frontend.Variable) (frontend.Variable, error) {
	u, err := uints.NewBytes(api)
	if err != nil {
		return nil, err
	}
	h, err := sha3hash.NewLegacyKeccak256(api)
	if err != nil {
		return nil, err
	}
	for _, w := range words {
		wb := bits.ToBinary(api, w) // 254 bits, little-endian, canonical
		be := make([]uints.U8, 32)
		for i := 0; i < 32; i++ {
			// byte i (big-endian) holds bits 8(31-i) .. 8(31-i)+7
			var v frontend.Variable = 0
			for j := 7; j >= 0; j-- {
				k := 8*(31-i) + j
				v = api.Mul(v, 2)
				if k < len(wb) {
					v = api.Add(v, wb[k])
				}
			}
			be[i] = u.ValueOf(v)
		}
		h.Write(be)
	}
	digest := h.Sum()
	var acc frontend.Variable = 0
	for _, b := range digest { // big-endian bytes; the sum is taken mod r
		acc = api.Add(api.Mul(acc, 256), u.Value(b))
	}
	return acc, nil
}
