package main

// A small synthetic verifier program with the shape of a KZG accumulator
// check, built here with gnark-crypto (no Rust): for the tests and for trying
// the program-* commands before a recorded program exists.
//
// Statement words x, y (instances 12, 13, public); an accumulator (A_l, A_r)
// with A_l = tau A_r as 2 x 6 limbs of 88/88/78 bits (instances 0..11);
// proof scalars a = x + 2y and b = 1/x; proof points P0 = a G, P1 = c G,
// P2 = tau P1. The program reads them, squeezes a "challenge" r from a few
// lincomb / mul ops over the statement, the proof and the encoded points,
// checks a = x + 2y, b x = 1, P0 = [a] G (msm + point_assert_eq), and ends
// with the pairing check of lhs = A_l + r P2, rhs = A_r + r P1:
// e(lhs, [1]_2) e(rhs, -[tau]_2) = 1 since lhs = tau rhs.

import (
	"encoding/json"
	"math/big"

	"github.com/consensys/gnark-crypto/ecc/bn254"
	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
)

type progBuilder struct {
	ops    []map[string]any
	ns, np int
}

func dec(v *big.Int) string { return v.String() }

func decFr(e fr.Element) string { return e.BigInt(new(big.Int)).String() }

func (b *progBuilder) add(op map[string]any) { b.ops = append(b.ops, op) }

func (b *progBuilder) s() int { b.ns++; return b.ns - 1 }

func (b *progBuilder) p() int { b.np++; return b.np - 1 }

func (b *progBuilder) constant(v int64) int {
	o := b.s()
	b.add(map[string]any{"op": "const", "out": o, "v": dec(big.NewInt(v))})
	return o
}

func (b *progBuilder) instance(i int) int {
	o := b.s()
	b.add(map[string]any{"op": "instance", "out": o, "i": i})
	return o
}

func (b *progBuilder) readScalar(i int) int {
	o := b.s()
	b.add(map[string]any{"op": "read_scalar", "out": o, "i": i})
	return o
}

func (b *progBuilder) lincomb(c int64, terms ...[2]int64) int {
	o := b.s()
	t := make([][2]any, len(terms))
	for k, x := range terms {
		t[k] = [2]any{dec(big.NewInt(x[0])), x[1]}
	}
	b.add(map[string]any{"op": "lincomb", "out": o, "terms": t, "c": dec(big.NewInt(c))})
	return o
}

func (b *progBuilder) mul(x, y int) int {
	o := b.s()
	b.add(map[string]any{"op": "mul", "out": o, "a": x, "b": y})
	return o
}

func (b *progBuilder) inv(x int) int {
	o := b.s()
	b.add(map[string]any{"op": "inv", "out": o, "a": x})
	return o
}

func (b *progBuilder) pointConst(q bn254.G1Affine) int {
	o := b.p()
	b.add(map[string]any{"op": "point_const", "out": o,
		"x": q.X.BigInt(new(big.Int)).String(), "y": q.Y.BigInt(new(big.Int)).String()})
	return o
}

func (b *progBuilder) readPoint(i int) (p, sx, sy int) {
	p = b.p()
	sx, sy = b.s(), b.s()
	b.add(map[string]any{"op": "read_point", "out": p, "i": i, "enc": []int{sx, sy}})
	return
}

func (b *progBuilder) fromLimbs(l []int) int {
	o := b.p()
	b.add(map[string]any{"op": "point_from_limbs", "out": o, "limbs": l})
	return o
}

func (b *progBuilder) encode(p int) (sx, sy int) {
	sx, sy = b.s(), b.s()
	b.add(map[string]any{"op": "encode_point", "out": []int{sx, sy}, "p": p})
	return
}

func (b *progBuilder) msm(terms ...[2]int) int {
	o := b.p()
	b.add(map[string]any{"op": "msm", "out": o, "terms": terms})
	return o
}

// syntheticTau is the synthetic program's toxic waste (known: a test key).
func syntheticTau() fr.Element { return derive("synthetic tau", 0) }

