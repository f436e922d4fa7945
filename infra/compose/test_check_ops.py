"""Each check fails on the mistake it is there for: one breakage at a time, on a copy of the
repository's own ops files read into memory. Run: python3 -m unittest discover -s infra/compose"""

from __future__ import annotations

import copy
import shutil
import tempfile
import unittest
from pathlib import Path

from checks import cluster_checks, compose_checks, dockerfile_checks, kubernetes_checks
from checks.kustomize import KustomizeError, build
from checks.dockerignore import DockerIgnore
from checks.interpolation import interpolate
from checks.model import K8S_DIR, OVERLAYS_DIR, SECRETS_TEMPLATE, load, render_kustomization

ROOT = Path(__file__).resolve().parents[2]
PRISTINE = load(ROOT, render=False)


def references(ops):
    return compose_checks.check_references(ops, dockerfile_checks.has_image_healthcheck(ops))


class BreakageTest(unittest.TestCase):
    def setUp(self):
        self.ops = copy.copy(PRISTINE)
        self.ops.ignores = {}
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

    def dockerfile(self, replace: str, by: str) -> None:
        text = (ROOT / "Dockerfile").read_text()
        self.assertIn(replace, text)
        path = Path(self.temporary.name, "Dockerfile")
        path.write_text(text.replace(replace, by))
        for service in self.stack.values():
            if "build" in service:
                service["build"]["dockerfile"] = str(path)

    def dockerignore(self, extra: str) -> None:
        ignore = DockerIgnore((ROOT / ".dockerignore").read_text() + extra)
        self.ops.dockerignore = lambda context: ignore

    def k8s(self, name: str, kind: str | None = None) -> dict:
        return next(
            doc for doc in self.ops.k8s_objects if doc["metadata"]["name"] == name and kind in (None, doc["kind"])
        )

    def container(self, name: str) -> dict:
        return self.k8s(name, "Deployment")["spec"]["template"]["spec"]["containers"][0]

    # ---- the repository as it is passes every check
    def test_the_repository_passes(self):
        for check in (
            compose_checks.check_schema,
            references,
            compose_checks.check_addresses,
            compose_checks.check_every_service_is_built,
            dockerfile_checks.check_builds,
            dockerfile_checks.check_node_images,
            kubernetes_checks.check_kustomization,
            kubernetes_checks.check_references,
            kubernetes_checks.check_same_services_as_compose,
            cluster_checks.check_workload_operations,
            cluster_checks.check_engines,
        ):
            self.assertEqual(check(self.ops), [], check.__name__)

    # ---- compose
    def test_a_misspelt_key(self):
        self.stack["auth"]["restrat"] = "always"
        self.assertCaught(compose_checks.check_schema, "services.auth", "restrat")

    def test_a_wrong_type(self):
        self.stack["kafka"]["healthcheck"]["test"] = {"CMD": "kafka-topics.sh"}
        self.assertCaught(compose_checks.check_schema, "services.kafka.healthcheck.test")

    def test_bad_variable_syntax_and_a_required_variable(self):
        problems: list[str] = []
        interpolate({"a": "${LOG_LEVEL:-info", "b": "${NOT_SET_HERE:?set it}"}, {}, problems)
        self.assertEqual(len(problems), 2, problems)

    def test_depends_on_a_missing_service(self):
        self.stack["people"]["depends_on"]["mongodb"] = {"condition": "service_healthy"}
        self.assertCaught(references, "people", "mongodb")

    def test_waiting_for_health_without_a_healthcheck(self):
        self.stack["people"]["depends_on"]["jwt-keys"] = {"condition": "service_healthy"}
        self.assertCaught(references, "jwt-keys", "no healthcheck")

    def test_waiting_for_a_service_that_restarts_to_finish(self):
        self.stack["jwt-keys"]["restart"] = "always"
        self.assertCaught(references, "jwt-keys", "restarts")

    def test_an_undeclared_volume_and_a_missing_bind_source(self):
        self.stack["people"]["volumes"].append("jwt-publik:/x:ro")
        self.stack["jwt-keys"]["volumes"][0] = "./infra/compose/make-keys.js:/opt/k.js:ro"
        self.assertCaught(references, "jwt-publik", "not declared")
        self.assertCaught(references, "make-keys.js", "does not exist")

    def test_a_restart_policy_docker_refuses(self):
        self.stack["mongo"]["restart"] = "on_failure"
        self.assertCaught(references, "mongo.restart")

    def test_a_host_port_published_twice(self):
        self.stack["mailpit"]["ports"].append("127.0.0.1:9000:9000")
        self.assertCaught(references, "9000", "minio", "mailpit")

    def test_an_upstream_url_on_the_wrong_port_or_host(self):
        self.stack["gateway"]["environment"]["JOBS_URL"] = "http://jobs:4009"
        self.stack["gateway"]["environment"]["PEOPLE_URL"] = "http://peopel:4002"
        self.assertCaught(compose_checks.check_addresses, "JOBS_URL", "4003")
        self.assertCaught(compose_checks.check_addresses, "PEOPLE_URL", "peopel")

    def test_a_service_left_out_of_the_stack(self):
        del self.stack["reports"]
        self.assertCaught(compose_checks.check_every_service_is_built, "services/reports")

    # ---- the images
    def test_a_missing_or_misspelt_build_arg(self):
        self.stack["jobs"]["build"]["args"] = {"SERIVCE": "jobs", "PORT": 4003}
        self.assertCaught(dockerfile_checks.check_builds, "services jobs:", "needs SERVICE")
        self.assertCaught(dockerfile_checks.check_builds, "services jobs:", "no ARG SERIVCE")

    def test_a_build_arg_naming_no_service(self):
        self.stack["jobs"]["build"]["args"]["SERVICE"] = "job"
        self.assertCaught(dockerfile_checks.check_builds, "@marketplace/job", "not a package")

    def test_a_missing_dockerfile(self):
        self.stack["jobs"]["build"]["dockerfile"] = "services/jobs/Dockerfile"
        self.assertCaught(dockerfile_checks.check_builds, "services/jobs/Dockerfile", "does not exist")

    def test_copy_from_a_stage_that_does_not_exist(self):
        self.dockerfile("--from=build /image", "--from=biuld /image")
        self.assertCaught(dockerfile_checks.check_builds, "--from=biuld", "no earlier stage")

    def test_copy_of_a_path_not_in_the_context(self):
        self.dockerfile("COPY . .", "COPY . .\nCOPY tsconfig.base.json ./")
        self.assertCaught(dockerfile_checks.check_builds, "tsconfig.base.json", "not in the build context")
        self.dockerignore("\nturbo.json\n")
        self.dockerfile("COPY . .", "COPY turbo.json ./")
        self.assertCaught(dockerfile_checks.check_builds, "COPY turbo.json", "not in the build context")

    def test_dockerignore_leaving_out_what_the_build_reads(self):
        for pattern, left_out in (
            ("tooling", "tooling/tsconfig ("),
            ("**/src", "services/auth ("),
            ("pnpm-lock.yaml", "pnpm-lock.yaml"),
            ("tests", "tests/system (1 file)"),
            ("apps/web/index.html", "apps/web (1 file)"),
        ):
            with self.subTest(pattern=pattern):
                self.dockerignore(f"\n{pattern}\n")
                self.assertCaught(dockerfile_checks.check_builds, left_out)

    def test_dockerignore_may_leave_out_tests_and_prose(self):
        self.dockerignore("\n**/*.test.ts\n**/*.test.tsx\n**/*.md\n**/src/test\n")
        self.assertEqual(dockerfile_checks.check_builds(self.ops), [])

    def test_a_pnpm_version_other_than_package_managers(self):
        self.dockerfile("ARG PNPM_VERSION=10.34.9", "ARG PNPM_VERSION=10.1.0")
        self.assertCaught(dockerfile_checks.check_builds, "PNPM_VERSION 10.1.0")

    def test_a_node_image_other_than_the_engines_major(self):
        self.stack["jwt-keys"]["image"] = "node:20-bookworm-slim"
        self.assertCaught(dockerfile_checks.check_node_images, "jwt-keys", "node:20-bookworm-slim")
        self.dockerfile("ARG NODE_IMAGE=node:24-bookworm-slim", "ARG NODE_IMAGE=node:22-bookworm-slim")
        self.assertCaught(dockerfile_checks.check_node_images, "Dockerfile", "node:22-bookworm-slim")

    def test_a_base_image_without_a_value(self):
        self.dockerfile("ARG NODE_IMAGE=node:24-bookworm-slim", "ARG NODE_IMAGE")
        self.assertCaught(dockerfile_checks.check_builds, "FROM ${NODE_IMAGE}", "no value")

    def test_a_dockerfile_ending_inside_a_continued_line(self):
        self.dockerfile('CMD ["node", "dist/server.js"]', 'CMD ["node", "dist/server.js"] \\')
        self.assertCaught(dockerfile_checks.check_builds, "continued line")

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

    def test_an_ingress_or_url_to_no_service(self):
        backend = self.k8s("marketplace", "Ingress")["spec"]["rules"][0]["http"]["paths"][0]["backend"]
        backend["service"]["name"] = "gateways"
        next(v for v in self.container("gateway")["env"] if v["name"] == "AUTH_URL")["value"] = "http://auth:4010"
        self.assertCaught(kubernetes_checks.check_references, "Ingress", "gateways")
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


