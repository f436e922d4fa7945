// check-pod-security runs Kubernetes' own Pod Security admission checks (the
// k8s.io/pod-security-admission library the API server uses) on every pod template of rendered
// manifests, at the level the namespace enforces (`restricted`, latest), so a pod the cluster
// would refuse fails here instead of at deploy time.
//
//	kustomize build infra/k8s/overlays/small | check-pod-security
//
// Pod templates: Deployments, StatefulSets, DaemonSets, Jobs, CronJobs and Pods, and the pods the
// engines' operators make, as far as our manifests set them: a MongoDBCommunity's statefulSet
// override (the operator merges it over its own template; every container the operator makes
// must be named there with its security context), a Strimzi KafkaNodePool's templates (pod,
// kafka and init containers) and a Kafka's entity operator templates. Exits 1 on any refusal.
package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/pod-security-admission/api"
	"k8s.io/pod-security-admission/policy"
	"sigs.k8s.io/yaml"
)

// The containers MongoDB Controllers for Kubernetes puts in a MongoDBCommunity member's pod: an
// override that leaves one out leaves it with the operator's defaults, which `restricted` refuses.
var mongoDBContainers = []string{"mongod", "mongodb-agent"}
var mongoDBInitContainers = []string{"mongod-posthook", "mongodb-agent-readinessprobe"}

type object struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Metadata   struct {
		Name string `json:"name"`
	} `json:"metadata"`
}

type template struct {
	SecurityContext *corev1.SecurityContext `json:"securityContext"`
}

// The parts of Strimzi's KafkaNodePool and Kafka that shape the pods it makes.
type kafkaNodePool struct {
	Spec struct {
		Template struct {
			Pod struct {
				SecurityContext *corev1.PodSecurityContext `json:"securityContext"`
			} `json:"pod"`
			KafkaContainer template `json:"kafkaContainer"`
			InitContainer  template `json:"initContainer"`
		} `json:"template"`
	} `json:"spec"`
}

type kafka struct {
	Spec struct {
		EntityOperator *struct {
			Template struct {
				Pod struct {
					SecurityContext *corev1.PodSecurityContext `json:"securityContext"`
				} `json:"pod"`
				TopicOperatorContainer template `json:"topicOperatorContainer"`
				UserOperatorContainer  template `json:"userOperatorContainer"`
			} `json:"template"`
		} `json:"entityOperator"`
	} `json:"spec"`
}

type mongoDBCommunity struct {
	Spec struct {
		StatefulSet struct {
			Spec struct {
				Template corev1.PodTemplateSpec `json:"template"`
			} `json:"spec"`
		} `json:"statefulSet"`
	} `json:"spec"`
}

