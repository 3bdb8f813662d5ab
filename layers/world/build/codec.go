package build

import (
	"bytes"
	"encoding/json"

	"github.com/git-speed/git-speed/layers/world"
)

// Facts are stored as JSON: readable with `git cat-file -p`, and git's
// zlib takes most of the repetition out.
func encodeFacts(f *world.Facts) ([]byte, error) { return json.Marshal(f) }

func decodeFacts(b []byte) (*world.Facts, error) {
	var f world.Facts
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, err
	}
	return &f, nil
}

func jsonMarshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }
