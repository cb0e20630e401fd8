package main

import (
	"bytes"
	"encoding/json"
	"io"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/consensys/gnark-crypto/ecc"
	"github.com/consensys/gnark-crypto/ecc/bn254"
	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	cmpcbn "github.com/consensys/gnark-crypto/ecc/bn254/mpcsetup"
	"github.com/consensys/gnark/backend"
	"github.com/consensys/gnark/backend/groth16"
	mpcbls "github.com/consensys/gnark/backend/groth16/bls12-381/mpcsetup"
	groth16bn254 "github.com/consensys/gnark/backend/groth16/bn254"
	"github.com/consensys/gnark/backend/groth16/bn254/mpcsetup"
	"github.com/consensys/gnark/backend/solidity"
	"github.com/consensys/gnark/constraint"
	csbn254 "github.com/consensys/gnark/constraint/bn254"
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
	// The contributions and the seal made on every core are gnark's: its
	// own VerifyPhase1 accepts the files and seals them to the same commons.
	sealedByGnark(t, dir, func(files []*mpcsetup.Phase1, n uint64) (io.WriterTo, error) {
		c, err := mpcsetup.VerifyPhase1(n, beacon1, files...)
		return &c, err
	})
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
	_, _, err = ceremonyExtract(tampered, ccs, beacon1, beacon2, "")
	refusedAtDelta(t, err, ceremonyFile(tampered, 2, 2), "unpinned")

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
	_, _, err = ceremonyExtract(tampered, ccs, beacon1, beacon2, digest)
	refusedAtDelta(t, err, ceremonyFile(tampered, 2, 2), "phase 1 pinned")
	phase2InitPinned(t, dir, ccs, beacon1, beacon2, digest, vk)
}

