package cdp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
)

// maxConsole bounds the console lines a page keeps; later ones are
// counted, not kept.
const maxConsole = 1000

// Page is a tab in the browser, attached over its own session. Its
// methods may be called from several goroutines.
type Page struct {
	b       *Browser
	target  string
	session string

	mu      sync.Mutex
	console []string
	dropped int             // console lines past maxConsole
	loaded  map[string]bool // loader ids whose load event has fired
	changed chan struct{}   // closed, and replaced, when loaded or ended change
	ended   error           // why the page is gone, once it is
	shift   bool            // Shift is held (KeyDown "Shift")
	closed  bool
}

// NewPage opens a tab, loads url in it and returns once the page's load
// event has fired. Until then ctx bounds it; a failed navigation (a
// refused connection, say) is an error.
func (b *Browser) NewPage(ctx context.Context, url string) (*Page, error) {
	var created struct {
		TargetID string `json:"targetId"`
	}
	if err := b.call(ctx, "", "Target.createTarget", map[string]any{"url": "about:blank"}, &created); err != nil {
		return nil, err
	}
	p := &Page{b: b, target: created.TargetID, loaded: map[string]bool{}, changed: make(chan struct{})}
	if err := p.open(ctx, url); err != nil {
		p.Close()
		return nil, err
	}
	return p, nil
}

// open attaches to the new tab, sets it up and loads url in it.
func (p *Page) open(ctx context.Context, url string) error {
	var attached struct {
		SessionID string `json:"sessionId"`
	}
	err := p.b.call(ctx, "", "Target.attachToTarget",
		map[string]any{"targetId": p.target, "flatten": true}, &attached)
	if err != nil {
		return err
	}
	p.session = attached.SessionID
	p.b.mu.Lock()
	p.b.pages[p.session] = p
	p.b.mu.Unlock()

	setup := []struct {
		method string
		params any
	}{
		// The events Console and waitLoad read: console calls and
		// exceptions (Runtime), browser messages such as failed loads
		// (Log), and lifecycle events that name their navigation (Page).
		{"Page.enable", nil},
		{"Runtime.enable", nil},
		{"Log.enable", nil},
		{"Page.setLifecycleEventsEnabled", map[string]any{"enabled": true}},
		// The page believes it has the focus, as the front tab of a
		// window would, so that keyboard events and focus checks behave.
		{"Emulation.setFocusEmulationEnabled", map[string]any{"enabled": true}},
		// A headless window keeps room for the toolbars it does not
		// draw, so its pages are smaller than the window; give them the
		// window's size.
		{"Emulation.setDeviceMetricsOverride", map[string]any{
			"width": p.b.width, "height": p.b.height, "deviceScaleFactor": 1, "mobile": false}},
	}
	for _, s := range setup {
		if err := p.call(ctx, s.method, s.params, nil); err != nil {
			return err
		}
	}

	var nav struct {
		LoaderID  string `json:"loaderId"`
		ErrorText string `json:"errorText"`
	}
	if err := p.call(ctx, "Page.navigate", map[string]any{"url": url}, &nav); err != nil {
		return err
	}
	if nav.ErrorText != "" {
		return fmt.Errorf("cdp: loading %s: %s", url, nav.ErrorText)
	}
	if err := p.waitLoad(ctx, nav.LoaderID); err != nil {
		return fmt.Errorf("cdp: loading %s: %w", url, err)
	}
	return nil
}

// waitLoad waits for the load event of the navigation loaderID; the
// event may have come before the navigation's answer did.
func (p *Page) waitLoad(ctx context.Context, loaderID string) error {
	if loaderID == "" {
		return nil // a navigation within the document loads nothing
	}
	for {
		p.mu.Lock()
		done, ended, changed := p.loaded[loaderID], p.ended, p.changed
		p.mu.Unlock()
		switch {
		case done:
			return nil
		case ended != nil:
			return ended
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return fmt.Errorf("no load event: %w", ctx.Err())
		}
	}
}

// end records why the page is gone (closed, crashed, or the browser
// with it) for waitLoad, which the calls that fail do not tell.
func (p *Page) end(err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ended == nil {
		p.ended = err
		p.notify()
	}
}

// notify wakes whoever waits on p.changed; p.mu is held.
func (p *Page) notify() {
	close(p.changed)
	p.changed = make(chan struct{})
}

