// Package cdp drives a headless Chromium through the Chrome DevTools
// Protocol, so that Go tests can load a web page, run JavaScript in it,
// press keys and take screenshots, with a real browser and a real WebGL2.
//
// The browser is started with --remote-debugging-pipe: it reads protocol
// messages from its file descriptor 3 and writes them to its descriptor 4,
// each a JSON object ended by a NUL byte. A pipe needs no port, no
// websocket and no third-party module, and the browser cannot outlive the
// connection unnoticed: when it dies, the pipe closes and every call still
// waiting fails at once with the last lines of the browser's stderr.
//
// A page is a target attached in flattened mode (Target.attachToTarget
// with flatten:true): its commands and events travel over the same pipe
// as the browser's, marked with the session's id.
//
//	path, err := cdp.Find()
//	...
//	b, err := cdp.Launch(ctx, cdp.Options{Path: path, Width: 800, Height: 600})
//	...
//	defer b.Close()
//	p, err := b.NewPage(ctx, srv.URL)
//	...
//	err = p.WaitFor(ctx, `window.ready === true`)
//	err = p.Key(ctx, "Space")
//	var title string
//	err = p.Eval(ctx, `document.title`, &title)
//
// Every call takes a context and returns when it ends.
package cdp

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"
)

// envBrowser names the environment variable that picks the browser.
const envBrowser = "INTERPDEMO_CHROMIUM"

// browserNames are the commands Find looks for on PATH, in order.
var browserNames = []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"}

// Find returns the browser to run: $INTERPDEMO_CHROMIUM if it is set,
// else the first of chromium, chromium-browser, google-chrome and
// google-chrome-stable found on PATH.
func Find() (string, error) {
	if p := os.Getenv(envBrowser); p != "" {
		path, err := exec.LookPath(p)
		if err != nil {
			return "", fmt.Errorf("cdp: %s=%s: no such browser", envBrowser, p)
		}
		return path, nil
	}
	for _, name := range browserNames {
		if path, err := exec.LookPath(name); err == nil {
			return path, nil
		}
	}
	return "", fmt.Errorf("cdp: no Chromium found: none of %s is on PATH, and %s is not set",
		strings.Join(browserNames, ", "), envBrowser)
}

// Options say which browser to start and how.
type Options struct {
	// Path is the browser's executable; Find's choice when empty.
	Path string
	// Width and Height are the size of the browser's window and of every
	// page's viewport (window.innerWidth and innerHeight, and the size of
	// a screenshot), in CSS pixels; 800×600 when zero.
	Width, Height int
	// Args are extra command-line flags, added after the standard ones.
	Args []string
}

// Bounds on ending the browser: how long Close lets it close itself
// before killing it; how long a broken pipe waits for the process to
// exit, and an exit for the rest of its stderr, to tell the caller why.
const (
	closeGrace = 5 * time.Second
	exitWait   = time.Second
	stderrWait = 500 * time.Millisecond
)

// errBrowserClosed is why calls fail after Close.
var errBrowserClosed = errors.New("the browser was closed")

// stderrLines is how many of the browser's last stderr lines an error
// carries.
const stderrLines = 12

// Browser is a running headless Chromium. Its methods may be called from
// several goroutines.
type Browser struct {
	cmd         *exec.Cmd
	toBrowser   *os.File // our end of the browser's descriptor 3
	fromBrowser *os.File // our end of the browser's descriptor 4
	profile     string   // the --user-data-dir, removed by Close
	stderr      *tailBuffer
	stderrDone  chan struct{} // closed when the browser's stderr is at EOF
	version     string
	width       int // the pages' viewport
	height      int
	outbox      chan []byte // messages for the writer goroutine

	exited  chan struct{} // closed once the process has been waited for
	waitErr error         // cmd.Wait's result; read after exited closes

	mu      sync.Mutex
	nextID  int64
	pending map[int64]*call
	pages   map[string]*Page // by session id
	closing bool             // Close has started
	deadErr error            // why the connection ended; nil while it lives
	dead    chan struct{}    // closed when the connection ends

	closeOnce sync.Once
	closeErr  error
}

// call is a command waiting for its response.
type call struct {
	method  string
	session string
	reply   chan reply // buffered: the reader never blocks on it
}

type reply struct {
	result json.RawMessage
	err    error
}

// message is any message on the pipe: a command, its response, or an
// event.
type message struct {
	ID        int64           `json:"id,omitempty"`
	SessionID string          `json:"sessionId,omitempty"`
	Method    string          `json:"method,omitempty"`
	Params    json.RawMessage `json:"params,omitempty"`
	Result    json.RawMessage `json:"result,omitempty"`
	Error     *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
		Data    string `json:"data"`
	} `json:"error,omitempty"`
}

