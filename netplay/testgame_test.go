package netplay

// The tests' game: each player's input is testInputSize bytes, made by a
// bot from a seed, so that every peer (and the test) knows every input.

const testInputSize = 3

// trec is one player's input for one tick in the tests' game.
type trec = [testInputSize]byte

// botInput is the input for tick of a bot keyed by seed that starts
// playing at tick start (zero before it, as a Session's inputs before the
// input delay are). It holds one input for 4 ticks at a time, so that
// runs of equal inputs travel as one.
func botInput(seed, start, tick uint64) trec {
	if tick < start {
		return trec{}
	}
	x := mix64(seed ^ mix64((tick-start)/4))
	return trec{byte(x), byte(x >> 8), byte(x >> 16)}
}

// mix64 is the splitmix64 finalizer: a bijective scramble of 64 bits.
func mix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}
