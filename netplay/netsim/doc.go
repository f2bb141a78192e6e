// Package netsim simulates a network for netplay's tests and examples,
// and for a real socket that should behave like a worse network:
// Conditions describe a path (delay, jitter, loss, duplication,
// reordering), a Path carries datagrams through them on the caller's
// clock, and a Net is a whole network in memory whose Ports are netplay
// Transports.
//
// It reads no clock and draws its randomness from a seed alone: the same
// datagrams sent at the same times come out the same way on every run.
// It is to netplay what net/http/httptest is to net/http.
package netsim

import "errors"

// ErrInvalid is wrapped by every error this package returns for a bad
// argument (a Conditions field out of range, a capacity, an address).
var ErrInvalid = errors.New("netsim: invalid argument")

// MaxPacketSize is the largest datagram a Path carries: netplay's
// MaxPacketSize (1200 bytes), which a larger one never is.
const MaxPacketSize = 1200
