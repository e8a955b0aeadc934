package io.prmkit.maven;

import java.io.File;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.plugins.annotations.ResolutionScope;

/**
 * Generates Panama FFM accessors from the {@code .prm} specs in {@code src/test/prm} and adds them
 * to the test sources (for layouts only tests need, e.g. fixtures of a protocol analyser).
 */
@Mojo(name = "generate-test", defaultPhase = LifecyclePhase.GENERATE_TEST_SOURCES, threadSafe = true,
        requiresDependencyResolution = ResolutionScope.NONE,
        requiresDependencyCollection = ResolutionScope.TEST)
public class GenerateTestMojo extends AbstractGenerateMojo {

    /** Directory searched for test specs. A missing default directory is not an error. */
    @Parameter(defaultValue = "${project.basedir}/src/test/prm", required = true)
    File sourceDirectory;

    /** Directory the Java sources are generated into; added as a test compile source root. */
    @Parameter(defaultValue = "${project.build.directory}/generated-test-sources/prm", required = true)
    File outputDirectory;

    @Override
    File sourceDirectory() {
        return sourceDirectory;
    }

    @Override
    File outputDirectory() {
        return outputDirectory;
    }

    @Override
    String defaultSourceDirectory() {
        return "src/test/prm";
    }

    @Override
    void addSourceRoot(String directory) {
        project.addTestCompileSourceRoot(directory);
    }

    @Override
    boolean testSources() {
        return true;
    }
}
