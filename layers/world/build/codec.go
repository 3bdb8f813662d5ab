package build

import (
	"bytes"
	"encoding/json"
)

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