// Launch starts the browser with a fresh profile and returns once it
// answers over the protocol. If it cannot start, or exits or stays silent
// before ctx ends, the error says why and carries the last lines of its
// stderr.
func Launch(ctx context.Context, o Options) (*Browser, error) {
	if o.Path == "" {
		var err error
		if o.Path, err = Find(); err != nil {
			return nil, err
		}
	}
	if o.Width <= 0 || o.Height <= 0 {
		o.Width, o.Height = 800, 600
	}
	profile, err := os.MkdirTemp("", "interpdemo-chromium-")
	if err != nil {
		return nil, fmt.Errorf("cdp: profile directory: %w", err)
	}
	p, err := openPipes()
	if err != nil {
		os.RemoveAll(profile)
		return nil, err
	}
	cmd := exec.Command(o.Path, browserArgs(o, profile)...)
	cmd.ExtraFiles = []*os.File{p.browserIn, p.browserOut}
	b := &Browser{
		cmd:         cmd,
		toBrowser:   p.toBrowser,
		fromBrowser: p.fromBrowser,
		profile:     profile,
		width:       o.Width,
		height:      o.Height,
		stderr:      &tailBuffer{max: 64 << 10},
		stderrDone:  make(chan struct{}),
		outbox:      make(chan []byte),
		exited:      make(chan struct{}),
		pending:     make(map[int64]*call),
		pages:       make(map[string]*Page),
		dead:        make(chan struct{}),
	}
	cmd.Stderr = p.stderrW
	setProcessGroup(cmd)
	err = cmd.Start()
	// The child has its own copies of its ends now (or never will).
	closeAll(p.browserIn, p.browserOut, p.stderrW)
	if err != nil {
		closeAll(p.toBrowser, p.fromBrowser, p.stderrR)
		os.RemoveAll(profile)
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, fmt.Errorf("cdp: cannot start browser %s: %w", o.Path, err)
	}

	go b.wait()
	go b.readStderr(p.stderrR)
	go b.read()
	go b.write()

	var v struct {
		Product string `json:"product"`
	}
	if err := b.call(ctx, "", "Browser.getVersion", nil, &v); err != nil {
		if ctx.Err() != nil {
			err = fmt.Errorf("cdp: browser %s did not answer: %w%s", o.Path, ctx.Err(), b.stderr.last(stderrLines))
		}
		b.Close()
		return nil, err
	}
	b.version = v.Product
	return b, nil
}

// pipes are the browser's: descriptor 3 is what it reads (browserIn,
// written to through toBrowser), 4 what it writes (browserOut, read
// from through fromBrowser), and its stderr.
type pipes struct {
	browserIn, toBrowser    *os.File
	fromBrowser, browserOut *os.File
	// The browser's stderr goes to a pipe we read ourselves, rather than
	// through exec's copying, so that Wait returns as soon as the browser
	// exits, even while its helpers still hold their copies of stderr.
	stderrR, stderrW *os.File
}

// openPipes opens the browser's pipes, or none.
func openPipes() (p pipes, err error) {
	if p.browserIn, p.toBrowser, err = os.Pipe(); err != nil {
		return p, fmt.Errorf("cdp: pipe: %w", err)
	}
	if p.fromBrowser, p.browserOut, err = os.Pipe(); err != nil {
		closeAll(p.browserIn, p.toBrowser)
		return p, fmt.Errorf("cdp: pipe: %w", err)
	}
	if p.stderrR, p.stderrW, err = os.Pipe(); err != nil {
		closeAll(p.browserIn, p.toBrowser, p.fromBrowser, p.browserOut)
		return p, fmt.Errorf("cdp: pipe: %w", err)
	}
	return p, nil
}

// browserArgs is the browser's command line: headless, driven over the
// pipes, with profile as its profile, o's window size and Args, opening
// about:blank.
func browserArgs(o Options, profile string) []string {
	args := []string{
		"--headless=new",
		"--remote-debugging-pipe",
		// WebGL2 in software: ANGLE on SwiftShader, which Chromium
		// otherwise refuses as unsafe for untrusted pages.
		"--use-angle=swiftshader",
		"--enable-unsafe-swiftshader",
		// We may run as root, where the sandboxes cannot start.
		"--no-sandbox",
		"--disable-gpu-sandbox",
		"--no-first-run",
		"--no-default-browser-check",
		"--disable-extensions",
		"--disable-component-update",
		"--disable-background-networking",
		"--disable-sync",
		"--mute-audio",
		"--password-store=basic",
		// Keep timers and animation frames at full rate in every page,
		// whether or not it counts as visible.
		"--disable-background-timer-throttling",
		"--disable-renderer-backgrounding",
		"--disable-backgrounding-occluded-windows",
		"--user-data-dir=" + profile,
		"--window-size=" + strconv.Itoa(o.Width) + "," + strconv.Itoa(o.Height),
	}
	args = append(args, o.Args...)
	return append(args, "about:blank")
}

