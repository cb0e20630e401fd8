package main

// A multi-party Groth16 setup with gnark's backend/groth16/bn254/mpcsetup:
// phase 1 (powers of tau, any circuit of the domain), then phase 2 (one
// circuit). Each contributor reads the latest file, adds its randomness with
// a proof of the update, and writes the next file; anyone re-verifies the
// chain. The keys are sound if ONE contributor of each phase was honest and
// erased its randomness (and the beacons were not known in advance).
//
// A ceremony directory holds:
//   ceremony.json      the domain size and the circuit's digest (checked at every step)
//   phase1-0.bin       the initial phase-1 state (no contribution)
//   phase1-K.bin       contribution K >= 1
//   commons.bin        phase 1 verified and sealed with its beacon (ceremony-verify)
//   phase2-0.bin       the initial phase-2 state of the circuit (ceremony-verify)
//   phase2-K.bin       contribution K >= 1
// gnark's ceremony gives the BSB22 commitment key G = γ, which the batched
// verifier takes as it is (batchedKey.PokNeg).

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/consensys/gnark-crypto/ecc"
	gcunsafe "github.com/consensys/gnark-crypto/utils/unsafe"
	"github.com/consensys/gnark/backend/groth16"
	"github.com/consensys/gnark/constraint"
)

type ceremonyInfo struct {
	// Domain is the phase-1 domain size (a power of two >= the constraints).
	Domain uint64 `json:"domain"`
	// Circuit is SHA-256 of the compiled constraint system (gnark's binary
	// encoding), for the record: that encoding also holds the debug
	// information (the source lines and Go names that built each
	// constraint), so another build of the same program differs.
	Circuit string `json:"circuit_sha256"`
	// Constraints is constraintsDigest of the circuit: phase 2 and the keys
	// are for exactly these constraints. Absent in ceremonies begun before
	// it was recorded, which are checked by Circuit.
	Constraints string `json:"constraints_sha256,omitempty"`
	// Program is the program file the commands compiled, for the record.
	Program string `json:"program,omitempty"`
	// Curve is the curve of the keys: bn254 (absent in ceremonies made
	// before BLS12-381 was served) or bls12-381.
	Curve string `json:"curve,omitempty"`
}

// curve is the ceremony's curve.
func (info *ceremonyInfo) curve() (ceremonyCurve, error) { return ceremonyCurveNamed(info.Curve) }

// constraintsDigest is SHA-256 over what a Groth16 key is made for: the
// field, the numbers of internal, secret and public wires, every R1C (each
// term's wire and coefficient, in order) and the BSB22 commitments. It leaves
// out what ccsDigest also hashes and a key does not depend on: the debug
// information and the hints' names, which differ between the built program
// ("main.…") and a test binary, and move with every edited source line.
func constraintsDigest(ccs constraint.ConstraintSystem) (string, error) {
	r1cs, ok := ccs.(constraint.R1CS[constraint.U64])
	if !ok {
		return "", fmt.Errorf("the constraint system %T is not an R1CS", ccs)
	}
	h := sha256.New()
	var word [8]byte
	put := func(vs ...uint64) {
		for _, v := range vs {
			binary.BigEndian.PutUint64(word[:], v)
			h.Write(word[:])
		}
	}
	field := ccs.Field().Bytes()
	put(uint64(len(field)))
	h.Write(field)
	internal, secret, public := ccs.GetNbVariables()
	put(uint64(internal), uint64(secret), uint64(public), uint64(ccs.GetNbConstraints()))
	linear := func(l constraint.LinearExpression) {
		put(uint64(len(l)))
		for _, t := range l {
			c := ccs.GetCoefficient(int(t.CID))
			put(uint64(t.VID))
			put(c[:]...)
		}
	}
	it := r1cs.GetR1CIterator()
	n := 0
	for c := it.Next(); c != nil; c = it.Next() {
		linear(c.L)
		linear(c.R)
		linear(c.O)
		n++
	}
	if n != ccs.GetNbConstraints() {
		return "", fmt.Errorf("the constraint system lists %d R1Cs of %d constraints", n, ccs.GetNbConstraints())
	}
	commitments, err := json.Marshal(ccs.GetCommitments())
	if err != nil {
		return "", err
	}
	put(uint64(len(commitments)))
	h.Write(commitments)
	return hex.EncodeToString(h.Sum(nil)), nil
}

