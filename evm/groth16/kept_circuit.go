package main

// A compiled replay circuit kept on disk (-circuit FILE of program-prove and
// program-prove-bls): gnark's compile of a recorded verifier is the same for
// every proof under one key, and it is the dearest step after the proof itself
// (28.6 CPU-s for the 5.2 M-constraint replay of testdata/twin_k10.program.json,
// 31.7-34.5 at 6.2 M), while reading the compiled system back takes 1.5-2.6.
//
// The file: a header naming what was compiled (the curve and the replay's
// options, the program file's SHA-256 and the Go program's own SHA-256), gnark's
// encoding of the constraint system, and a SHA-256 trailer over all of it.
// A kept system is read back only to prove under keys made elsewhere (-pk):
// a setup (-seed) always compiles the program itself, so no key is ever made
// from a file. Like a kept proving key it is then the prover's own file: a
// system that is not the program's makes proofs that the verifying key refuses
// (the proof is checked before anything is written), so the header and trailer
// are there to say what went wrong early, not to protect the verifier.

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/consensys/gnark/constraint"
)

const keptCircuitMagic = "TMSCCS01"

// keptCircuitID is what a kept circuit was compiled from.
type keptCircuitID struct {
	// Target is the outer curve and the replay's options ("bls12-381",
	// "bn254 commit=bsb22 ...").
	Target string
	// Program is the SHA-256 of the program file's bytes.
	Program [32]byte
	// Build is the SHA-256 of the Go program that compiled it: another build
	// may compile the same program into another system.
	Build [32]byte
}

// newKeptCircuitID identifies the compile of the program file at programPath
// for target by this executable.
func newKeptCircuitID(target, programPath string) (keptCircuitID, error) {
	id := keptCircuitID{Target: target}
	data, err := os.ReadFile(programPath)
	if err != nil {
		return id, err
	}
	id.Program = sha256.Sum256(data)
	exe, err := os.Executable()
	if err != nil {
		return id, err
	}
	if data, err = os.ReadFile(exe); err != nil {
		return id, err
	}
	id.Build = sha256.Sum256(data)
	return id, nil
}

func (id keptCircuitID) header() []byte {
	var b bytes.Buffer
	b.WriteString(keptCircuitMagic)
	binary.Write(&b, binary.LittleEndian, uint32(len(id.Target)))
	b.WriteString(id.Target)
	b.Write(id.Program[:])
	b.Write(id.Build[:])
	return b.Bytes()
}

// errOtherBuild says that a kept circuit was compiled by another build of the
// Go program: compiled again, not refused (rebuilding is not the user's error).
var errOtherBuild = errors.New("the kept one was compiled by another build of the Go program")

// errMakesKeys says that a setup is made from this compile: it is never read
// from a file.
var errMakesKeys = errors.New("a setup is made from it, so it is not read from a file")

// readKeptCircuit reads the system kept at path into ccs (an empty system of
// the target's curve), refusing a file that is not a kept circuit, was altered
// or cut short, or was compiled for another target or from another program.
func readKeptCircuit(path string, id keptCircuitID, ccs constraint.ConstraintSystem) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	fail := func(format string, a ...any) error {
		return fmt.Errorf("%s: %s", path, fmt.Sprintf(format, a...))
	}
	if len(data) < len(keptCircuitMagic)+4+2*32+sha256.Size || string(data[:len(keptCircuitMagic)]) != keptCircuitMagic {
		return fail("not a kept circuit (-circuit writes one)")
	}
	body, trailer := data[:len(data)-sha256.Size], data[len(data)-sha256.Size:]
	if sum := sha256.Sum256(body); !bytes.Equal(sum[:], trailer) {
		return fail("altered or cut short (its SHA-256 trailer does not match): remove it to compile again")
	}
	r := bytes.NewReader(body[len(keptCircuitMagic):])
	var n uint32
	if err := binary.Read(r, binary.LittleEndian, &n); err != nil || int(n) > r.Len() {
		return fail("its header is malformed")
	}
	target := make([]byte, n)
	var kept keptCircuitID
	io.ReadFull(r, target)
	kept.Target = string(target)
	if _, err := io.ReadFull(r, kept.Program[:]); err != nil {
		return fail("its header is malformed")
	}
	if _, err := io.ReadFull(r, kept.Build[:]); err != nil {
		return fail("its header is malformed")
	}
	switch {
	case kept.Target != id.Target:
		return fail("compiled for %q, this proof needs %q: name another file", kept.Target, id.Target)
	case kept.Program != id.Program:
		return fail("compiled from another program (SHA-256 %s; this program's is %s): name another file or remove it",
			hex.EncodeToString(kept.Program[:]), hex.EncodeToString(id.Program[:]))
	case kept.Build != id.Build:
		return errOtherBuild
	}
	rest := r.Len()
	read, err := ccs.ReadFrom(r)
	if err != nil {
		return fail("gnark cannot read its constraint system: %v", err)
	}
	if read != int64(rest) {
		return fail("%d bytes after its constraint system", int64(rest)-read)
	}
	return nil
}

// writeKeptCircuit writes ccs, compiled as id says, to path (through a
// temporary file renamed at the end).
func writeKeptCircuit(path string, id keptCircuitID, ccs constraint.ConstraintSystem) error {
	return writeStreamed(path, func(w io.Writer) error {
		h := sha256.New()
		out := io.MultiWriter(w, h)
		if _, err := out.Write(id.header()); err != nil {
			return err
		}
		// gnark writes its encoding in small pieces: buffer them before the hash.
		b := bufio.NewWriterSize(out, 1<<22)
		if _, err := ccs.WriteTo(b); err != nil {
			return err
		}
		if err := b.Flush(); err != nil {
			return err
		}
		_, err := w.Write(h.Sum(nil))
		return err
	})
}

// compileOrReadKept returns the circuit kept at path when there is one
// compiled by this build for target from the program file at programPath and
// reuse is set (the proof's keys were made elsewhere), else compiles it and,
// when path is set, keeps it there. It says what it did ("compiled",
// "compiled and kept", "read back", or why it compiled again).
func compileOrReadKept(path string, reuse bool, target, programPath string, empty func() constraint.ConstraintSystem,
	compile func() (constraint.ConstraintSystem, error)) (constraint.ConstraintSystem, string, error) {
	how := "compiled"
	var id keptCircuitID
	if path != "" {
		var err error
		if id, err = newKeptCircuitID(target, programPath); err != nil {
			return nil, "", err
		}
		err = errMakesKeys
		if reuse {
			ccs := empty()
			if err = readKeptCircuit(path, id, ccs); err == nil {
				return ccs, "read back from " + path, nil
			}
		}
		switch {
		case errors.Is(err, errOtherBuild), errors.Is(err, errMakesKeys):
			how = "compiled (" + err.Error() + ") and kept in " + path
		case errors.Is(err, os.ErrNotExist):
			how = "compiled and kept in " + path
		default:
			return nil, "", err
		}
		// Where it will go is checked before the compile is spent on it.
		if st, err := os.Stat(filepath.Dir(path)); err != nil || !st.IsDir() {
			return nil, "", fmt.Errorf("%s: not a directory (for -circuit)", filepath.Dir(path))
		}
	}
	ccs, err := compile()
	if err != nil {
		return nil, "", err
	}
	if path != "" {
		if err := writeKeptCircuit(path, id, ccs); err != nil {
			return nil, "", fmt.Errorf("keeping the compiled circuit: %w", err)
		}
	}
	return ccs, how, nil
}
