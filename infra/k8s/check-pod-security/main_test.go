package main

import (
	"bytes"
	"strings"
	"testing"
)

const restrictedDeployment = `
apiVersion: apps/v1
kind: Deployment
metadata: { name: good }
spec:
  selector: { matchLabels: { app: good } }
  template:
    metadata: { labels: { app: good } }
    spec:
      securityContext: { runAsNonRoot: true, seccompProfile: { type: RuntimeDefault } }
      containers:
        - name: app
          image: example
          securityContext:
            allowPrivilegeEscalation: false
            capabilities: { drop: [ALL] }
`

// What the MongoDB members looked like before their override set security contexts.
const mongoDBWithoutSecurityContexts = `
apiVersion: mongodbcommunity.mongodb.com/v1
kind: MongoDBCommunity
metadata: { name: db }
spec:
  statefulSet:
    spec:
      template:
        spec:
          containers:
            - name: mongod
            - name: mongodb-agent
          initContainers:
            - name: mongod-posthook
            - name: mongodb-agent-readinessprobe
`

func check(t *testing.T, manifests string) (string, error) {
	t.Helper()
	var out bytes.Buffer
	err := run(strings.NewReader(manifests), &out)
	return out.String(), err
}

func TestARestrictedPodPasses(t *testing.T) {
	if out, err := check(t, restrictedDeployment); err != nil {
		t.Fatalf("refused: %v\n%s", err, out)
	}
}

func TestAPodWithoutSeccompOrCapabilityDropIsRefused(t *testing.T) {
	out, err := check(t, mongoDBWithoutSecurityContexts+"---\n"+restrictedDeployment)
	if err == nil {
		t.Fatal("the MongoDB members were admitted without security contexts")
	}
	for _, want := range []string{"MongoDBCommunity/db", "seccompProfile", "capabilities"} {
		if !strings.Contains(out, want) {
			t.Errorf("the refusal does not say %q:\n%s", want, out)
		}
	}
}

func TestAMongoDBOverrideMustNameEveryContainerTheOperatorMakes(t *testing.T) {
	_, err := check(t, strings.Replace(mongoDBWithoutSecurityContexts, "            - name: mongodb-agent\n", "", 1))
	if err == nil || !strings.Contains(err.Error(), `"mongodb-agent" is not set`) {
		t.Fatalf("want a refusal naming mongodb-agent, got %v", err)
	}
}

func TestKafkaNodePoolTemplatesAreChecked(t *testing.T) {
	out, err := check(t, "apiVersion: kafka.strimzi.io/v1\nkind: KafkaNodePool\nmetadata: { name: brokers }\nspec: {}\n")
	if err == nil || !strings.Contains(out, "KafkaNodePool/brokers") {
		t.Fatalf("a node pool with no security context passed: %v\n%s", err, out)
	}
}

func TestNoPodTemplateIsAnError(t *testing.T) {
	if _, err := check(t, "apiVersion: v1\nkind: ConfigMap\nmetadata: { name: x }\n"); err == nil {
		t.Fatal("an input without pod templates passed")
	}
}
