// gen_vectors.go runs every case of cases.json through Go's own text/template and writes
// vectors.json, the conformance vectors tests/render/test_gotemplate.py checks render/gotemplate
// against (the Python tests never need Go).
//
// Regenerate after editing cases.json (standard library only, no modules or network):
//
//	cd tests/render/gotemplate && go run gen_vectors.go
//
// Data is decoded the way a Go service usually decodes a JSON response: json.Unmarshal into
// interface{}, so every number is a float64. "json" is not a Go builtin; it is registered
// here as a FuncMap entry (an Encoder with SetEscapeHTML(false), newline trimmed), so its
// expected outputs come from Go as well. strict cases run with Option("missingkey=error").
//
// A case states what the Python implementation must do only where it differs from Go on
// purpose ("differs_from_go" gives the reason, "expected" or "error" gives our result);
// then Go's own result is stored beside it as "go_expected" or "go_error". Every other
// expected output, and the line of every expected error, is Go's. Syntax errors carry no
// column in Go, so a case gives the column we report. "go_template" replaces the template
// for Go when the local Go is older than the syntax (else with needs Go 1.23).
//
// The generator fails, writing nothing, when a case and Go disagree without a declared
// reason, or declare a difference Go does not show.
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"text/template"
	"unicode/utf8"
)

type caseError struct {
	Kind     string `json:"kind"` // "syntax" or "render"
	Line     int    `json:"line,omitempty"`
	Column   int    `json:"column,omitempty"`
	Contains string `json:"contains,omitempty"`
}

type testCase struct {
	Name          string          `json:"name"`
	Template      string          `json:"template"`
	GoTemplate    string          `json:"go_template,omitempty"`
	Data          json.RawMessage `json:"data,omitempty"`
	Dataset       string          `json:"dataset,omitempty"`
	Strict        bool            `json:"strict,omitempty"`
	Expected      *string         `json:"expected,omitempty"`
	Error         *caseError      `json:"error,omitempty"`
	DiffersFromGo string          `json:"differs_from_go,omitempty"`
}

type caseFile struct {
	Datasets map[string]json.RawMessage `json:"datasets"`
	Cases    []testCase                 `json:"cases"`
}

type goResult struct {
	Output *string `json:"output,omitempty"`
	Error  string  `json:"error,omitempty"`
	Phase  string  `json:"phase,omitempty"` // "parse" or "exec"
	Line   int     `json:"line,omitempty"`
	Column int     `json:"column,omitempty"` // 1-based, in characters (Go: 0-based bytes)
}

type vector struct {
	Name          string          `json:"name"`
	Template      string          `json:"template"`
	GoTemplate    string          `json:"go_template,omitempty"`
	Data          json.RawMessage `json:"data"`
	Strict        bool            `json:"strict,omitempty"`
	Expected      *string         `json:"expected,omitempty"`
	Error         *caseError      `json:"error,omitempty"`
	DiffersFromGo string          `json:"differs_from_go,omitempty"`
	GoExpected    *string         `json:"go_expected,omitempty"`
	GoError       string          `json:"go_error,omitempty"`
}

type vectorFile struct {
	GeneratedBy  string   `json:"generated_by"`
	JSONDecoding string   `json:"json_decoding"`
	Vectors      []vector `json:"vectors"`
}

var errorPattern = regexp.MustCompile(`(?s)^template: t:(\d+)(?::(\d+))?: (.*)$`)

func jsonFunc(v interface{}) (string, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "", err
	}
	return strings.TrimSuffix(b.String(), "\n"), nil
}

func runGo(src string, raw json.RawMessage, strict bool) goResult {
	var data interface{}
	if err := json.Unmarshal(raw, &data); err != nil {
		panic(err)
	}
	t := template.New("t").Funcs(template.FuncMap{"json": jsonFunc})
	if strict {
		t = t.Option("missingkey=error")
	}
	t, err := t.Parse(src)
	if err != nil {
		return errorResult(src, "parse", err)
	}
	var out strings.Builder
	if err := t.Execute(&out, data); err != nil {
		return errorResult(src, "exec", err)
	}
	text := out.String()
	return goResult{Output: &text}
}

func errorResult(src, phase string, err error) goResult {
	r := goResult{Error: err.Error(), Phase: phase}
	m := errorPattern.FindStringSubmatch(err.Error())
	if m == nil {
		return r
	}
	r.Line, _ = strconv.Atoi(m[1])
	if m[2] != "" {
		offset, _ := strconv.Atoi(m[2])
		lines := strings.Split(src, "\n")
		if r.Line-1 < len(lines) && offset <= len(lines[r.Line-1]) {
			r.Column = utf8.RuneCountInString(lines[r.Line-1][:offset]) + 1
		}
	}
	return r
}

