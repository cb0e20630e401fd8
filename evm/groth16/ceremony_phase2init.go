package main

// Phase 2's initial state and evaluations, computed once and kept.
//
// gnark's Phase2.Initialize (the Lagrange basis in G1 and G2: four FFTs over
// the domain with a scalar multiplication per butterfly, then one pass over
// the constraints) is the ceremony's most expensive verifier step: hours of
// CPU on a 2^22 domain. gnark's VerifyPhase2 runs it again every time, so
// ceremony-verify, ceremony-extract and a tamper test paid it three times.
// ceremony-verify now keeps what it computed, phase2-0.bin (the state the
// first contributor starts from) and phase2-evals.bin (what the seal needs),
// and prints one SHA-256 over both; ceremony-extract -phase2-sha256 takes them
// by that digest, as -phase1-sha256 takes commons.bin: the caller pins what
// its own earlier run computed, so nothing the coordinator hands over is
// trusted. The contributions are verified and sealed exactly as VerifyPhase2
// does (each Phase2.Verify after the one before it, then Phase2.Seal).

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/consensys/gnark/constraint"
)

// phase2EvalsFile is the name of the kept evaluations in a ceremony directory.
const phase2EvalsFile = "phase2-evals.bin"

// phase2InitDigest is SHA-256 over the SHA-256 of phase2-0.bin then that of
// phase2-evals.bin, hex: the pin of phase 2's initial state (each file hashed
// on its own, so no bytes can move from one file to the other under one pin).
func phase2InitDigest(dir string) (string, error) {
	h := sha256.New()
	for _, f := range []string{ceremonyFile(dir, 2, 0), filepath.Join(dir, phase2EvalsFile)} {
		file, err := os.Open(f)
		if err != nil {
			return "", err
		}
		one := sha256.New()
		_, err = io.Copy(one, file)
		file.Close()
		if err != nil {
			return "", err
		}
		h.Write(one.Sum(nil))
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// checkPhase2Pin is nil when dir's phase-2 initial files have SHA-256 want.
func checkPhase2Pin(dir, want string) error {
	got, err := phase2InitDigest(dir)
	if err != nil {
		return err
	}
	if got != want {
		return fmt.Errorf("phase2-0.bin and %s have SHA-256 %s, not the pinned %s (verify phase 2's initial state again without -phase2-sha256)", phase2EvalsFile, got, want)
	}
	return nil
}

// writePhase2Init writes phase 2's initial state and evaluations into dir
// and returns their digest.
func writePhase2Init(dir string, p2, evals io.WriterTo) (string, error) {
	if err := writeTo(ceremonyFile(dir, 2, 0), p2); err != nil {
		return "", err
	}
	if err := writeTo(filepath.Join(dir, phase2EvalsFile), evals); err != nil {
		return "", err
	}
	return phase2InitDigest(dir)
}

// evalsCodec reads and writes one curve's Phase2Evaluations (gnark has no
// serialisation for them): the points uncompressed, read back without the
// subgroup checks, because the file is taken only under its pinned digest.
type evalsCodec[E any] struct {
	write func(io.Writer, *E) error
	read  func(io.Reader, *E) error
}

type encoder interface{ Encode(any) error }
type decoder interface{ Decode(any) error }

// evalsCodecOf builds the codec from a curve's encoder and decoder and the
// evaluations' fields: the plain point slices, the committed bases (one
// slice per commitment) and the committed wires' indices.
func evalsCodecOf[E, G1 any, Enc encoder, Dec decoder](
	newEncoder func(io.Writer) Enc,
	newDecoder func(io.Reader) Dec,
	fields func(*E) (points []any, committedBases *[][]G1, committed *[][]int),
) evalsCodec[E] {
	return evalsCodec[E]{
		write: func(w io.Writer, e *E) error {
			enc := newEncoder(w)
			points, bases, committed := fields(e)
			for _, p := range points {
				if err := enc.Encode(p); err != nil {
					return err
				}
			}
			if err := enc.Encode([]uint64{uint64(len(*bases))}); err != nil {
				return err
			}
			for i := range *bases {
				if err := enc.Encode(&(*bases)[i]); err != nil {
					return err
				}
			}
			indices := make([][]uint64, len(*committed))
			for i, row := range *committed {
				for _, v := range row {
					indices[i] = append(indices[i], uint64(v))
				}
			}
			return enc.Encode(indices)
		},
		read: func(r io.Reader, e *E) error {
			dec := newDecoder(r)
			points, bases, committed := fields(e)
			for _, p := range points {
				if err := dec.Decode(p); err != nil {
					return err
				}
			}
			var n []uint64
			if err := dec.Decode(&n); err != nil {
				return err
			}
			if len(n) != 1 || n[0] > 1<<16 {
				return fmt.Errorf("%s: a bad count of commitments", phase2EvalsFile)
			}
			*bases = make([][]G1, n[0])
			for i := range *bases {
				if err := dec.Decode(&(*bases)[i]); err != nil {
					return err
				}
			}
			var indices [][]uint64
			if err := dec.Decode(&indices); err != nil {
				return err
			}
			*committed = make([][]int, len(indices))
			for i, row := range indices {
				for _, v := range row {
					(*committed)[i] = append((*committed)[i], int(v))
				}
			}
			return nil
		},
	}
}

// writerOf is v written by write, as an io.WriterTo.
type writerOf[E any] struct {
	v     *E
	write func(io.Writer, *E) error
}

func (w writerOf[E]) WriteTo(out io.Writer) (int64, error) {
	c := &countingWriter{w: out}
	err := w.write(c, w.v)
	return c.n, err
}

type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// keepPhase2Init computes phase 2's initial state from commons (gnark's
// Initialize), checks that phase2-0.bin is that state, keeps the evaluations
// in phase2-evals.bin and returns both (the verification goes on from these,
// not from the files read back).
func keepPhase2Init(dir string, curve ceremonyCurve, ccs constraint.ConstraintSystem, commons io.WriterTo) (state, evals io.WriterTo, err error) {
	state, evals, err = curve.initPhase2(ccs, commons)
	if err != nil {
		return nil, nil, err
	}
	var computed bytes.Buffer
	if _, err := state.WriteTo(&computed); err != nil {
		return nil, nil, err
	}
	onFile, err := os.ReadFile(ceremonyFile(dir, 2, 0))
	if err != nil {
		return nil, nil, err
	}
	if !bytes.Equal(computed.Bytes(), onFile) {
		return nil, nil, errors.New("phase2-0.bin is not the circuit's initial phase-2 state computed from commons.bin")
	}
	return state, evals, writeTo(filepath.Join(dir, phase2EvalsFile), evals)
}

// printPhase2Init prints the digest of phase 2's kept initial state, the pin
// ceremony-extract -phase2-sha256 takes.
func printPhase2Init(command, dir, how string) error {
	digest, err := phase2InitDigest(dir)
	if err != nil {
		return err
	}
	fmt.Printf("%s: phase 2's initial state %s, kept in phase2-0.bin and %s: phase2-init sha256=%s\n", command, how, phase2EvalsFile, digest)
	return nil
}
