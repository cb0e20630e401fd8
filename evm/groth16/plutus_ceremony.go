package main

// The ceremony record of a Plutus key (issue 47 item 4): what lets
// `tms export-plutus --groth16` tell a key extracted from a BLS12-381
// ceremony from a seeded test key without trusting one text field.
//
// ceremony-extract -plutus-key writes, beside the key, phase 2's δ chain:
// for each phase-2 contribution i, δ_i (in G1, after it), its contribution
// [x_i]_1 and gnark's proof of knowledge π_i = x_i R_i with its base R_i =
// HashToG2([x_i]_1 uncompressed || challenge_i, DST_DELTA) (gnark-crypto's
// pokBase), and the beacon's factor b (gnark's BeaconContributions). The
// reader checks, with pairings only:
//
//	δ_0 = [1]_1,  e([x_i]_1, R_i) = e([1]_1, π_i),  e(δ_i, R_i) = e(δ_(i-1), π_i),
//	e(b δ_K, [1]_2) = e([1]_1, δ_key)
//
// so the key's δ is b x_1 .. x_K, each factor's holder having proved
// knowledge of it. What this proves: the key's δ came out of a chain of K
// recorded updates, so a seeded key does not pass by editing `setup` (or any
// one field); a contributor who kept their [x_i]_1 can see it in the chain.
// What it does not prove: that any contributor was honest (whoever knows a
// seeded setup's δ can write a one-link chain for it: a program, not an
// edit), that R_i is the hash of the transcript (ceremony-extract checked
// that; the reader takes R_i as written), anything of phase 1 (τ, α, β) or
// of the key's other points: for those, run ceremony-verify on the
// transcript.

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math/big"

	bls12381 "github.com/consensys/gnark-crypto/ecc/bls12-381"
	frbls "github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	cmpcbls "github.com/consensys/gnark-crypto/ecc/bls12-381/mpcsetup"
	"github.com/consensys/gnark/backend/groth16"
	groth16bls12381 "github.com/consensys/gnark/backend/groth16/bls12-381"
	mpcbls "github.com/consensys/gnark/backend/groth16/bls12-381/mpcsetup"
)

// plutusDeltaLink is one phase-2 contribution's δ update, compressed hex.
type plutusDeltaLink struct {
	Delta        string `json:"delta_g1"`
	Contribution string `json:"contribution_g1"`
	PokBase      string `json:"pok_base_g2"`
	Pok          string `json:"pok_g2"`
}

// plutusCeremony is the ceremony record of a Plutus key.
type plutusCeremony struct {
	Circuit             string            `json:"circuit_sha256"`
	Phase1Contributions int               `json:"phase1_contributions"`
	Phase2Contributions int               `json:"phase2_contributions"`
	Beacon1             string            `json:"beacon1"`
	Beacon2             string            `json:"beacon2"`
	DeltaChain          []plutusDeltaLink `json:"phase2_delta_chain"`
	// BeaconDelta is the beacon's factor b, 32 bytes big-endian hex.
	BeaconDelta string `json:"beacon_delta"`
}

// gnark's phase-2 constants (backend/groth16/bls12-381/mpcsetup).
const (
	phase2DSTDelta  = 0
	phase2BeaconDST = "Groth16 MPC Setup - Phase2"
)

