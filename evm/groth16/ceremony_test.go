package main

import (
	"bytes"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/consensys/gnark-crypto/ecc"
	"github.com/consensys/gnark-crypto/ecc/bn254"
	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	"github.com/consensys/gnark/backend"
	"github.com/consensys/gnark/backend/groth16"
	groth16bn254 "github.com/consensys/gnark/backend/groth16/bn254"
	"github.com/consensys/gnark/backend/groth16/bn254/mpcsetup"
	"github.com/consensys/gnark/backend/solidity"
	"github.com/consensys/gnark/frontend"
	"github.com/consensys/gnark/frontend/cs/r1cs"
)

// TestCeremony: a 3 + 3 contributor ceremony (gnark's mpcsetup) on the
// tiny circuit with one BSB22 commitment; the extracted keys, as they come
// (Pedersen G = γ), prove, and the batched verifier's twin accepts the
// proof and refuses changed ones; a phase-1 contribution that skips its
// predecessor and a phase-2 contribution with a changed δ are refused.
func TestCeremony(t *testing.T) {
	ccs, err := frontend.Compile(ecc.BN254.ScalarField(), r1cs.NewBuilder, &tinyEmulatedCircuit{})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, err := ceremonyInit(dir, ccs, "tiny"); err != nil {
		t.Fatal(err)
	}
	contribute := func(wantPhase int) {
		t.Helper()
		phase, _, err := ceremonyContribute(dir)
		if err != nil || phase != wantPhase {
			t.Fatalf("contribution to phase %d: phase %d, %v", wantPhase, phase, err)
		}
	}
	for i := 0; i < 3; i++ {
		contribute(1)
	}
	beacon1, beacon2 := []byte("beacon one"), []byte("beacon two")
	if _, err := ceremonyVerifyPhase1(dir, ccs, beacon1); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		contribute(2)
	}
	pk, vk, err := ceremonyExtract(dir, ccs, beacon1, beacon2, "")
	if err != nil {
		t.Fatal(err)
	}
	v := vk.(*groth16bn254.VerifyingKey)
	if !v.CommitmentKeys[0].G.Equal(&v.G2.Gamma) {
		t.Fatal("the ceremony's Pedersen G is not γ")
	}
	k, err := newBatchedKey(vk)
	if err != nil || !k.PokNeg {
		t.Fatalf("batched key of the ceremony: %v (PokNeg %v)", err, k != nil && k.PokNeg)
	}

	wit, err := frontend.NewWitness(tinyEmulatedAssignment(), ecc.BN254.ScalarField())
	if err != nil {
		t.Fatal(err)
	}
	pub, _ := wit.Public()
	proof, err := groth16.Prove(ccs, pk, wit, solidity.WithProverTargetSolidityVerifier(backend.GROTH16))
	if err != nil {
		t.Fatal(err)
	}
	if err := groth16.Verify(proof, vk, pub, solidity.WithVerifierTargetSolidityVerifier(backend.GROTH16)); err != nil {
		t.Fatalf("gnark's verifier refuses the ceremony's proof: %v", err)
	}
	call, err := newSolidityCall(proof, pub.Vector().(fr.Vector))
	if err != nil {
		t.Fatal(err)
	}
	w, err := call.words()
	if err != nil {
		t.Fatal(err)
	}
	if err := k.VerifyBatched(w); err != nil {
		t.Fatalf("the batched twin refuses the ceremony's proof: %v", err)
	}
	// the same proof with the sign of the Pok's term flipped (what the
	// shared-G2 key would check) is refused: the sign matters
	flipped := *k
	flipped.PokNeg = false
	if flipped.VerifyBatched(w) == nil {
		t.Fatal("the proof is accepted with +ρ Pok under G = γ")
	}
	// Pok replaced by another point: the Groth16 equation still holds, the
	// PoK does not, and the batched check refuses it
	bad := w.clone()
	_, _, g1, _ := bn254.Generators()
	var pok bn254.G1Affine
	pok.X.SetBigInt(bad.CommitmentPok[0])
	pok.Y.SetBigInt(bad.CommitmentPok[1])
	pok.Add(&pok, &g1)
	bad.CommitmentPok[0], bad.CommitmentPok[1] = pok.X.BigInt(bad.CommitmentPok[0]), pok.Y.BigInt(bad.CommitmentPok[1])
	if g16, pokOK, _ := k.equations(bad); !g16 || pokOK {
		t.Fatalf("equations of the changed Pok: Groth16 %v PoK %v", g16, pokOK)
	}
	if k.VerifyBatched(bad) == nil {
		t.Fatal("a wrong Pok accepted by the batched twin")
	}
	a := w.clone()
	a.Input[0].Add(a.Input[0], big.NewInt(1))
	if k.VerifyBatched(a) == nil {
		t.Fatal("a changed input accepted by the batched twin")
	}
	var sol bytes.Buffer
	setup := ceremonySetup(dir, string(beacon1), string(beacon2))
	if err := ExportBatchedSolidity(&sol, vk, setup, "atms"); err != nil {
		t.Fatal(err)
	}
	if isInsecureSetup(setup) || !strings.Contains(sol.String(), `SETUP = "mpcsetup ceremony: 3 phase-1 and 3 phase-2 contributions`) ||
		!strings.Contains(sol.String(), "mstore(add(s, 0x40), sub(R, rho))") {
		t.Fatal("the ceremony's Groth16Verifier.sol: wrong SETUP or not -rho Pok")
	}

	// A phase-1 contribution made on phase1-0.bin instead of phase1-1.bin
	// (skipping contributor 1): its challenge is not the previous file's hash.
	skip := t.TempDir()
	copyCeremony(t, dir, skip)
	var p1 mpcsetup.Phase1
	if err := readFrom(ceremonyFile(skip, 1, 0), &p1); err != nil {
		t.Fatal(err)
	}
	p1.Contribute()
	if err := writeTo(ceremonyFile(skip, 1, 2), &p1); err != nil {
		t.Fatal(err)
	}
	if _, err := ceremonyVerifyPhase1(skip, ccs, beacon1); err == nil {
		t.Fatal("a phase-1 contribution that skips its predecessor verified")
	}
	// Phase-2 contribution 2 with δ changed after its proof was made.
	tampered := t.TempDir()
	copyCeremony(t, dir, tampered)
	var p2 mpcsetup.Phase2
	if err := readFrom(ceremonyFile(tampered, 2, 2), &p2); err != nil {
		t.Fatal(err)
	}
	p2.Parameters.G1.Delta.Double(&p2.Parameters.G1.Delta)
	if err := writeTo(ceremonyFile(tampered, 2, 2), &p2); err != nil {
		t.Fatal(err)
	}
	if _, _, err := ceremonyExtract(tampered, ccs, beacon1, beacon2, ""); err == nil {
		t.Fatal("a tampered phase-2 contribution verified")
	} else {
		t.Logf("tampered phase-2 contribution refused: %v", err)
	}

	// Phase 1 pinned by the digest of the caller's own verified commons.bin:
	// the same keys; another digest, or the tampered phase 2, refused.
	digest, err := commonsDigest(dir)
	if err != nil {
		t.Fatal(err)
	}
	_, pinnedVK, err := ceremonyExtract(dir, ccs, beacon1, beacon2, digest)
	if err != nil {
		t.Fatal(err)
	}
	var want, got bytes.Buffer
	vk.WriteTo(&want)
	pinnedVK.WriteTo(&got)
	if !bytes.Equal(want.Bytes(), got.Bytes()) {
		t.Fatal("the keys extracted with phase 1 pinned differ")
	}
	if _, _, err := ceremonyExtract(dir, ccs, beacon1, beacon2, strings.Repeat("00", 32)); err == nil {
		t.Fatal("commons.bin accepted under another digest")
	}
	if _, _, err := ceremonyExtract(tampered, ccs, beacon1, beacon2, digest); err == nil {
		t.Fatal("a tampered phase-2 contribution verified with phase 1 pinned")
	}
}

func copyCeremony(t *testing.T, from, to string) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(from, "*"))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(to, filepath.Base(f)), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
