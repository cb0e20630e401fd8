package main

import (
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/consensys/gnark-crypto/ecc"
	"github.com/consensys/gnark/backend/groth16"
	"github.com/consensys/gnark/constraint"
	"github.com/consensys/gnark/frontend"
	"github.com/consensys/gnark/frontend/cs/r1cs"
)

// TestKeptCircuit: a compiled circuit kept by compileOrReadKept is compiled
// once, read back on the next call, and proves under the setup's key; a kept
// file for another program or target, altered, cut short or not a kept circuit
// is refused; one compiled by another build is compiled again, and so is the
// circuit a setup is made from.
func TestKeptCircuit(t *testing.T) {
	ccs, pk, vk, err := plutusToySetup("kept circuit test", false)
	if err != nil {
		t.Fatal(err)
	}
	key, err := newPlutusKey(vk, "INSECURE seeded: kept circuit test")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	program := filepath.Join(dir, "program.json")
	if err := os.WriteFile(program, []byte(`{"the program": 1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "kept.ccs")
	compiles := 0
	keep := func(target, program string) (constraint.ConstraintSystem, string, error) {
		return compileOrReadKept(path, true, target, program,
			func() constraint.ConstraintSystem { return groth16.NewCS(ecc.BLS12_381) },
			func() (constraint.ConstraintSystem, error) { compiles++; return ccs, nil })
	}
	expect := func(want string, compiled int, got string, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(got, want) || compiles != compiled {
			t.Fatalf("%q after %d compiles, want %q after %d", got, compiles, want, compiled)
		}
	}
	_, how, err := keep("bls12-381", program)
	expect("compiled and kept", 1, how, err)
	back, how, err := keep("bls12-381", program)
	expect("read back", 1, how, err)
	w, m, th := big.NewInt(5), big.NewInt(42), big.NewInt(3)
	proof, err := plutusToyProve(back, pk, vk, false, w, m, th)
	if err != nil {
		t.Fatalf("the read-back circuit does not prove: %v", err)
	}
	b, err := plutusProofBytes(proof)
	if err != nil {
		t.Fatal(err)
	}
	if err := plutusVerify(key, b, []*big.Int{big.NewInt(25), m, th}); err != nil {
		t.Fatalf("a proof of the read-back circuit refused: %v", err)
	}

	// Refused: another target, another program.
	other := filepath.Join(dir, "other.json")
	if err := os.WriteFile(other, []byte(`{"the program": 2}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ target, program, want string }{
		{"bn254 commit=bsb22", program, "compiled for \"bls12-381\""},
		{"bls12-381", other, "compiled from another program"},
	} {
		if _, _, err := keep(c.target, c.program); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %s: %v, want %q", c.target, c.program, err, c.want)
		}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	altered := append([]byte(nil), data...)
	altered[len(altered)/2] ^= 1
	for name, c := range map[string]struct {
		data []byte
		want string
	}{
		"a byte changed":     {altered, "altered or cut short"},
		"cut short":          {data[:len(data)-1], "altered or cut short"},
		"a byte more":        {append(append([]byte(nil), data...), 0), "altered or cut short"},
		"not a kept circuit": {[]byte("{}"), "not a kept circuit"},
		"another magic":      {append([]byte("TMSCCS02"), data[8:]...), "not a kept circuit"},
	} {
		if err := os.WriteFile(path, c.data, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, _, err := keep("bls12-381", program); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", name, err, c.want)
		}
	}
	if compiles != 1 {
		t.Fatalf("a refused file was compiled over (%d compiles)", compiles)
	}

	// Another build: compiled again and kept, then read back.
	id, err := newKeptCircuitID("bls12-381", program)
	if err != nil {
		t.Fatal(err)
	}
	id.Build[0] ^= 1
	if err := writeKeptCircuit(path, id, ccs); err != nil {
		t.Fatal(err)
	}
	_, how, err = keep("bls12-381", program)
	expect("compiled (the kept one was compiled by another build", 2, how, err)
	_, how, err = keep("bls12-381", program)
	expect("read back", 2, how, err)

	// A setup is made from this compile (no keys from elsewhere): the kept file,
	// although good, is not read; the compile is kept in its place.
	_, how, err = compileOrReadKept(path, false, "bls12-381", program,
		func() constraint.ConstraintSystem { return groth16.NewCS(ecc.BLS12_381) },
		func() (constraint.ConstraintSystem, error) { compiles++; return ccs, nil })
	expect("compiled (a setup is made from it", 3, how, err)
	_, how, err = keep("bls12-381", program)
	expect("read back", 3, how, err)

	// A file in no directory: refused before the compile.
	if _, _, err := compileOrReadKept(filepath.Join(dir, "nowhere", "kept.ccs"), true, "bls12-381", program,
		func() constraint.ConstraintSystem { return groth16.NewCS(ecc.BLS12_381) },
		func() (constraint.ConstraintSystem, error) { compiles++; return ccs, nil }); err == nil ||
		!strings.Contains(err.Error(), "not a directory") || compiles != 3 {
		t.Fatalf("no such directory: %v after %d compiles", err, compiles)
	}

	// Without a path: compiled, nothing kept.
	if _, how, err := compileOrReadKept("", true, "bls12-381", program, nil,
		func() (constraint.ConstraintSystem, error) { return ccs, nil }); err != nil || how != "compiled" {
		t.Fatalf("no path: %q, %v", how, err)
	}
}

// TestKeptCircuitBN254: the same file for program-prove's BN254 systems: the
// toy relation compiled over BN254's Fr, kept and read back, solves the
// honest witness and refuses another statement.
func TestKeptCircuitBN254(t *testing.T) {
	ccs, err := frontend.Compile(ecc.BN254.ScalarField(), r1cs.NewBuilder, &plutusToyCircuit{})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "kept.ccs")
	id := keptCircuitID{Target: "bn254 commit=bsb22"}
	if err := writeKeptCircuit(path, id, ccs); err != nil {
		t.Fatal(err)
	}
	back := groth16.NewCS(ecc.BN254)
	if err := readKeptCircuit(path, id, back); err != nil {
		t.Fatal(err)
	}
	if back.GetNbConstraints() != ccs.GetNbConstraints() {
		t.Fatalf("read back %d constraints of %d", back.GetNbConstraints(), ccs.GetNbConstraints())
	}
	solves := func(commitment int64) bool {
		wit, err := frontend.NewWitness(&plutusToyCircuit{Commitment: commitment, Message: 42, Threshold: 3, W: 5, MW: 210},
			ecc.BN254.ScalarField())
		if err != nil {
			t.Fatal(err)
		}
		return isSolvedR1CS(back, wit) == nil
	}
	if !solves(25) {
		t.Fatal("the read-back BN254 system refuses the honest witness")
	}
	if solves(26) {
		t.Fatal("the read-back BN254 system accepts another statement")
	}
}
