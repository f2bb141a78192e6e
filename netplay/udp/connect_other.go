//go:build !unix

package udp

import (
	"errors"
	"net/netip"
	"syscall"
)

func connect(syscall.RawConn, netip.AddrPort) error { return errors.ErrUnsupported }
