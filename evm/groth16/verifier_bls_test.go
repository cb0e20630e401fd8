package main

import (
	"math/big"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/consensys/gnark-crypto/ecc"
	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	"github.com/consensys/gnark/backend/groth16"
	"github.com/consensys/gnark/frontend"
)

// TestBLSSyntheticCircuit: the synthetic program replayed over BLS12-381's
// Fr (verifier_bls.go), compiled once and solved by gnark's R1CS solver: the
// honest witness solves; each one-change witness of syntheticCorruptions and
// a public word raised by BN254's r (the same value mod r) are refused.
func TestBLSSyntheticCircuit(t *testing.T) {
	p := syntheticProgram(t)
	w := SyntheticWitness(p)
	start := time.Now()
	ccs, secs, err := compileBLSProgram(p)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("compiled over BLS12-381: %d constraints (%.1f s)", ccs.GetNbConstraints(), secs)
	solve := func(name string, a *BLSVerifierCircuit) error {
		t0 := time.Now()
		wit, err := frontend.NewWitness(a, ecc.BLS12_381.ScalarField())
		if err != nil {
			t.Fatal(err)
		}
		err = isSolvedR1CS(ccs, wit)
		msg := "solved"
		if err != nil {
			msg = "not solved: " + strings.SplitN(err.Error(), "\n", 2)[0]
		}
		t.Logf("%s: %s (%.1f s)", name, msg, time.Since(t0).Seconds())
		return err
	}
	assign := func(w *Witness) *BLSVerifierCircuit {
		a, err := NewBLSVerifierAssignment(p, w)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	if err := solve("honest", assign(w)); err != nil {
		t.Fatalf("honest witness rejected: %v", err)
	}
	// The system kept (-circuit) and read back is the same: the honest witness
	// solves it (its hints found by their IDs) and a public word changed does not.
	fresh := ccs
	path := filepath.Join(t.TempDir(), "kept.ccs")
	if err := writeKeptCircuit(path, keptCircuitID{Target: "bls12-381"}, ccs); err != nil {
		t.Fatal(err)
	}
	ccs = groth16.NewCS(ecc.BLS12_381)
	if err := readKeptCircuit(path, keptCircuitID{Target: "bls12-381"}, ccs); err != nil {
		t.Fatal(err)
	}
	if ccs.GetNbConstraints() != fresh.GetNbConstraints() {
		t.Fatalf("read back %d constraints of %d", ccs.GetNbConstraints(), fresh.GetNbConstraints())
	}
	if err := solve("honest, kept and read back", assign(w)); err != nil {
		t.Fatalf("honest witness rejected by the read-back system: %v", err)
	}
	a := assign(w)
	a.Statement[0] = new(big.Int).Add(a.Statement[0].(*big.Int), big.NewInt(1))
	if err := solve("a public word + 1, kept and read back", a); err == nil {
		t.Fatal("the read-back system accepts another statement")
	}
	ccs = fresh
	for name, f := range syntheticCorruptions() {
		wb := copyWitness(w)
		f(p, wb)
		if err := solve(name, assign(wb)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if len(p.PublicInstances) == 0 {
		t.Fatal("the synthetic program has no public instance")
	}
	a = assign(w)
	a.Statement[0] = new(big.Int).Add(a.Statement[0].(*big.Int), fr.Modulus())
	if err := solve("public word + r", a); err == nil {
		t.Error("a public word raised by r accepted")
	}
	t.Logf("total %.1f s", time.Since(start).Seconds())
}

// The replay over BLS12-381 with a hashed statement (the Plutus verifier's
// statement_hash: keccak256 of the words mod BLS12-381's r, one public input):
// the honest witness solves; refused are a word changed under the same hash,
// the hash changed, and a word raised by BN254's r with the hash recomputed
// (the same value mod r, another byte encoding).
func TestBLSSyntheticHashedStatement(t *testing.T) {
	p := syntheticProgram(t)
	p.StatementHash = StatementKeccak256
	w := SyntheticWitness(p)
	ccs, secs, err := compileBLSProgram(p)
	if err != nil {
		t.Fatal(err)
	}
	if n := ccs.GetNbPublicVariables() - 1; n != 1 {
		t.Fatalf("%d public inputs, want the one hash", n)
	}
	t.Logf("compiled over BLS12-381, statement hashed: %d constraints (%.1f s)", ccs.GetNbConstraints(), secs)
	solves := func(a *BLSVerifierCircuit) bool {
		wit, err := frontend.NewWitness(a, ecc.BLS12_381.ScalarField())
		if err != nil {
			t.Fatal(err)
		}
		return isSolvedR1CS(ccs, wit) == nil
	}
	honest, err := NewBLSVerifierAssignment(p, w)
	if err != nil {
		t.Fatal(err)
	}
	if want := plutusStatementKeccak(blsStatementWords(p, w)); honest.StatementHash[0].(*big.Int).Cmp(want) != 0 {
		t.Fatal("the assignment's hash is not the Plutus verifier's")
	}
	if !solves(honest) {
		t.Fatal("honest witness rejected")
	}
	a, _ := NewBLSVerifierAssignment(p, w)
	a.StatementWords[0] = new(big.Int).Add(a.StatementWords[0].(*big.Int), big.NewInt(1))
	if solves(a) {
		t.Error("a word changed under the same hash accepted")
	}
	a, _ = NewBLSVerifierAssignment(p, w)
	a.StatementHash[0] = new(big.Int).Add(a.StatementHash[0].(*big.Int), big.NewInt(1))
	if solves(a) {
		t.Error("another hash accepted")
	}
	a, _ = NewBLSVerifierAssignment(p, w)
	raised := blsStatementWords(p, w)
	raised[0].Add(raised[0], fr.Modulus())
	a.StatementWords[0] = raised[0]
	a.StatementHash[0] = plutusStatementKeccak(raised)
	if solves(a) {
		t.Error("a word raised by BN254's r (hash recomputed) accepted")
	}
}
