package main

// gnark's mpcsetup for each curve the ceremony commands serve: BN254 (the
// EVM's Groth16 verifiers) and BLS12-381 (the Plutus verifier, Cardano). The
// two packages have the same API on different types; ceremonyCurve holds one
// of them behind functions, so ceremony.go is written once.

import (
	"bytes"
	"fmt"
	"io"
	"os"

	"path/filepath"

	"github.com/consensys/gnark-crypto/ecc"
	bls12381 "github.com/consensys/gnark-crypto/ecc/bls12-381"
	frbls "github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	cmpcbls "github.com/consensys/gnark-crypto/ecc/bls12-381/mpcsetup"
	"github.com/consensys/gnark-crypto/ecc/bn254"
	frbn "github.com/consensys/gnark-crypto/ecc/bn254/fr"
	cmpcbn "github.com/consensys/gnark-crypto/ecc/bn254/mpcsetup"
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
	// initPhase2 is the circuit's initial phase-2 state (no randomness) and
	// the evaluations its seal needs (gnark's Phase2.Initialize).
	initPhase2 func(ccs constraint.ConstraintSystem, commons io.WriterTo) (state, evals io.WriterTo, err error)
	// readPhase2Init reads the initial state and evaluations kept in dir
	// (checked against their pin by the caller).
	readPhase2Init func(dir string) (state, evals io.WriterTo, err error)
	// verifyPhase2From verifies the phase-2 files in order from the initial
	// state and evaluations given (initPhase2's or readPhase2Init's), seals
	// them and returns the keys: gnark's VerifyPhase2 without its Initialize.
	verifyPhase2From func(state, evals, commons io.WriterTo, beacon []byte, files []string) (groth16.ProvingKey, groth16.VerifyingKey, error)
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
	Verify(next *T) error
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
//
// Phase 1's contributions and seal run on every core (phase1Parallel, the
// same files and results as gnark's Phase1.Contribute and VerifyPhase1).
func ceremonyCurveOf[P1, P2, C, R, U, F, E any, PP1 ceremonyFileState[P1], PP2 ceremonyFileState[P2], PC serialized[C], PU serialized[U]](
	id ecc.ID,
	newPhase1 func(uint64) PP1,
	init2 func(PP2, *R, *C) E,
	verify2 func(*R, *C, []byte, ...PP2) (groth16.ProvingKey, groth16.VerifyingKey, error),
	seal2 func(PP2, *C, *E, []byte) (groth16.ProvingKey, groth16.VerifyingKey),
	evals evalsCodec[E],
	phase1 phase1Parallel[U, PU, C, PC, F],
) ceremonyCurve {
	// verifyNext is gnark's Phase1.Verify of next (bytes) after prev.
	verifyNext := func(prev PP1, next []byte) (PP1, error) {
		p := PP1(new(P1))
		if err := readBytes(next, p); err != nil {
			return nil, err
		}
		return p, prev.Verify(p)
	}
	return ceremonyCurve{
		id:        id,
		newPhase1: func(n uint64) io.WriterTo { return newPhase1(n) },
		contribute: func(phase int, in, out string) error {
			if phase == 1 {
				return phase1.contribute(in, out, func(prev, next []byte) error {
					p := PP1(new(P1))
					if err := readBytes(prev, p); err != nil {
						return err
					}
					_, err := verifyNext(p, next)
					return err
				})
			}
			return contributeFile[P2, PP2](in, out)
		},
		verifyPhase1: func(n uint64, beacon []byte, files []string) (io.WriterTo, error) {
			// mpcsetup.VerifyPhase1: each contribution verified after the
			// one before it, from the initial state; then the seal
			prev := newPhase1(n)
			for _, f := range files {
				data, err := os.ReadFile(f)
				if err != nil {
					return nil, err
				}
				if prev, err = verifyNext(prev, data); err != nil {
					return nil, fmt.Errorf("%s: %w", f, err)
				}
			}
			var last bytes.Buffer
			if _, err := prev.WriteTo(&last); err != nil {
				return nil, err
			}
			return phase1.seal(last.Bytes(), beacon)
		},
		readCommons: func(file string) (io.WriterTo, error) {
			commons := PC(new(C))
			return commons, readFrom(file, commons)
		},
		initPhase2: func(ccs constraint.ConstraintSystem, c io.WriterTo) (io.WriterTo, io.WriterTo, error) {
			r, err := r1csAs[R](ccs)
			if err != nil {
				return nil, nil, err
			}
			commons, err := commonsOf[C](c)
			if err != nil {
				return nil, nil, err
			}
			p := PP2(new(P2))
			e := init2(p, r, commons)
			return p, writerOf[E]{v: &e, write: evals.write}, nil
		},
		readPhase2Init: func(dir string) (io.WriterTo, io.WriterTo, error) {
			p := PP2(new(P2))
			if err := readFrom(ceremonyFile(dir, 2, 0), p); err != nil {
				return nil, nil, err
			}
			var e E
			data, err := os.ReadFile(filepath.Join(dir, phase2EvalsFile))
			if err != nil {
				return nil, nil, err
			}
			if err := evals.read(bytes.NewReader(data), &e); err != nil {
				return nil, nil, fmt.Errorf("%s: %w", phase2EvalsFile, err)
			}
			return p, writerOf[E]{v: &e, write: evals.write}, nil
		},
		verifyPhase2From: func(init, ev, c io.WriterTo, beacon []byte, files []string) (groth16.ProvingKey, groth16.VerifyingKey, error) {
			commons, err := commonsOf[C](c)
			if err != nil {
				return nil, nil, err
			}
			prev, ok := init.(PP2)
			e, ok2 := ev.(writerOf[E])
			if !ok || !ok2 {
				return nil, nil, fmt.Errorf("phase 2's initial state of type %T, %T for another curve", init, ev)
			}
			states, err := readStates[P2, PP2](files)
			if err != nil {
				return nil, nil, err
			}
			// as mpcsetup.VerifyPhase2, from the given initial state
			for i, next := range states {
				if err := prev.Verify((*P2)(next)); err != nil {
					return nil, nil, fmt.Errorf("%s: %w", files[i], err)
				}
				prev = next
			}
			pk, vk := seal2(prev, commons, e.v, beacon)
			return pk, vk, nil
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
		ecc.BN254, mpcbn.NewPhase1,
		func(p *mpcbn.Phase2, r *csbn254.R1CS, c *mpcbn.SrsCommons) mpcbn.Phase2Evaluations {
			return p.Initialize(r, c)
		},
		mpcbn.VerifyPhase2,
		(*mpcbn.Phase2).Seal,
		evalsCodecOf(
			func(w io.Writer) *bn254.Encoder { return bn254.NewEncoder(w, bn254.RawEncoding()) },
			func(r io.Reader) *bn254.Decoder { return bn254.NewDecoder(r, bn254.NoSubgroupChecks()) },
			func(e *mpcbn.Phase2Evaluations) ([]any, *[][]bn254.G1Affine, *[][]int) {
				return []any{&e.G1.A, &e.G1.B, &e.G1.VKK, &e.G2.B}, &e.G1.CKK, &e.PublicAndCommitmentCommitted
			}),
		phase1Parallel[cmpcbn.UpdateProof, *cmpcbn.UpdateProof, mpcbn.SrsCommons, *mpcbn.SrsCommons, frbn.Element]{
			update: func(c *mpcbn.SrsCommons, tau, alpha, beta *frbn.Element) {
				updatePowers(c.G1.Tau, c.G1.AlphaTau, c.G1.BetaTau, c.G2.Tau, &c.G2.Beta, tau, alpha, beta)
			},
			updateValues: cmpcbn.UpdateValues,
			beacon:       cmpcbn.BeaconContributions,
		}),
	"bls12-381": ceremonyCurveOf[mpcbls.Phase1, mpcbls.Phase2, mpcbls.SrsCommons, csbls.R1CS](
		ecc.BLS12_381, mpcbls.NewPhase1,
		func(p *mpcbls.Phase2, r *csbls.R1CS, c *mpcbls.SrsCommons) mpcbls.Phase2Evaluations {
			return p.Initialize(r, c)
		},
		mpcbls.VerifyPhase2,
		(*mpcbls.Phase2).Seal,
		evalsCodecOf(
			func(w io.Writer) *bls12381.Encoder { return bls12381.NewEncoder(w, bls12381.RawEncoding()) },
			func(r io.Reader) *bls12381.Decoder { return bls12381.NewDecoder(r, bls12381.NoSubgroupChecks()) },
			func(e *mpcbls.Phase2Evaluations) ([]any, *[][]bls12381.G1Affine, *[][]int) {
				return []any{&e.G1.A, &e.G1.B, &e.G1.VKK, &e.G2.B}, &e.G1.CKK, &e.PublicAndCommitmentCommitted
			}),
		phase1Parallel[cmpcbls.UpdateProof, *cmpcbls.UpdateProof, mpcbls.SrsCommons, *mpcbls.SrsCommons, frbls.Element]{
			update: func(c *mpcbls.SrsCommons, tau, alpha, beta *frbls.Element) {
				updatePowers(c.G1.Tau, c.G1.AlphaTau, c.G1.BetaTau, c.G2.Tau, &c.G2.Beta, tau, alpha, beta)
			},
			updateValues: cmpcbls.UpdateValues,
			beacon:       cmpcbls.BeaconContributions,
		}),
}

// readBytes decodes data into v, all of it.
func readBytes(data []byte, v io.ReaderFrom) error {
	n, err := v.ReadFrom(bytes.NewReader(data))
	if err == nil && int(n) != len(data) {
		err = fmt.Errorf("%d trailing bytes", len(data)-int(n))
	}
	return err
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
