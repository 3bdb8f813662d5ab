package build

import (
	"encoding/json"
	"testing"
	"testing/fstest"

	"github.com/git-speed/git-speed/internal/gittest"
	"github.com/git-speed/git-speed/layers/feature"
	"github.com/git-speed/git-speed/layers/world/align"
)

// The alignment from the defs artifact is the one over every file's whole
// links; AlignmentUnkept stores nothing until its keep is called, and the
// alignment kept is read back as it was computed.
func TestAlignmentUnkept(t *testing.T) {
	r := gittest.New(t)
	r.Write("pkg/kubelet/kubelet.go", "package kubelet\n\ntype Kubelet struct{}\n\nfunc (k *Kubelet) SyncPods() {}\n\nfunc syncLoop() {}\n")
	r.Write("pkg/kubelet/pod_workers.go", "package kubelet\n\nfunc podWorkers() {}\n\nfunc UpdatePod() {}\n")
	r.Write("pkg/proxy/proxier.go", "package proxy\n\nfunc Proxier() {}\n")
	r.Write("cmd/main.go", "package main\n\nfunc main() {}\n")
	r.Commit("kubelet")
	repo, cfg, res := indexHead(t, r.Dir)
	files := fstest.MapFS{
		".speed/features/k/spec.md":      {Data: []byte("# K\n\n## Requirements\n\n- REQ-1: the kubelet syncs pods in `syncLoop`.\n- REQ-2: UpdatePod is called by pod_workers.go.\n")},
		".speed/features/k/tasks/1.toml": {Data: []byte("id = \"1\"\ntitle = \"Sync\"\nfiles_touched = [\"pkg/kubelet/kubelet.go\"]\nrequirements = [\"REQ-1\"]\n")},
	}
	f, _, err := feature.LoadFeature(files, "k", feature.Options{})
	if err != nil {
		t.Fatal(err)
	}
	w, err := Open(repo, res.Tree, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	a, keep, err := w.AlignmentUnkept(f)
	if err != nil || keep == nil {
		t.Fatalf("computed alignment: keep %v, %v", keep != nil, err)
	}
	full, err := Load(repo, res.Tree, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer full.Close()
	if err := full.LoadLinks(); err != nil {
		t.Fatal(err)
	}
	want := align.Align(full.Graph(), full.Facts, f)
	got, _ := json.Marshal(a)
	wantJSON, _ := json.Marshal(want)
	if string(got) != string(wantJSON) {
		t.Errorf("alignment from the defs:\n%s\nover the whole links:\n%s", got, wantJSON)
	}
	if a.Counts.Aligned == 0 {
		t.Errorf("nothing aligned: %s", got)
	}
	// Not kept yet: computed again.
	if _, keep2, err := w.AlignmentUnkept(f); err != nil || keep2 == nil {
		t.Fatalf("before keep: keep %v, %v", keep2 != nil, err)
	}
	var warns []string
	keep(func(msg string) { warns = append(warns, msg) })
	if len(warns) != 0 {
		t.Fatalf("keep: %v", warns)
	}
	again, keep3, err := w.AlignmentUnkept(f)
	if err != nil || keep3 != nil {
		t.Fatalf("after keep: keep %v, %v", keep3 != nil, err)
	}
	if b, _ := json.Marshal(again); string(b) != string(got) {
		t.Errorf("stored alignment:\n%s\nwant\n%s", b, got)
	}
}
