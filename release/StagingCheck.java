import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.zip.ZipFile;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * Checks a staging repository written by {@code ./mvnw -Prelease deploy} against what Maven Central
 * requires: for the parent POM and every module the root POM lists, a POM whose metadata (own or
 * inherited from the parent) has name, description, url, licences, developers and SCM; for every
 * module a jar, a sources jar and a javadoc jar (LICENSE and NOTICE in the jar, an index.html in the
 * javadoc) and a CycloneDX SBOM; an .md5 and a .sha1 beside every file that match it.
 *
 * <p>Run with the JDK's source launcher: {@code java release/StagingCheck.java ROOT STAGING VERSION}.
 * Prints one line per module and exits 1 naming every problem.
 */
public final class StagingCheck {
    private final List<String> problems = new ArrayList<>();

    public static void main(String[] args) throws Exception {
        if (args.length != 3) {
            System.err.println("usage: java StagingCheck.java ROOT STAGING VERSION");
            System.exit(2);
        }
        Path root = Path.of(args[0]);
        Path staging = Path.of(args[1]);
        String version = args[2];
        StagingCheck check = new StagingCheck();
        Element rootPom = parse(root.resolve("pom.xml"));
        String group = text(rootPom, "groupId");
        String parentId = text(rootPom, "artifactId");
        Path groupDir = staging.resolve(group.replace('.', '/'));

        Element parent = check.pom(groupDir, parentId, version, null);
        check.artifacts(groupDir, parentId, version, List.of(".pom"));
        int modules = 0;
        for (Element m : children(child(rootPom, "modules"), "module")) {
            String id = text(parse(root.resolve(m.getTextContent().trim()).resolve("pom.xml")), "artifactId");
            check.pom(groupDir, id, version, parent);
            check.artifacts(groupDir, id, version,
                    List.of(".pom", ".jar", "-sources.jar", "-javadoc.jar", "-cyclonedx.json"));
            check.jarHolds(groupDir, id, version, ".jar", "META-INF/LICENSE", "META-INF/NOTICE");
            check.jarHolds(groupDir, id, version, "-javadoc.jar", "index.html");
            modules++;
        }
        if (!check.problems.isEmpty()) {
            check.problems.forEach(p -> System.err.println("staging: " + p));
            System.err.println("staging: " + check.problems.size() + " problem(s) in " + staging);
            System.exit(1);
        }
        System.out.println("staging: " + group + ":" + parentId + " and " + modules
                + " modules: jar, sources, javadoc, SBOM, POM with licence and SCM, checksums: ok");
    }

    /** The module's POM; its metadata must be complete once what the parent gives is added. */
    private Element pom(Path groupDir, String id, String version, Element parent) throws Exception {
        Path file = groupDir.resolve(id).resolve(version).resolve(id + "-" + version + ".pom");
        if (!Files.isRegularFile(file)) {
            problems.add(id + ": no POM " + file);
            return null;
        }
        Element pom = parse(file);
        for (String path : List.of("name", "description", "url", "licenses/license/name", "licenses/license/url",
                "developers/developer/name", "scm/url", "scm/connection", "scm/developerConnection")) {
            String own = path(pom, path);
            String value = own != null ? own : parent == null ? null : path(parent, path);
            if (value == null || value.isBlank()) {
                problems.add(id + ": POM has no " + path + (parent == null ? "" : " (nor its parent)"));
            } else if (value.contains("${")) {
                problems.add(id + ": " + path + " is " + value + " (a reader of the POM may not resolve it)");
            }
        }
        if (parent != null && path(pom, "name") == null) {
            problems.add(id + ": POM has no name of its own");
        }
        return pom;
    }

    private void artifacts(Path groupDir, String id, String version, List<String> suffixes) throws Exception {
        for (String suffix : suffixes) {
            Path file = groupDir.resolve(id).resolve(version).resolve(id + "-" + version + suffix);
            if (!Files.isRegularFile(file)) {
                problems.add(id + ": missing " + file.getFileName());
                continue;
            }
            checksum(file, "MD5", ".md5");
            checksum(file, "SHA-1", ".sha1");
        }
    }

    private void checksum(Path file, String algorithm, String suffix) throws Exception {
        Path sum = file.resolveSibling(file.getFileName() + suffix);
        if (!Files.isRegularFile(sum)) {
            problems.add(file.getFileName() + ": no " + suffix);
            return;
        }
        MessageDigest md = MessageDigest.getInstance(algorithm);
        try (InputStream in = Files.newInputStream(file)) {
            in.transferTo(new java.security.DigestOutputStream(OutputStreamNull.INSTANCE, md));
        }
        String want = HexFormat.of().formatHex(md.digest());
        String got = Files.readString(sum).trim().split("\\s+")[0];
        if (!want.equalsIgnoreCase(got)) {
            problems.add(sum.getFileName() + " says " + got + ", the file's " + algorithm + " is " + want);
        }
    }

    private void jarHolds(Path groupDir, String id, String version, String suffix, String... entries) throws IOException {
        Path file = groupDir.resolve(id).resolve(version).resolve(id + "-" + version + suffix);
        if (!Files.isRegularFile(file)) {
            return; // reported by artifacts
        }
        try (ZipFile zip = new ZipFile(file.toFile())) {
            for (String e : entries) {
                if (zip.getEntry(e) == null) {
                    problems.add(file.getFileName() + ": no " + e);
                }
            }
        }
    }

    private static final class OutputStreamNull extends java.io.OutputStream {
        static final OutputStreamNull INSTANCE = new OutputStreamNull();

        @Override
        public void write(int b) {
        }

        @Override
        public void write(byte[] b, int off, int len) {
        }
    }

    private static Element parse(Path file) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        return f.newDocumentBuilder().parse(file.toFile()).getDocumentElement();
    }

    private static String path(Element e, String path) {
        Element at = e;
        for (String name : path.split("/")) {
            at = at == null ? null : child(at, name);
        }
        return at == null ? null : at.getTextContent().trim();
    }

    private static String text(Element e, String name) {
        Element c = child(e, name);
        return c == null ? null : c.getTextContent().trim();
    }

    private static Element child(Element e, String name) {
        List<Element> all = children(e, name);
        return all.isEmpty() ? null : all.get(0);
    }

    private static List<Element> children(Element e, String name) {
        List<Element> out = new ArrayList<>();
        for (Node n = e.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element c && c.getTagName().equals(name)) {
                out.add(c);
            }
        }
        return out;
    }
}
