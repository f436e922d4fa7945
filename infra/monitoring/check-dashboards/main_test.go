package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/grafana/grafana-foundation-sdk/go/cog/plugins"
)

func dashboardWith(t *testing.T, expr string, extra string) string {
	t.Helper()
	body := `{"uid": "x", "title": "x", "schemaVersion": 41, "templating": {"list": []}, "annotations": {"list": []}` + extra + `, "panels": [
	  {"id": 1, "type": "timeseries", "title": "p", "gridPos": {"h": 8, "w": 12, "x": 0, "y": 0},
	   "targets": [{"refId": "A", "datasource": {"type": "prometheus", "uid": "${datasource}"}, "expr": ` + expr + `}]}]}`
	path := filepath.Join(t.TempDir(), "d.json")
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestMain(m *testing.M) {
	plugins.RegisterDefaultPlugins()
	os.Exit(m.Run())
}

func TestTheShippedDashboardsPass(t *testing.T) {
	files, _ := filepath.Glob("../dashboards/*.json")
	if len(files) == 0 {
		t.Fatal("no dashboard found")
	}
	for _, file := range files {
		if err := checkFile(file); err != nil {
			t.Errorf("%s: %v", file, err)
		}
	}
}

func TestAQueryPrometheusCannotParseFails(t *testing.T) {
	err := checkFile(dashboardWith(t, `"sum(rate(x[$__rate_interval])"`, ""))
	if err == nil || !strings.Contains(err.Error(), "query A") {
		t.Fatalf("want the query refused, got %v", err)
	}
}

func TestAFieldGrafanaDoesNotKnowFails(t *testing.T) {
	err := checkFile(dashboardWith(t, `"up"`, `, "refreshh": "30s"`))
	if err == nil || !strings.Contains(err.Error(), "refreshh") {
		t.Fatalf("want the unknown field refused, got %v", err)
	}
}

func TestAValidDashboardPasses(t *testing.T) {
	if err := checkFile(dashboardWith(t, `"sum by (service) (rate(x[$__rate_interval]))"`, "")); err != nil {
		t.Fatal(err)
	}
}
