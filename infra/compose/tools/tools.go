//go:build tools

// Package tools pins the docker compose CLI plugin built by build.sh.
package tools

import _ "github.com/docker/compose/v2/cmd"
