// Package scope is git-speed's Layer 2: for one task of one feature it
// narrows the Layer 1 world model of a tree into a context package sized for
// one stage's token budget, in the five steps of the SPEED pipeline:
//
//  1. symbol resolution: the task's files (files_touched, and by role
//     files.create, files.modify, files.read) and their definitions;
//  2. graph walk: breadth-first over the file-level reference graph in both
//     directions (callees and callers). Distance 0 is delivered in full and
//     never cut; 1 hop in full (as a skeleton when longer than
//     scope.full_line_limit lines); 2 hops as skeletons; 3 hops dropped
//     (listed in the manifest with the reason). Five signals make
//     candidates, and the manifest lists per file which did (signals):
//     graph, the edges above; tests, test files of touched files at 1 hop
//     (beside them by the usual naming rules, the nearest same-language
//     test named after them elsewhere in the tree, tests in a test folder
//     named after them or whose dotted name starts with theirs, conftest.py
//     up the tree of those tests, a Rust crate's tests/util.rs and
//     tests/common/mod.rs, Java tests under src/test mirroring src/main,
//     tsd's index.test-d.ts for index.d.ts);
//     names, files whose path, basename or a definition the task's title,
//     description, acceptance or the decisions of it and its upstream tasks
//     name, at 1 hop; cochange, files that changed in the same commits as a
//     touched file in the 500 first-parent commits up to the base
//     (layers/world/cochange: decayed by age, damped for large commits),
//     at 1 hop, as skeletons when co-change alone brought them; place,
//     for a file the task creates (files.create) that is not in the tree,
//     the place it will live in (create.go), at 1 hop;
//  3. decision collection: decisions of the done tasks the task depends on,
//     transitively, nearest first;
//  4. spec narrowing: requirements the task cites and alignment claims
//     touching its files, with keyword paragraph scoring for design text (and
//     for requirements when neither applies);
//  5. budget balancing across code_context, task_context, spec_context and
//     the reserve, with unused task and spec shares flowing to code when
//     scope.flow_unused is set.
//
// Budget balancing follows the seed's cut rules: distance 0 is never cut;
// 2-hop files go first, least relevant first; large 1-hop files are
// downgraded to skeletons; the most distant skeletons are truncated last,
// leaving a pointer (path and line range) the agent can read back. It is
// computed as the reverse of those cuts — a fill that takes what the cuts
// would keep — so that exact token counts are paid only for what may be
// kept. The fill goes: distance 0; the test files of the task's files (up
// to half of what is left each); with the value policy, the two most
// relevant other files of each distance (a skeleton within a quarter of
// what is left, else the head of it within a tenth, grown when room is
// left at the end); a skeleton of every 1-hop file, most relevant per
// token first; their full text; truncated skeletons of the 1-hop files
// that did not fit; 2-hop skeletons; and, when budget is still left, the
// full text of 2-hop files ("extras", Options.NoExtras turns them off).
// Relevance is edge weight to the task's files (callees and callers
// alike, weak edges of the graph at half weight, files in a task file's
// folder twice as much as others, hubs are damped with each hop, an
// optional rank vector scales it). Every
// difference between the planned tier and the delivered tier is a cut in
// budget.json with its reason. See Options.Policy for the alternative
// order, and package eval for how the choices were measured.
//
// Measured (git speed eval, 32k tokens, 16 repositories, 1,041 truth
// files; recall / score, see Options.Policy for the policy comparison;
// v5 is scope version 5 with its default policy, seed, on the same graph):
//
//	language     truth  v5 (seed policy)  v6 (value)     v6 without: graph  tests  cochange
//	Go              97  0.835 / 0.686     0.866 / 0.639  0.351  0.876  0.866
//	Python         185  0.616 / 0.470     0.616 / 0.419  0.341  0.654  0.627
//	TypeScript     279  0.871 / 0.754     0.932 / 0.738  0.376  0.932  0.935
//	CommonJS       193  0.373 / 0.360     0.570 / 0.500  0.389  0.523  0.451
//	Rust           128  0.828 / 0.764     0.938 / 0.801  0.336  0.891  0.906
//	Java           155  0.781 / 0.524     0.800 / 0.526  0.445  0.819  0.794
//	all           1041  0.710 / 0.590     0.782 / 0.603  0.375  0.778  0.758
//
// (JavaScript seeds of the CommonJS repositories; 4 further truth files of
// ES-module JavaScript are in "all".) The graph alone, with the v6 fill,
// reaches 0.738. Co-change carries CommonJS, Rust and Go; the test signal
// carries CommonJS (koa's __tests__/response/*.test.js) and Rust
// (tests/util.rs) and, on Python and Java, trades recall for score: it
// gives the tests of the task's file in full (click: 11 truth files from
// skeleton to full, 2 dropped). The names signal needs task text: with
// commit messages as the tasks' text it is measured in package eval.
//
// Scope reads only the World interface (Layer 1 data at one tree) and the
// feature's files; it imports neither gitstore nor extract. Result.Write
// stores manifest.json, budget.json and material.json, byte-identical for
// the same inputs.
package scope
