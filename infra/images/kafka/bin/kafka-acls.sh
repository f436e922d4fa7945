#!/bin/bash
# A short-lived tool: a small heap, one GC thread and the quick compiler only, so each of the
# many calls compose's kafka-acls job makes starts and ends fast on a busy machine.
KAFKA_HEAP_OPTS="-Xmx128m -XX:+UseSerialGC -XX:TieredStopAtLevel=1" \
  exec /opt/kafka/bin/kafka-run-class.sh kafka.admin.AclCommand "$@"
