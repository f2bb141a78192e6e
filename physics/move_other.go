//go:build !amd64 || purego

package physics

// moveAllVec is the vector hot loop where there is one (move_amd64.go):
// here there is none, and it reports false.
func moveAllVec(*World, int32, int) bool { return false }