// Close closes the tab. Calling it again does nothing.
func (p *Page) Close() error {
	p.mu.Lock()
	closed := p.closed
	p.closed = true
	p.mu.Unlock()
	if closed {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), closeGrace)
	defer cancel()
	err := p.b.call(ctx, "", "Target.closeTarget", map[string]any{"targetId": p.target}, nil)
	if p.session != "" {
		p.b.endSession(p.session, errors.New("the page was closed"))
	}
	return err
}

// call sends a command to the page's session.
func (p *Page) call(ctx context.Context, method string, params, result any) error {
	return p.b.call(ctx, p.session, method, params, result)
}

// remoteObject is the part of a Runtime.RemoteObject that Eval reads.
type remoteObject struct {
	Type                string          `json:"type"`
	Value               json.RawMessage `json:"value"`
	UnserializableValue string          `json:"unserializableValue"`
	Description         string          `json:"description"`
}

// exceptionDetails is the part of a Runtime.ExceptionDetails that errors
// and Console show.
type exceptionDetails struct {
	Text      string        `json:"text"`
	Exception *remoteObject `json:"exception"`
}

// String is the exception's message: the thrown error's description
// (its type, message and stack) or value, else the details' text.
func (e *exceptionDetails) String() string {
	if x := e.Exception; x != nil {
		if x.Description != "" {
			return x.Description
		}
		if len(x.Value) > 0 {
			return "Uncaught " + string(x.Value)
		}
	}
	return e.Text
}

// Eval evaluates the JavaScript expression expr in the page, waits for
// it if it is a promise, and unmarshals its value, as JSON, into out,
// unless out is nil; undefined reads as null. A thrown exception or a
// rejected promise is an error carrying its message and stack; so is a
// value that JSON cannot hold (NaN, Infinity, a BigInt) when out is not
// nil.
func (p *Page) Eval(ctx context.Context, expr string, out any) error {
	value, err := p.evaluate(ctx, expr)
	if err != nil {
		return err
	}
	if out == nil {
		return nil
	}
	switch {
	case value.UnserializableValue != "":
		return fmt.Errorf("cdp: evaluating %s: %s has no JSON value", short(expr), value.UnserializableValue)
	case len(value.Value) == 0: // undefined
		return json.Unmarshal([]byte("null"), out)
	}
	if err := json.Unmarshal(value.Value, out); err != nil {
		return fmt.Errorf("cdp: evaluating %s: %w", short(expr), err)
	}
	return nil
}

// thrown is an exception thrown by an evaluated expression, as an error.
type thrown struct{ details *exceptionDetails }

func (e thrown) Error() string { return e.details.String() }

// evaluate evaluates expr, awaiting a promise, and returns its value. An
// exception it throws is a thrown error.
func (p *Page) evaluate(ctx context.Context, expr string) (remoteObject, error) {
	var res struct {
		Result    remoteObject      `json:"result"`
		Exception *exceptionDetails `json:"exceptionDetails"`
	}
	params := map[string]any{
		"expression":    expr,
		"returnByValue": true,
		"awaitPromise":  true,
	}
	if err := p.call(ctx, "Runtime.evaluate", params, &res); err != nil {
		return remoteObject{}, err
	}
	if res.Exception != nil {
		return remoteObject{}, fmt.Errorf("cdp: evaluating %s: %w", short(expr), thrown{res.Exception})
	}
	return res.Result, nil
}

// short is expr for an error message: its first line, cut to a length
// that fits on one.
func short(expr string) string {
	s := strings.TrimSpace(expr)
	cut := false
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s, cut = s[:i], true
	}
	if r := []rune(s); len(r) > 60 {
		s, cut = string(r[:60]), true
	}
	if cut {
		s += "…"
	}
	return "`" + s + "`"
}

// waitJS is the promise WaitFor evaluates: it checks the condition now
// and then on every animation frame, or every 20 ms where the page gets
// no frames, and gives up by itself a second after the caller's deadline
// (if any) so that it does not poll forever. %[1]s is the expression,
// %[2]d the milliseconds to give up after, or 0.
const waitJS = `new Promise((resolve, reject) => {
	const cond = () => (%[1]s
	);
	const giveUp = %[2]d > 0 ? performance.now() + %[2]d : Infinity;
	let round = 0;
	const check = () => {
		let ok;
		try {
			ok = cond();
		} catch (e) {
			reject(e);
			return;
		}
		if (ok) {
			resolve(true);
			return;
		}
		if (performance.now() > giveUp) {
			reject(new Error("WaitFor gave up"));
			return;
		}
		const r = ++round;
		const again = () => {
			if (r === round) check();
		};
		requestAnimationFrame(again);
		setTimeout(again, 20);
	};
	check();
})`

