#!/bin/sh
# One-shot, the only container that holds MinIO's root credentials: gives each service that
# uses object storage a MinIO user of its own, allowed only its bucket, so a leaked service
# secret cannot read, change or delete another bucket, make users, or read the server's
# settings. Runs with mc (in the official MinIO image and in the one infra/images builds).
#   media           marketplace-media         the pictures (policy media-bucket.json)
#   people, jobs    marketplace-read-models   the feeds' snapshots (read-models-bucket.json)
# Each user's secret key is made on the first start and kept in a volume only that service
# mounts (minio-secret-<service>: files access-key and secret-key, owned by uid 1000, the
# services' user). Every later start applies the policies and users again: idempotent, and a
# policy edited in the repository is in force after the next `up`.
set -eu
here=/opt/marketplace/minio
# mc keeps its aliases in a config folder: a writable one of its own.
export MC_CONFIG_DIR=/tmp/mc-config
mc alias set root "${MINIO_URL:?}" "${MINIO_ROOT_USER:?}" "${MINIO_ROOT_PASSWORD:?}" >/dev/null

for policy in media-bucket read-models-bucket; do
  mc admin policy create root "$policy" "$here/$policy.json" >/dev/null
done

for entry in media:media-bucket people:read-models-bucket jobs:read-models-bucket; do
  service=${entry%%:*}
  policy=${entry#*:}
  dir=/secrets/$service
  user=marketplace-$service
  if [ ! -s "$dir/secret-key" ]; then
    # 30 characters from the kernel's random source, without base64's / + = (no quoting needed).
    head -c 48 /dev/urandom | base64 | tr -d '/+=\n' | head -c 30 >"$dir/secret-key.new"
    mv "$dir/secret-key.new" "$dir/secret-key"
  fi
  printf '%s' "$user" >"$dir/access-key"
  chown 1000:1000 "$dir/access-key" "$dir/secret-key"
  chmod 0400 "$dir/access-key" "$dir/secret-key"
  mc admin user add root "$user" "$(cat "$dir/secret-key")" >/dev/null
  # Attaching a policy the user already has is an error to mc: attach only when missing.
  if ! mc admin user info root "$user" --json | grep -q "\"policyName\": *\"$policy\""; then
    mc admin policy attach root "$policy" --user "$user" >/dev/null
  fi
  echo "minio-users: $user may use only the bucket of policy $policy"
done
