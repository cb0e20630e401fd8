package main

import (
	"strings"
	"testing"
	"time"

	"github.com/consensys/gnark-crypto/ecc"
	"github.com/consensys/gnark/frontend"
	"github.com/consensys/gnark/frontend/cs/r1cs"
	"github.com/consensys/gnark/logger"
	"github.com/consensys/gnark/test"
)

func init() { logger.Disable() }

// Every part except the pairing, small enough for the test engine.
var testShape = Shape{Name: "test", MSMTerms: 2, MSMConstPoints: 1, LimbPoints: 2, Transcript: true, IdentityMuls: 10, ScalarConversions: 2}

func solved(t *testing.T, s Shape, bad Corruption) error {
	t.Helper()
	start := time.Now()
	err := test.IsSolved(s.Placeholder(), s.Assignment(bad), ecc.BN254.ScalarField())
	msg := "solved"
	if err != nil {
		msg = "not solved: " + strings.SplitN(err.Error(), "\n", 2)[0]
	}
	t.Logf("%s corruption=%d: %s (%.1f s)", s.Name, bad, msg, time.Since(start).Seconds())
	return err
}

func TestHonestWitnessSolves(t *testing.T) {
	if err := solved(t, testShape, Honest); err != nil {
		t.Fatalf("honest witness rejected: %v", err)
	}
}

// Each wrong value is tried on a circuit holding only its own part (so the
// failure cannot come from another part), after the honest witness of that
// same circuit is accepted.
func TestWrongWitnessesFail(t *testing.T) {
	for _, c := range []struct {
		s   Shape
		bad Corruption
	}{
		{Shape{Name: "msm2", MSMTerms: 2, MSMConstPoints: 1}, WrongMSM},
		{Shape{Name: "limbs2", LimbPoints: 2}, WrongLimb},
		{Shape{Name: "transcript", Transcript: true}, WrongChallenge},
		{Shape{Name: "identity10", IdentityMuls: 10}, WrongIdentity},
		{Shape{Name: "conv2", ScalarConversions: 2}, WrongConversion},
	} {
		if err := solved(t, c.s, Honest); err != nil {
			t.Errorf("%s: honest witness rejected: %v", c.s.Name, err)
		}
		if err := solved(t, c.s, c.bad); err == nil {
			t.Errorf("%s: corruption %d accepted", c.s.Name, c.bad)
		}
	}
}

func TestPairingWitness(t *testing.T) {
	for _, m := range []PairingMode{PairingVariableG2, PairingConstantG2, PairingFixedLines} {
		s := Shape{Name: "pairing-" + m.String(), Pairing: m}
		if err := solved(t, s, Honest); err != nil {
			t.Fatalf("%s: honest pairing witness rejected: %v", s.Name, err)
		}
	}
	s := Shape{Name: "pairing", Pairing: PairingFixedLines}
	if err := solved(t, s, WrongPairing); err == nil {
		t.Fatal("wrong pairing witness accepted")
	}
}

func TestTranscriptSchedule(t *testing.T) {
	a, q := transcriptSizes()
	// 1 digest + 12 limbs + 4 words + 10 points * 6 limbs + 23 evaluations
	if a != 1+12+4+10*6+23 || q != 9 {
		t.Fatalf("schedule absorbs %d and squeezes %d", a, q)
	}
	if p := transcriptPermutations(); p != 31 {
		t.Fatalf("%d permutations", p)
	}
}

// The README's figures for the small parts; a gnark upgrade that changes
// them must update README.md too.
func TestSmallCounts(t *testing.T) {
	want := map[string]int{"c-oncurve2-limbs88": 6230, "d-transcript": 9306, "e-identity400": 401}
	for _, s := range components {
		n, ok := want[s.Name]
		if !ok {
			continue
		}
		ccs, err := frontend.Compile(ecc.BN254.ScalarField(), r1cs.NewBuilder, s.Placeholder())
		if err != nil {
			t.Fatal(err)
		}
		if got := ccs.GetNbConstraints(); got != n {
			t.Errorf("%s: %d constraints, README says %d", s.Name, got, n)
		}
	}
}

// Without the BSB22 commitment (nocommit.go): the circuit has no commitment,
// an honest witness still solves and a wrong one is still refused (the
// multiplication checks are done at an in-circuit hash of the wires).
func TestNoCommitment(t *testing.T) {
	for _, mode := range []CommitMode{CommitBSB22, CommitPlainRange, CommitNone} {
		s := Shape{Name: "limbs1-" + mode.String(), LimbPoints: 1, Commit: mode}
		ccs, err := frontend.Compile(ecc.BN254.ScalarField(), r1cs.NewBuilder, s.Placeholder())
		if err != nil {
			t.Fatal(err)
		}
		want := 1
		if mode == CommitNone {
			want = 0
		}
		if n := len(ccs.GetCommitments().CommitmentIndexes()); n != want {
			t.Errorf("%s: %d commitments, want %d", s.Name, n, want)
		}
		t.Logf("%s: %d constraints, %d commitments", s.Name, ccs.GetNbConstraints(), want)
	}
	s := Shape{Name: "limbs1-msm1-none", MSMTerms: 1, LimbPoints: 1, Commit: CommitNone}
	if err := solved(t, s, Honest); err != nil {
		t.Errorf("%s: honest witness rejected: %v", s.Name, err)
	}
	if err := solved(t, s, WrongMSM); err == nil {
		t.Errorf("%s: wrong MSM accepted", s.Name)
	}
	if err := solved(t, s, WrongLimb); err == nil {
		t.Errorf("%s: limb point off the curve accepted", s.Name)
	}
}
