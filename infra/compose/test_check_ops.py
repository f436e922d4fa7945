"""Each check fails on the mistake it is there for: one breakage at a time, on a copy of the
repository's own ops files read into memory. Run: python3 -m unittest discover -s infra/compose"""

from __future__ import annotations

import copy
import shutil
import tempfile
import unittest
from pathlib import Path

from checks import cluster_checks, kubernetes_checks
from checks.model import K8S_DIR, SECRETS_TEMPLATE, load, render_kustomization

ROOT = Path(__file__).resolve().parents[2]
PRISTINE = load(ROOT)


class BreakageTest(unittest.TestCase):
    def setUp(self):
        self.ops = copy.copy(PRISTINE)
        # deep-copied together, so the rendered objects stay the documents of their files
        self.ops.compose, self.ops.kustomization, self.ops.k8s_files, self.ops.k8s_objects, self.ops.overlays = (
            copy.deepcopy((PRISTINE.compose, PRISTINE.kustomization, PRISTINE.k8s_files, PRISTINE.k8s_objects, PRISTINE.overlays))
        )
        self.stack = self.ops.compose["services"]
        self.temporary = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.temporary.cleanup()

    def assertCaught(self, check, *words):
        problems = check(self.ops)
        self.assertTrue(
            any(all(word in problem for word in words) for problem in problems),
            f"no problem mentions {words}: {problems}",
        )

    def k8s(self, name: str, kind: str | None = None) -> dict:
        return next(
            doc for doc in self.ops.k8s_objects if doc["metadata"]["name"] == name and kind in (None, doc["kind"])
        )

    def container(self, name: str) -> dict:
        return self.k8s(name, "Deployment")["spec"]["template"]["spec"]["containers"][0]

    # ---- the repository as it is passes every check
    def test_the_repository_passes(self):
        self.assertEqual(self.ops.read_problems, [])
        for check in (
            kubernetes_checks.check_kustomization,
            kubernetes_checks.check_references,
            kubernetes_checks.check_same_services_as_compose,
            cluster_checks.check_workload_operations,
            cluster_checks.check_engines,
        ):
            self.assertEqual(check(self.ops), [], check.__name__)

    # ---- Kubernetes
    def test_a_manifest_left_out_or_the_template_applied(self):
        self.ops.kustomization["resources"].remove("jobs.yaml")
        self.ops.kustomization["resources"].append(SECRETS_TEMPLATE)
        self.assertCaught(kubernetes_checks.check_kustomization, "jobs.yaml", "never applied")
        self.assertCaught(kubernetes_checks.check_kustomization, "applies", SECRETS_TEMPLATE)

    def test_a_real_value_in_the_secrets_template(self):
        secret = next(d for d in self.ops.k8s_files[SECRETS_TEMPLATE] if d["metadata"]["name"] == "marketplace-s3")
        secret["stringData"]["S3_SECRET_KEY"] = "wJalrXUtnFEMI"
        self.assertCaught(kubernetes_checks.check_kustomization, "marketplace-s3.S3_SECRET_KEY")

    def test_an_image_without_registry_and_tag(self):
        self.ops.kustomization["images"] = [
            e for e in self.ops.kustomization["images"] if e["name"] != "marketplace/media"
        ]
        self.assertCaught(kubernetes_checks.check_kustomization, "marketplace/media")

    def test_a_selector_that_misses_its_pods(self):
        self.k8s("people", "Deployment")["spec"]["selector"]["matchLabels"]["app.kubernetes.io/name"] = "peple"
        self.k8s("jobs", "Service")["spec"]["selector"]["app.kubernetes.io/name"] = "job"
        self.assertCaught(kubernetes_checks.check_references, "Deployment people", "selector")
        self.assertCaught(kubernetes_checks.check_references, "Service jobs", "selects no")

    def test_a_secret_or_configmap_that_does_not_exist(self):
        env = self.container("jobs")["env"]
        next(v for v in env if v["name"] == "MONGO_URL")["valueFrom"]["secretKeyRef"]["key"] = "JOB_MONGO_URL"
        self.container("auth")["envFrom"][0]["configMapRef"]["name"] = "marketplace-settings"
        self.assertCaught(kubernetes_checks.check_references, "jobs", "JOB_MONGO_URL")
        self.assertCaught(kubernetes_checks.check_references, "auth", "marketplace-settings")

    def test_ports_that_do_not_meet(self):
        self.k8s("reports", "Service")["spec"]["ports"][0]["targetPort"] = "web"
        self.container("media")["readinessProbe"]["httpGet"]["port"] = "htp"
        self.assertCaught(kubernetes_checks.check_references, "Service reports", "targetPort web")
        self.assertCaught(kubernetes_checks.check_references, "media", "readinessProbe", "htp")

    def test_a_route_or_url_to_no_service(self):
        self.k8s("marketplace", "HTTPRoute")["spec"]["rules"][0]["backendRefs"][0]["name"] = "gateways"
        next(v for v in self.container("gateway")["env"] if v["name"] == "AUTH_URL")["value"] = "http://auth:4010"
        self.assertCaught(kubernetes_checks.check_references, "HTTPRoute", "gateways")
        self.assertCaught(kubernetes_checks.check_references, "AUTH_URL", "auth:4010")

    def test_a_mount_without_a_volume(self):
        self.k8s("favorites", "Deployment")["spec"]["template"]["spec"]["volumes"] = []
        self.assertCaught(kubernetes_checks.check_references, "favorites", "volumeMount tmp")

    def test_compose_and_kubernetes_drifting_apart(self):
        self.stack["media"]["build"]["args"]["PORT"] = 4008
        self.ops.k8s_objects.remove(self.k8s("notifications", "StatefulSet"))
        self.assertCaught(kubernetes_checks.check_same_services_as_compose, "media", "4008")
        self.assertCaught(kubernetes_checks.check_same_services_as_compose, "notifications", "no Deployment")

    # ---- beyond one machine: every overlay can scale, drain and spread; engines match the code
    def overlay(self, overlay: str, kind: str, name: str) -> dict:
        return next(d for d in self.ops.overlays[overlay] if d["kind"] == kind and d["metadata"]["name"] == name)

    def drop(self, overlay: str, kind: str, name: str) -> None:
        self.ops.overlays[overlay].remove(self.overlay(overlay, kind, name))

    def test_a_deployment_without_autoscaler_or_disruption_budget(self):
        self.drop("large", "HorizontalPodAutoscaler", "jobs")
        self.drop("small", "PodDisruptionBudget", "notifications")
        self.overlay("small", "HorizontalPodAutoscaler", "auth")["spec"]["minReplicas"] = 1
        self.assertCaught(cluster_checks.check_workload_operations, "overlays/large", "Deployment jobs", "HorizontalPodAutoscaler")
        self.assertCaught(cluster_checks.check_workload_operations, "overlays/small", "StatefulSet notifications", "PodDisruptionBudget")
        self.assertCaught(cluster_checks.check_workload_operations, "overlays/small", "Deployment auth", "1 to")

    def test_resources_probes_and_spread(self):
        container = self.overlay("large", "Deployment", "people")["spec"]["template"]["spec"]["containers"][0]
        del container["resources"]["limits"]["cpu"]
        container["resources"]["requests"]["memory"] = "8Gi"
        container["livenessProbe"]["httpGet"]["path"] = "/readyz"
        self.overlay("small", "Deployment", "media")["spec"]["template"]["spec"]["topologySpreadConstraints"] = []
        gateway = self.overlay("small", "Deployment", "gateway")["spec"]["template"]["spec"]["containers"][0]
        next(v for v in gateway["env"] if v["name"] == "NODE_OPTIONS")["value"] = "--max-old-space-size=4096"
        self.assertCaught(cluster_checks.check_workload_operations, "people", "no cpu request and limit")
        self.assertCaught(cluster_checks.check_workload_operations, "people", "memory request 8Gi")
        self.assertCaught(cluster_checks.check_workload_operations, "people", "livenessProbe asks /readyz")
        self.assertCaught(cluster_checks.check_workload_operations, "overlays/small", "media", "kubernetes.io/hostname")
        self.assertCaught(cluster_checks.check_workload_operations, "overlays/small", "gateway", "heap of 4096")

    def test_notifications_pods_the_gateway_does_not_list(self):
        self.overlay("large", "StatefulSet", "notifications")["spec"]["replicas"] = 7
        self.assertCaught(cluster_checks.check_workload_operations, "overlays/large", "NOTIFICATIONS_INSTANCES")

    def test_a_topic_the_code_uses_without_kafkatopic(self):
        self.drop("small", "KafkaTopic", "jobs.requests")
        self.drop("large", "KafkaTopic", "people-posts.dead-letter")
        self.assertCaught(cluster_checks.check_engines, "overlays/small", "jobs.requests", "no KafkaTopic")
        self.assertCaught(cluster_checks.check_engines, "overlays/large", "people-posts.dead-letter")

    def test_kafka_users_drifting_from_kafka_acls(self):
        acls = self.overlay("small", "KafkaUser", "jobs")["spec"]["authorization"]["acls"]
        acls[0]["resource"]["name"] = "auth."
        self.drop("large", "KafkaUser", "reports")
        password = self.overlay("large", "KafkaUser", "media")["spec"]["authentication"]["password"]
        password["valueFrom"]["secretKeyRef"]["key"] = "JOBS_KAFKA_PASSWORD"
        self.assertCaught(cluster_checks.check_engines, "KafkaUser jobs", "auth.")
        self.assertCaught(cluster_checks.check_engines, "overlays/large", "reports", "no KafkaUser")
        self.assertCaught(cluster_checks.check_engines, "KafkaUser media", "password")

    def test_a_database_user_beyond_its_own_database(self):
        users = self.overlay("small", "MongoDBCommunity", "marketplace-mongodb")["spec"]["users"]
        next(u for u in users if u["name"] == "favorites")["roles"].append({"name": "read", "db": "people"})
        users.remove(next(u for u in users if u["name"] == "analytics"))
        env = self.overlay("large", "Deployment", "jobs")["spec"]["template"]["spec"]["containers"][0]["env"]
        next(v for v in env if v["name"] == "MONGO_URL")["valueFrom"]["secretKeyRef"]["name"] = "marketplace-mongo-people"
        self.assertCaught(cluster_checks.check_engines, "MongoDB user favorites", "own database")
        self.assertCaught(cluster_checks.check_engines, "analytics", "no user analytics")
        self.assertCaught(cluster_checks.check_engines, "overlays/large", "jobs", "MONGO_URL")

    def test_an_overlay_reading_a_secret_no_one_makes(self):
        env = self.overlay("small", "Deployment", "reports")["spec"]["template"]["spec"]["containers"][0]["env"]
        next(v for v in env if v["name"] == "MONGO_URL")["valueFrom"]["secretKeyRef"]["name"] = "marketplace-mongo-report"
        self.assertCaught(kubernetes_checks.check_references, "overlays/small", "reports", "marketplace-mongo-report")


class RenderTest(unittest.TestCase):
    def test_a_kustomization_that_does_not_render(self):
        with tempfile.TemporaryDirectory() as root:
            shutil.copytree(ROOT / K8S_DIR, Path(root, K8S_DIR))
            kustomization = Path(root, K8S_DIR, "kustomization.yaml")
            kustomization.write_text(kustomization.read_text().replace("- jobs.yaml", "- job.yaml"))
            objects, command, error = render_kustomization(Path(root))
            self.assertIsNone(objects)
            self.assertIn("job.yaml", error)


if __name__ == "__main__":
    unittest.main()