// Version is the browser's product name and version, such as
// "Chrome/156.0.8078.108".
func (b *Browser) Version() string { return b.version }

// Close ends the browser: it asks it to close, kills it if it has not
// exited after a few seconds, waits for it and removes its profile
// directory. Calls still waiting fail. Calling Close again returns the
// first call's result.
func (b *Browser) Close() error {
	b.closeOnce.Do(func() {
		b.mu.Lock()
		b.closing = true
		alive := b.deadErr == nil
		b.mu.Unlock()

		ctx, cancel := context.WithTimeout(context.Background(), closeGrace)
		if alive {
			// The browser may drop the pipe before it answers; either
			// way, what counts is that it exits.
			b.call(ctx, "", "Browser.close", nil, nil)
		}
		select {
		case <-b.exited:
		case <-ctx.Done():
		}
		cancel()
		// Kill the browser if it is still there, and its helpers in any
		// case.
		killProcessGroup(b.cmd)
		<-b.exited
		b.die(errBrowserClosed)
		b.toBrowser.Close()
		b.fromBrowser.Close()
		b.closeErr = removeAll(b.profile)
	})
	return b.closeErr
}

// removeAll removes dir, trying again a few times while helpers that
// are exiting still write into it.
func removeAll(dir string) error {
	var err error
	for range 5 {
		if err = os.RemoveAll(dir); err == nil {
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return fmt.Errorf("cdp: removing the browser's profile: %w", err)
}

// call sends a command, to the browser (session "") or a page, and
// unmarshals its result into result, unless result is nil.
func (b *Browser) call(ctx context.Context, session, method string, params, result any) error {
	var raw json.RawMessage
	if params != nil {
		var err error
		if raw, err = json.Marshal(params); err != nil {
			return fmt.Errorf("cdp: %s: %w", method, err)
		}
	}
	c := &call{method: method, session: session, reply: make(chan reply, 1)}
	b.mu.Lock()
	if b.deadErr != nil {
		err := b.deadErr
		b.mu.Unlock()
		return fmt.Errorf("cdp: %s: %w", method, err)
	}
	b.nextID++
	id := b.nextID
	b.pending[id] = c
	b.mu.Unlock()

	msg, err := json.Marshal(message{ID: id, SessionID: session, Method: method, Params: raw})
	if err != nil {
		b.forget(id)
		return fmt.Errorf("cdp: %s: %w", method, err)
	}
	var r reply
	select {
	case b.outbox <- append(msg, 0):
		select {
		case r = <-c.reply:
		case <-ctx.Done():
			b.forget(id)
			return fmt.Errorf("cdp: %s: %w", method, ctx.Err())
		}
	case r = <-c.reply: // the connection ended
	case <-ctx.Done():
		b.forget(id)
		return fmt.Errorf("cdp: %s: %w", method, ctx.Err())
	}
	if r.err != nil {
		return r.err
	}
	if result != nil {
		if err := json.Unmarshal(r.result, result); err != nil {
			return fmt.Errorf("cdp: %s: decoding the result: %w", method, err)
		}
	}
	return nil
}

// closeAll closes files whose close errors say nothing useful.
func closeAll(files ...*os.File) {
	for _, f := range files {
		f.Close()
	}
}

// forget drops a call that nobody waits for any more.
func (b *Browser) forget(id int64) {
	b.mu.Lock()
	delete(b.pending, id)
	b.mu.Unlock()
}

// write sends the outbox's messages to the browser, one at a time.
func (b *Browser) write() {
	for {
		select {
		case msg := <-b.outbox:
			if _, err := b.toBrowser.Write(msg); err != nil {
				b.lost(fmt.Sprintf("writing to the browser: %v", err))
				return
			}
		case <-b.dead:
			return
		}
	}
}

// read takes the browser's messages off the pipe and hands each to the
// call or page it is for, until the pipe closes.
func (b *Browser) read() {
	r := bufio.NewReaderSize(b.fromBrowser, 1<<20)
	for {
		data, err := r.ReadBytes(0)
		if err != nil {
			b.lost("the browser closed the connection")
			return
		}
		var m message
		if err := json.Unmarshal(data[:len(data)-1], &m); err != nil {
			continue // not a message; nothing waits for it
		}
		if m.ID != 0 {
			b.answer(m)
		} else {
			b.event(m)
		}
	}
}

// answer hands a response to the call waiting for it.
func (b *Browser) answer(m message) {
	b.mu.Lock()
	c := b.pending[m.ID]
	delete(b.pending, m.ID)
	b.mu.Unlock()
	if c == nil {
		return // its caller gave up
	}
	if m.Error != nil {
		msg := m.Error.Message
		if m.Error.Data != "" {
			msg += " (" + m.Error.Data + ")"
		}
		c.reply <- reply{err: fmt.Errorf("cdp: %s: %s", c.method, msg)}
		return
	}
	c.reply <- reply{result: m.Result}
}

// event hands an event to the page it is about.
func (b *Browser) event(m message) {
	if m.SessionID == "" {
		if m.Method == "Target.detachedFromTarget" {
			var d struct {
				SessionID string `json:"sessionId"`
			}
			if json.Unmarshal(m.Params, &d) == nil {
				b.endSession(d.SessionID, errors.New("the page was closed"))
			}
		}
		return
	}
	b.mu.Lock()
	p := b.pages[m.SessionID]
	b.mu.Unlock()
	if p == nil {
		return
	}
	if m.Method == "Inspector.targetCrashed" {
		b.endSession(m.SessionID, errors.New("the page crashed"))
	}
	p.event(m.Method, m.Params)
}

// endSession fails the calls waiting on a page that has gone.
func (b *Browser) endSession(session string, err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if p := b.pages[session]; p != nil {
		p.end(err)
		delete(b.pages, session)
	}
	for id, c := range b.pending {
		if c.session == session {
			delete(b.pending, id)
			c.reply <- reply{err: fmt.Errorf("cdp: %s: %w", c.method, err)}
		}
	}
}

// readStderr keeps the tail of the browser's stderr until every process
// holding it has closed it.
func (b *Browser) readStderr(r *os.File) {
	io.Copy(b.stderr, r)
	r.Close()
	close(b.stderrDone)
}

// wait waits for the process to exit.
func (b *Browser) wait() {
	b.waitErr = b.cmd.Wait()
	close(b.exited)
	b.lost("the browser exited")
}

// lost ends the connection after the pipe broke or the process exited,
// with an error that says how the process ended, if it did, and what it
// last printed.
func (b *Browser) lost(cause string) {
	select {
	case <-b.exited:
		cause = "the browser exited"
		if b.waitErr != nil {
			cause += " (" + b.waitErr.Error() + ")"
		}
		// Let the last words arrive.
		select {
		case <-b.stderrDone:
		case <-time.After(stderrWait):
		}
	case <-time.After(exitWait):
	}
	b.mu.Lock()
	closing := b.closing
	b.mu.Unlock()
	if closing {
		b.die(errBrowserClosed)
		return
	}
	b.die(fmt.Errorf("%s%s", cause, b.stderr.last(stderrLines)))
}

// die ends the connection with err, once: every waiting call fails with
// it, and so does every later one.
func (b *Browser) die(err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.deadErr != nil {
		return
	}
	b.deadErr = err
	close(b.dead)
	for _, p := range b.pages {
		p.end(err)
	}
	for id, c := range b.pending {
		delete(b.pending, id)
		c.reply <- reply{err: fmt.Errorf("cdp: %s: %w", c.method, err)}
	}
}

// tailBuffer keeps the last bytes written to it, up to max.
type tailBuffer struct {
	mu  sync.Mutex
	buf []byte
	max int
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return len(p), nil
}

// last returns the last n lines, as text to append to an error message:
// empty, or a colon and the lines, each on its own indented line.
func (t *tailBuffer) last(n int) string {
	t.mu.Lock()
	text := strings.TrimRight(string(t.buf), "\n")
	t.mu.Unlock()
	if strings.TrimSpace(text) == "" {
		return ""
	}
	var lines []string
	for _, l := range strings.Split(text, "\n") {
		// Chromium complains at length about a missing D-Bus, which is
		// never why it failed.
		if !strings.Contains(l, "dbus") {
			lines = append(lines, l)
		}
	}
	if len(lines) == 0 {
		return ""
	}
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return "; its stderr ends:\n\t" + strings.Join(lines, "\n\t")
}
