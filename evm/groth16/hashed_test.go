package main

import (
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
)

// The twin's program with its statement hashed: the honest witness solves
// with one public input, keccak256 of the statement's words mod r; another
// hash, and a statement word changed under the same hash, are refused.
func TestHashedStatement(t *testing.T) {
	p, err := LoadProgram("testdata/twin_k10.program.json")
	if err != nil {
		t.Fatal(err)
	}
	w, err := LoadWitness("testdata/twin_k10.witness.json", p)
	if err != nil {
		t.Fatal(err)
	}
	p.StatementHash = StatementKeccak256
	o := VerifierOptions{}
	public := p.Statement(w)
	if len(public) != 1 {
		t.Fatalf("%d public inputs with a hashed statement", len(public))
	}
	honest := NewVerifierAssignment(p, o, w)
	if err := solveProgram(t, "hashed statement, honest", p, o, honest); err != nil {
		t.Fatal(err)
	}
	var one fr.Element
	one.SetOne()
	otherHash := NewVerifierAssignment(p, o, w)
	var h fr.Element
	h.Add(&public[0], &one)
	otherHash.StatementHash[0] = h
	if solveProgram(t, "hashed statement, another hash", p, o, otherHash) == nil {
		t.Fatal("another hash accepted")
	}
	// The threshold word (public instance 2) changed, the hash kept: refused
	// (by the hash, the first check to fail; the replay would too).
	otherWord := NewVerifierAssignment(p, o, w)
	var v fr.Element
	v.Add(&w.Instances[p.PublicInstances[2]], &one)
	otherWord.StatementWords[2] = v
	if solveProgram(t, "hashed statement, a word changed", p, o, otherWord) == nil {
		t.Fatal("a changed statement word accepted")
	}
	// The native hash is the contract's: keccak256 of 32-byte big-endian words.
	words := []fr.Element{fr.NewElement(1), fr.NewElement(2)}
	got := statementKeccak(words)
	// keccak256(uint256(1) || uint256(2)) mod r, from js-sha3 (solc-js's own
	// dependency, evm/solc/node_modules), pinned.
	want, _ := new(fr.Element).SetString("17856212038068422348937662473302114032147350344021172871924595963388108456668")
	if !got.Equal(want) {
		t.Fatalf("statementKeccak(1, 2) = %s, want %s", got.String(), want.String())
	}
}
