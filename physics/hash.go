package physics

// FNV-1a 64-bit parameters.
const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

// Hash returns the FNV-1a 64-bit hash of the world's state, fed as bytes in
// this order:
//
//	Ticks()                  8 bytes, little-endian
//	N()                      8 bytes, little-endian
//	player flags             1 byte: bit i set while ball i is player-controlled
//	                         (0 or 1 with a single player)
//	step remainder           8 bytes, little-endian (0 unless Step was used)
//	Last, then Next, then Dir  each int32 as 4 bytes, little-endian
//
// The same state gives the same hash on every machine. The configuration
// (size, radius, speed, tick) is not hashed: compare hashes of worlds with
// the same Config. Hash allocates nothing; it reads 24 bytes per ball one
// byte at a time (about 25 ms at a million balls), so call it when a state
// must be named, not every frame.
func (w *World) Hash() uint64 {
	h := uint64(fnvOffset)
	h = hash64(h, w.ticks)
	h = hash64(h, uint64(w.N()))
	h = (h ^ uint64(w.players)) * fnvPrime
	h = hash64(h, w.stepRem)
	h = hash32s(h, w.Last)
	h = hash32s(h, w.Next)
	h = hash32s(h, w.Dir)
	return h
}

func hash64(h, v uint64) uint64 {
	for range 8 {
		h = (h ^ (v & 0xff)) * fnvPrime
		v >>= 8
	}
	return h
}

func hash32s(h uint64, s []int32) uint64 {
	for _, v := range s {
		u := uint32(v)
		h = (h ^ uint64(u&0xff)) * fnvPrime
		h = (h ^ uint64(u>>8&0xff)) * fnvPrime
		h = (h ^ uint64(u>>16&0xff)) * fnvPrime
		h = (h ^ uint64(u>>24)) * fnvPrime
	}
	return h
}
