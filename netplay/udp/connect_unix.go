//go:build unix

package udp

import (
	"fmt"
	"net/netip"
	"syscall"
)

// connect connects the socket behind rc to to (connect(2) on a datagram
// socket: the system then takes datagrams from to alone, and reports an
// ICMP port unreachable from it as ECONNREFUSED).
func connect(rc syscall.RawConn, to netip.AddrPort) error {
	var err error
	cerr := rc.Control(func(fd uintptr) {
		local, e := syscall.Getsockname(int(fd))
		if e != nil {
			err = e
			return
		}
		var sa syscall.Sockaddr
		switch local.(type) {
		case *syscall.SockaddrInet4:
			a := to.Addr().Unmap()
			if !a.Is4() {
				err = fmt.Errorf("%v is not an IPv4 address: the socket is IPv4", a)
				return
			}
			sa = &syscall.SockaddrInet4{Port: int(to.Port()), Addr: a.As4()}
		case *syscall.SockaddrInet6:
			sa = &syscall.SockaddrInet6{Port: int(to.Port()), Addr: to.Addr().As16()} // IPv4 as ::ffff:a.b.c.d
		default:
			err = fmt.Errorf("not an IP socket")
			return
		}
		err = syscall.Connect(int(fd), sa)
	})
	if cerr != nil {
		return cerr
	}
	return err
}