// WaitFor waits until the JavaScript expression expr is truthy in the
// page, or until ctx ends, when the error wraps ctx.Err(). The page
// checks expr on every animation frame (and every 20 ms if it gets
// none), so no time is lost between the change and the answer, and Go
// does not poll. expr is evaluated as it is, not awaited: a promise
// counts as truthy. An exception it throws ends the wait with an error.
func (p *Page) WaitFor(ctx context.Context, expr string) error {
	giveUp := int64(0)
	if d, ok := ctx.Deadline(); ok {
		giveUp = max(time.Until(d)+time.Second, time.Millisecond).Milliseconds()
	}
	_, err := p.evaluate(ctx, fmt.Sprintf(waitJS, expr, giveUp))
	var exc thrown
	switch {
	case err == nil:
		return nil
	case ctx.Err() != nil:
		return fmt.Errorf("cdp: waiting for %s: %w", short(expr), ctx.Err())
	case errors.As(err, &exc):
		return fmt.Errorf("cdp: waiting for %s: %w", short(expr), exc)
	}
	return err // the call failed: the page or the browser went away
}

// Screenshot returns what the page shows, as a PNG image the size of the
// window.
func (p *Page) Screenshot(ctx context.Context) ([]byte, error) {
	var res struct {
		Data []byte `json:"data"` // base64 in JSON
	}
	if err := p.call(ctx, "Page.captureScreenshot", map[string]any{"format": "png"}, &res); err != nil {
		return nil, err
	}
	return res.Data, nil
}

// Console returns what the page has logged so far, one line per console
// call ("log: hello 42"), uncaught exception ("exception: Error: boom")
// and browser message ("network error: Failed to load resource: ..."),
// for a failing test to show.
func (p *Page) Console() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	lines := append([]string(nil), p.console...)
	if p.dropped > 0 {
		lines = append(lines, fmt.Sprintf("(%d more lines not kept)", p.dropped))
	}
	return lines
}

// event takes in one of the page's events.
func (p *Page) event(method string, params json.RawMessage) {
	switch method {
	case "Page.lifecycleEvent":
		var e struct {
			LoaderID string `json:"loaderId"`
			Name     string `json:"name"`
		}
		if json.Unmarshal(params, &e) == nil && e.Name == "load" {
			p.mu.Lock()
			p.loaded[e.LoaderID] = true
			p.notify()
			p.mu.Unlock()
		}
	case "Runtime.consoleAPICalled":
		var e struct {
			Type string         `json:"type"`
			Args []remoteObject `json:"args"`
		}
		if json.Unmarshal(params, &e) == nil {
			words := make([]string, len(e.Args))
			for i, a := range e.Args {
				words[i] = a.text()
			}
			p.log(e.Type + ": " + strings.Join(words, " "))
		}
	case "Runtime.exceptionThrown":
		var e struct {
			Details exceptionDetails `json:"exceptionDetails"`
		}
		if json.Unmarshal(params, &e) == nil {
			p.log("exception: " + e.Details.String())
		}
	case "Log.entryAdded":
		var e struct {
			Entry struct {
				Source string `json:"source"`
				Level  string `json:"level"`
				Text   string `json:"text"`
				URL    string `json:"url"`
			} `json:"entry"`
		}
		if json.Unmarshal(params, &e) == nil {
			line := e.Entry.Source + " " + e.Entry.Level + ": " + e.Entry.Text
			if e.Entry.URL != "" {
				line += " (" + e.Entry.URL + ")"
			}
			p.log(line)
		}
	case "Inspector.targetCrashed":
		p.log("crash: the page's renderer crashed")
	}
}

// log keeps a console line.
func (p *Page) log(line string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.console) >= maxConsole {
		p.dropped++
		return
	}
	p.console = append(p.console, line)
}

// text is how a console argument reads: a string as itself, another
// value as JSON, an object by its description.
func (o remoteObject) text() string {
	switch {
	case o.Type == "string" && len(o.Value) > 0:
		var s string
		if json.Unmarshal(o.Value, &s) == nil {
			return s
		}
	case o.UnserializableValue != "":
		return o.UnserializableValue
	case o.Description != "":
		return o.Description
	case len(o.Value) > 0:
		return string(o.Value)
	}
	return o.Type
}