class KustomizeTest(unittest.TestCase):
    """Our own renderer, for machines without kubectl (checks/kustomize.py)."""

    def test_a_patch_for_a_resource_that_does_not_exist(self):
        with tempfile.TemporaryDirectory() as root:
            shutil.copytree(ROOT / "infra/k8s", Path(root, "infra/k8s"))
            patch = Path(root, OVERLAYS_DIR, "large", "partitions.yaml")
            patch.write_text(patch.read_text().replace("name: jobs.posts", "name: jobs.post"))
            with self.assertRaisesRegex(KustomizeError, "jobs.post"):
                build(Path(root, OVERLAYS_DIR, "large"))

    @unittest.skipUnless(shutil.which("kubectl") or shutil.which("kustomize"), "no kustomize renderer installed")
    def test_it_renders_the_overlays_as_kustomize_does(self):
        def view(objects):
            def norm(value):
                if isinstance(value, dict):
                    return {k: norm(v) for k, v in value.items() if k not in ("labels", "image")}
                if isinstance(value, list) and all(isinstance(e, dict) and "name" in e for e in value):
                    return sorted((norm(e) for e in value), key=lambda e: str(e.get("name")))
                return [norm(e) for e in value] if isinstance(value, list) else value
            return {(d["kind"], d["metadata"]["name"]): norm(d) for d in objects}

        for overlay in sorted(path.name for path in (ROOT / OVERLAYS_DIR).iterdir()):
            with self.subTest(overlay=overlay):
                theirs, command, error = render_kustomization(ROOT, f"{OVERLAYS_DIR}/{overlay}")
                self.assertEqual(error, "")
                self.assertEqual(view(build(ROOT / OVERLAYS_DIR / overlay)), view(theirs))


