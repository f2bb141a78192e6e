//go:build js && wasm

package web

import (
	"errors"
	"fmt"
	"syscall/js"

	"github.com/interpdemo/interpdemo/replay"
)

// fetchBytes fetches url (relative to the page) with the browser's
// fetch, waiting for it: the page is set up before the loop starts. A
// body over replay.MaxFileSize is refused before it is read, where the
// server says its length.
func fetchBytes(url string) ([]byte, error) {
	type result struct {
		b   []byte
		err error
	}
	done := make(chan result, 1)
	var onBody, onResponse, onError js.Func
	onError = js.FuncOf(func(_ js.Value, a []js.Value) any {
		msg := "fetch failed"
		if len(a) > 0 {
			msg = a[0].Call("toString").String()
		}
		done <- result{err: errors.New(msg)}
		return nil
	})
	onBody = js.FuncOf(func(_ js.Value, a []js.Value) any {
		u8 := js.Global().Get("Uint8Array").New(a[0])
		b := make([]byte, u8.Length())
		js.CopyBytesToGo(b, u8)
		done <- result{b: b}
		return nil
	})
	onResponse = js.FuncOf(func(_ js.Value, a []js.Value) any {
		resp := a[0]
		if !resp.Get("ok").Bool() {
			done <- result{err: fmt.Errorf("HTTP %d %s", resp.Get("status").Int(), resp.Get("statusText").String())}
			return nil
		}
		if n := resp.Get("headers").Call("get", "Content-Length"); n.Type() == js.TypeString {
			var size int64
			if _, err := fmt.Sscan(n.String(), &size); err == nil && size > replay.MaxFileSize {
				done <- result{err: fmt.Errorf("%d bytes, more than the %d-byte limit", size, replay.MaxFileSize)}
				return nil
			}
		}
		resp.Call("arrayBuffer").Call("then", onBody, onError)
		return nil
	})
	js.Global().Call("fetch", url).Call("then", onResponse, onError)
	r := <-done
	onBody.Release()
	onResponse.Release()
	onError.Release()
	return r.b, r.err
}
