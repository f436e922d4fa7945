#!/bin/bash
# Runs one of Kafka's classes on the image's jars, as Kafka's own script of this name does.
# KAFKA_HEAP_OPTS sets the heap (the broker's compose service gives it).
set -euo pipefail
# shellcheck disable=SC2086 # KAFKA_HEAP_OPTS holds several options
exec java ${KAFKA_HEAP_OPTS:--Xmx256m -XX:+UseG1GC} -Djava.awt.headless=true \
  -Dlog4j.configuration=file:/opt/kafka/config/log4j.properties -cp '/opt/kafka/libs/*' "$@"
