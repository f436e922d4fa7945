package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	_ "net/http/pprof"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/FerretDB/FerretDB/ferretdb"
)

func main() {
	addr := flag.String("listen-addr", "127.0.0.1:27017", "TCP listen address")
	dir := flag.String("data-dir", ".data/ferretdb", "SQLite directory (one file per database)")
	debugAddr := flag.String("debug-addr", "", "serve Go's pprof profiles here (off when empty)")
	flag.Parse()
	if *debugAddr != "" {
		// CPU and heap profiles of the server under load: go tool pprof http://ADDR/debug/pprof/profile
		go func() { log.Println(http.ListenAndServe(*debugAddr, nil)) }()
	}
	abs, err := filepath.Abs(*dir)
	if err != nil {
		log.Fatal(err)
	}
	if err := os.MkdirAll(abs, 0o755); err != nil {
		log.Fatal(err)
	}
	// FerretDB itself listens on a private Unix socket; clients reach it through the write
	// serializer on the public address (write_serializer.go says why). The socket lives in
	// the temp directory because a data directory deep in a checkout can exceed the 108-byte
	// limit of a socket path.
	socket := filepath.Join(os.TempDir(), fmt.Sprintf("marketplace-ferretdb-%d.sock", os.Getpid()))
	_ = os.Remove(socket)
	defer os.Remove(socket)

	f, err := ferretdb.New(&ferretdb.Config{
		Listener: ferretdb.ListenerConfig{Unix: socket},
		Handler:  "sqlite",
		// synchronous(normal) with FerretDB's WAL journal: a commit is written to the WAL but
		// not fsynced until the next checkpoint, which is MongoDB's own default durability
		// (w:1 acknowledges before the journal is flushed, every 100 ms). A crashed process
		// loses nothing; a machine that loses power may lose the last commits, never the
		// database. Measured: inserts 2x and updates 1.6x faster (docs/local-infrastructure.md).
		SQLiteURL: "file:" + abs + "/?_pragma=synchronous(normal)",
	})
	if err != nil {
		log.Fatal(err)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatal(err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	serializer := &writeSerializer{dial: func() (net.Conn, error) { return net.Dial("unix", socket) }}
	go func() {
		if err := serializer.serve(ln); err != nil {
			log.Fatal(err)
		}
	}()
	go func() {
		<-ctx.Done()
		ln.Close()
	}()

	log.Printf("ferretdb(sqlite) on %s (writes serialized), data %s", *addr, abs)
	if err := f.Run(ctx); err != nil {
		log.Fatal(err)
	}
}
