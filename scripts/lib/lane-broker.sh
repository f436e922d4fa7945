# A Kafka broker of its own for the second lane of integration suites (scripts/test.sh), as a
# container on the image infra/images/build.sh makes (marketplace/kafka:local), with the
# settings the system tests' brokers use (tests/system/containers/kafka-server.properties).
# Why its own: suites consume the services' real topics (auth.users, jobs.posts, ...), and a
# suite that counts the events it handled would also count what a suite in the other lane
# publishes to the same topic at the same moment. Databases need no such thing: every test
# file already has a database of its own on the shared server.
# Sourced after scripts/lib/common.sh and scripts/lib/docker.sh (uses ROOT, DATA, DOCKER, say).
#   start_lane_broker     starts it, waits until it is ready, sets LANE_BROKERS (host:port)
#   stop_lane_broker      removes it (and its data) if it was started

LANE_BROKER_CONTAINER=marketplace-test-lane-broker-$$

start_lane_broker() {
  local port properties started=$SECONDS
  port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  properties=$DATA/lane-broker.properties
  sed "s/__PORT__/$port/g" "$ROOT/tests/system/containers/kafka-server.properties" >"$properties"
  chmod 0644 "$properties"
  "$DOCKER" run -d --rm --name "$LANE_BROKER_CONTAINER" -p "127.0.0.1:$port:$port" \
    -e KAFKA_HEAP_OPTS='-Xms256m -Xmx512m' \
    -v "$properties:/opt/marketplace/server.properties:ro" marketplace/kafka:local \
    bash -c 'kafka-storage.sh format -t MkU3OEVBNTcwNTJENDM2Qk -c /opt/marketplace/server.properties &&
      exec kafka-server-start.sh /opt/marketplace/server.properties' >/dev/null || return 1
  local i
  for ((i = 0; i < 240; i++)); do
    if "$DOCKER" logs "$LANE_BROKER_CONTAINER" 2>&1 | grep -q 'Kafka Server started'; then
      LANE_BROKERS=127.0.0.1:$port
      say "the second lane's broker is ready on $LANE_BROKERS in $((SECONDS - started)) s"
      return 0
    fi
    "$DOCKER" inspect "$LANE_BROKER_CONTAINER" >/dev/null 2>&1 || break
    sleep 0.5
  done
  "$DOCKER" logs --tail 30 "$LANE_BROKER_CONTAINER" 2>&1 || true
  stop_lane_broker
  return 1
}

stop_lane_broker() {
  "$DOCKER" rm -f -v "$LANE_BROKER_CONTAINER" >/dev/null 2>&1 || true
}