// phase2InitPinned checks phase 2's kept initial state (phase2-0.bin and
// phase2-evals.bin under their digest) on a finished ceremony in dir whose
// keys, extracted without pins, have verifying key vk: the pinned extraction
// gives the same key, as does gnark's own VerifyPhase2; a changed evaluations
// file or another digest is refused under the pin, and without it a changed
// phase2-0.bin is refused.
func phase2InitPinned(t *testing.T, dir string, ccs constraint.ConstraintSystem, beacon1, beacon2 []byte, phase1 string, vk groth16.VerifyingKey) {
	t.Helper()
	pin, err := phase2InitDigest(dir)
	if err != nil {
		t.Fatal(err)
	}
	bytesOf := func(v io.WriterTo) []byte {
		var b bytes.Buffer
		v.WriteTo(&b)
		return b.Bytes()
	}
	_, pinned, err := ceremonyExtractPinned(dir, ccs, beacon1, beacon2, phase1, pin)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(bytesOf(vk), bytesOf(pinned)) {
		t.Fatal("the keys extracted with phase 2's initial state pinned differ")
	}
	info, err := loadCeremony(dir, ccs)
	if err != nil {
		t.Fatal(err)
	}
	curve, _ := info.curve()
	commons, err := pinnedCommons(dir, phase1)
	if err != nil {
		t.Fatal(err)
	}
	files, err := contributionFiles(dir, 2)
	if err != nil {
		t.Fatal(err)
	}
	_, gnarks, err := curve.verifyPhase2(ccs, commons, beacon2, files)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(bytesOf(vk), bytesOf(gnarks)) {
		t.Fatal("gnark's VerifyPhase2 seals another key than ours")
	}
	// Phase 2 started again from the pinned commons alone (ceremony-verify
	// -phase1-sha256 after a verification cut off past the seal): the same files.
	fresh := t.TempDir()
	for _, name := range []string{"ceremony.json", "commons.bin"} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(fresh, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if commons, err := pinnedCommons(fresh, phase1); err != nil {
		t.Fatal(err)
	} else if err := startPhase2(fresh, ccs, commons); err != nil {
		t.Fatal(err)
	}
	if again, err := phase2InitDigest(fresh); err != nil || again != pin {
		t.Fatalf("phase 2 started again: digest %s, want %s (%v)", again, pin, err)
	}
	if _, _, err := ceremonyExtractPinned(dir, ccs, beacon1, beacon2, phase1, strings.Repeat("00", 32)); err == nil {
		t.Fatal("phase 2's initial state accepted under another digest")
	}
	for _, name := range []string{phase2EvalsFile, filepath.Base(ceremonyFile(dir, 2, 0))} {
		changed := t.TempDir()
		copyCeremony(t, dir, changed)
		data, err := os.ReadFile(filepath.Join(changed, name))
		if err != nil {
			t.Fatal(err)
		}
		data[len(data)/2] ^= 1
		if err := os.WriteFile(filepath.Join(changed, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, _, err := ceremonyExtractPinned(changed, ccs, beacon1, beacon2, phase1, pin); err == nil {
			t.Fatalf("%s changed, taken under the pin", name)
		}
		_, _, err = ceremonyExtractPinned(changed, ccs, beacon1, beacon2, phase1, "")
		if name == phase2EvalsFile {
			// without the pin the evaluations are recomputed and kept again
			if err != nil {
				t.Fatalf("%s changed, not recomputed without the pin: %v", name, err)
			}
		} else if err == nil {
			t.Fatal("a changed phase2-0.bin was taken as the initial state")
		} else {
			t.Logf("changed phase2-0.bin refused: %v", err)
		}
	}
}

// sealedByGnark checks that gnark's own phase-1 verification (verify, over
// the ceremony's phase-1 files) accepts them and seals them to commons.bin.
func sealedByGnark[P any, PP interface {
	*P
	io.ReaderFrom
}](t *testing.T, dir string, verify func([]PP, uint64) (io.WriterTo, error)) {
	t.Helper()
	info, err := loadCeremony(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	var states []PP
	for k := 1; k <= ceremonyContributions(dir, 1); k++ {
		p := PP(new(P))
		if err := readFrom(ceremonyFile(dir, 1, k), p); err != nil {
			t.Fatal(err)
		}
		states = append(states, p)
	}
	commons, err := verify(states, info.Domain)
	if err != nil {
		t.Fatalf("gnark's VerifyPhase1 refuses the contributions: %v", err)
	}
	var want bytes.Buffer
	commons.WriteTo(&want)
	got, err := os.ReadFile(filepath.Join(dir, "commons.bin"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(want.Bytes(), got) {
		t.Fatal("commons.bin is not gnark's seal of the same contributions")
	}
}

// refusedAtDelta fails t unless err is phase 2's verification refusing the
// contribution file named (δ changed after its proof), not an earlier check
// (another circuit's digest, a missing pin) that would hide it.
func refusedAtDelta(t *testing.T, err error, file, what string) {
	t.Helper()
	if err == nil {
		t.Fatalf("%s: a tampered phase-2 contribution verified", what)
	}
	if !strings.HasPrefix(err.Error(), "phase 2: ") || !strings.Contains(err.Error(), filepath.Base(file)) || !strings.Contains(err.Error(), "contribution to δ") {
		t.Fatalf("%s: the tampered contribution %s was refused for another reason: %v", what, filepath.Base(file), err)
	}
	t.Logf("%s: tampered phase-2 contribution refused: %v", what, err)
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

// TestConstraintsDigest: a ceremony is bound to its circuit's constraints,
// not to the debug information gnark also serializes (the Go names and source
// lines that built each constraint, which differ between the built program
// and a test binary and move with every edit). The same circuit compiled
// twice, or with its debug information dropped, has the same constraints
// digest; another circuit has another and its ceremony refuses it; a
// ceremony begun before the digest was recorded is still checked by the
// whole encoding.
func TestConstraintsDigest(t *testing.T) {
	compile := func(c frontend.Circuit) constraint.ConstraintSystem {
		t.Helper()
		ccs, err := frontend.Compile(ecc.BN254.ScalarField(), r1cs.NewBuilder, c)
		if err != nil {
			t.Fatal(err)
		}
		return ccs
	}
	digests := func(ccs constraint.ConstraintSystem) (string, string) {
		t.Helper()
		c, err := constraintsDigest(ccs)
		if err != nil {
			t.Fatal(err)
		}
		e, err := ccsDigest(ccs)
		if err != nil {
			t.Fatal(err)
		}
		return c, e
	}
	a, again := compile(&tinyEmulatedCircuit{}), compile(&tinyEmulatedCircuit{})
	// As another build would name and place it: other hint names, other Go
	// names and source lines in the symbol table.
	stripped := compile(&tinyEmulatedCircuit{}).(*csbn254.R1CS)
	for id, name := range stripped.MHintsDependencies {
		stripped.MHintsDependencies[id] = "main." + name
	}
	for i := range stripped.SymbolTable.Functions {
		stripped.SymbolTable.Functions[i].SystemName = "main." + stripped.SymbolTable.Functions[i].SystemName
	}
	for i := range stripped.SymbolTable.Locations {
		stripped.SymbolTable.Locations[i].Line += 7
	}
	if len(stripped.MHintsDependencies) == 0 {
		t.Fatal("the circuit calls no hint: nothing to rename")
	}
	other := compile(&plutusToyCircuit{})
	ca, ea := digests(a)
	if c, e := digests(again); c != ca || e != ea {
		t.Fatal("one circuit compiled twice: other digests")
	}
	if c, e := digests(stripped); c != ca || e == ea {
		t.Fatalf("renamed hints and moved lines: constraints digest equal %v (want true), encoding equal %v (want false)", c == ca, e == ea)
	}
	if c, _ := digests(other); c == ca {
		t.Fatal("two circuits with one constraints digest")
	}

	dir := t.TempDir()
	if _, err := ceremonyInit(dir, a, "tiny"); err != nil {
		t.Fatal(err)
	}
	if _, err := loadCeremony(dir, stripped); err != nil {
		t.Fatalf("the circuit with renamed hints and moved lines refused: %v", err)
	}
	if _, err := loadCeremony(dir, other); err == nil || !strings.Contains(err.Error(), "for the constraints") {
		t.Fatalf("another circuit: %v", err)
	}
	// A ceremony.json without constraints_sha256 (begun before it was
	// recorded): the whole encoding decides.
	path := filepath.Join(dir, "ceremony.json")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var info ceremonyInfo
	if err := json.Unmarshal(data, &info); err != nil || info.Constraints != ca {
		t.Fatalf("ceremony.json records constraints %q (want %s): %v", info.Constraints, ca, err)
	}
	info.Constraints = ""
	data, _ = json.Marshal(&info)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := loadCeremony(dir, a); err != nil {
		t.Fatalf("a legacy ceremony refused its own circuit: %v", err)
	}
	if _, err := loadCeremony(dir, stripped); err == nil {
		t.Fatal("a legacy ceremony took a circuit whose encoding differs")
	}
}

// TestCeremonyOnDisk checks a finished ceremony of a real program on disk
// (ceremony_program.sh): a phase-2 contribution with δ changed after its proof
// is refused by the verification, and so is commons.bin with one byte changed
// under the pinned digest. Skipped unless TMS_CEREMONY_DIR (the ceremony),
// TMS_CEREMONY_PROGRAM (its program) and TMS_CEREMONY_PHASE1 (commons.bin's
// SHA-256, as ceremony-verify printed it) are set; TMS_CEREMONY_PHASE2 (the
// phase2-init digest ceremony-verify or ceremony-extract printed) spares it
// recomputing phase 2's initial state (hours of CPU on the twin's 2^22
// domain). CI runs TestCeremony.
func TestCeremonyOnDisk(t *testing.T) {
	dir, programPath, pin := os.Getenv("TMS_CEREMONY_DIR"), os.Getenv("TMS_CEREMONY_PROGRAM"), os.Getenv("TMS_CEREMONY_PHASE1")
	if dir == "" || programPath == "" || pin == "" {
		t.Skip("TMS_CEREMONY_DIR, TMS_CEREMONY_PROGRAM and TMS_CEREMONY_PHASE1 not set (ceremony_program.sh sets them)")
	}
	p, err := LoadProgram(programPath)
	if err != nil {
		t.Fatal(err)
	}
	ccs, _, err := compileProgram(p, VerifierOptions{Commit: CommitBSB22})
	if err != nil {
		t.Fatal(err)
	}
	last := ceremonyContributions(dir, 2)
	if last < 3 {
		t.Fatalf("%s: %d phase-2 contributions, want 3 or more", dir, last)
	}
	// A copy made of links, but for the file that is changed.
	linked := func(changed string) string {
		to := t.TempDir()
		files, _ := filepath.Glob(filepath.Join(dir, "*"))
		for _, f := range files {
			if filepath.Base(f) == changed || filepath.Base(f) == "proving_key.bin" {
				continue
			}
			if err := os.Link(f, filepath.Join(to, filepath.Base(f))); err != nil {
				t.Fatal(err)
			}
		}
		return to
	}
	// Contribution 2 of phase 2 with δ doubled after its proof was made.
	name := filepath.Base(ceremonyFile(dir, 2, 2))
	tampered := linked(name)
	var p2 mpcsetup.Phase2
	if err := readFrom(ceremonyFile(dir, 2, 2), &p2); err != nil {
		t.Fatal(err)
	}
	p2.Parameters.G1.Delta.Double(&p2.Parameters.G1.Delta)
	if err := writeTo(ceremonyFile(tampered, 2, 2), &p2); err != nil {
		t.Fatal(err)
	}
	beacon1, beacon2 := []byte("beacon one"), []byte("beacon two")
	// Phase 2's initial state as ceremony-extract kept it, when its digest is given.
	_, _, err = ceremonyExtractPinned(tampered, ccs, beacon1, beacon2, pin, os.Getenv("TMS_CEREMONY_PHASE2"))
	refusedAtDelta(t, err, name, "the program's ceremony")
	// commons.bin with one byte changed: not the phase 1 that was verified.
	changed := linked("commons.bin")
	data, err := os.ReadFile(filepath.Join(dir, "commons.bin"))
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)/2] ^= 1
	if err := os.WriteFile(filepath.Join(changed, "commons.bin"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := pinnedCommons(changed, pin); err == nil {
		t.Fatal("a changed commons.bin was taken under the pinned digest")
	} else {
		t.Logf("changed commons.bin refused: %v", err)
	}
}

// TestCeremonyBLS12381 runs the same commands' functions over BLS12-381 (the
// Plutus verifier's curve) on the toy Plutus circuit: 3 + 3 contributions,
// the keys as they come (G = γ: no re-keying) laid out for tms-cardano, an
// honest proof accepted by the Plutus verifier's native twin, another message
// refused, and a phase-2 contribution with δ changed after its proof refused.
func TestCeremonyBLS12381(t *testing.T) {
	ccs, err := frontend.Compile(ecc.BLS12_381.ScalarField(), r1cs.NewBuilder, &plutusToyCircuit{})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	info, err := ceremonyInit(dir, ccs, "plutus toy")
	if err != nil {
		t.Fatal(err)
	}
	if info.Curve != "bls12-381" {
		t.Fatalf("ceremony.json's curve %q", info.Curve)
	}
	for phase := 1; phase <= 2; phase++ {
		for i := 0; i < 3; i++ {
			if got, _, err := ceremonyContribute(dir); err != nil || got != phase {
				t.Fatalf("contribution to phase %d: phase %d, %v", phase, got, err)
			}
		}
		if phase == 1 {
			if _, err := ceremonyVerifyPhase1(dir, ccs, []byte("beacon one")); err != nil {
				t.Fatal(err)
			}
			sealedByGnark(t, dir, func(files []*mpcbls.Phase1, n uint64) (io.WriterTo, error) {
				c, err := mpcbls.VerifyPhase1(n, []byte("beacon one"), files...)
				return &c, err
			})
		}
	}
	// A BN254 circuit is not this ceremony's.
	bn, err := frontend.Compile(ecc.BN254.ScalarField(), r1cs.NewBuilder, &tinyEmulatedCircuit{})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := ceremonyExtract(dir, bn, []byte("beacon one"), []byte("beacon two"), ""); err == nil {
		t.Fatal("a BN254 circuit extracted keys from a BLS12-381 ceremony")
	}
	pk, vk, err := ceremonyExtract(dir, ccs, []byte("beacon one"), []byte("beacon two"), "")
	if err != nil {
		t.Fatal(err)
	}
	phase1, err := commonsDigest(dir)
	if err != nil {
		t.Fatal(err)
	}
	phase2InitPinned(t, dir, ccs, []byte("beacon one"), []byte("beacon two"), phase1, vk)
	key, err := newPlutusKey(vk, ceremonySetup(dir, "beacon one", "beacon two"))
	if err != nil {
		t.Fatalf("the ceremony's key as the Plutus verifier takes it: %v", err)
	}
	w, m, threshold := big.NewInt(5), big.NewInt(1234), big.NewInt(3)
	proof, err := plutusToyProve(ccs, pk, vk, false, w, m, threshold)
	if err != nil {
		t.Fatal(err)
	}
	b, err := plutusProofBytes(proof)
	if err != nil {
		t.Fatal(err)
	}
	if err := plutusVerify(key, b, []*big.Int{big.NewInt(25), m, threshold}); err != nil {
		t.Fatalf("the Plutus verifier's twin refuses the ceremony's proof: %v", err)
	}
	if err := plutusVerify(key, b, []*big.Int{big.NewInt(25), big.NewInt(1235), threshold}); err == nil {
		t.Fatal("the ceremony's proof verified for another message")
	}

	tampered := t.TempDir()
	copyCeremony(t, dir, tampered)
	var p2 mpcbls.Phase2
	if err := readFrom(ceremonyFile(tampered, 2, 2), &p2); err != nil {
		t.Fatal(err)
	}
	p2.Parameters.G1.Delta.Double(&p2.Parameters.G1.Delta)
	if err := writeTo(ceremonyFile(tampered, 2, 2), &p2); err != nil {
		t.Fatal(err)
	}
	_, _, err = ceremonyExtract(tampered, ccs, []byte("beacon one"), []byte("beacon two"), "")
	refusedAtDelta(t, err, ceremonyFile(tampered, 2, 2), "BLS12-381")
}

// TestParallelContributionChecked: a phase-1 contribution on every core is
// written only if gnark's Phase1.Verify accepts it; one whose powers were not
// updated as its proofs say (the α powers left as they were) is refused and
// leaves no file.
func TestParallelContributionChecked(t *testing.T) {
	dir := t.TempDir()
	in, out := filepath.Join(dir, "phase1-0.bin"), filepath.Join(dir, "phase1-1.bin")
	if err := writeTo(in, mpcsetup.NewPhase1(1<<6)); err != nil {
		t.Fatal(err)
	}
	bn := ceremonyCurves["bn254"]
	if err := bn.contribute(1, in, out); err != nil {
		t.Fatalf("an honest contribution: %v", err)
	}
	var prev, next mpcsetup.Phase1
	if err := readFrom(in, &prev); err != nil {
		t.Fatal(err)
	}
	if err := readFrom(out, &next); err != nil {
		t.Fatal(err)
	}
	if err := prev.Verify(&next); err != nil {
		t.Fatalf("gnark refuses the contribution: %v", err)
	}
	skipAlpha := phase1Parallel[cmpcbn.UpdateProof, *cmpcbn.UpdateProof, mpcsetup.SrsCommons, *mpcsetup.SrsCommons, fr.Element]{
		update: func(c *mpcsetup.SrsCommons, tau, alpha, beta *fr.Element) {
			var one fr.Element
			one.SetOne()
			updatePowers(c.G1.Tau, c.G1.AlphaTau, c.G1.BetaTau, c.G2.Tau, &c.G2.Beta, tau, &one, beta)
		},
		updateValues: cmpcbn.UpdateValues,
		beacon:       cmpcbn.BeaconContributions,
	}
	bad := filepath.Join(dir, "phase1-2.bin")
	err := skipAlpha.contribute(out, bad, func(prev, next []byte) error {
		var p, n mpcsetup.Phase1
		if err := readBytes(prev, &p); err != nil {
			return err
		}
		if err := readBytes(next, &n); err != nil {
			return err
		}
		return p.Verify(&n)
	})
	if err == nil {
		t.Fatal("a contribution whose α powers were not updated was written")
	}
	if _, statErr := os.Stat(bad); statErr == nil {
		t.Fatal("the refused contribution left a file")
	}
	t.Logf("refused: %v", err)
}

// BenchmarkPhase1Contribution: gnark's Phase1.Contribute (one core) against
// the contribution on every core, on a 2^14 domain (`go test -run '^$'
// -bench Phase1Contribution`).
func BenchmarkPhase1Contribution(b *testing.B) {
	dir := b.TempDir()
	in := filepath.Join(dir, "phase1-0.bin")
	if err := writeTo(in, mpcsetup.NewPhase1(1<<14)); err != nil {
		b.Fatal(err)
	}
	b.Run("gnark", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if err := contributeFile[mpcsetup.Phase1](in, filepath.Join(dir, "gnark.bin")); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("every-core", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if err := ceremonyCurves["bn254"].contribute(1, in, filepath.Join(dir, "ours.bin")); err != nil {
				b.Fatal(err)
			}
		}
	})
}
