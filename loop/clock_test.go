package loop

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
	"time"
)

// bigMulDiv is a*b/c in arbitrary precision, saturated like mulDiv.
func bigMulDiv(a, b, c time.Duration, ceil bool) time.Duration {
	p := new(big.Int).Mul(big.NewInt(int64(a)), big.NewInt(int64(b)))
	q, m := new(big.Int).QuoRem(p, big.NewInt(int64(c)), new(big.Int))
	if ceil && m.Sign() != 0 {
		q.Add(q, big.NewInt(1))
	}
	if !q.IsInt64() {
		return math.MaxInt64
	}
	return time.Duration(q.Int64())
}

func TestManualClock(t *testing.T) {
	c := NewManualClock(5 * time.Second)
	if c.Now() != 5*time.Second {
		t.Fatalf("start: %v", c.Now())
	}
	c.Advance(250 * ms)
	c.Sleep(750 * ms)
	c.Sleep(-time.Hour) // like time.Sleep: nothing
	c.Sleep(0)
	if c.Now() != 6*time.Second {
		t.Fatalf("after advance and sleep: %v, want 6s", c.Now())
	}
	c.Set(time.Second)
	if c.Now() != time.Second {
		t.Fatalf("Set back: %v", c.Now())
	}
	c.Advance(-2 * time.Second)
	if c.Now() != -time.Second {
		t.Fatalf("Advance back: %v", c.Now())
	}
	c.Set(math.MaxInt64 - 1)
	c.Advance(time.Hour)
	if c.Now() != math.MaxInt64 {
		t.Fatalf("Advance saturates: %v", c.Now())
	}
	var s Sleeper = c
	_ = s
}

// TestRealClock reads the real clock: it only checks that it is monotonic
// and starts near zero; no logic test uses it.
func TestRealClock(t *testing.T) {
	for _, c := range []*RealClock{NewRealClock(), new(RealClock)} {
		a := c.Now()
		if a < 0 || a > time.Second {
			t.Fatalf("first reading %v, want near 0", a)
		}
		for i := 0; i < 1000; i++ {
			b := c.Now()
			if b < a {
				t.Fatalf("went backwards: %v then %v", a, b)
			}
			a = b
		}
		c.Sleep(0)
	}
}

func TestSaturatingArithmetic(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 9))
	edge := []time.Duration{0, 1, -1, math.MaxInt64, math.MinInt64, math.MaxInt64 - 1, math.MinInt64 + 1}
	for i := 0; i < 100000; i++ {
		var a, b time.Duration
		if i < len(edge)*len(edge) {
			a, b = edge[i/len(edge)], edge[i%len(edge)]
		} else {
			a, b = time.Duration(r.Uint64()), time.Duration(r.Uint64())
		}
		wantAdd := clampBig(new(big.Int).Add(big.NewInt(int64(a)), big.NewInt(int64(b))))
		wantSub := clampBig(new(big.Int).Sub(big.NewInt(int64(a)), big.NewInt(int64(b))))
		if got := addSat(a, b); got != wantAdd {
			t.Fatalf("addSat(%d, %d) = %d, want %d", a, b, got, wantAdd)
		}
		if got := subSat(a, b); got != wantSub {
			t.Fatalf("subSat(%d, %d) = %d, want %d", a, b, got, wantSub)
		}
	}
}

func clampBig(x *big.Int) time.Duration {
	switch {
	case x.Cmp(big.NewInt(math.MaxInt64)) > 0:
		return math.MaxInt64
	case x.Cmp(big.NewInt(math.MinInt64)) < 0:
		return math.MinInt64
	}
	return time.Duration(x.Int64())
}
