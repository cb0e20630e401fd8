package main

// Phase 1 on every core. gnark's Phase1.Contribute and the seal inside
// VerifyPhase1 update the powers of τ in one loop (SrsCommons.update): on a
// 2^22 domain that is 29 CPU-minutes on one core whatever the machine has.
// Here the same update runs on all cores, reading and writing gnark's own
// file layout (Phase1.WriteTo: the three update proofs, the commons, the
// challenge) through its exported parts; every contribution is checked by
// gnark's Phase1.Verify before it is written, and the seal is compared with
// gnark's VerifyPhase1 in TestCeremony.

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"fmt"
	"io"
	"math/big"
	"os"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"

	gio "github.com/consensys/gnark/io"
)

// fieldElement is a scalar field element of gnark-crypto (fr.Element).
type fieldElement[F any] interface {
	*F
	Mul(x, y *F) *F
	Exp(x F, k *big.Int) *F
	BigInt(res *big.Int) *big.Int
}

// scalablePoint is an affine point of gnark-crypto (G1Affine, G2Affine).
type scalablePoint[P any] interface {
	*P
	ScalarMultiplication(a *P, s *big.Int) *P
}

// updatePowers is gnark's SrsCommons.update on every core: with τ', α', β'
// the contribution, [τⁱ]₁ and [τⁱ]₂ are multiplied by τ'ⁱ, [ατⁱ]₁ by α'τ'ⁱ,
// [βτⁱ]₁ by β'τ'ⁱ, and [β]₂ by β'.
func updatePowers[F any, PF fieldElement[F], G1 any, PG1 scalablePoint[G1], G2 any, PG2 scalablePoint[G2]](
	g1Tau, alphaTau, betaTau []G1, g2Tau []G2, g2Beta *G2, tau, alpha, beta *F) {
	var k big.Int
	PF(alpha).BigInt(&k)
	PG1(&alphaTau[0]).ScalarMultiplication(&alphaTau[0], &k)
	PF(beta).BigInt(&k)
	PG1(&betaTau[0]).ScalarMultiplication(&betaTau[0], &k)
	PG2(g2Beta).ScalarMultiplication(g2Beta, &k)
	n := len(g2Tau)
	// chunks of powers handed out in order; each starts from τ'^start
	const chunk = 1 << 12
	var next atomic.Int64
	next.Store(1)
	var wg sync.WaitGroup
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var pow, scaled F
			var e, k big.Int
			for {
				start := int(next.Add(chunk) - chunk)
				if start >= len(g1Tau) {
					return
				}
				end := min(start+chunk, len(g1Tau))
				e.SetInt64(int64(start))
				PF(&pow).Exp(*tau, &e)
				for i := start; i < end; i++ {
					PF(&pow).BigInt(&k)
					PG1(&g1Tau[i]).ScalarMultiplication(&g1Tau[i], &k)
					if i < n {
						PG2(&g2Tau[i]).ScalarMultiplication(&g2Tau[i], &k)
						PF(&scaled).Mul(&pow, alpha)
						PF(&scaled).BigInt(&k)
						PG1(&alphaTau[i]).ScalarMultiplication(&alphaTau[i], &k)
						PF(&scaled).Mul(&pow, beta)
						PF(&scaled).BigInt(&k)
						PG1(&betaTau[i]).ScalarMultiplication(&betaTau[i], &k)
					}
					PF(&pow).Mul(&pow, tau)
				}
			}
		}()
	}
	wg.Wait()
}

// serialized is a gnark type that reads and writes itself.
type serialized[T any] interface {
	*T
	io.ReaderFrom
	io.WriterTo
}

// phase1Parts splits a phase-1 file as Phase1.WriteTo lays it out: the
// update proofs of τ, α and β, the commons, the previous challenge.
func phase1Parts[U any, PU serialized[U], C any, PC serialized[C]](data []byte) ([3]U, PC, error) {
	var proofs [3]U
	r := bytes.NewReader(data)
	for i := range proofs {
		if _, err := PU(&proofs[i]).ReadFrom(r); err != nil {
			return proofs, nil, err
		}
	}
	commons := PC(new(C))
	if _, err := commons.ReadFrom(r); err != nil {
		return proofs, nil, err
	}
	if _, _, err := gio.ReadBytesShort(r); err != nil {
		return proofs, nil, err
	}
	if r.Len() != 0 {
		return proofs, nil, fmt.Errorf("%d trailing bytes", r.Len())
	}
	return proofs, commons, nil
}

