package io.prmkit.maven;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * The contract users see in their POMs, as Maven reads it from the generated plugin descriptor
 * (written to target/classes before tests run) and as m2e reads its lifecycle mapping.
 */
class PluginDescriptorTest {

    private static Document parse(String resource) throws Exception {
        try (InputStream in = PluginDescriptorTest.class.getClassLoader().getResourceAsStream(resource)) {
            assertNotNull(in, resource + " not on the classpath");
            return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(in);
        }
    }

    private static Element child(Element parent, String name) {
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e && e.getTagName().equals(name)) return e;
        }
        return null;
    }

    private static String text(Element parent, String name) {
        Element e = child(parent, name);
        return e == null ? null : e.getTextContent().trim();
    }

    private static Element mojo(Document d, String goal) {
        NodeList mojos = d.getElementsByTagName("mojo");
        for (int i = 0; i < mojos.getLength(); i++) {
            Element m = (Element) mojos.item(i);
            if (goal.equals(text(m, "goal"))) return m;
        }
        throw new AssertionError("no goal " + goal);
    }

    /** The {@code <configuration>} entry of a parameter: "expression|default". */
    private static String config(Element mojo, String param) {
        Element e = child(child(mojo, "configuration"), param);
        if (e == null) return null;
        return e.getTextContent().trim() + "|" + e.getAttribute("default-value");
    }

    @Test
    void goalsPhasesAndThreadSafety() throws Exception {
        Document d = parse("META-INF/maven/plugin.xml");
        assertEquals("prmkit", text(d.getDocumentElement(), "goalPrefix"));
        assertEquals("3.9.0", text(d.getDocumentElement(), "requiredMavenVersion"));
        assertEquals("17", text(d.getDocumentElement(), "requiredJavaVersion"));

        Element gen = mojo(d, "generate");
        assertEquals("generate-sources", text(gen, "phase"));
        assertEquals("true", text(gen, "threadSafe"));
        // No dependency resolution: generation needs no classpath, and sibling modules need not be built.
        assertEquals(null, text(gen, "requiresDependencyResolution"));
        // Collection only (coordinates, no files), for the prmkit-layout check.
        assertEquals("compile", text(gen, "requiresDependencyCollection"));

        Element test = mojo(d, "generate-test");
        assertEquals("generate-test-sources", text(test, "phase"));
        assertEquals("true", text(test, "threadSafe"));
        assertEquals(null, text(test, "requiresDependencyResolution"));
        assertEquals("test", text(test, "requiresDependencyCollection"));
    }

    @Test
    void docGoalWritesUnderTarget() throws Exception {
        Document d = parse("META-INF/maven/plugin.xml");
        Element doc = mojo(d, "doc");
        assertEquals("package", text(doc, "phase"));
        assertEquals("true", text(doc, "threadSafe"));
        assertEquals(null, text(doc, "requiresDependencyResolution"));
        assertEquals("${prmkit.doc.outputDirectory}|${project.build.directory}/prm-doc", config(doc, "outputDirectory"));
        assertEquals("|${project.basedir}/src/main/prm", config(doc, "sourceDirectory"));
        assertEquals("${prmkit.skip}|false", config(doc, "skip"));
    }

    @Test
    void parameterDefaultsAndUserProperties() throws Exception {
        Document d = parse("META-INF/maven/plugin.xml");
        Element gen = mojo(d, "generate");
        Element test = mojo(d, "generate-test");
        assertEquals("|${project.basedir}/src/main/prm", config(gen, "sourceDirectory"));
        assertEquals("|${project.build.directory}/generated-sources/prm", config(gen, "outputDirectory"));
        assertEquals("|${project.basedir}/src/test/prm", config(test, "sourceDirectory"));
        assertEquals("|${project.build.directory}/generated-test-sources/prm", config(test, "outputDirectory"));
        for (Element m : List.of(gen, test)) {
            assertEquals("${prmkit.skip}|false", config(m, "skip"));
            assertEquals("${prmkit.failOnWarnings}|false", config(m, "failOnWarnings"));
            assertEquals("${prmkit.packagePrefix}|", config(m, "packagePrefix"));
            assertEquals("${prmkit.checkRelease}|true", config(m, "checkRelease"));
        }
    }

    @Test
    void m2eRunsBothGoalsIncrementally() throws Exception {
        Document d = parse("META-INF/m2e/lifecycle-mapping-metadata.xml");
        NodeList goals = d.getElementsByTagName("goal");
        List<String> names = new ArrayList<>();
        for (int i = 0; i < goals.getLength(); i++) names.add(goals.item(i).getTextContent().trim());
        assertEquals(List.of("generate", "generate-test"), names);
        assertEquals("true", d.getElementsByTagName("runOnIncremental").item(0).getTextContent().trim());
        assertEquals("true", d.getElementsByTagName("runOnConfiguration").item(0).getTextContent().trim());
    }
}
