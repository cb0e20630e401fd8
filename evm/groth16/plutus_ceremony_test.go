package main

import (
	"math/big"
	"testing"

	bls12381 "github.com/consensys/gnark-crypto/ecc/bls12-381"
	frbls "github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
)

// TestPlutusCeremonyRecord: a small BLS12-381 ceremony on the toy circuit
// writes a Plutus key whose δ chain holds link by link and seals to the key's
// δ (every relation the Rust reader checks); a proof under it passes the
// Plutus twin; one link's δ moved, a contribution swapped for another and
// another beacon factor each break the chain.
func TestPlutusCeremonyRecord(t *testing.T) {
	ccs, pk, vk, key, err := plutusToyCeremony(false)
	if err != nil {
		t.Fatal(err)
	}
	rec := key.Ceremony
	if rec == nil || len(rec.DeltaChain) != 2 || rec.Phase2Contributions != 2 || rec.Phase1Contributions != 2 {
		t.Fatalf("ceremony record %+v", rec)
	}
	proof, err := plutusToyProve(ccs, pk, vk, false, big.NewInt(5), big.NewInt(77), big.NewInt(3))
	if err != nil {
		t.Fatal(err)
	}
	b, err := plutusProofBytes(proof)
	if err != nil {
		t.Fatal(err)
	}
	if err := plutusVerify(key, b, []*big.Int{big.NewInt(25), big.NewInt(77), big.NewInt(3)}); err != nil {
		t.Fatalf("the ceremony key's proof: %v", err)
	}
	_, _, g1, g2 := bls12381.Generators()
	point1 := func(s string) bls12381.G1Affine {
		p, err := plutusG1(s)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	point2 := func(s string) bls12381.G2Affine {
		p, err := plutusG2(s)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	chain := func(links []plutusDeltaLink, beacon string, deltaKey bls12381.G2Affine) error {
		prev := g1
		for _, l := range links {
			if err := deltaLinkHolds(prev, point1(l.Delta), point1(l.Contribution), point2(l.PokBase), point2(l.Pok)); err != nil {
				return err
			}
			prev = point1(l.Delta)
		}
		var f frbls.Element
		if _, err := f.SetString("0x" + beacon); err != nil {
			t.Fatal(err)
		}
		return beaconSealHolds(prev, f, deltaKey, g1, g2)
	}
	deltaKey := point2(key.Delta)
	if err := chain(rec.DeltaChain, rec.BeaconDelta, deltaKey); err != nil {
		t.Fatalf("the honest chain: %v", err)
	}
	moved := append([]plutusDeltaLink{}, rec.DeltaChain...)
	d := point1(moved[0].Delta)
	d.Add(&d, &g1)
	moved[0].Delta = g1Hex(d)
	if chain(moved, rec.BeaconDelta, deltaKey) == nil {
		t.Error("a moved δ accepted")
	}
	swapped := append([]plutusDeltaLink{}, rec.DeltaChain...)
	swapped[1].Contribution = swapped[0].Contribution
	if chain(swapped, rec.BeaconDelta, deltaKey) == nil {
		t.Error("another contribution accepted")
	}
	if chain(rec.DeltaChain, "02", deltaKey) == nil {
		t.Error("another beacon factor accepted")
	}
	// A seeded key's δ is not the end of this chain.
	_, _, svk, err := plutusToySetup("tms plutus groth16 toy", false)
	if err != nil {
		t.Fatal(err)
	}
	seeded, err := newPlutusKey(svk, "INSECURE seeded")
	if err != nil {
		t.Fatal(err)
	}
	if chain(rec.DeltaChain, rec.BeaconDelta, point2(seeded.Delta)) == nil {
		t.Error("the chain sealed to a seeded key's δ")
	}
}
