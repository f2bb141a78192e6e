package puck

// BotIdle is the number of ticks a bot stands still at the start: a
// lockstep game's first LockstepDelay records are zero for everyone, so
// with it lockstep and rollback play the same game from the same seeds.
const BotIdle = LockstepDelay

// botHold is the mean run of one bot direction, in ticks: runs are 1 to
// 2×botHold-1 ticks long.
const botHold = 8

// BotInput is a bot's input for tick: a walk in one of the eight
// directions (or none), changed at ticks drawn from seed. It depends on
// seed and tick alone, not on the game, so a game of bots has one
// outcome whatever the network did (Simulate computes it).
func BotInput(seed, tick uint64) byte {
	if tick < BotIdle {
		return 0
	}
	// The run holding tick: runs start every botHold ticks, each one
	// shifted into the next by up to botHold-1 ticks.
	run := tick / botHold
	if tick%botHold < botShift(seed, run) {
		run--
	}
	x := seed ^ run*0x9e3779b97f4a7c15
	r := splitmix(&x)
	return [...]byte{0, Left, Right, Up, Down, Left | Up, Left | Down, Right | Up, Right | Down}[r%9]
}

// botShift is how far into its slot run starts.
func botShift(seed, run uint64) uint64 {
	x := seed + run
	return splitmix(&x) % botHold
}

// Simulate plays ticks ticks of the game on one machine with two bots
// seeded seeds[0] and seeds[1]: the state every peer of a network game
// of the same bots ends in.
func Simulate(set Settings, seeds [Players]uint64, ticks uint64) State {
	g := NewGame(set)
	for t := range ticks {
		g.Step([Players]byte{BotInput(seeds[0], t), BotInput(seeds[1], t)})
	}
	return g.State
}