// podsOf answers the pod templates one object defines, by a name that says where they are.
func podsOf(document []byte) (map[string]*corev1.PodTemplateSpec, error) {
	var head object
	if err := yaml.Unmarshal(document, &head); err != nil {
		return nil, err
	}
	where := head.Kind + "/" + head.Metadata.Name
	one := func(spec *corev1.PodTemplateSpec) map[string]*corev1.PodTemplateSpec {
		return map[string]*corev1.PodTemplateSpec{where: spec}
	}
	switch head.Kind {
	case "Deployment":
		var d appsv1.Deployment
		err := yaml.UnmarshalStrict(document, &d)
		return one(&d.Spec.Template), err
	case "StatefulSet":
		var s appsv1.StatefulSet
		err := yaml.UnmarshalStrict(document, &s)
		return one(&s.Spec.Template), err
	case "DaemonSet":
		var s appsv1.DaemonSet
		err := yaml.UnmarshalStrict(document, &s)
		return one(&s.Spec.Template), err
	case "Job":
		var j batchv1.Job
		err := yaml.UnmarshalStrict(document, &j)
		return one(&j.Spec.Template), err
	case "CronJob":
		var c batchv1.CronJob
		err := yaml.UnmarshalStrict(document, &c)
		return one(&c.Spec.JobTemplate.Spec.Template), err
	case "Pod":
		var p corev1.Pod
		err := yaml.UnmarshalStrict(document, &p)
		return one(&corev1.PodTemplateSpec{ObjectMeta: p.ObjectMeta, Spec: p.Spec}), err
	case "MongoDBCommunity":
		var m mongoDBCommunity
		if err := yaml.Unmarshal(document, &m); err != nil {
			return nil, err
		}
		pod := m.Spec.StatefulSet.Spec.Template
		if err := namesEvery(where+" containers", pod.Spec.Containers, mongoDBContainers); err != nil {
			return nil, err
		}
		if err := namesEvery(where+" initContainers", pod.Spec.InitContainers, mongoDBInitContainers); err != nil {
			return nil, err
		}
		return one(&pod), nil
	case "KafkaNodePool":
		var k kafkaNodePool
		if err := yaml.Unmarshal(document, &k); err != nil {
			return nil, err
		}
		t := k.Spec.Template
		return one(&corev1.PodTemplateSpec{Spec: corev1.PodSpec{
			SecurityContext: t.Pod.SecurityContext,
			Containers:      []corev1.Container{{Name: "kafka", SecurityContext: t.KafkaContainer.SecurityContext}},
			InitContainers:  []corev1.Container{{Name: "kafka-init", SecurityContext: t.InitContainer.SecurityContext}},
		}}), nil
	case "Kafka":
		var k kafka
		if err := yaml.Unmarshal(document, &k); err != nil {
			return nil, err
		}
		if k.Spec.EntityOperator == nil {
			return nil, nil
		}
		t := k.Spec.EntityOperator.Template
		return map[string]*corev1.PodTemplateSpec{where + " entity operator": {Spec: corev1.PodSpec{
			SecurityContext: t.Pod.SecurityContext,
			Containers: []corev1.Container{
				{Name: "topic-operator", SecurityContext: t.TopicOperatorContainer.SecurityContext},
				{Name: "user-operator", SecurityContext: t.UserOperatorContainer.SecurityContext},
			},
		}}}, nil
	}
	return nil, nil
}

func namesEvery(where string, containers []corev1.Container, names []string) error {
	have := map[string]bool{}
	for _, c := range containers {
		have[c.Name] = true
	}
	for _, name := range names {
		if !have[name] {
			return fmt.Errorf("%s: %q is not set, so it keeps the operator's defaults", where, name)
		}
	}
	return nil
}

// documents splits a YAML stream on its `---` lines.
func documents(input io.Reader) ([][]byte, error) {
	var docs [][]byte
	var current bytes.Buffer
	scanner := bufio.NewScanner(input)
	scanner.Buffer(make([]byte, 1024*1024), 16*1024*1024)
	for scanner.Scan() {
		line := scanner.Text()
		if strings.TrimRight(line, " ") == "---" {
			docs = append(docs, append([]byte(nil), current.Bytes()...))
			current.Reset()
			continue
		}
		current.WriteString(line + "\n")
	}
	docs = append(docs, current.Bytes())
	return docs, scanner.Err()
}

func main() {
	if err := run(os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "check-pod-security:", err)
		os.Exit(1)
	}
}

func run(input io.Reader, output io.Writer) error {
	evaluator, err := policy.NewEvaluator(policy.DefaultChecks(), nil)
	if err != nil {
		return err
	}
	level := api.LevelVersion{Level: api.LevelRestricted, Version: api.LatestVersion()}
	docs, err := documents(input)
	if err != nil {
		return err
	}
	checked, refused := 0, 0
	for _, document := range docs {
		if len(bytes.TrimSpace(document)) == 0 {
			continue
		}
		pods, err := podsOf(document)
		if err != nil {
			return err
		}
		for where, pod := range pods {
			checked++
			for _, result := range evaluator.EvaluatePod(level, &pod.ObjectMeta, &pod.Spec) {
				if !result.Allowed {
					refused++
					fmt.Fprintf(output, "REFUSED %s: %s (%s)\n", where, result.ForbiddenReason, result.ForbiddenDetail)
				}
			}
		}
	}
	if checked == 0 {
		return errors.New("no pod template in the input")
	}
	if refused > 0 {
		return fmt.Errorf("%d of the checks refused, %d pod templates checked at %s", refused, checked, level.String())
	}
	fmt.Fprintf(output, "%d pod templates pass Pod Security %s\n", checked, level.String())
	return nil
}
