#!/bin/sh
# One-shot run by the `minio-init` service of docker-compose.yml, inside the MinIO server
# image (which ships the `mc` client): creates the bucket the pictures live in and lets
# anyone read it, because the browser loads pictures straight from PUBLIC_BUCKET_URL.
# Uploads still need a pre-signed URL. Safe to run again.
set -eu

bucket=${MEDIA_BUCKET:-marketplace-media}

mc alias set marketplace http://minio:9000 "$MINIO_ROOT_USER" "$MINIO_ROOT_PASSWORD" >/dev/null
mc mb --ignore-existing "marketplace/$bucket"
mc anonymous set download "marketplace/$bucket"
echo "minio-init: bucket $bucket ready (anonymous read, signed writes)"
