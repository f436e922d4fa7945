package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/FerretDB/FerretDB/ferretdb"
)

func main() {
	addr := flag.String("listen-addr", "127.0.0.1:27017", "TCP listen address")
	dir := flag.String("data-dir", ".data/ferretdb", "SQLite directory (one file per database)")
	flag.Parse()
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
		Listener:  ferretdb.ListenerConfig{Unix: socket},
		Handler:   "sqlite",
		SQLiteURL: "file:" + abs + "/",
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
