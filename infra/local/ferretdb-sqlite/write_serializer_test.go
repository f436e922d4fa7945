package main

import (
	"encoding/binary"
	"testing"
)

// bsonDoc builds a BSON document from elements already encoded (type, name, value).
func bsonDoc(elements ...[]byte) []byte {
	body := []byte{}
	for _, e := range elements {
		body = append(body, e...)
	}
	doc := make([]byte, 4, 4+len(body)+1)
	doc = append(doc, body...)
	doc = append(doc, 0)
	binary.LittleEndian.PutUint32(doc, uint32(len(doc)))
	return doc
}

func element(kind byte, name string, value []byte) []byte {
	e := append([]byte{kind}, name...)
	e = append(e, 0)
	return append(e, value...)
}

func bsonString(s string) []byte {
	v := make([]byte, 4)
	binary.LittleEndian.PutUint32(v, uint32(len(s)+1))
	v = append(v, s...)
	return append(v, 0)
}

func opMsgOf(body []byte) []byte {
	msg := make([]byte, headerSize+4)
	binary.LittleEndian.PutUint32(msg[12:16], opMsg)
	msg = append(msg, 0)
	msg = append(msg, body...)
	binary.LittleEndian.PutUint32(msg[0:4], uint32(len(msg)))
	return msg
}

func TestWriteCommandOfNamesTheDatabase(t *testing.T) {
	int64Value := make([]byte, 8)
	body := bsonDoc(
		element(0x02, "update", bsonString("job_requests")),
		element(0x08, "ordered", []byte{1}),
		element(0x03, "lsid", bsonDoc(element(0x05, "id", append([]byte{16, 0, 0, 0, 4}, make([]byte, 16)...)))),
		element(0x12, "txnNumber", int64Value),
		element(0x11, "$clusterTime", int64Value),
		element(0x02, "$db", bsonString("jobs_db")),
	)
	write, db := writeCommandOf(opMsgOf(body))
	if !write || db != "jobs_db" {
		t.Fatalf("got write=%v db=%q, want a write to jobs_db", write, db)
	}
}

func TestReadsAreNotWrites(t *testing.T) {
	body := bsonDoc(element(0x02, "find", bsonString("posts")), element(0x02, "$db", bsonString("jobs_db")))
	if write, _ := writeCommandOf(opMsgOf(body)); write {
		t.Fatal("find was taken for a write")
	}
}

func TestAnUnknownElementFallsBackToTheSharedLock(t *testing.T) {
	body := bsonDoc(element(0x02, "insert", bsonString("c")), element(0x42, "odd", nil), element(0x02, "$db", bsonString("x")))
	write, db := writeCommandOf(opMsgOf(body))
	if !write || db != "" {
		t.Fatalf("got write=%v db=%q, want a write under the shared lock", write, db)
	}
}
