package main

// program-count-bls: the replay circuit's size with BLS12-381 as the outer
// curve (verifier_bls.go), for Cardano's Groth16 wrapper (issue 47).

import (
	"errors"
	"flag"
	"fmt"
	"time"

	"github.com/consensys/gnark-crypto/ecc"
	"github.com/consensys/gnark/constraint"
	"github.com/consensys/gnark/frontend"
	"github.com/consensys/gnark/frontend/cs/r1cs"
)

// compileBLSProgram compiles BLSVerifierCircuit over BLS12-381's Fr.
func compileBLSProgram(p *Program) (constraint.ConstraintSystem, float64, error) {
	c, err := NewBLSVerifierCircuit(p)
	if err != nil {
		return nil, 0, err
	}
	t := time.Now()
	ccs, err := frontend.Compile(ecc.BLS12_381.ScalarField(), r1cs.NewBuilder, c)
	return ccs, time.Since(t).Seconds(), err
}

func programCountBLS(args []string) error {
	fs := flag.NewFlagSet("program-count-bls", flag.ContinueOnError)
	program := fs.String("program", "", "the program (PROGRAM.md)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *program == "" {
		return errors.New("-program is required")
	}
	p, err := LoadProgram(*program)
	if err != nil {
		return err
	}
	fmt.Printf("program-count-bls program=%s %s\n", *program, programSummary(p))
	c0 := cpuSeconds()
	ccs, secs, err := compileBLSProgram(p)
	if err != nil {
		return err
	}
	fmt.Printf("program-count-bls outer=bls12-381 constraints=%d commitments=%d committed_wires=%d public=%d wires=%d compile_s=%.1f compile_cpu_s=%.1f peak_rss_mib=%.0f\n",
		ccs.GetNbConstraints(), len(ccs.GetCommitments().CommitmentIndexes()), committedWires(ccs), ccs.GetNbPublicVariables()-1,
		ccs.GetNbInternalVariables()+ccs.GetNbSecretVariables()+ccs.GetNbPublicVariables(), secs, cpuSeconds()-c0, peakRSSMiB())
	return nil
}
