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
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/consensys/gnark-crypto/ecc"
	"github.com/consensys/gnark/backend/groth16"
	"github.com/consensys/gnark/backend/groth16/bn254/mpcsetup"
	"github.com/consensys/gnark/constraint"
	csbn254 "github.com/consensys/gnark/constraint/bn254"
)

type ceremonyInfo struct {
	// Domain is the phase-1 domain size (a power of two >= the constraints).
	Domain uint64 `json:"domain"`
	// Circuit is SHA-256 of the compiled constraint system (gnark's binary
	// encoding): phase 2 and the keys are for exactly this circuit.
	Circuit string `json:"circuit_sha256"`
	// Program is the program file the commands compiled, for the record.
	Program string `json:"program,omitempty"`
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

func writeTo(path string, v io.WriterTo) error {
	var b bytes.Buffer
	if _, err := v.WriteTo(&b); err != nil {
		return err
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}

func readFrom(path string, v io.ReaderFrom) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	n, err := v.ReadFrom(bytes.NewReader(data))
	if err == nil && int(n) != len(data) {
		err = fmt.Errorf("%s: %d trailing bytes", path, len(data)-int(n))
	}
	return err
}

func r1csOf(ccs constraint.ConstraintSystem) (*csbn254.R1CS, error) {
	r, ok := ccs.(*csbn254.R1CS)
	if !ok {
		return nil, fmt.Errorf("constraint system of type %T, want a BN254 R1CS", ccs)
	}
	return r, nil
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
	if ccs != nil {
		d, err := ccsDigest(ccs)
		if err != nil {
			return nil, err
		}
		if d != info.Circuit {
			return nil, fmt.Errorf("the ceremony in %s is for circuit %s, this one is %s", dir, info.Circuit, d)
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
	info := &ceremonyInfo{Domain: ecc.NextPowerOfTwo(uint64(ccs.GetNbConstraints())), Circuit: d, Program: program}
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
	return info, writeTo(ceremonyFile(dir, 1, 0), mpcsetup.NewPhase1(info.Domain))
}

// ceremonyContribute adds one contribution (fresh randomness from
// crypto/rand, dropped when it returns) to the current phase: phase 2 once
// ceremony-verify has started it. It returns the phase and the file written.
func ceremonyContribute(dir string) (int, string, error) {
	if _, err := loadCeremony(dir, nil); err != nil {
		return 0, "", err
	}
	if k := ceremonyContributions(dir, 2); k >= 0 {
		var p mpcsetup.Phase2
		if err := readFrom(ceremonyFile(dir, 2, k), &p); err != nil {
			return 0, "", err
		}
		p.Contribute()
		out := ceremonyFile(dir, 2, k+1)
		return 2, out, writeTo(out, &p)
	}
	k := ceremonyContributions(dir, 1)
	if k < 0 {
		return 0, "", fmt.Errorf("%s: no phase1-0.bin (ceremony-init)", dir)
	}
	var p mpcsetup.Phase1
	if err := readFrom(ceremonyFile(dir, 1, k), &p); err != nil {
		return 0, "", err
	}
	p.Contribute()
	out := ceremonyFile(dir, 1, k+1)
	return 1, out, writeTo(out, &p)
}

func readContributions[T any, PT interface {
	*T
	io.ReaderFrom
}](dir string, phase int) ([]PT, error) {
	k := ceremonyContributions(dir, phase)
	if k < 1 {
		return nil, fmt.Errorf("%s: no phase-%d contribution", dir, phase)
	}
	out := make([]PT, k)
	for i := range out {
		out[i] = PT(new(T))
		if err := readFrom(ceremonyFile(dir, phase, i+1), out[i]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// ceremonyVerifyPhase1 verifies every phase-1 contribution from the initial
// state (mpcsetup.VerifyPhase1: each update proof, each challenge the hash
// of the previous file) and seals it with beacon. When phase 2 has not
// started, it writes commons.bin and phase2-0.bin (the circuit's initial
// phase-2 state, computed from the verified phase 1, no randomness).
func ceremonyVerifyPhase1(dir string, ccs constraint.ConstraintSystem, beacon []byte) (*mpcsetup.SrsCommons, error) {
	info, err := loadCeremony(dir, ccs)
	if err != nil {
		return nil, err
	}
	c, err := readContributions[mpcsetup.Phase1](dir, 1)
	if err != nil {
		return nil, err
	}
	commons, err := mpcsetup.VerifyPhase1(info.Domain, beacon, c...)
	if err != nil {
		return nil, fmt.Errorf("phase 1: %w", err)
	}
	if ceremonyContributions(dir, 2) >= 0 {
		// phase 2 started from the commons on file: they must be these
		var onFile mpcsetup.SrsCommons
		if err := readFrom(filepath.Join(dir, "commons.bin"), &onFile); err != nil {
			return nil, err
		}
		var a, b bytes.Buffer
		commons.WriteTo(&a)
		onFile.WriteTo(&b)
		if !bytes.Equal(a.Bytes(), b.Bytes()) {
			return nil, errors.New("commons.bin is not phase 1 sealed with this beacon")
		}
		return &commons, nil
	}
	r, err := r1csOf(ccs)
	if err != nil {
		return nil, err
	}
	if err := writeTo(filepath.Join(dir, "commons.bin"), &commons); err != nil {
		return nil, err
	}
	var p2 mpcsetup.Phase2
	p2.Initialize(r, &commons)
	return &commons, writeTo(ceremonyFile(dir, 2, 0), &p2)
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
	var commons *mpcsetup.SrsCommons
	var err error
	if phase1Pinned != "" {
		if _, err := loadCeremony(dir, ccs); err != nil {
			return nil, nil, err
		}
		commons, err = pinnedCommons(dir, phase1Pinned)
	} else {
		commons, err = ceremonyVerifyPhase1(dir, ccs, beacon1)
	}
	if err != nil {
		return nil, nil, err
	}
	r, err := r1csOf(ccs)
	if err != nil {
		return nil, nil, err
	}
	c, err := readContributions[mpcsetup.Phase2](dir, 2)
	if err != nil {
		return nil, nil, err
	}
	pk, vk, err := mpcsetup.VerifyPhase2(r, commons, beacon2, c...)
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

// pinnedCommons reads dir/commons.bin if its SHA-256 is want.
func pinnedCommons(dir, want string) (*mpcsetup.SrsCommons, error) {
	got, err := commonsDigest(dir)
	if err != nil {
		return nil, err
	}
	if got != want {
		return nil, fmt.Errorf("commons.bin has SHA-256 %s, not the pinned %s (verify phase 1 again without -phase1-sha256)", got, want)
	}
	var commons mpcsetup.SrsCommons
	if err := readFrom(filepath.Join(dir, "commons.bin"), &commons); err != nil {
		return nil, err
	}
	return &commons, nil
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
	ccs, _, err := compileProgram(p, VerifierOptions{Commit: mode})
	if err != nil {
		return err
	}
	switch name {
	case "ceremony-init":
		info, err := ceremonyInit(*dir, ccs, *program)
		if err == nil {
			fmt.Printf("%s: %s, %d constraints, domain %d, circuit %s\n", name, *dir, ccs.GetNbConstraints(), info.Domain, info.Circuit)
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
		pk, vk, err := ceremonyExtract(*dir, ccs, []byte(*beacon1), []byte(*beacon2), *phase1Pinned)
		if err != nil {
			return err
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
			if err := writeTo(*pkOut, pk); err != nil {
				return err
			}
		}
		fmt.Printf("%s: keys extracted (%s); verifying key in %s\n", name, setup, *vkOut)
		return nil
	}
	return fmt.Errorf("unknown command %s", name)
}
