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
// unchanged, and holds a lock from the moment a write command (insert, update, delete,
// findAndModify) is forwarded until its reply comes back. Reads are never held up. There is
// one lock per database: a document lives in one database, and each database is its own
// SQLite file, which admits one writer at a time anyway, so writes to different databases
// (one per service) go on side by side while those to one database queue.
type writeSerializer struct {
	dial func() (net.Conn, error)
	// guards locks
	mu sync.Mutex
	// per database ("$db" of the command): held by one connection from forwarding a write
	// command until its reply
	locks map[string]*sync.Mutex
}

func (s *writeSerializer) lockOf(db string) *sync.Mutex {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.locks == nil {
		s.locks = map[string]*sync.Mutex{}
	}
	lock, ok := s.locks[db]
	if !ok {
		lock = &sync.Mutex{}
		s.locks[db] = lock
	}
	return lock
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

	// This connection's share of the locks: the one it holds, if any, and for which request.
	var (
		state   sync.Mutex
		held    *sync.Mutex
		pending int32
	)
	release := func(responseTo int32, always bool) {
		state.Lock()
		defer state.Unlock()
		if held != nil && (always || responseTo == pending) {
			held.Unlock()
			held = nil
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
			write, db := writeCommandOf(msg)
			if write {
				lock := s.lockOf(db)
				lock.Lock()
				state.Lock()
				held, pending = lock, int32(binary.LittleEndian.Uint32(msg[4:8]))
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

// writeCommandOf reads an OP_MSG's body section: whether its command (the first key) is a
// write, and the database it names ("$db"; "" when it names none, which then shares a lock).
func writeCommandOf(msg []byte) (bool, string) {
	if len(msg) < headerSize+5 || binary.LittleEndian.Uint32(msg[12:16]) != opMsg {
		return false, ""
	}
	end := len(msg)
	if binary.LittleEndian.Uint32(msg[16:20])&flagChecksum != 0 {
		end -= 4
	}
	for at := headerSize + 4; at+5 <= end; {
		kind := msg[at]
		size := int(binary.LittleEndian.Uint32(msg[at+1 : at+5]))
		if size < 5 || at+1+size > end {
			return false, ""
		}
		if kind == 0 {
			return bodyCommand(msg[at+1 : at+1+size])
		}
		at += 1 + size // a document sequence (kind 1): its size counts itself
	}
	return false, ""
}

// bodyCommand walks the body document's top-level elements: the first one's name is the
// command; the string element "$db" names the database.
func bodyCommand(doc []byte) (bool, string) {
	write, db := false, ""
	for at, first := 4, true; at < len(doc)-1; first = false {
		kind := doc[at]
		n := indexZero(doc[at+1:])
		if n < 0 {
			break
		}
		name := string(doc[at+1 : at+1+n])
		value := at + 1 + n + 1
		if first {
			write = writeCommands[strings.ToLower(name)]
			if !write {
				return false, ""
			}
		}
		size := bsonValueSize(kind, doc, value)
		if size < 0 || value+size > len(doc) {
			break // an element we cannot measure: the lock shared by unnamed databases
		}
		if name == "$db" && kind == 0x02 && size > 5 {
			db = string(doc[value+4 : value+size-1])
		}
		at = value + size
	}
	return write, db
}

// bsonValueSize is the byte length of an element's value, or -1 for a type it does not know.
func bsonValueSize(kind byte, doc []byte, at int) int {
	int32At := func(i int) int {
		if i+4 > len(doc) {
			return -1
		}
		return int(int32(binary.LittleEndian.Uint32(doc[i : i+4])))
	}
	switch kind {
	case 0x01, 0x09, 0x11, 0x12: // double, datetime, timestamp, int64
		return 8
	case 0x02, 0x0D, 0x0E: // string, code, symbol: int32 length, then the bytes with their 0
		if l := int32At(at); l >= 1 {
			return 4 + l
		}
		return -1
	case 0x03, 0x04, 0x0F: // document, array, code with scope: their size counts itself
		return int32At(at)
	case 0x05: // binary: int32 length, subtype, bytes
		if l := int32At(at); l >= 0 {
			return 5 + l
		}
		return -1
	case 0x06, 0x0A, 0x7F, 0xFF: // undefined, null, max key, min key
		return 0
	case 0x07: // ObjectId
		return 12
	case 0x08: // bool
		return 1
	case 0x10: // int32
		return 4
	case 0x13: // decimal128
		return 16
	}
	return -1
}

func indexZero(b []byte) int {
	for i, c := range b {
		if c == 0 {
			return i
		}
	}
	return -1
}
