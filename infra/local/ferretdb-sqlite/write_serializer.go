package main

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"strings"
	"sync"
	"time"
)

// FerretDB v1 runs every update as "read the document, change it in Go, write it back" with
// nothing locked, so two concurrent updates of one document lose one of them (measured:
// 50 parallel $inc leave +10; docs/local-infrastructure.md). MongoDB guarantees that a
// single-document write is atomic, and the services rely on it: the outbox relay's $pullAll
// must not undo a status change written at the same moment.
//
// writeSerializer restores that guarantee in front of FerretDB: it forwards the wire protocol
// unchanged, and holds one process-wide lock from the moment a write command (insert, update,
// delete, findAndModify) is forwarded until its reply comes back. Reads are never held up.
// SQLite allows one writer at a time anyway, so serializing the commands costs little.
type writeSerializer struct {
	dial func() (net.Conn, error)
	// held by one connection from forwarding a write command until its reply
	writes sync.Mutex
}

const (
	opMsg          = 2013
	headerSize     = 16
	maxMessageSize = 48_000_000 + 16*1024 // maxMessageSizeBytes plus room for the header
	flagChecksum   = 1 << 0
	flagMoreToCome = 1 << 1
)

var writeCommands = map[string]bool{
	"insert":        true,
	"update":        true,
	"delete":        true,
	"findandmodify": true,
}

func (s *writeSerializer) serve(ln net.Listener) error {
	for {
		client, err := ln.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return nil
			}
			return err
		}
		go s.handle(client)
	}
}

func (s *writeSerializer) handle(client net.Conn) {
	server, err := s.dialWithRetry()
	if err != nil {
		log.Printf("write serializer: backend not reachable: %v", err)
		client.Close()
		return
	}

	// This connection's share of the lock: whether it holds it, and for which request.
	var (
		state   sync.Mutex
		holding bool
		pending int32
	)
	release := func(responseTo int32, always bool) {
		state.Lock()
		defer state.Unlock()
		if holding && (always || responseTo == pending) {
			holding = false
			s.writes.Unlock()
		}
	}

	done := make(chan struct{}, 2)
	go func() { // client → FerretDB
		defer func() { done <- struct{}{} }()
		in := bufio.NewReader(client)
		for {
			msg, err := readMessage(in)
			if err != nil {
				return
			}
			write := isWriteCommand(msg)
			if write {
				s.writes.Lock()
				state.Lock()
				holding, pending = true, int32(binary.LittleEndian.Uint32(msg[4:8]))
				state.Unlock()
			}
			if _, err := server.Write(msg); err != nil {
				return
			}
			// An unacknowledged write gets no reply to wait for.
			if write && binary.LittleEndian.Uint32(msg[16:20])&flagMoreToCome != 0 {
				release(0, true)
			}
		}
	}()
	go func() { // FerretDB → client
		defer func() { done <- struct{}{} }()
		in := bufio.NewReader(server)
		for {
			msg, err := readMessage(in)
			if err != nil {
				return
			}
			release(int32(binary.LittleEndian.Uint32(msg[8:12])), false)
			if _, err := client.Write(msg); err != nil {
				return
			}
		}
	}()
	<-done
	client.Close()
	server.Close()
	<-done
	release(0, true) // a connection that closed mid-write must not keep the lock
}

// dialWithRetry waits for FerretDB's own listener, which starts in parallel with ours.
func (s *writeSerializer) dialWithRetry() (net.Conn, error) {
	var err error
	for attempt := 0; attempt < 50; attempt++ {
		var conn net.Conn
		if conn, err = s.dial(); err == nil {
			return conn, nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return nil, err
}

func readMessage(r *bufio.Reader) ([]byte, error) {
	var header [4]byte
	if _, err := io.ReadFull(r, header[:]); err != nil {
		return nil, err
	}
	size := int(binary.LittleEndian.Uint32(header[:]))
	if size < headerSize || size > maxMessageSize {
		return nil, fmt.Errorf("wire message of %d bytes", size)
	}
	msg := make([]byte, size)
	copy(msg, header[:])
	if _, err := io.ReadFull(r, msg[4:]); err != nil {
		return nil, err
	}
	return msg, nil
}

// isWriteCommand reads the command name of an OP_MSG: the first key of its body section.
func isWriteCommand(msg []byte) bool {
	if len(msg) < headerSize+5 || binary.LittleEndian.Uint32(msg[12:16]) != opMsg {
		return false
	}
	end := len(msg)
	if binary.LittleEndian.Uint32(msg[16:20])&flagChecksum != 0 {
		end -= 4
	}
	for at := headerSize + 4; at+5 <= end; {
		kind := msg[at]
		size := int(binary.LittleEndian.Uint32(msg[at+1 : at+5]))
		if size < 5 || at+1+size > end {
			return false
		}
		if kind == 0 {
			// BSON: int32 size, then the first element's type byte and its name (a C string).
			doc := msg[at+1 : at+1+size]
			if doc[4] == 0 {
				return false
			}
			name := doc[5:]
			if n := indexZero(name); n >= 0 {
				return writeCommands[strings.ToLower(string(name[:n]))]
			}
			return false
		}
		at += 1 + size // a document sequence (kind 1): its size counts itself
	}
	return false
}

func indexZero(b []byte) int {
	for i, c := range b {
		if c == 0 {
			return i
		}
	}
	return -1
}
