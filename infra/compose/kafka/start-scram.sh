#!/bin/bash
# compose's Kafka as production runs it: clients authenticate with SASL/SCRAM-SHA-512 and may
# do only what ACLs allow (kafka-acls applies them: acls.commands). The users (the services
# and `admin`) exist from the first start: the storage is formatted with their passwords
# (volume kafka-users, made by make-kafka-users.js). Containers use kafka:9092, tools on this
# machine 127.0.0.1:9092 (the HOST listener), both with a SCRAM user.
set -euo pipefail
users=/run/marketplace/kafka-users
admin_password=$(cat "$users/admin.password")
props=/tmp/server.properties
jaas="org.apache.kafka.common.security.scram.ScramLoginModule required username=\"admin\" password=\"$admin_password\";"
cat >"$props" <<PROPERTIES
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@localhost:9093
listeners=SASL_PLAINTEXT://:9092,CONTROLLER://localhost:9093,HOST://:19092
advertised.listeners=SASL_PLAINTEXT://kafka:9092,HOST://127.0.0.1:9092
controller.listener.names=CONTROLLER
inter.broker.listener.name=SASL_PLAINTEXT
listener.security.protocol.map=CONTROLLER:PLAINTEXT,SASL_PLAINTEXT:SASL_PLAINTEXT,HOST:SASL_PLAINTEXT
sasl.enabled.mechanisms=SCRAM-SHA-512
sasl.mechanism.inter.broker.protocol=SCRAM-SHA-512
listener.name.sasl_plaintext.scram-sha-512.sasl.jaas.config=$jaas
listener.name.host.scram-sha-512.sasl.jaas.config=$jaas
authorizer.class.name=org.apache.kafka.metadata.authorizer.StandardAuthorizer
super.users=User:admin;User:ANONYMOUS
allow.everyone.if.no.acl.found=false
log.dirs=/var/lib/kafka/data
num.partitions=1
default.replication.factor=1
min.insync.replicas=1
offsets.topic.replication.factor=1
offsets.topic.num.partitions=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
group.initial.rebalance.delay.ms=0
auto.create.topics.enable=false
PROPERTIES
scram=()
for file in "$users"/*.password; do
  scram+=(--add-scram "SCRAM-SHA-512=[name=$(basename "$file" .password),password=$(cat "$file")]")
done
/opt/kafka/bin/kafka-storage.sh format -t "$CLUSTER_ID" -c "$props" --ignore-formatted "${scram[@]}"
# The administrator's client settings: the healthcheck and kafka-acls log in with them.
cat >/tmp/admin.properties <<PROPERTIES
security.protocol=SASL_PLAINTEXT
sasl.mechanism=SCRAM-SHA-512
sasl.jaas.config=$jaas
PROPERTIES
exec /opt/kafka/bin/kafka-server-start.sh "$props"
