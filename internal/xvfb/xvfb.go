// Package xvfb starts Xvfb, the X server with no screen, for the tests
// and measurements that need a real window.
package xvfb

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Server is a running Xvfb.
type Server struct {
	// Display is its display, such as ":1", for DISPLAY.
	Display string
	cmd     *exec.Cmd
}

// Start starts Xvfb with one 1280x1024 screen, listening on no TCP port,
// on a display it picks itself (-displayfd), and waits up to timeout for
// it to say which.
func Start(timeout time.Duration) (*Server, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	cmd := exec.Command("Xvfb", "-displayfd", "3", "-screen", "0", "1280x1024x24", "-nolisten", "tcp")
	cmd.ExtraFiles = []*os.File{w}
	if err := cmd.Start(); err != nil {
		w.Close()
		return nil, fmt.Errorf("starting Xvfb: %v", err)
	}
	w.Close()
	s := &Server{cmd: cmd}
	line := make(chan string, 1)
	go func() {
		l, _ := bufio.NewReader(r).ReadString('\n')
		line <- strings.TrimSpace(l)
	}()
	select {
	case n := <-line:
		if _, err := strconv.Atoi(n); err != nil {
			s.kill()
			return nil, fmt.Errorf("no display from Xvfb (it said %q)", n)
		}
		s.Display = ":" + n
		return s, nil
	case <-time.After(timeout):
		s.kill()
		return nil, fmt.Errorf("no display from Xvfb within %v", timeout)
	}
}

// Stop ends the server and waits for it.
func (s *Server) Stop() {
	s.cmd.Process.Signal(syscall.SIGTERM)
	s.cmd.Wait()
}

func (s *Server) kill() {
	s.cmd.Process.Kill()
	s.cmd.Wait()
}