// SyntheticProgram returns the synthetic program's JSON.
func SyntheticProgram() []byte {
	b := &progBuilder{}
	x, y := b.instance(12), b.instance(13)
	p0, e0x, e0y := b.readPoint(0)
	a, bb := b.readScalar(0), b.readScalar(1)
	// a "transcript": r = (x + 3y + 5 e0x + 7 e0y + 11 a + 13 b + 17)^5
	t := b.lincomb(17, [2]int64{1, int64(x)}, [2]int64{3, int64(y)}, [2]int64{5, int64(e0x)},
		[2]int64{7, int64(e0y)}, [2]int64{11, int64(a)}, [2]int64{13, int64(bb)})
	t2 := b.mul(t, t)
	t4 := b.mul(t2, t2)
	r0 := b.mul(t4, t)
	// the "gate": a = x + 2y, b x = 1, 1/(1/r0) = r0
	b.add(map[string]any{"op": "assert_eq", "a": a, "b": b.lincomb(0, [2]int64{1, int64(x)}, [2]int64{2, int64(y)})})
	one := b.constant(1)
	b.add(map[string]any{"op": "assert_eq", "a": b.mul(bb, x), "b": one})
	b.add(map[string]any{"op": "assert_eq", "a": b.inv(b.inv(r0)), "b": r0})
	// the accumulator from the instances
	var limbs [12]int
	for i := range limbs {
		limbs[i] = b.instance(i)
	}
	accL, accR := b.fromLimbs(limbs[0:6]), b.fromLimbs(limbs[6:12])
	p1, e1x, e1y := b.readPoint(1)
	p2, e2x, e2y := b.readPoint(2)
	lx, ly := b.encode(accL)
	rx, ry := b.encode(accR)
	r := b.lincomb(0, [2]int64{1, int64(r0)}, [2]int64{1, int64(lx)}, [2]int64{2, int64(ly)}, [2]int64{3, int64(rx)},
		[2]int64{4, int64(ry)}, [2]int64{5, int64(e1x)}, [2]int64{6, int64(e1y)}, [2]int64{7, int64(e2x)}, [2]int64{8, int64(e2y)})
	// P0 = [a] G
	_, _, g1, _ := bn254.Generators()
	g := b.pointConst(g1)
	b.add(map[string]any{"op": "point_assert_eq", "a": b.msm([2]int{a, g}), "b": p0})
	lhs := b.msm([2]int{one, accL}, [2]int{r, p2})
	rhs := b.msm([2]int{one, accR}, [2]int{r, p1})
	b.add(map[string]any{"op": "pairing_check", "lhs": lhs, "rhs": rhs})

	_, _, _, g2 := bn254.Generators()
	tau := syntheticTau()
	var tauG2 bn254.G2Affine
	tauG2.ScalarMultiplication(&g2, tau.BigInt(new(big.Int)))
	g2c := func(q bn254.G2Affine) []string {
		return []string{q.X.A0.String(), q.X.A1.String(), q.Y.A0.String(), q.Y.A1.String()}
	}
	out, err := json.MarshalIndent(map[string]any{
		"version":           1,
		"description":       "synthetic KZG-accumulator-shaped program (evm/groth16/synthetic.go)",
		"num_instances":     14,
		"public_instances":  []int{12, 13},
		"num_proof_scalars": 2,
		"num_proof_points":  3,
		"g2":                map[string]any{"one": g2c(g2), "tau": g2c(tauG2)},
		"ops":               b.ops,
	}, "", " ")
	if err != nil {
		panic(err)
	}
	return out
}

func mulG1(k fr.Element) bn254.G1Affine {
	_, _, g1, _ := bn254.Generators()
	var q bn254.G1Affine
	q.ScalarMultiplication(&g1, k.BigInt(new(big.Int)))
	return q
}

func limbs88Fr(x *big.Int) []fr.Element {
	out := make([]fr.Element, 3)
	v := new(big.Int).Set(x)
	for i, w := range accLimbBits {
		m := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(w)), big.NewInt(1))
		out[i].SetBigInt(new(big.Int).And(v, m))
		v.Rsh(v, uint(w))
	}
	return out
}

// SyntheticWitness returns an honest witness of the synthetic program (its
// debugging registers filled by the native replay).
func SyntheticWitness(p *Program) *Witness {
	x, y := derive("synthetic x", 0), derive("synthetic y", 0)
	var a, b, two fr.Element
	two.SetUint64(2)
	a.Mul(&y, &two).Add(&a, &x)
	b.Inverse(&x)
	tau := syntheticTau()
	ar, c := derive("synthetic acc", 0), derive("synthetic c", 0)
	var al, tc fr.Element
	al.Mul(&ar, &tau)
	tc.Mul(&c, &tau)
	accL, accR := mulG1(al), mulG1(ar)
	w := &Witness{
		ProofScalars: []fr.Element{a, b},
		ProofPoints:  []bn254.G1Affine{mulG1(a), mulG1(c), mulG1(tc)},
	}
	for _, q := range []bn254.G1Affine{accL, accR} {
		w.Instances = append(w.Instances, limbs88Fr(q.X.BigInt(new(big.Int)))...)
		w.Instances = append(w.Instances, limbs88Fr(q.Y.BigInt(new(big.Int)))...)
	}
	w.Instances = append(w.Instances, x, y)
	if p != nil {
		if r, err := p.Replay(w); err == nil {
			w.Scalars, w.Points = r.Scalars, r.Points
		}
	}
	return w
}

// WitnessJSON writes a witness in PROGRAM.md's format.
func WitnessJSON(w *Witness) []byte {
	frs := func(in []fr.Element) []string {
		out := make([]string, len(in))
		for i := range in {
			out[i] = decFr(in[i])
		}
		return out
	}
	pts := func(in []bn254.G1Affine) [][2]string {
		out := make([][2]string, len(in))
		for i := range in {
			out[i] = [2]string{in[i].X.BigInt(new(big.Int)).String(), in[i].Y.BigInt(new(big.Int)).String()}
		}
		return out
	}
	out, err := json.MarshalIndent(map[string]any{
		"instances":     frs(w.Instances),
		"proof_scalars": frs(w.ProofScalars),
		"proof_points":  pts(w.ProofPoints),
		"scalars":       frs(w.Scalars),
		"points":        pts(w.Points),
	}, "", " ")
	if err != nil {
		panic(err)
	}
	return out
}
