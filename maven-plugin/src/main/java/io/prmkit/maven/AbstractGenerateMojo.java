package io.prmkit.maven;

import io.prmkit.pipeline.Inputs;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecution;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugin.descriptor.PluginDescriptor;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.project.MavenProject;

/**
 * What {@code generate} and {@code generate-test} share. The mojo only gathers parameters, calls
 * {@link GenerationTask} and registers the output as a source root; it holds no state of its own
 * between executions, so it is safe in parallel builds.
 */
abstract class AbstractGenerateMojo extends AbstractMojo {

    @Parameter(defaultValue = "${project}", readonly = true, required = true)
    MavenProject project;

    @Parameter(defaultValue = "${plugin}", readonly = true, required = true)
    PluginDescriptor plugin;

    @Parameter(defaultValue = "${mojoExecution}", readonly = true, required = true)
    MojoExecution mojoExecution;

    /** Ant-style patterns, relative to the source directory, of the specs to compile. Default: <code>**&#47;*.prm</code>. */
    @Parameter
    List<String> includes;

    /** Ant-style patterns, relative to the source directory, of files to leave out. */
    @Parameter
    List<String> excludes;

    /**
     * Prefix for the Java packages of generated classes: a struct in spec package {@code mlx5} is
     * generated into {@code <packagePrefix>.mlx5}. Empty: the spec package itself.
     */
    @Parameter(property = "prmkit.packagePrefix", defaultValue = "")
    String packagePrefix;

    /**
     * C headers in the Linux mlx5_ifc style (e.g. the kernel's {@code include/linux/mlx5/mlx5_ifc.h})
     * to import into spec package {@code mlx5} and generate together with the specs. A header's
     * {@code #include "x.h"} of a file next to it is imported too. Relative paths are relative to
     * the project.
     */
    @Parameter
    List<File> headers;

    /** Skip generation (and do not add the output directory as a source root). */
    @Parameter(property = "prmkit.skip", defaultValue = "false")
    boolean skip;

    /** Fail the build when the specs have warnings, as when they have errors. */
    @Parameter(property = "prmkit.failOnWarnings", defaultValue = "false")
    boolean failOnWarnings;

    abstract File sourceDirectory();

    abstract File outputDirectory();

    /** The goal's default source directory, relative to the project's base directory. */
    abstract String defaultSourceDirectory();

    abstract void addSourceRoot(String directory);

    @Override
    public void execute() throws MojoExecutionException, MojoFailureException {
        String goal = mojoExecution.getGoal();
        if (skip) {
            getLog().info("Skipping prmkit:" + goal + " (prmkit.skip is true)");
            return;
        }
        Path basedir = project.getBasedir().toPath();
        Path sourceDir = sourceDirectory().toPath().toAbsolutePath().normalize();
        Path outputDir = outputDirectory().toPath().toAbsolutePath().normalize();
        Path stateFile = Path.of(project.getBuild().getDirectory(), "prmkit-maven-plugin",
                goal + "-" + mojoExecution.getExecutionId(), "state.txt");
        boolean explicitSource = !sourceDir.equals(basedir.resolve(defaultSourceDirectory()).toAbsolutePath().normalize());

        try {
            GenerationTask.Request request = new GenerationTask.Request(basedir, sourceDir, outputDir, stateFile,
                    includes, excludes, packagePrefix, failOnWarnings, explicitSource, PluginFingerprint.of(plugin),
                    headers == null ? List.of() : headers.stream().map(f -> f.toPath().toAbsolutePath().normalize()).toList());
            new GenerationTask(new PrmkitPipeline(), new MavenReporter(getLog())).run(request);
        } catch (GenerationException e) {
            throw new MojoFailureException(e.getMessage());
        } catch (IOException e) {
            // In words, without Java exception names: "target/x/Y.java: No space left on device".
            throw new MojoExecutionException("prmkit:" + goal + " failed: " + Inputs.describe(e, outputDir), e);
        } catch (RuntimeException | LinkageError e) {
            // A bug in prmkit (or a broken plugin jar), not in the user's specs: keep the stack trace.
            throw new MojoExecutionException("prmkit:" + goal + " hit an internal error: " + e, e);
        }

        // Also on the up-to-date path: the compiler must see the sources every build.
        if (Files.isDirectory(outputDir)) {
            addSourceRoot(outputDir.toString());
            getLog().debug("Added source root " + outputDir);
        }
    }
}
