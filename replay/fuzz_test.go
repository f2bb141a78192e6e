package replay

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

// fuzzSeeds are valid encodings: the golden file, recordings of random
// scripts, and an empty recording.
func fuzzSeeds(f *testing.F) [][]byte {
	var seeds [][]byte
	add := func(rec *Recording) {
		b, err := rec.MarshalBinary()
		if err != nil {
			f.Fatal(err)
		}
		seeds = append(seeds, b)
	}
	add(goldenRecording())
	add(&Recording{})
	for seed := uint64(0); seed < 8; seed++ {
		rec, _ := randomScript(newRng(seed), 40).record(uint32(seed * 7))
		add(rec)
	}
	return seeds
}

// checkDecode is the property both fuzz targets check: Decode never
// panics; it fails with one line starting "replay: ", or it returns a
// recording that encodes back to exactly the same bytes (so decoding those
// gives an equal recording) and that a Player can walk.
func checkDecode(t *testing.T, b []byte) {
	rec, err := Decode(b)
	if err != nil {
		if msg := err.Error(); !strings.HasPrefix(msg, "replay: ") || strings.ContainsAny(msg, "\n\r") {
			t.Fatalf("error not one line: %q", msg)
		}
		return
	}
	if err := rec.Validate(); err != nil {
		t.Fatalf("decoded an invalid recording: %v", err)
	}
	b2, err := rec.MarshalBinary()
	if err != nil {
		t.Fatalf("decoded recording does not encode: %v", err)
	}
	if !bytes.Equal(b2, b) {
		t.Fatalf("re-encoding differs:\n in %x\nout %x", b, b2)
	}
	rec2, err := Decode(b2)
	if err != nil || !reflect.DeepEqual(rec2, rec) {
		t.Fatalf("re-encoded recording decodes to %+v, %v", rec2, err)
	}
	// Walk the first ticks (a valid file may hold 2^36 of them).
	p := rec.Player()
	for i := 0; i < 1000; i++ {
		_, _, ok := p.Next()
		p.Check(func() uint64 { return 0 })
		if !ok {
			break
		}
	}
}

// FuzzDecode feeds whole files to Decode.
func FuzzDecode(f *testing.F) {
	for _, b := range fuzzSeeds(f) {
		f.Add(b)
	}
	for _, tc := range badFiles() {
		f.Add(tc.data)
	}
	f.Fuzz(checkDecode)
}

// FuzzPayload wraps the fuzzer's bytes in a valid header and
// checksum before decoding, so that mutations reach the payload parser
// instead of stopping at the checksum.
func FuzzPayload(f *testing.F) {
	for _, b := range fuzzSeeds(f) {
		f.Add(payloadOf(b))
	}
	for _, tc := range badFiles() {
		if len(tc.data) >= overhead && bytes.HasPrefix(tc.data, []byte("IDRP\x01")) {
			f.Add(payloadOf(tc.data))
		}
	}
	f.Fuzz(func(t *testing.T, payload []byte) {
		// Every structure fits in a few hundred bytes; longer inputs only
		// slow the fuzzer down (it minimizes each new input it keeps, in
		// time quadratic in its length).
		if len(payload) > 300 {
			return
		}
		checkDecode(t, wrap(payload))
	})
}
