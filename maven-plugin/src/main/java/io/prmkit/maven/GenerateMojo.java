package io.prmkit.maven;

import java.io.File;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.plugins.annotations.ResolutionScope;

/**
 * Generates Panama FFM accessors from the {@code .prm} specs in {@code src/main/prm} and adds them
 * to the main sources. Regenerates only when specs, settings or the plugin changed.
 */
@Mojo(name = "generate", defaultPhase = LifecyclePhase.GENERATE_SOURCES, threadSafe = true,
        requiresDependencyResolution = ResolutionScope.NONE,
        requiresDependencyCollection = ResolutionScope.COMPILE)
public class GenerateMojo extends AbstractGenerateMojo {

    /** Directory searched for specs. A missing default directory is not an error. */
    @Parameter(defaultValue = "${project.basedir}/src/main/prm", required = true)
    File sourceDirectory;

    /** Directory the Java sources are generated into; added as a compile source root. */
    @Parameter(defaultValue = "${project.build.directory}/generated-sources/prm", required = true)
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
        return "src/main/prm";
    }

    @Override
    void addSourceRoot(String directory) {
        project.addCompileSourceRoot(directory);
    }

    @Override
    boolean testSources() {
        return false;
    }
}
