// JavaRefs prints the file-level reference graph of a checkout's Java
// files as javac binds the names: an edge A -> B when a name in A
// (an identifier, a member selection, a method reference, a constructor
// call, an import) resolves to a declaration in B. It is the Java oracle
// of bench/langs-quality.sh, in the shape of ../shared/oracles (nodes,
// edges with refs and name@line examples), so score.py scores
// `git speed graph --json` against it.
//
//   java bench/oracle-java/JavaRefs.java --dir CHECKOUT [--examples N] > oracle.json
//
// Every tracked .java file outside build output is one compilation: the
// compiler attributes what it can and keeps going past the errors of
// dependencies that are not on the class path (their names bind
// nowhere, as they bind nowhere in the tree). A type declared in several
// files (the same class in two modules, which a build compiles apart)
// binds to the declaration nearest the file using it (the longest common
// folder), as each module's own compilation would; "duplicates" counts
// such files.
import com.sun.source.tree.*;
import com.sun.source.util.*;
import java.io.*;
import java.nio.file.*;
import java.util.*;
import javax.lang.model.element.*;
import javax.tools.*;

public class JavaRefs {
    public static void main(String[] args) throws Exception {
        String dir = ".";
        int examples = 0;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--dir")) dir = args[++i];
            else if (args[i].equals("--examples")) examples = Integer.parseInt(args[++i]);
        }
        Path root = Paths.get(dir).toAbsolutePath().normalize();
        List<String> rels = new ArrayList<>();
        Process p = new ProcessBuilder("git", "-C", root.toString(), "ls-files", "-z", "--", "*.java").start();
        String out = new String(p.getInputStream().readAllBytes(), "UTF-8");
        p.waitFor();
        for (String s : out.split("\0")) {
            if (s.isEmpty() || skipped(s) || !Files.isRegularFile(root.resolve(s))) continue;
            rels.add(s);
        }
        Collections.sort(rels);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diags = new DiagnosticCollector<>();
        StandardJavaFileManager fm = javac.getStandardFileManager(diags, null, null);
        List<File> files = new ArrayList<>();
        for (String r : rels) files.add(root.resolve(r).toFile());
        List<String> opts = List.of("-proc:none", "-implicit:none", "-nowarn", "-Xlint:none", "-Xmaxerrs", "100000",
                "-XDshould-stop.ifError=FLOW", "-XDshould-stop.ifNoError=FLOW", "--release", "17");
        JavacTask task = (JavacTask) javac.getTask(null, fm, diags, opts, null, fm.getJavaFileObjectsFromFiles(files));
        List<CompilationUnitTree> units = new ArrayList<>();
        for (CompilationUnitTree u : task.parse()) units.add(u);
        task.analyze();
        Trees trees = Trees.instance(task);

        Map<String, String> fileOfUri = new HashMap<>();
        for (String r : rels) fileOfUri.put(root.resolve(r).toUri().normalize().toString(), r);
        // Top-level types (by qualified name) → the files declaring them.
        Map<String, List<String>> topFiles = new HashMap<>();
        Set<String> nodes = new TreeSet<>();
        for (CompilationUnitTree u : units) {
            String rel = fileOfUri.get(u.getSourceFile().toUri().normalize().toString());
            if (rel == null) continue;
            nodes.add(rel);
            String pkg = u.getPackageName() == null ? "" : u.getPackageName().toString() + ".";
            for (Tree t : u.getTypeDecls()) {
                if (t instanceof ClassTree c) {
                    List<String> l = topFiles.computeIfAbsent(pkg + c.getSimpleName(), k -> new ArrayList<>());
                    if (!l.contains(rel)) l.add(rel);
                }
            }
        }
        int dups = 0;
        for (List<String> l : topFiles.values()) if (l.size() > 1) dups += l.size();
        Map<String, Map<String, int[]>> edges = new TreeMap<>();
        Map<String, Map<String, List<String>>> ex = new HashMap<>();
        for (CompilationUnitTree u : units) {
            String from = fileOfUri.get(u.getSourceFile().toUri().normalize().toString());
            if (from == null || !nodes.contains(from)) continue;
            LineMap lines = u.getLineMap();
            final int maxEx = examples;
            new TreePathScanner<Void, Void>() {
                void use(Tree t, String name) {
                    if (trees.getSourcePositions().getStartPosition(u, t) < 0) return; // made by the compiler (an inferred type), not a name in the file
                    Element e = trees.getElement(getCurrentPath());
                    String to = fileOf(e);
                    if (to == null || to.equals(from) || !nodes.contains(to)) return;
                    edges.computeIfAbsent(from, k -> new TreeMap<>()).computeIfAbsent(to, k -> new int[1])[0]++;
                    if (maxEx > 0) {
                        List<String> l = ex.computeIfAbsent(from, k -> new HashMap<>()).computeIfAbsent(to, k -> new ArrayList<>());
                        if (l.size() < maxEx) {
                            long pos = trees.getSourcePositions().getStartPosition(u, t);
                            l.add(name + "@" + lines.getLineNumber(pos));
                        }
                    }
                }

                String fileOf(Element e) {
                    if (e == null) return null;
                    Element top = null;
                    for (Element x = e; x != null && x.getKind() != ElementKind.PACKAGE && x.getKind() != ElementKind.MODULE; x = x.getEnclosingElement()) {
                        top = x;
                    }
                    if (!(top instanceof TypeElement te)) return null;
                    List<String> l = topFiles.get(te.getQualifiedName().toString());
                    if (l == null) return null;
                    String best = null;
                    int bestLen = -1;
                    for (String f : l) {
                        int n = shared(f, from);
                        if (n > bestLen) { best = f; bestLen = n; }
                    }
                    return best;
                }

                @Override public Void visitIdentifier(IdentifierTree t, Void v) {
                    use(t, t.getName().toString());
                    return super.visitIdentifier(t, v);
                }

                @Override public Void visitMemberSelect(MemberSelectTree t, Void v) {
                    use(t, t.getIdentifier().toString());
                    return super.visitMemberSelect(t, v);
                }

                @Override public Void visitMemberReference(MemberReferenceTree t, Void v) {
                    use(t, t.getName().toString());
                    return super.visitMemberReference(t, v);
                }

                @Override public Void visitNewClass(NewClassTree t, Void v) {
                    use(t, "new");
                    return super.visitNewClass(t, v);
                }
            }.scan(u, null);
        }
        StringBuilder b = new StringBuilder();
        b.append("{\"root\":").append(q(root.toString())).append(",\"duplicates\":").append(dups).append(",\"nodes\":[");
        String sep = "";
        for (String n : nodes) { b.append(sep).append(q(n)); sep = ","; }
        b.append("],\"edges\":[");
        sep = "";
        for (var fe : edges.entrySet()) {
            for (var te : fe.getValue().entrySet()) {
                b.append(sep).append("{\"from\":").append(q(fe.getKey())).append(",\"to\":").append(q(te.getKey()))
                        .append(",\"refs\":").append(te.getValue()[0]);
                List<String> l = ex.getOrDefault(fe.getKey(), Map.of()).get(te.getKey());
                if (l != null) {
                    b.append(",\"examples\":[");
                    String s2 = "";
                    for (String x : l) { b.append(s2).append(q(x)); s2 = ","; }
                    b.append("]");
                }
                b.append("}");
                sep = ",";
            }
        }
        b.append("]}\n");
        System.out.print(b);
    }

    // shared is the length of the folders a and b have in common.
    static int shared(String a, String b) {
        int n = 0;
        for (int i = 0; i < a.length() && i < b.length() && a.charAt(i) == b.charAt(i); i++) {
            if (a.charAt(i) == '/') n = i + 1;
        }
        return n;
    }

    static boolean skipped(String p) {
        for (String part : p.split("/")) {
            switch (part) {
                case "build": case "target": case "out": case "vendor": case "node_modules": case "generated":
                    return true;
            }
        }
        return false;
    }

    static String q(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') b.append('\\').append(c);
            else if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
            else b.append(c);
        }
        return b.append('"').toString();
    }
}