func ccsDigest(ccs constraint.ConstraintSystem) (string, error) {
	h := sha256.New()
	if _, err := ccs.WriteTo(h); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func ceremonyFile(dir string, phase, k int) string {
	return filepath.Join(dir, fmt.Sprintf("phase%d-%d.bin", phase, k))
}

// ceremonyContributions is the number K of phase's contributions
// (phaseN-1.bin .. phaseN-K.bin present); -1 when phaseN-0.bin is absent.
func ceremonyContributions(dir string, phase int) int {
	k := -1
	for {
		if _, err := os.Stat(ceremonyFile(dir, phase, k+1)); err != nil {
			return k
		}
		k++
	}
}

// writeTo writes v to path whole or not at all (a temporary file renamed):
// a contribution cut off midway leaves no phaseN-K.bin that would count.
func writeTo(path string, v io.WriterTo) error {
	var b bytes.Buffer
	if _, err := v.WriteTo(&b); err != nil {
		return err
	}
	return writeBytes(path, b.Bytes())
}

// readFrom reads v from path, streamed (a proving key of gigabytes is not held
// twice in memory), and refuses trailing bytes.
func readFrom(path string, v io.ReaderFrom) error {
	return readStreamed(path, v.ReadFrom)
}

// readProvingKey reads a proving key the prover holds (-keep-pk's file, a
// ceremony's extracted key) without gnark's curve and subgroup checks of its
// points: they cost about eight times the proof on a 4.5 GB key (842 s, 1,475
// CPU-s on a 2-core machine), and they protect only the prover. A key with a
// bad point yields proofs that the verifying key, which the verifier pins,
// refuses (TestKeptProvingKey alters one). Trailing bytes are still refused.
//
// A key written by writeProvingKey is gnark's memory dump (it starts with
// gnark-crypto's dump marker) and is read as one: no conversion at all. Any
// other file is gnark's serialised key, read by UnsafeReadFrom, which still
// checks the BSB22 commitment keys' points (343 CPU-s on that 4.5 GB key).
func readProvingKey(path string, pk groth16.ProvingKey) error {
	dump, err := isDump(path)
	if err != nil {
		return err
	}
	if !dump {
		return readStreamed(path, pk.UnsafeReadFrom)
	}
	return readStreamed(path, func(r io.Reader) (int64, error) {
		c := &countingReader{r: r}
		err := pk.ReadDump(c)
		return c.n, err
	})
}

// writeProvingKey writes a proving key the prover keeps (-keep-pk,
// ceremony-extract -pk) as gnark's memory dump, which readProvingKey reads
// back without converting or checking anything: a file for machines of this
// kind only (a dump from another architecture is refused by its marker).
func writeProvingKey(path string, pk groth16.ProvingKey) error {
	return writeStreamed(path, pk.WriteDump)
}

// isDump says whether the file at path starts with gnark-crypto's dump marker.
func isDump(path string) (bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	head := make([]byte, 8)
	if _, err := io.ReadFull(f, head); err != nil {
		return false, nil // too short for a dump: the serialised reader says why
	}
	var marker bytes.Buffer
	if err := gcunsafe.WriteMarker(&marker); err != nil {
		return false, err
	}
	return bytes.Equal(head, marker.Bytes()), nil
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

func readStreamed(path string, read func(io.Reader) (int64, error)) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	n, err := read(bufio.NewReaderSize(f, 1<<22))
	if err == nil && n != st.Size() {
		err = fmt.Errorf("%d trailing bytes", st.Size()-n)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// curveOfField is the curve (of the ceremony commands') whose scalar field
// is ccs's field; ecc.UNKNOWN for any other.
func curveOfField(ccs constraint.ConstraintSystem) ecc.ID {
	for _, c := range ceremonyCurves {
		if c.id.ScalarField().Cmp(ccs.Field()) == 0 {
			return c.id
		}
	}
	return ecc.UNKNOWN
}

// loadCeremony reads ceremony.json and checks that ccs (if given) is its circuit.
func loadCeremony(dir string, ccs constraint.ConstraintSystem) (*ceremonyInfo, error) {
	data, err := os.ReadFile(filepath.Join(dir, "ceremony.json"))
	if err != nil {
		return nil, err
	}
	var info ceremonyInfo
	if err := json.Unmarshal(data, &info); err != nil {
		return nil, err
	}
	curve, err := info.curve()
	if err != nil {
		return nil, err
	}
	if ccs != nil {
		if curveOfField(ccs) != curve.id {
			return nil, fmt.Errorf("the ceremony in %s is over %s, this circuit over %s", dir, curve.id, curveOfField(ccs))
		}
		if info.Constraints != "" {
			d, err := constraintsDigest(ccs)
			if err != nil {
				return nil, err
			}
			if d != info.Constraints {
				return nil, fmt.Errorf("the ceremony in %s is for the constraints %s, this circuit's are %s", dir, info.Constraints, d)
			}
		} else {
			d, err := ccsDigest(ccs)
			if err != nil {
				return nil, err
			}
			if d != info.Circuit {
				return nil, fmt.Errorf("the ceremony in %s is for circuit %s, this one is %s (a ceremony begun without constraints_sha256 is checked by the compiled system's encoding, debug information included: compile with the program binary that began it)", dir, info.Circuit, d)
			}
		}
	}
	return &info, nil
}

// ceremonyInit starts a ceremony for ccs in dir.
func ceremonyInit(dir string, ccs constraint.ConstraintSystem, program string) (*ceremonyInfo, error) {
	d, err := ccsDigest(ccs)
	if err != nil {
		return nil, err
	}
	constraints, err := constraintsDigest(ccs)
	if err != nil {
		return nil, err
	}
	name := ""
	for n, c := range ceremonyCurves {
		if c.id == curveOfField(ccs) {
			name = n
		}
	}
	if name == "" {
		return nil, fmt.Errorf("no ceremony over %s (bn254 or bls12-381)", curveOfField(ccs))
	}
	if name == "bn254" {
		name = "" // as every BN254 ceremony before the field
	}
	info := &ceremonyInfo{Domain: ecc.NextPowerOfTwo(uint64(ccs.GetNbConstraints())), Circuit: d, Constraints: constraints, Program: program, Curve: name}
	curve, _ := info.curve()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	if _, err := os.Stat(filepath.Join(dir, "ceremony.json")); err == nil {
		return nil, fmt.Errorf("%s already holds a ceremony", dir)
	}
	js, _ := json.MarshalIndent(info, "", "  ")
	if err := os.WriteFile(filepath.Join(dir, "ceremony.json"), append(js, '\n'), 0o644); err != nil {
		return nil, err
	}
	return info, writeTo(ceremonyFile(dir, 1, 0), curve.newPhase1(info.Domain))
}

// ceremonyContribute adds one contribution (fresh randomness from
// crypto/rand, dropped when it returns) to the current phase: phase 2 once
// ceremony-verify has started it. It returns the phase and the file written.
func ceremonyContribute(dir string) (int, string, error) {
	info, err := loadCeremony(dir, nil)
	if err != nil {
		return 0, "", err
	}
	curve, _ := info.curve()
	phase, k := 2, ceremonyContributions(dir, 2)
	if k < 0 {
		phase, k = 1, ceremonyContributions(dir, 1)
	}
	if k < 0 {
		return 0, "", fmt.Errorf("%s: no phase1-0.bin (ceremony-init)", dir)
	}
	out := ceremonyFile(dir, phase, k+1)
	return phase, out, curve.contribute(phase, ceremonyFile(dir, phase, k), out)
}

// contributionFiles are phase's contribution files in order (phaseN-1.bin ..).
func contributionFiles(dir string, phase int) ([]string, error) {
	k := ceremonyContributions(dir, phase)
	if k < 1 {
		return nil, fmt.Errorf("%s: no phase-%d contribution", dir, phase)
	}
	files := make([]string, k)
	for i := range files {
		files[i] = ceremonyFile(dir, phase, i+1)
	}
	return files, nil
}

// ceremonyVerifyPhase1 verifies every phase-1 contribution from the initial
// state (mpcsetup.VerifyPhase1: each update proof, each challenge the hash
// of the previous file) and seals it with beacon. When phase 2 has not
// started, it writes commons.bin and phase2-0.bin (the circuit's initial
// phase-2 state, computed from the verified phase 1, no randomness).
func ceremonyVerifyPhase1(dir string, ccs constraint.ConstraintSystem, beacon []byte) (io.WriterTo, error) {
	info, err := loadCeremony(dir, ccs)
	if err != nil {
		return nil, err
	}
	curve, _ := info.curve()
	files, err := contributionFiles(dir, 1)
	if err != nil {
		return nil, err
	}
	commons, err := curve.verifyPhase1(info.Domain, beacon, files)
	if err != nil {
		return nil, fmt.Errorf("phase 1: %w", err)
	}
	if ceremonyContributions(dir, 2) >= 0 {
		// phase 2 started from the commons on file: they must be these
		onFile, err := os.ReadFile(filepath.Join(dir, "commons.bin"))
		if err != nil {
			return nil, err
		}
		var sealed bytes.Buffer
		commons.WriteTo(&sealed)
		if !bytes.Equal(sealed.Bytes(), onFile) {
			return nil, errors.New("commons.bin is not phase 1 sealed with this beacon")
		}
		return commons, nil
	}
	if err := writeTo(filepath.Join(dir, "commons.bin"), commons); err != nil {
		return nil, err
	}
	return commons, startPhase2(dir, ccs, commons)
}

// startPhase2 writes phase 2's initial state and evaluations computed from
// commons.
func startPhase2(dir string, ccs constraint.ConstraintSystem, commons io.WriterTo) error {
	info, err := loadCeremony(dir, ccs)
	if err != nil {
		return err
	}
	curve, _ := info.curve()
	p2, evals, err := curve.initPhase2(ccs, commons)
	if err != nil {
		return err
	}
	_, err = writePhase2Init(dir, p2, evals)
	return err
}

// ceremonyExtract verifies both phases (phase 2 from the circuit's initial
// state recomputed here, so phase2-0.bin is not trusted) and seals phase 2
// with beacon2: the keys.
//
// phase1Pinned, when not empty, is commons.bin's SHA-256 as the caller's own
// ceremony-verify printed it: phase 1 is then taken from commons.bin after
// checking that digest instead of being verified and sealed again (on a 2^22
// domain that is a single-threaded half hour each time).
func ceremonyExtract(dir string, ccs constraint.ConstraintSystem, beacon1, beacon2 []byte, phase1Pinned string) (groth16.ProvingKey, groth16.VerifyingKey, error) {
	return ceremonyExtractPinned(dir, ccs, beacon1, beacon2, phase1Pinned, "")
}

// ceremonyExtractPinned is ceremonyExtract with phase 2's initial state
// pinned too: phase2Pinned, when not empty, is the digest of phase2-0.bin and
// phase2-evals.bin as the caller's own ceremony-verify (or an unpinned
// ceremony-extract) printed it, and Phase2.Initialize is not run again.
// Without it the initial state is computed here, phase2-0.bin must be it, and
// the evaluations are kept in phase2-evals.bin for later pinned calls.
func ceremonyExtractPinned(dir string, ccs constraint.ConstraintSystem, beacon1, beacon2 []byte, phase1Pinned, phase2Pinned string) (groth16.ProvingKey, groth16.VerifyingKey, error) {
	info, err := loadCeremony(dir, ccs)
	if err != nil {
		return nil, nil, err
	}
	curve, _ := info.curve()
	var commons io.WriterTo
	if phase1Pinned != "" {
		commons, err = pinnedCommons(dir, phase1Pinned)
	} else {
		commons, err = ceremonyVerifyPhase1(dir, ccs, beacon1)
	}
	if err != nil {
		return nil, nil, err
	}
	files, err := contributionFiles(dir, 2)
	if err != nil {
		return nil, nil, err
	}
	var state, evals io.WriterTo
	if phase2Pinned != "" {
		if err := checkPhase2Pin(dir, phase2Pinned); err != nil {
			return nil, nil, err
		}
		state, evals, err = curve.readPhase2Init(dir)
	} else {
		state, evals, err = keepPhase2Init(dir, curve, ccs, commons)
	}
	if err != nil {
		return nil, nil, err
	}
	pk, vk, err := curve.verifyPhase2From(state, evals, commons, beacon2, files)
	if err != nil {
		return nil, nil, fmt.Errorf("phase 2: %w", err)
	}
	return pk, vk, nil
}

// commonsDigest is SHA-256 of dir/commons.bin's bytes, hex.
func commonsDigest(dir string) (string, error) {
	data, err := os.ReadFile(filepath.Join(dir, "commons.bin"))
	if err != nil {
		return "", err
	}
	d := sha256.Sum256(data)
	return hex.EncodeToString(d[:]), nil
}

// pinnedCommons reads dir/commons.bin (of the ceremony's curve) if its
// SHA-256 is want.
func pinnedCommons(dir, want string) (io.WriterTo, error) {
	info, err := loadCeremony(dir, nil)
	if err != nil {
		return nil, err
	}
	curve, _ := info.curve()
	got, err := commonsDigest(dir)
	if err != nil {
		return nil, err
	}
	if got != want {
		return nil, fmt.Errorf("commons.bin has SHA-256 %s, not the pinned %s (verify phase 1 again without -phase1-sha256)", got, want)
	}
	return curve.readCommons(filepath.Join(dir, "commons.bin"))
}

// ceremonySetup is the SETUP constant of a ceremony's verifier.
func ceremonySetup(dir string, beacon1, beacon2 string) string {
	return fmt.Sprintf("mpcsetup ceremony: %d phase-1 and %d phase-2 contributions, beacons %s %s",
		ceremonyContributions(dir, 1), ceremonyContributions(dir, 2), beacon1, beacon2)
}

// The ceremony-* commands.
func ceremonyCommand(name string, args []string) error {
	fs := flag.NewFlagSet(name, flag.ExitOnError)
	dir := fs.String("dir", "", "ceremony directory")
	program := fs.String("program", "", "program JSON (PROGRAM.md): the circuit (ceremony-init, ceremony-verify, ceremony-extract)")
	commit := fs.String("commit", "bsb22", "the circuit's -commit (as program-prove's)")
	beacon1 := fs.String("beacon1", "", "phase 1's random beacon: public, unknown before the last phase-1 contribution (ceremony-verify, ceremony-extract)")
	beacon2 := fs.String("beacon2", "", "phase 2's random beacon: public, unknown before the last phase-2 contribution (ceremony-extract)")
	vkOut := fs.String("vk", "", "ceremony-extract: write the verifying key here (and FILE.setup, for program-export)")
	pkOut := fs.String("pk", "", "ceremony-extract: write the proving key here")
	curveFlag := fs.String("curve", "bn254", "ceremony-init: the keys' curve, bn254 (the EVM's verifiers) or bls12-381 (the Plutus verifier); the other commands read it from ceremony.json")
	plutusKeyOut := fs.String("plutus-key", "", "ceremony-extract over bls12-381: also write the verifying key as tms-cardano's Plutus verifier reads it (JSON)")
	phase2Pinned := fs.String("phase2-sha256", "", "ceremony-extract: take phase 2's initial state as your ceremony-verify (or an earlier ceremony-extract) computed it, phase2-0.bin and phase2-evals.bin with this SHA-256, instead of running gnark's Phase2.Initialize again (hours on 2^22)")
	phase1Pinned := fs.String("phase1-sha256", "", "ceremony-verify, ceremony-extract: take phase 1 as you verified it before, commons.bin with this SHA-256 (printed by your ceremony-verify), instead of verifying and sealing it again")
	fs.Parse(args)
	if *dir == "" {
		return errors.New("-dir is required")
	}
	if name == "ceremony-contribute" {
		phase, out, err := ceremonyContribute(*dir)
		if err == nil {
			fmt.Printf("%s: phase %d contribution written to %s (its randomness is gone with this process)\n", name, phase, out)
		}
		return err
	}
	if *program == "" {
		return errors.New("-program is required")
	}
	p, err := LoadProgram(*program)
	if err != nil {
		return err
	}
	mode, err := ParseCommitMode(*commit)
	if err != nil {
		return err
	}
	// The curve: -curve for a new ceremony, else the ceremony's own.
	curveName := *curveFlag
	if name != "ceremony-init" {
		info, err := loadCeremony(*dir, nil)
		if err != nil {
			return err
		}
		curveName = info.Curve
	}
	curve, err := ceremonyCurveNamed(curveName)
	if err != nil {
		return err
	}
	var ccs constraint.ConstraintSystem
	if curve.id == ecc.BLS12_381 {
		// the replay over BLS12-381 (verifier_bls.go), for the Plutus verifier
		ccs, _, err = compileBLSProgram(p)
	} else {
		ccs, _, err = compileProgram(p, VerifierOptions{Commit: mode})
	}
	if err != nil {
		return err
	}
	switch name {
	case "ceremony-init":
		info, err := ceremonyInit(*dir, ccs, *program)
		if err == nil {
			fmt.Printf("%s: %s, %d constraints, domain %d, constraints %s (circuit encoding %s)\n", name, *dir, ccs.GetNbConstraints(), info.Domain, info.Constraints, info.Circuit)
		}
		return err
	case "ceremony-verify":
		if *beacon1 == "" {
			return errors.New("-beacon1 is required")
		}
		if *phase1Pinned == "" {
			if _, err := ceremonyVerifyPhase1(*dir, ccs, []byte(*beacon1)); err != nil {
				return err
			}
			digest, err := commonsDigest(*dir)
			if err != nil {
				return err
			}
			fmt.Printf("%s: phase 1 verified (%d contributions), sealed: commons.bin sha256=%s\n", name, ceremonyContributions(*dir, 1), digest)
			if ceremonyContributions(*dir, 2) == 0 {
				if err := printPhase2Init(name, *dir, "computed"); err != nil {
					return err
				}
			}
		} else {
			commons, err := pinnedCommons(*dir, *phase1Pinned)
			if err != nil {
				return err
			}
			fmt.Printf("%s: phase 1 taken as verified before (commons.bin sha256=%s)\n", name, *phase1Pinned)
			if ceremonyContributions(*dir, 2) < 0 {
				// phase 2 not started (a verification cut off after the seal)
				if err := startPhase2(*dir, ccs, commons); err != nil {
					return err
				}
				if err := printPhase2Init(name, *dir, "computed"); err != nil {
					return err
				}
			}
		}
		if ceremonyContributions(*dir, 2) < 1 {
			return nil
		}
		// phase 2's chain alone (the keys are sealed by ceremony-extract)
		if _, _, err := ceremonyExtract(*dir, ccs, []byte(*beacon1), []byte("verification only"), *phase1Pinned); err != nil {
			return err
		}
		fmt.Printf("%s: phase 2 verified (%d contributions)\n", name, ceremonyContributions(*dir, 2))
		return nil
	case "ceremony-extract":
		if *beacon1 == "" || *beacon2 == "" || *vkOut == "" {
			return errors.New("-beacon1, -beacon2 and -vk are required")
		}
		pk, vk, err := ceremonyExtractPinned(*dir, ccs, []byte(*beacon1), []byte(*beacon2), *phase1Pinned, *phase2Pinned)
		if err != nil {
			return err
		}
		if *phase2Pinned == "" {
			if err := printPhase2Init(name, *dir, "recomputed, phase2-0.bin checked"); err != nil {
				return err
			}
		} else {
			fmt.Printf("%s: phase 2's initial state taken as computed before (phase2-init sha256=%s)\n", name, *phase2Pinned)
		}
		if err := writeVK(*vkOut, vk); err != nil {
			return err
		}
		setup := ceremonySetup(*dir, *beacon1, *beacon2)
		if err := checkSetupString(setup); err != nil {
			return err
		}
		if err := os.WriteFile(*vkOut+".setup", []byte(setup+"\n"), 0o644); err != nil {
			return err
		}
		if *pkOut != "" {
			if err := writeProvingKey(*pkOut, pk); err != nil {
				return err
			}
		}
		if *plutusKeyOut != "" {
			if curve.id != ecc.BLS12_381 {
				return errors.New("-plutus-key needs a bls12-381 ceremony")
			}
			key, err := newPlutusKey(vk, setup)
			if err != nil {
				return err
			}
			info, err := loadCeremony(*dir, nil)
			if err != nil {
				return err
			}
			if key.Ceremony, err = plutusCeremonyRecord(*dir, info, *beacon1, *beacon2, vk); err != nil {
				return err
			}
			data, _ := json.MarshalIndent(key, "", "  ")
			if err := os.WriteFile(*plutusKeyOut, append(data, '\n'), 0o644); err != nil {
				return err
			}
		}
		fmt.Printf("%s: keys extracted (%s); verifying key in %s\n", name, setup, *vkOut)
		return nil
	}
	return fmt.Errorf("unknown command %s", name)
}