func check(c testCase, g goResult) (vector, error) {
	v := vector{Name: c.Name, Template: c.Template, GoTemplate: c.GoTemplate, Data: c.Data,
		Strict: c.Strict, DiffersFromGo: c.DiffersFromGo}
	if c.DiffersFromGo != "" {
		return checkDifference(c, g, v)
	}
	if c.Error == nil {
		if g.Output == nil {
			return v, fmt.Errorf("Go fails (%s) but no difference is declared", g.Error)
		}
		if c.Expected != nil && *c.Expected != *g.Output {
			return v, fmt.Errorf("expected %q but Go gives %q", *c.Expected, *g.Output)
		}
		v.Expected = g.Output
		return v, nil
	}
	if g.Output != nil {
		return v, fmt.Errorf("an error is expected but Go outputs %q", *g.Output)
	}
	if phase := map[string]string{"syntax": "parse", "render": "exec"}[c.Error.Kind]; phase != g.Phase {
		return v, fmt.Errorf("a %s error is expected but Go fails in %s: %s", c.Error.Kind, g.Phase, g.Error)
	}
	e := *c.Error
	if e.Line != 0 && e.Line != g.Line {
		return v, fmt.Errorf("line %d expected but Go says %d: %s", e.Line, g.Line, g.Error)
	}
	e.Line = g.Line
	if g.Column != 0 {
		if e.Column != 0 && e.Column != g.Column {
			return v, fmt.Errorf("column %d expected but Go says %d: %s", e.Column, g.Column, g.Error)
		}
		e.Column = g.Column
	}
	if e.Column == 0 {
		return v, fmt.Errorf("Go gives no column (%s): the case must give ours", g.Error)
	}
	v.Error = &e
	v.GoError = g.Error
	return v, nil
}

func checkDifference(c testCase, g goResult, v vector) (vector, error) {
	if (c.Expected == nil) == (c.Error == nil) {
		return v, fmt.Errorf("a declared difference needs exactly one of expected and error")
	}
	if c.Error != nil && (c.Error.Line == 0 || c.Error.Column == 0) {
		return v, fmt.Errorf("a declared difference must give our error's line and column")
	}
	if c.Expected != nil && g.Output != nil && *c.Expected == *g.Output {
		return v, fmt.Errorf("a difference is declared but Go also gives %q", *g.Output)
	}
	if c.Error != nil && map[string]string{"syntax": "parse", "render": "exec"}[c.Error.Kind] == g.Phase &&
		c.Error.Line == g.Line && (g.Column == 0 || c.Error.Column == g.Column) {
		return v, fmt.Errorf("a difference is declared but Go fails the same way: %s", g.Error)
	}
	v.Expected, v.Error = c.Expected, c.Error
	v.GoExpected, v.GoError = g.Output, g.Error
	return v, nil
}

func main() {
	raw, err := os.ReadFile("cases.json")
	if err != nil {
		fail(err)
	}
	var cases caseFile
	if err := json.Unmarshal(raw, &cases); err != nil {
		fail(err)
	}
	out := vectorFile{
		GeneratedBy: runtime.Version() + " text/template, by tests/render/gotemplate/gen_vectors.go",
		JSONDecoding: "json.Unmarshal into interface{}: numbers are float64; " +
			"json is a FuncMap entry (Encoder, SetEscapeHTML(false))",
	}
	problems, seen := 0, map[string]bool{}
	for _, c := range cases.Cases {
		if seen[c.Name] {
			fmt.Fprintf(os.Stderr, "%s: duplicate name\n", c.Name)
			problems++
		}
		seen[c.Name] = true
		if c.Dataset != "" {
			c.Data = cases.Datasets[c.Dataset]
		}
		if c.Data == nil {
			c.Data = json.RawMessage("null")
		}
		var compact bytes.Buffer
		if err := json.Compact(&compact, c.Data); err != nil {
			fail(fmt.Errorf("%s: %v", c.Name, err))
		}
		c.Data = compact.Bytes()
		src := c.Template
		if c.GoTemplate != "" {
			src = c.GoTemplate
		}
		v, err := check(c, runGo(src, c.Data, c.Strict))
		if err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", c.Name, err)
			problems++
			continue
		}
		out.Vectors = append(out.Vectors, v)
	}
	if problems > 0 {
		fail(fmt.Errorf("%d problem(s); vectors.json not written", problems))
	}
	if err := os.WriteFile("vectors.json", encodeVectors(out), 0o644); err != nil {
		fail(err)
	}
	fmt.Printf("%d vectors written to vectors.json\n", len(out.Vectors))
}

// encodeVectors writes one vector per line, so a changed case is a one-line diff.
func encodeVectors(out vectorFile) []byte {
	compact := func(v interface{}) []byte {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(v); err != nil {
			fail(err)
		}
		return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
	}
	var b bytes.Buffer
	b.WriteString("{\"generated_by\": ")
	b.Write(compact(out.GeneratedBy))
	b.WriteString(",\n\"json_decoding\": ")
	b.Write(compact(out.JSONDecoding))
	b.WriteString(",\n\"vectors\": [\n")
	for i, v := range out.Vectors {
		b.Write(compact(v))
		if i < len(out.Vectors)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("]}\n")
	return b.Bytes()
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, err)
	os.Exit(1)
}