@unittest.skipUnless(shutil.which("kubectl") or shutil.which("kustomize"), "no kustomize renderer installed")
class RenderTest(unittest.TestCase):
    def test_a_kustomization_that_does_not_render(self):
        with tempfile.TemporaryDirectory() as root:
            shutil.copytree(ROOT / K8S_DIR, Path(root, K8S_DIR))
            kustomization = Path(root, K8S_DIR, "kustomization.yaml")
            kustomization.write_text(kustomization.read_text().replace("- jobs.yaml", "- job.yaml"))
            objects, command, error = render_kustomization(Path(root))
            self.assertIsNone(objects)
            self.assertIn("job.yaml", error)


class DockerIgnoreTest(unittest.TestCase):
    def test_patterns_as_docker_reads_them(self):
        ignore = DockerIgnore("**/node_modules\ndocs\n*.md\n!README.md\n**/*.pem\nsrc/**/fixtures\n")
        self.assertTrue(ignore.excludes("services/auth/node_modules/fastify/index.js"))
        self.assertTrue(ignore.excludes("node_modules/x"))
        self.assertTrue(ignore.excludes("docs/architecture.md"))
        self.assertFalse(ignore.excludes("services/docs/x.ts"))
        self.assertTrue(ignore.excludes("CHANGES.md"))
        self.assertFalse(ignore.excludes("README.md"))
        self.assertFalse(ignore.excludes("services/CHANGES.md"))
        self.assertTrue(ignore.excludes("a/b/key.pem"))
        self.assertTrue(ignore.excludes("src/a/b/fixtures/one.json"))
        self.assertTrue(ignore.excludes("src/fixtures/one.json"))


if __name__ == "__main__":
    unittest.main()
