package main

import (
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/consensys/gnark-crypto/ecc"
	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
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
	a := assign(w)
	a.Statement[0] = new(big.Int).Add(a.Statement[0].(*big.Int), fr.Modulus())
	if err := solve("public word + r", a); err == nil {
		t.Error("a public word raised by r accepted")
	}
	t.Logf("total %.1f s", time.Since(start).Seconds())
}
