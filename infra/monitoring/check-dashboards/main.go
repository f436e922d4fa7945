// check-dashboards reads each Grafana dashboard JSON the way Grafana's own Go SDK
// (github.com/grafana/grafana-foundation-sdk, its types generated from Grafana's dashboard
// schema) does, strictly: a field the schema does not know, a value of the wrong type or a
// panel option its plugin does not have fails. Then every query must be PromQL that
// Prometheus' own parser accepts, against the dashboard's Prometheus data source variable.
//
//	check-dashboards infra/monitoring/dashboards/*.json
package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/grafana/grafana-foundation-sdk/go/cog"
	"github.com/grafana/grafana-foundation-sdk/go/cog/plugins"
	"github.com/grafana/grafana-foundation-sdk/go/dashboard"
	"github.com/prometheus/prometheus/promql/parser"
)

// Grafana's variables, replaced by values of their kind before PromQL parses the query.
var grafanaVariables = strings.NewReplacer(
	"$__rate_interval", "5m",
	"$__interval", "1m",
	"$__range", "1h",
	"$service", "auth",
)

// Prometheus' own PromQL parser, with the functions a stock Prometheus accepts.
var promQL = parser.NewParser(parser.Options{})

type target struct {
	RefID      string `json:"refId"`
	Expr       string `json:"expr"`
	Datasource *struct {
		UID string `json:"uid"`
	} `json:"datasource"`
}

type panel struct {
	ID      int      `json:"id"`
	Title   string   `json:"title"`
	Type    string   `json:"type"`
	Targets []target `json:"targets"`
	Panels  []panel  `json:"panels"`
}

// real answers nil for the SDK's empty list of errors, which it returns typed as an error.
func real(err error) error {
	var list cog.BuildErrors
	if errors.As(err, &list) && len(list) == 0 {
		return nil
	}
	return err
}

func checkFile(path string) error {
	raw, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var board dashboard.Dashboard
	if err := real(board.UnmarshalJSONStrict(raw)); err != nil {
		return fmt.Errorf("not a dashboard Grafana's schema accepts: %w", err)
	}
	if err := real(board.Validate()); err != nil {
		return fmt.Errorf("invalid: %w", err)
	}
	if board.Uid == nil || *board.Uid == "" {
		return errors.New("no uid: provisioning and links need a stable one")
	}
	var shape struct {
		Panels []panel `json:"panels"`
	}
	if err := json.Unmarshal(raw, &shape); err != nil {
		return err
	}
	var problems []string
	queries := 0
	var visit func(panels []panel)
	visit = func(panels []panel) {
		for _, p := range panels {
			visit(p.Panels)
			if p.Type == "row" {
				continue
			}
			if len(p.Targets) == 0 {
				problems = append(problems, fmt.Sprintf("panel %d %q has no query", p.ID, p.Title))
			}
			for _, t := range p.Targets {
				queries++
				where := fmt.Sprintf("panel %d %q query %s", p.ID, p.Title, t.RefID)
				if t.Datasource == nil || t.Datasource.UID != "${datasource}" {
					problems = append(problems, where+": not on the ${datasource} variable")
				}
				if _, err := promQL.ParseExpr(grafanaVariables.Replace(t.Expr)); err != nil {
					problems = append(problems, fmt.Sprintf("%s: %v", where, err))
				}
			}
		}
	}
	visit(shape.Panels)
	if queries == 0 {
		problems = append(problems, "no query at all")
	}
	if len(problems) > 0 {
		return errors.New(strings.Join(problems, "\n  "))
	}
	fmt.Printf("ok   %s: %d queries\n", path, queries)
	return nil
}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: check-dashboards DASHBOARD.json...")
		os.Exit(2)
	}
	// The panel plugins' option types (timeseries, stat...), so their options are checked too.
	plugins.RegisterDefaultPlugins()
	failed := false
	for _, path := range os.Args[1:] {
		if err := checkFile(path); err != nil {
			fmt.Printf("FAIL %s:\n  %v\n", path, err)
			failed = true
		}
	}
	if failed {
		os.Exit(1)
	}
}
