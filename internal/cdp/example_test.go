package cdp_test

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/interpdemo/interpdemo/internal/cdp"
)

// Load a page, press a key in it and read back what the page saw. (The
// example needs a browser, so it is compiled, not run.)
func Example() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<script>
			document.addEventListener("keydown", e => { window.last = e.code; });
		</script>`)
	}))
	defer srv.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	b, err := cdp.Launch(ctx, cdp.Options{Width: 800, Height: 600}) // the browser Find finds
	if err != nil {
		log.Fatal(err)
	}
	defer b.Close()
	p, err := b.NewPage(ctx, srv.URL)
	if err != nil {
		log.Fatal(err)
	}
	if err := p.Key(ctx, "Space"); err != nil {
		log.Fatal(err)
	}
	if err := p.WaitFor(ctx, `window.last === "Space"`); err != nil {
		log.Fatal(err, p.Console())
	}
	var last string
	if err := p.Eval(ctx, `window.last`, &last); err != nil {
		log.Fatal(err)
	}
	fmt.Println(last)
}