// plutusCeremonyRecord reads a verified BLS12-381 ceremony's phase-2 files
// and lays out the δ chain ending in vk's δ, checking each relation the
// reader will check (so a record that does not hold is never written).
func plutusCeremonyRecord(dir string, info *ceremonyInfo, beacon1, beacon2 string, vk groth16.VerifyingKey) (*plutusCeremony, error) {
	v, ok := vk.(*groth16bls12381.VerifyingKey)
	if !ok {
		return nil, fmt.Errorf("verifying key of type %T, want BLS12-381", vk)
	}
	files, err := contributionFiles(dir, 2)
	if err != nil {
		return nil, err
	}
	_, _, g1, g2 := bls12381.Generators()
	rec := &plutusCeremony{Circuit: info.Circuit, Phase1Contributions: ceremonyContributions(dir, 1),
		Phase2Contributions: len(files), Beacon1: beacon1, Beacon2: beacon2}
	prev := g1
	var last mpcbls.Phase2
	for _, f := range files {
		var p mpcbls.Phase2
		if err := readFrom(f, &p); err != nil {
			return nil, err
		}
		var proof bytes.Buffer
		if _, err := p.Delta.WriteTo(&proof); err != nil {
			return nil, err
		}
		raw := proof.Bytes()
		if len(raw) != bls12381.SizeOfG1AffineCompressed+bls12381.SizeOfG2AffineCompressed {
			return nil, fmt.Errorf("%s: an update proof of %d bytes", f, len(raw))
		}
		var x bls12381.G1Affine
		var pok bls12381.G2Affine
		if _, err := x.SetBytes(raw[:48]); err != nil {
			return nil, err
		}
		if _, err := pok.SetBytes(raw[48:]); err != nil {
			return nil, err
		}
		xRaw := x.RawBytes()
		base, err := bls12381.HashToG2(append(xRaw[:], p.Challenge...), []byte{phase2DSTDelta})
		if err != nil {
			return nil, err
		}
		delta := p.Parameters.G1.Delta
		if err := deltaLinkHolds(prev, delta, x, base, pok); err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		rec.DeltaChain = append(rec.DeltaChain, plutusDeltaLink{Delta: g1Hex(delta), Contribution: g1Hex(x),
			PokBase: g2Hex(base), Pok: g2Hex(pok)})
		prev, last = delta, p
	}
	// The seal: δ_key = b δ_K, b = BeaconContributions(hash(last), ...)[0].
	h := sha256.New()
	if _, err := last.WriteTo(h); err != nil {
		return nil, err
	}
	b := cmpcbls.BeaconContributions(h.Sum(nil), []byte(phase2BeaconDST), []byte(beacon2), 1+len(last.Sigmas))[0]
	bb := b.Bytes()
	rec.BeaconDelta = hex.EncodeToString(bb[:])
	if err := beaconSealHolds(prev, b, v.G2.Delta, g1, g2); err != nil {
		return nil, err
	}
	return rec, nil
}

// deltaLinkHolds checks one link: x ≠ 0, e(x, R) = e(g1, π), e(δ, R) = e(δ_prev, π).
func deltaLinkHolds(prev, delta, x bls12381.G1Affine, base, pok bls12381.G2Affine) error {
	if x.IsInfinity() {
		return errors.New("a zero contribution")
	}
	_, _, g1, _ := bls12381.Generators()
	var negPok bls12381.G2Affine
	negPok.Neg(&pok)
	if ok, err := bls12381.PairingCheck([]bls12381.G1Affine{x, g1}, []bls12381.G2Affine{base, negPok}); err != nil || !ok {
		return errors.New("the contribution's proof of knowledge fails")
	}
	if ok, err := bls12381.PairingCheck([]bls12381.G1Affine{delta, prev}, []bls12381.G2Affine{base, negPok}); err != nil || !ok {
		return errors.New("δ is not the previous δ times the contribution")
	}
	return nil
}

// beaconSealHolds checks e(b δ_K, [1]_2) = e([1]_1, δ_key).
func beaconSealHolds(deltaK bls12381.G1Affine, b frbls.Element, deltaKey bls12381.G2Affine, g1 bls12381.G1Affine, g2 bls12381.G2Affine) error {
	bi := b.BigInt(new(big.Int))
	var sealed bls12381.G1Affine
	sealed.ScalarMultiplication(&deltaK, bi)
	var negG1 bls12381.G1Affine
	negG1.Neg(&g1)
	if ok, err := bls12381.PairingCheck([]bls12381.G1Affine{sealed, negG1}, []bls12381.G2Affine{g2, deltaKey}); err != nil || !ok {
		return errors.New("the key's δ is not the beacon's factor times the last contribution's δ")
	}
	return nil
}

func g1Hex(p bls12381.G1Affine) string { b := p.Bytes(); return hex.EncodeToString(b[:]) }
func g2Hex(p bls12381.G2Affine) string { b := p.Bytes(); return hex.EncodeToString(b[:]) }