// phase1Parallel is phase 1 of one curve on every core.
type phase1Parallel[U any, PU serialized[U], C any, PC serialized[C], F any] struct {
	// update is updatePowers on a commons.
	update func(c PC, tau, alpha, beta *F)
	// updateValues is gnark-crypto's mpcsetup.UpdateValues: a fresh value
	// from crypto/rand and its proof.
	updateValues func(value *F, challenge []byte, dst byte, representations ...any) U
	// beacon is gnark-crypto's mpcsetup.BeaconContributions.
	beacon func(hash, dst, beacon []byte, n int) []F
}

// The domain separation tags of gnark's phase 1 (mpcsetup.DST_TAU, _ALPHA,
// _BETA) and its seal.
const (
	phase1DstTau   = 0
	phase1DstAlpha = 1
	phase1DstBeta  = 2
)

var phase1SealDst = []byte("Groth16 MPC Setup - Phase 1")

// contribute is Phase1.Contribute on the file in: the challenge is the
// hash of that file (Phase1.hash), fresh τ', α', β' with their proofs, the
// powers updated. The result is written to out only after check (gnark's
// Phase1.Verify of out against in) accepts it.
func (p phase1Parallel[U, PU, C, PC, F]) contribute(in, out string, check func(prev, next []byte) error) error {
	data, err := os.ReadFile(in)
	if err != nil {
		return err
	}
	_, commons, err := phase1Parts[U, PU, C, PC](data)
	if err != nil {
		return fmt.Errorf("%s: %w", in, err)
	}
	challenge := sha256.Sum256(data)
	var tau, alpha, beta F
	proofs := [3]U{
		p.updateValues(&tau, challenge[:], phase1DstTau),
		p.updateValues(&alpha, challenge[:], phase1DstAlpha),
		p.updateValues(&beta, challenge[:], phase1DstBeta),
	}
	p.update(commons, &tau, &alpha, &beta)
	var b bytes.Buffer
	for i := range proofs {
		if _, err := PU(&proofs[i]).WriteTo(&b); err != nil {
			return err
		}
	}
	if _, err := commons.WriteTo(&b); err != nil {
		return err
	}
	if _, err := gio.WriteBytesShort(challenge[:], &b); err != nil {
		return err
	}
	// the check decodes both files again: give back the decoded commons
	// first (on 2^22, 1.6 GB), so the peak stays that of gnark's contribution
	commons = nil
	debug.FreeOSMemory()
	if err := check(data, b.Bytes()); err != nil {
		return fmt.Errorf("the contribution does not verify (not written): %w", err)
	}
	return writeBytes(out, b.Bytes())
}

// seal is Phase1.Seal of the last verified file: the beacon's contribution
// applied to its commons, which it returns.
func (p phase1Parallel[U, PU, C, PC, F]) seal(last []byte, beacon []byte) (PC, error) {
	_, commons, err := phase1Parts[U, PU, C, PC](last)
	if err != nil {
		return nil, err
	}
	hash := sha256.Sum256(last)
	c := p.beacon(hash[:], phase1SealDst, beacon, 3)
	p.update(commons, &c[0], &c[1], &c[2])
	return commons, nil
}

// writeRawFile streams v's raw encoding (points uncompressed: no square roots
// to read it back) to path through a temporary file renamed at the end, so a
// proving key of gigabytes is never held twice in memory.
func writeRawFile(path string, v interface {
	WriteRawTo(io.Writer) (int64, error)
}) error {
	return writeStreamed(path, func(w io.Writer) error {
		_, err := v.WriteRawTo(w)
		return err
	})
}

// writeStreamed streams write's output to path through a temporary file
// renamed at the end.
func writeStreamed(path string, write func(io.Writer) error) error {
	tmp := path + ".partial"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<22)
	err = write(w)
	if err == nil {
		err = w.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	return os.Rename(tmp, path)
}

// writeBytes writes data to path whole or not at all.
func writeBytes(path string, data []byte) error {
	tmp := path + ".partial"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
