package eval

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"
)

// TestCommittedTables renders the committed Markdown of docs/ again from the
// committed JSON beside it and wants the same bytes: the tables, the
// paper's figures quoted next to them (package paper) and the sentences
// computed from both come from the code, not from an edit of the file.
func TestCommittedTables(t *testing.T) {
	for _, tc := range []struct {
		json, md string
		render   func(b []byte) ([]byte, error)
	}{
		{"../../docs/prior.json", "../../docs/prior.md", func(b []byte) ([]byte, error) {
			var r PriorResult
			if err := json.Unmarshal(b, &r); err != nil {
				return nil, err
			}
			return PriorMarkdown(&r), nil
		}},
		{"../../docs/bicubic_seven.json", "../../docs/bicubic_seven.md", renderResult},
		{"../../docs/bicubic_twelve.json", "../../docs/bicubic_twelve.md", renderResult},
	} {
		t.Run(tc.md, func(t *testing.T) {
			js, err := os.ReadFile(tc.json)
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(tc.md)
			if err != nil {
				t.Fatal(err)
			}
			got, err := tc.render(js)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s rendered from %s differs from the committed file", tc.md, tc.json)
			}
		})
	}
}

func renderResult(b []byte) ([]byte, error) {
	var r Result
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, err
	}
	return Markdown(&r), nil
}
