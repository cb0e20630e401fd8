package main

// gnark's mpcsetup for each curve the ceremony commands serve: BN254 (the
// EVM's Groth16 verifiers) and BLS12-381 (the Plutus verifier, Cardano). The
// two packages have the same API on different types; ceremonyCurve holds one
// of them behind functions, so ceremony.go is written once.

import (
	"fmt"
	"io"

	"github.com/consensys/gnark-crypto/ecc"
	"github.com/consensys/gnark/backend/groth16"
	mpcbls "github.com/consensys/gnark/backend/groth16/bls12-381/mpcsetup"
	mpcbn "github.com/consensys/gnark/backend/groth16/bn254/mpcsetup"
	"github.com/consensys/gnark/constraint"
	csbls "github.com/consensys/gnark/constraint/bls12-381"
	csbn254 "github.com/consensys/gnark/constraint/bn254"
)

// ceremonyCurve is gnark's mpcsetup of one curve. Commons (phase 1 sealed)
// travel as io.WriterTo: each function takes only its own curve's.
type ceremonyCurve struct {
	id ecc.ID
	// newPhase1 is the initial phase-1 state of a domain of n.
	newPhase1 func(n uint64) io.WriterTo
	// contribute reads the state in, adds one contribution, writes out.
	contribute func(phase int, in, out string) error
	// verifyPhase1 verifies the phase-1 files in order and seals them.
	verifyPhase1 func(n uint64, beacon []byte, files []string) (io.WriterTo, error)
	// readCommons reads a commons.bin.
	readCommons func(file string) (io.WriterTo, error)
	// initPhase2 is the circuit's initial phase-2 state (no randomness).
	initPhase2 func(ccs constraint.ConstraintSystem, commons io.WriterTo) (io.WriterTo, error)
	// verifyPhase2 verifies the phase-2 files in order from the initial
	// state it recomputes, seals them and returns the keys.
	verifyPhase2 func(ccs constraint.ConstraintSystem, commons io.WriterTo, beacon []byte, files []string) (groth16.ProvingKey, groth16.VerifyingKey, error)
}

// ceremonyFileState is a ceremony state file's type (a Phase1 or a Phase2).
type ceremonyFileState[T any] interface {
	*T
	io.ReaderFrom
	io.WriterTo
	Contribute()
}

// contributeFile adds one contribution to the state in in, written to out.
func contributeFile[T any, PT ceremonyFileState[T]](in, out string) error {
	p := PT(new(T))
	if err := readFrom(in, p); err != nil {
		return err
	}
	p.Contribute()
	return writeTo(out, p)
}

// readStates reads every file in order.
func readStates[T any, PT ceremonyFileState[T]](files []string) ([]PT, error) {
	out := make([]PT, len(files))
	for i, f := range files {
		out[i] = PT(new(T))
		if err := readFrom(f, out[i]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// commonsOf is c as curve C's commons, or an error naming the mismatch.
func commonsOf[C any](c io.WriterTo) (*C, error) {
	commons, ok := any(c).(*C)
	if !ok {
		return nil, fmt.Errorf("phase-1 commons of type %T for another curve", c)
	}
	return commons, nil
}

// r1csAs is ccs as curve R's R1CS, or an error naming the mismatch.
func r1csAs[R any](ccs constraint.ConstraintSystem) (*R, error) {
	r, ok := any(ccs).(*R)
	if !ok {
		return nil, fmt.Errorf("constraint system of type %T, want %T", ccs, new(R))
	}
	return r, nil
}

// ceremonyCurveOf builds a ceremonyCurve from one mpcsetup package's
// functions (P1, P2: its Phase1 and Phase2; C: SrsCommons; R: the R1CS).
func ceremonyCurveOf[P1, P2, C, R any, PP1 ceremonyFileState[P1], PP2 ceremonyFileState[P2], PC interface {
	*C
	io.ReaderFrom
	io.WriterTo
}](
	id ecc.ID,
	newPhase1 func(uint64) PP1,
	verify1 func(uint64, []byte, ...PP1) (C, error),
	init2 func(PP2, *R, *C),
	verify2 func(*R, *C, []byte, ...PP2) (groth16.ProvingKey, groth16.VerifyingKey, error),
) ceremonyCurve {
	return ceremonyCurve{
		id:        id,
		newPhase1: func(n uint64) io.WriterTo { return newPhase1(n) },
		contribute: func(phase int, in, out string) error {
			if phase == 1 {
				return contributeFile[P1, PP1](in, out)
			}
			return contributeFile[P2, PP2](in, out)
		},
		verifyPhase1: func(n uint64, beacon []byte, files []string) (io.WriterTo, error) {
			states, err := readStates[P1, PP1](files)
			if err != nil {
				return nil, err
			}
			commons, err := verify1(n, beacon, states...)
			if err != nil {
				return nil, err
			}
			return PC(&commons), nil
		},
		readCommons: func(file string) (io.WriterTo, error) {
			commons := PC(new(C))
			return commons, readFrom(file, commons)
		},
		initPhase2: func(ccs constraint.ConstraintSystem, c io.WriterTo) (io.WriterTo, error) {
			r, err := r1csAs[R](ccs)
			if err != nil {
				return nil, err
			}
			commons, err := commonsOf[C](c)
			if err != nil {
				return nil, err
			}
			p := PP2(new(P2))
			init2(p, r, commons)
			return p, nil
		},
		verifyPhase2: func(ccs constraint.ConstraintSystem, c io.WriterTo, beacon []byte, files []string) (groth16.ProvingKey, groth16.VerifyingKey, error) {
			r, err := r1csAs[R](ccs)
			if err != nil {
				return nil, nil, err
			}
			commons, err := commonsOf[C](c)
			if err != nil {
				return nil, nil, err
			}
			states, err := readStates[P2, PP2](files)
			if err != nil {
				return nil, nil, err
			}
			return verify2(r, commons, beacon, states...)
		},
	}
}

// ceremonyCurves are the curves the ceremony commands serve, by name.
var ceremonyCurves = map[string]ceremonyCurve{
	"bn254": ceremonyCurveOf[mpcbn.Phase1, mpcbn.Phase2, mpcbn.SrsCommons, csbn254.R1CS](
		ecc.BN254, mpcbn.NewPhase1, mpcbn.VerifyPhase1,
		func(p *mpcbn.Phase2, r *csbn254.R1CS, c *mpcbn.SrsCommons) { p.Initialize(r, c) },
		mpcbn.VerifyPhase2),
	"bls12-381": ceremonyCurveOf[mpcbls.Phase1, mpcbls.Phase2, mpcbls.SrsCommons, csbls.R1CS](
		ecc.BLS12_381, mpcbls.NewPhase1, mpcbls.VerifyPhase1,
		func(p *mpcbls.Phase2, r *csbls.R1CS, c *mpcbls.SrsCommons) { p.Initialize(r, c) },
		mpcbls.VerifyPhase2),
}

// ceremonyCurveNamed is the curve called name ("" is bn254, as ceremonies
// made before the field existed).
func ceremonyCurveNamed(name string) (ceremonyCurve, error) {
	if name == "" {
		name = "bn254"
	}
	c, ok := ceremonyCurves[name]
	if !ok {
		return ceremonyCurve{}, fmt.Errorf("unknown curve %q (bn254 or bls12-381)", name)
	}
	return c, nil
}
